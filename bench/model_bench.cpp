// SPDX-License-Identifier: Apache-2.0
// Learning and sampling speed of the Bayesian-network models (engine/model): PrivBayes
// (structure + conditionals), the independent mode and ancestral sampling, on encoded tables
// of Adult's shape (15 attributes with Adult's cardinalities). No CSV is read, so the figures
// isolate the model code. Two kinds of table:
//   * "fresh" (range 2 = 0): every row sampled from a fixed planted network with skewed
//     conditionals: nearly all rows distinct, the worst case for the structure learner;
//   * "resampled" (range 2 = 1): 48,842 rows sampled from the network, then n rows drawn from
//     them with replacement, the way ../shared/data/make_scale.py builds the 1.5M-row scale
//     file from Adult (its light numeric noise left out: the real scale file has 77,977
//     distinct encoded rows, this one at most 48,842).
//
//   cmake --build build -j2 --target model_bench && ./build/bench/model_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <utility>

#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"

namespace deniable {
namespace {

const std::vector<std::uint32_t> kAdultCardinalities = {20, 9,  20, 16, 16, 7,  15, 6,
                                                        5,  2,  20, 20, 20, 42, 2};

// Node i has up to two random earlier parents; each configuration's distribution is skewed
// (weights u^4), like real categorical data.
BayesNet PlantedNetwork() {
  SeededRng rng(2024);
  BayesNet net;
  for (std::size_t a = 0; a < kAdultCardinalities.size(); ++a) {
    BayesNode node;
    node.attribute = static_cast<int>(a);
    node.cardinality = kAdultCardinalities[a];
    std::size_t configurations = 1;
    for (int p = 0; p < 2 && a > 0; ++p) {
      const int parent = static_cast<int>(UniformBelow(rng, a));
      if (std::find(node.parents.begin(), node.parents.end(), parent) != node.parents.end()) {
        continue;
      }
      node.parents.push_back(parent);
      node.parent_buckets.emplace_back();
      node.parent_bucket_counts.push_back(kAdultCardinalities[static_cast<std::size_t>(parent)]);
      configurations *= kAdultCardinalities[static_cast<std::size_t>(parent)];
    }
    for (std::size_t c = 0; c < configurations; ++c) {
      std::vector<double> w(node.cardinality);
      double total = 0;
      for (double& x : w) {
        const double u = UniformUnit(rng);
        total += (x = u * u * u * u);
      }
      for (double x : w) node.probabilities.push_back(x / total);
    }
    net.nodes.push_back(std::move(node));
  }
  return net;
}

const EncodedTable& Data(std::size_t rows, bool resampled) {
  static std::map<std::pair<std::size_t, bool>, EncodedTable> cache;
  auto it = cache.find({rows, resampled});
  if (it != cache.end()) return it->second;
  SeededRng rng(rows);
  NullProgress progress;
  EncodedTable table = SampleNetwork(PlantedNetwork(), kAdultCardinalities,
                                     resampled ? 48'842 : rows, rng, progress, 2)
                           .value();
  if (resampled) {
    std::vector<std::uint32_t> picks(rows);
    for (std::uint32_t& p : picks) p = static_cast<std::uint32_t>(UniformBelow(rng, table.rows));
    table = SelectRows(table, picks);
  }
  return cache.emplace(std::make_pair(rows, resampled), std::move(table)).first->second;
}

void BM_LearnPrivBayes(benchmark::State& state) {
  const EncodedTable& data = Data(static_cast<std::size_t>(state.range(0)), state.range(2) != 0);
  PrivBayesOptions options;
  options.degree = static_cast<int>(state.range(1));
  options.epsilon = 1.0;
  NullProgress progress;
  for (auto _ : state) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    SeededRng rng(7);
    benchmark::DoNotOptimize(LearnPrivBayes(data, options, accountant, "all", rng, progress));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LearnPrivBayes)
    ->ArgsProduct({{48'842, 1'500'000}, {2, 3}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// DataSynthesizer's greedy_bayes: every parent set of size k, no θ limit, 1 or 2 threads.
void BM_LearnStructureUnlimited(benchmark::State& state) {
  const EncodedTable& data = Data(static_cast<std::size_t>(state.range(0)), state.range(2) != 0);
  StructureOptions options;
  options.degree = 2;
  options.epsilon = 0.3;
  options.threads = static_cast<unsigned>(state.range(1));
  NullProgress progress;
  for (auto _ : state) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    SeededRng rng(7);
    benchmark::DoNotOptimize(
        LearnPrivBayesStructure(data, options, accountant, "all", rng, progress));
  }
}
BENCHMARK(BM_LearnStructureUnlimited)
    ->ArgsProduct({{48'842, 1'500'000}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

void BM_LearnIndependent(benchmark::State& state) {
  const EncodedTable& data = Data(static_cast<std::size_t>(state.range(0)), false);
  NullProgress progress;
  for (auto _ : state) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    SeededRng rng(7);
    benchmark::DoNotOptimize(
        LearnIndependent(data, {.epsilon = 1.0}, accountant, "all", rng, progress));
  }
}
BENCHMARK(BM_LearnIndependent)->Arg(48'842)->Arg(1'500'000)->Unit(benchmark::kMillisecond);

// Sampling rows x 15 attributes from the planted network; range(1) threads; range(2) = 1 for
// SecureRng (the release generator), 0 for SeededRng.
void BM_SampleNetwork(benchmark::State& state) {
  const BayesNet net = PlantedNetwork();
  const auto rows = static_cast<std::size_t>(state.range(0));
  NullProgress progress;
  SecureRng secure;
  SeededRng seeded(3);
  Rng& rng = state.range(2) ? static_cast<Rng&>(secure) : static_cast<Rng&>(seeded);
  for (auto _ : state) {
    benchmark::DoNotOptimize(SampleNetwork(net, kAdultCardinalities, rows, rng, progress,
                                           static_cast<unsigned>(state.range(1))));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SampleNetwork)
    ->ArgsProduct({{48'842, 1'500'000}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
