// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>

#include "engine/model/sampler.h"

namespace deniable {
namespace {

// Root (3 values) and a child (4 values) whose parent is bucketed {0, 1, 1}.
BayesNet Network() {
  BayesNet net;
  BayesNode root;
  root.attribute = 1;
  root.cardinality = 3;
  root.probabilities = {0.2, 0.5, 0.3};
  BayesNode child;
  child.attribute = 0;
  child.cardinality = 4;
  child.parents = {1};
  child.parent_buckets = {{0, 1, 1}};
  child.parent_bucket_counts = {2};
  child.probabilities = {0.1, 0.2, 0.3, 0.4, 0.7, 0.1, 0.15, 0.05};
  net.nodes = {root, child};
  return net;
}

// Each frequency is checked within 5 standard deviations of a binomial proportion,
// sqrt(p (1-p) / n): a false failure has probability < 1e-6 per check (20 checks), and the
// fixed seed makes the test deterministic anyway.
void ExpectFrequency(std::size_t hits, std::size_t n, double p, const std::string& what) {
  const double sigma = std::sqrt(p * (1 - p) / static_cast<double>(n));
  EXPECT_NEAR(static_cast<double>(hits) / static_cast<double>(n), p, 5 * sigma) << what;
}

TEST(SampleNetworkStatisticalTest, FrequenciesMatchTheTables) {
  const std::size_t n = 400'000;
  SeededRng rng(20240601);
  NullProgress progress;
  auto sample = SampleNetwork(Network(), {4, 3}, n, rng, progress, 2);
  ASSERT_TRUE(sample.has_value());
  std::vector<std::size_t> root(3, 0), joint(3 * 4, 0);
  for (std::size_t r = 0; r < n; ++r) {
    ++root[sample->columns[1][r]];
    ++joint[sample->columns[1][r] * 4 + sample->columns[0][r]];
  }
  const BayesNet net = Network();
  for (int v = 0; v < 3; ++v) {
    ExpectFrequency(root[v], n, net.nodes[0].probabilities[v], "root value " + std::to_string(v));
  }
  for (int parent = 0; parent < 3; ++parent) {
    const int bucket = parent == 0 ? 0 : 1;
    for (int v = 0; v < 4; ++v) {
      ExpectFrequency(joint[parent * 4 + v], root[parent],
                      net.nodes[1].probabilities[bucket * 4 + v],
                      "child value " + std::to_string(v) + " given parent " +
                          std::to_string(parent));
    }
  }
}

}  // namespace
}  // namespace deniable
