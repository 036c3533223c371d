// SPDX-License-Identifier: Apache-2.0
// Small random models and tables for the plausible-deniability tests.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/deniable/privacy_test.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable::test_support {

// A network over attributes 0..m-1 in the order `order`, where node i has the parents
// `parents[i]` (attribute indices earlier in `order`), identity buckets, and random tables in
// which each value gets weight u^3 (u uniform), so that some values are rare; a value's
// probability is exactly 0 with probability `zero_share`.
inline BayesNet RandomNetwork(const std::vector<std::uint32_t>& cardinalities,
                              const std::vector<int>& order,
                              const std::vector<std::vector<int>>& parents, Rng& rng,
                              double zero_share = 0.0) {
  BayesNet network;
  for (std::size_t i = 0; i < order.size(); ++i) {
    BayesNode node;
    node.attribute = order[i];
    node.cardinality = cardinalities[static_cast<std::size_t>(order[i])];
    node.parents = parents[i];
    std::size_t configurations = 1;
    for (int p : node.parents) {
      node.parent_buckets.emplace_back();
      node.parent_bucket_counts.push_back(cardinalities[static_cast<std::size_t>(p)]);
      configurations *= cardinalities[static_cast<std::size_t>(p)];
    }
    node.probabilities.resize(configurations * node.cardinality);
    for (std::size_t c = 0; c < configurations; ++c) {
      double total = 0;
      double* p = node.probabilities.data() + c * node.cardinality;
      for (std::uint32_t v = 0; v < node.cardinality; ++v) {
        const double u = UniformUnit(rng);
        p[v] = UniformUnit(rng) < zero_share ? 0.0 : 0.01 + u * u * u;
        total += p[v];
      }
      if (total == 0) {
        p[0] = 1;
        total = 1;
      }
      for (std::uint32_t v = 0; v < node.cardinality; ++v) p[v] /= total;
    }
    network.nodes.push_back(std::move(node));
  }
  return network;
}

// Rows drawn from `network` by ancestral sampling (a plain reference sampler, not SeedModel).
inline EncodedTable SampleTable(const BayesNet& network,
                                const std::vector<std::uint32_t>& cardinalities, std::size_t rows,
                                Rng& rng) {
  EncodedTable table;
  table.rows = rows;
  table.cardinalities = cardinalities;
  table.columns.assign(cardinalities.size(), std::vector<Code>(rows));
  for (std::size_t r = 0; r < rows; ++r) {
    for (const BayesNode& node : network.nodes) {
      std::size_t configuration = 0;
      for (std::size_t j = 0; j < node.parents.size(); ++j) {
        configuration =
            configuration * node.parent_bucket_counts[j] +
            node.BucketOf(j, table.columns[static_cast<std::size_t>(node.parents[j])][r]);
      }
      const double* p = node.probabilities.data() + configuration * node.cardinality;
      double u = UniformUnit(rng);
      std::uint32_t v = 0;
      while (v + 1 < node.cardinality && u >= p[v]) u -= p[v++];
      table.columns[static_cast<std::size_t>(node.attribute)][r] = static_cast<Code>(v);
    }
  }
  return table;
}

// The codes of row `row` of `table` in the position order `order`.
inline std::vector<Code> RowInOrder(const EncodedTable& table, const std::vector<int>& order,
                                    std::size_t row) {
  std::vector<Code> codes(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    codes[i] = table.columns[static_cast<std::size_t>(order[i])][row];
  }
  return codes;
}

// RunDeniable, except that `test` (when not null) decides instead of the test `options` claim:
// a disabled or weakened test for the audit's tests (#12 item 6). Unlimited budget.
inline Result<DeniableRun> RunDeniableWithTest(const EncodedTable& data,
                                               const DeniableOptions& options,
                                               std::vector<std::vector<std::uint32_t>> buckets,
                                               const PrivacyTest* test, std::uint64_t seed) {
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
  SeededRng rng(seed);
  NullProgress progress;
  auto split = SplitRows(data.rows, options, accountant, rng);
  if (!split) return split.error();
  auto model =
      LearnDeniableModel(data, *split, options, std::move(buckets), accountant, rng, progress);
  if (!model) return model.error();
  auto release = internal::SynthesizeDeniableWithTest(data, *split, *model, options, accountant,
                                                      rng, progress, test);
  if (!release) return release.error();
  return DeniableRun{std::move(*split), std::move(*model), std::move(*release)};
}

}  // namespace deniable::test_support
