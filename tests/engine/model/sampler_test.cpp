// SPDX-License-Identifier: Apache-2.0
#include "engine/model/sampler.h"

#include <gtest/gtest.h>

#include "engine/model/privbayes.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

// 0: 4 values; 1 = copy of 0 bucketed {0,0,1,1}; 2: depends on (0, 1), with zero cells.
BayesNet ChainNetwork() {
  BayesNet net;
  BayesNode a;
  a.attribute = 0;
  a.cardinality = 4;
  a.probabilities = {0.1, 0.2, 0.3, 0.4};
  BayesNode b;
  b.attribute = 1;
  b.cardinality = 2;
  b.parents = {0};
  b.parent_buckets = {{0, 0, 1, 1}};
  b.parent_bucket_counts = {2};
  b.probabilities = {1, 0, 0, 1};  // b = bucket of a
  BayesNode c;
  c.attribute = 2;
  c.cardinality = 3;
  c.parents = {0, 1};
  c.parent_buckets = {{}, {}};
  c.parent_bucket_counts = {4, 2};
  // configuration a * 2 + b; value 2 is impossible everywhere; c = a % 2 deterministically.
  for (int config = 0; config < 8; ++config) {
    const int value = (config / 2) % 2;
    for (int v = 0; v < 3; ++v) c.probabilities.push_back(v == value ? 1.0 : 0.0);
  }
  net.nodes = {a, b, c};
  return net;
}
const std::vector<std::uint32_t> kCardinalities = {4, 2, 3};

TEST(SampleNetworkTest, FollowsDeterministicConditionals) {
  SeededRng rng(3);
  NullProgress progress;
  auto sample = SampleNetwork(ChainNetwork(), kCardinalities, 20'000, rng, progress, 2);
  ASSERT_TRUE(sample.has_value()) << sample.error().message;
  ASSERT_EQ(sample->rows, 20'000u);
  ASSERT_EQ(sample->cardinalities, kCardinalities);
  for (std::size_t r = 0; r < sample->rows; ++r) {
    const Code a = sample->columns[0][r];
    ASSERT_LT(a, 4);
    ASSERT_EQ(sample->columns[1][r], a / 2) << "row " << r;
    ASSERT_EQ(sample->columns[2][r], a % 2) << "row " << r;
  }
}

TEST(SampleNetworkTest, SameOutputForOneAndTwoThreads) {
  NullProgress progress;
  SeededRng rng1(42), rng2(42);
  auto one = SampleNetwork(ChainNetwork(), kCardinalities, 50'000, rng1, progress, 1);
  auto two = SampleNetwork(ChainNetwork(), kCardinalities, 50'000, rng2, progress, 2);
  ASSERT_TRUE(one.has_value() && two.has_value());
  EXPECT_EQ(one->columns, two->columns);
}

TEST(SampleNetworkTest, DifferentSeedsAndRepeatedCallsDiffer) {
  NullProgress progress;
  SeededRng rng1(1), rng2(2);
  auto a = SampleNetwork(ChainNetwork(), kCardinalities, 1'000, rng1, progress, 1);
  auto b = SampleNetwork(ChainNetwork(), kCardinalities, 1'000, rng2, progress, 1);
  auto c = SampleNetwork(ChainNetwork(), kCardinalities, 1'000, rng1, progress, 1);
  ASSERT_TRUE(a.has_value() && b.has_value() && c.has_value());
  EXPECT_NE(a->columns[0], b->columns[0]);
  EXPECT_NE(a->columns[0], c->columns[0]);  // the same generator, drawn again
}

TEST(SampleNetworkTest, NeverDrawsZeroProbabilityValues) {
  BayesNet net = UniformNetwork({5});
  net.nodes[0].probabilities = {0.0, 0.5, 0.0, 0.5, 0.0};
  SeededRng rng(9);
  NullProgress progress;
  auto sample = SampleNetwork(net, {5}, 100'000, rng, progress, 2);
  ASSERT_TRUE(sample.has_value());
  for (Code code : sample->columns[0]) ASSERT_TRUE(code == 1 || code == 3) << code;
}

TEST(SampleNetworkTest, ZeroRowsGiveEmptyColumns) {
  SeededRng rng(1);
  NullProgress progress;
  auto sample = SampleNetwork(ChainNetwork(), kCardinalities, 0, rng, progress);
  ASSERT_TRUE(sample.has_value());
  EXPECT_EQ(sample->rows, 0u);
  ASSERT_EQ(sample->columns.size(), 3u);
  EXPECT_TRUE(sample->columns[2].empty());
}

TEST(SampleNetworkTest, RejectsInvalidNetwork) {
  BayesNet net = ChainNetwork();
  net.nodes[2].probabilities[0] = 0.5;
  SeededRng rng(1);
  NullProgress progress;
  auto sample = SampleNetwork(net, kCardinalities, 10, rng, progress);
  ASSERT_FALSE(sample.has_value());
  EXPECT_EQ(sample.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(sample.error().message,
            "cannot sample from an invalid network: node 2 (attribute 2): the distribution of "
            "configuration 0 sums to 0.500000, not 1");
}

TEST(SampleNetworkTest, CancellationReturnsCancelled) {
  SeededRng rng(1);
  test_support::FakeProgress progress(/*cancel_after_reports=*/2);
  auto sample = SampleNetwork(ChainNetwork(), kCardinalities, 1'000'000, rng, progress, 2);
  ASSERT_FALSE(sample.has_value());
  EXPECT_EQ(sample.error().code, ErrorCode::kCancelled);
  EXPECT_LT(progress.reports(), 10u);  // stopped promptly, not after all 123 blocks
}

TEST(SampleNetworkTest, ReportsProgressUpToOne) {
  SeededRng rng(1);
  test_support::FakeProgress progress;
  auto sample = SampleNetwork(ChainNetwork(), kCardinalities, 100'000, rng, progress, 2);
  ASSERT_TRUE(sample.has_value());
  EXPECT_GT(progress.reports(), 0u);
  EXPECT_EQ(progress.last_fraction(), 1.0);  // whichever thread sampled the blocks
}

}  // namespace
}  // namespace deniable
