// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/parameter_learning.h"

#include <algorithm>
#include <cmath>

#include "engine/deniable/dirichlet.h"
#include "engine/deniable/guarantees.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/model/privbayes.h"

namespace deniable {

Result<BayesNet> LearnDirichletParameters(
    const EncodedTable& data, std::vector<BayesNode> structure, const ParameterOptions& options,
    PrivacyAccountant& accountant, const std::string& partition, Rng& rng, Progress& progress) {
  const std::size_t m = structure.size();
  if (m == 0) return FailedPrecondition("parameter learning needs at least one attribute");
  if (!(std::isfinite(options.dirichlet_alpha) && options.dirichlet_alpha > 0)) {
    return InvalidArgument("dirichlet_alpha must be finite and positive (got " +
                           std::to_string(options.dirichlet_alpha) + ")");
  }
  for (std::size_t i = 0; i < m; ++i) {
    BayesNode& node = structure[i];
    if (node.attribute < 0 || static_cast<std::size_t>(node.attribute) >= data.num_attributes()) {
      return InvalidArgument("structure node " + std::to_string(i) + " names attribute " +
                             std::to_string(node.attribute) + ", not in the table");
    }
    node.cardinality = data.cardinalities[static_cast<std::size_t>(node.attribute)];
  }
  // ε per table: the better of (a) one batch of m equal shares composed by the accountant
  // (advanced composition can give each table more than ε/m for large m) and (b) shares
  // proportional to sqrt(cells), composed sequentially (minimises the total L1 noise,
  // PrivBayes §4.4) — (b) whenever (a) gives no more than ε/m.
  std::vector<double> table_cells(m);
  double root_sum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    double cells = structure[i].cardinality;
    for (std::uint32_t buckets : structure[i].parent_bucket_counts) cells *= buckets;
    table_cells[i] = cells;
    root_sum += std::sqrt(cells);
  }
  LedgerEntry batch;
  batch.label = "noisy conditional counts of all " + std::to_string(m) + " attributes";
  batch.mechanism = "discrete Laplace, clamped at 0, Dirichlet posterior sample";
  batch.partition = partition;
  batch.reference = "PD paper eq. (11)-(14), §3.5";
  batch.sensitivity = 1;
  batch.count = m;
  const double batch_each = LargestEpsilonEach(accountant, batch, options.epsilon);
  const bool use_batch = batch_each * static_cast<double>(m) > options.epsilon;
  std::vector<GeometricMechanism> mechanisms;
  for (std::size_t i = 0; i < m; ++i) {
    const double share =
        use_batch ? batch_each
                  : ShareOf(options.epsilon, std::sqrt(table_cells[i]) / root_sum * (1 - 1e-12));
    auto geometric = GeometricMechanism::Create(share, 1);
    if (!geometric) return geometric.error().WithContext("conditional counts");
    mechanisms.push_back(*geometric);
  }
  if (use_batch) {
    batch.epsilon_each = mechanisms[0].PrivacyLoss();
    if (Status s = accountant.Spend(batch); !s) return s.error();
  } else {
    for (std::size_t i = 0; i < m; ++i) {
      LedgerEntry entry;
      entry.label = "noisy conditional counts of " +
                    internal::AttributeLabel(structure[i].attribute, options.names) +
                    (structure[i].parents.empty() ? "" : " given its parents") + " (" +
                    std::to_string(static_cast<std::uint64_t>(table_cells[i])) + " cells)";
      entry.mechanism = "discrete Laplace, clamped at 0, Dirichlet posterior sample";
      entry.partition = partition;
      entry.reference = "PD paper eq. (11)-(14); ε ∝ sqrt(cells) (PrivBayes §4.4)";
      entry.sensitivity = 1;
      entry.epsilon_each = mechanisms[i].PrivacyLoss();
      if (Status s = accountant.Spend(entry); !s) return s.error();
    }
  }

  BayesNet network;
  std::vector<std::int64_t> counts;
  std::vector<double> alpha;
  for (std::size_t i = 0; i < m; ++i) {
    if (progress.IsCancelled()) return Cancelled("parameter learning cancelled");
    progress.Report(static_cast<double>(i) / static_cast<double>(m), "Learning parameters");
    BayesNode node = std::move(structure[i]);
    std::size_t configurations = 1;
    for (std::uint32_t buckets : node.parent_bucket_counts) configurations *= buckets;
    const std::size_t k = node.cardinality;
    counts.assign(configurations * k, 0);
    const std::vector<Code>& column = data.columns[static_cast<std::size_t>(node.attribute)];
    for (std::size_t r = 0; r < data.rows; ++r) {
      std::size_t c = 0;
      for (std::size_t j = 0; j < node.parents.size(); ++j) {
        const Code code = data.columns[static_cast<std::size_t>(node.parents[j])][r];
        c = c * node.parent_bucket_counts[j] + node.BucketOf(j, code);
      }
      ++counts[c * k + column[r]];
    }
    node.probabilities.assign(configurations * k, 0.0);
    alpha.resize(k);
    for (std::size_t c = 0; c < configurations; ++c) {
      for (std::size_t v = 0; v < k; ++v) {
        const std::int64_t noisy =
            std::max<std::int64_t>(0, mechanisms[i].AddNoise(counts[c * k + v], rng));
        alpha[v] = options.dirichlet_alpha + static_cast<double>(noisy);
      }
      SampleDirichlet(alpha, std::span<double>(node.probabilities.data() + c * k, k), rng);
    }
    network.nodes.push_back(std::move(node));
  }
  progress.Report(1.0, "Learning parameters");
  return network;
}

}  // namespace deniable
