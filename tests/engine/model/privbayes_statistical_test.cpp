// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"

namespace deniable {
namespace {

// A node whose value copies f(parents) with probability `strength`, else is uniform.
BayesNode Planted(int attribute, std::uint32_t cardinality, std::vector<int> parents,
                  std::vector<std::uint32_t> parent_cardinalities, double strength) {
  BayesNode node;
  node.attribute = attribute;
  node.cardinality = cardinality;
  node.parents = std::move(parents);
  node.parent_buckets.resize(node.parents.size());
  node.parent_bucket_counts = parent_cardinalities;
  std::size_t configurations = 1;
  for (std::uint32_t c : parent_cardinalities) configurations *= c;
  for (std::size_t c = 0; c < configurations; ++c) {
    const std::size_t favourite = (c * 7 + 3) % cardinality;  // a fixed function of the parents
    for (std::uint32_t v = 0; v < cardinality; ++v) {
      const double base = (1 - strength) / cardinality;
      node.probabilities.push_back(v == favourite ? base + strength : base);
    }
  }
  return node;
}

// A(0)->B(1); (A,B)->C(2); C->D(3); E(4) independent; (D,E)->F(5).
BayesNet PlantedNetwork() {
  BayesNet net;
  net.nodes.push_back(Planted(0, 4, {}, {}, 0.0));
  net.nodes.push_back(Planted(1, 3, {0}, {4}, 0.8));
  net.nodes.push_back(Planted(2, 4, {0, 1}, {4, 3}, 0.8));
  net.nodes.push_back(Planted(3, 2, {2}, {4}, 0.8));
  net.nodes.push_back(Planted(4, 3, {}, {}, 0.0));
  net.nodes.push_back(Planted(5, 5, {3, 4}, {2, 3}, 0.8));
  return net;
}
const std::vector<std::uint32_t> kCardinalities = {4, 3, 4, 2, 3, 5};

std::set<std::pair<int, int>> Skeleton(const BayesNet& net) {
  std::set<std::pair<int, int>> edges;
  for (const BayesNode& node : net.nodes) {
    for (int p : node.parents) edges.insert({std::min(p, node.attribute), std::max(p, node.attribute)});
  }
  return edges;
}

TEST(PrivBayesStatisticalTest, RecoversAPlantedStructureAtLargeEpsilon) {
  NullProgress progress;
  SeededRng data_rng(101);
  auto data = SampleNetwork(PlantedNetwork(), kCardinalities, 50'000, data_rng, progress, 2);
  ASSERT_TRUE(data.has_value());
  const std::set<std::pair<int, int>> planted = Skeleton(PlantedNetwork());
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({1000.0, 0.0}).value();
    SeededRng rng(seed);
    PrivBayesOptions options;
    options.epsilon = 1000.0;
    auto net = LearnPrivBayes(*data, options, accountant, "all", rng, progress);
    ASSERT_TRUE(net.has_value()) << net.error().message;
    const std::set<std::pair<int, int>> learned = Skeleton(*net);
    for (const auto& edge : planted) {
      EXPECT_TRUE(learned.count(edge)) << "seed " << seed << ": planted edge " << edge.first
                                       << " - " << edge.second << " not learned";
    }
    // At this ε the tables are the data's conditionals up to noise of scale ~0.01 counts.
    auto synthetic = SampleNetwork(*net, kCardinalities, 50'000, rng, progress, 2);
    ASSERT_TRUE(synthetic.has_value());
  }
}

// Independent mode: each released probability differs from the data's proportion only by the
// noise. With counts far from 0 (no clamping), p̂_v - c_v/n ≈ η_v/n - (c_v/n)·Ση/n, so
// |p̂_v - c_v/n| <= 5σ(1 + sqrt(k))/n with σ = sqrt(2)·scale per count (5σ bounds each of the
// k+1 terms involved except with probability < 1e-5 each; the seed is fixed).
TEST(PrivBayesStatisticalTest, IndependentHistogramsMatchMarginalsWithinNoise) {
  EncodedTable data;
  data.rows = 100'000;
  data.cardinalities = {4, 6};
  data.columns.assign(2, std::vector<Code>(data.rows));
  SeededRng data_rng(5);
  for (std::size_t r = 0; r < data.rows; ++r) {
    data.columns[0][r] = static_cast<Code>(UniformBelow(data_rng, 10) < 7 ? 0 : 1 + r % 3);
    data.columns[1][r] = static_cast<Code>(UniformBelow(data_rng, 6));
  }
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
  SeededRng rng(77);
  NullProgress progress;
  auto net = LearnIndependent(data, {.epsilon = 1.0}, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value());
  const double scale = 2.0;  // sensitivity 1 / (ε/m = 0.5)
  for (std::size_t a = 0; a < 2; ++a) {
    const std::uint32_t k = data.cardinalities[a];
    std::vector<double> counts(k, 0.0);
    for (Code c : data.columns[a]) counts[c] += 1;
    const double tolerance = 5 * std::sqrt(2.0) * scale * (1 + std::sqrt(double(k))) / data.rows;
    for (std::uint32_t v = 0; v < k; ++v) {
      EXPECT_NEAR(net->nodes[a].probabilities[v], counts[v] / data.rows, tolerance)
          << "attribute " << a << " value " << v;
    }
  }
}

}  // namespace
}  // namespace deniable
