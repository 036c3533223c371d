// SPDX-License-Identifier: Apache-2.0
#include "engine/model/numeric_bins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace deniable {
namespace {

ColumnDomain Binned(const NoisyLeaves& leaves, NumericBinning binning) {
  ColumnDomain domain;
  domain.type = DataType::kInteger;
  Status s = SetBinsFromLeaves(leaves, binning, domain);
  EXPECT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(domain.Validate(), "");
  return domain;
}

// capital-gain-like inside the public coarse range: a spike at 0, nothing in 1..127, a tail up
// to 2^14, then empty magnitude buckets (groups = sign × bit length). Noise scale 1: a group is
// kept when its sum reaches 8·√(its leaves).
TEST(NumericBinsTest, SpikeStandsAloneEmptyGapWeighsLittleEmptyGroupsAreCut) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.edges = {-1024, -512, 0, 1, 128, 256, 512, 1024, 16384, 1 << 20, 1 << 30};
  leaves.counts = {3, -2, 9000, 1, 300, 250, 200, 150, 0, -1};
  leaves.groups = {-11, -10, 0, 8, 8, 9, 10, 11, 15, 21};
  const ColumnDomain d = Binned(leaves, {.max_bins = 4, .categorical = false});
  // Range: from the spike's group to the last group that clears its threshold ([1024, 16384)).
  EXPECT_EQ(d.lo, 0);
  EXPECT_EQ(d.hi, 16383);
  // The spike is a bin of its own holding only the value 0.
  EXPECT_EQ(d.BinOf(0), 0u);
  EXPECT_EQ(d.FirstPointOf(0), 0);
  EXPECT_EQ(d.LastPointOf(0), 0);
  // The gap 1..127 keeps only its (positive) noise as weight: 1 against 900 in its bin. Rule 6
  // barely moves that bin (its shape is far above the noise: λ > 0.9999).
  const std::vector<double> expected = {9000, 1, 300, 250, 200, 150};
  ASSERT_EQ(d.leaf_weights.size(), expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) {
    EXPECT_NEAR(d.leaf_weights[j], expected[j], 0.02) << j;
  }
  EXPECT_NEAR(d.leaf_weights[1] + d.leaf_weights[2] + d.leaf_weights[3] + d.leaf_weights[4] +
                  d.leaf_weights[5],
              901.0, 1e-9);
  // Total weight 9901: a share of about 2475 per bin, so the tail leaves share one bin.
  EXPECT_EQ(d.bins, 2);
  EXPECT_EQ(d.edges, (std::vector<double>{0, 1, 16384}));
}

// A heavy tail next to the data that the adaptive stage split into many leaves is kept even
// when its noise drew its sum well below its true count (flchain's lambda above 2.048: 1,450
// rows, noisy sum 457 over 26 leaves of noise scale 45; the p = 0.05 test cut it at 814 and
// clamped a fifth of the column into the edge bin). An empty group beyond it is still cut.
TEST(NumericBinsTest, AHeavyTailSplitIntoManyLeavesIsKept) {
  NoisyLeaves leaves;
  leaves.step = 0.001;
  leaves.count_noise_scale = 45;
  leaves.edges = {1.024, 2.048};
  leaves.counts = {5000};
  leaves.groups = {11};
  for (int i = 1; i <= 26; ++i) {
    leaves.edges.push_back(2.048 + 2.048 * i / 26);
    leaves.counts.push_back(i % 2 == 0 ? 30 : 5);  // sum 455
    leaves.groups.push_back(12);
  }
  leaves.edges.push_back(8.192);
  leaves.counts.push_back(-20);  // an empty group: noise only
  leaves.groups.push_back(13);
  EXPECT_LT(455, LaplaceSumThreshold(26, 45, kExtendFalsePositive));
  EXPECT_GE(455, LaplaceSumThreshold(26, 45, kRangeExtendFalsePositive));
  const ColumnDomain d = Binned(leaves, {.max_bins = 6, .categorical = false});
  EXPECT_DOUBLE_EQ(d.lo, 1.024);
  // The group is kept; only its last four leaves (noisy 30 + 5 + 30 + 5 = 70, below two noise
  // scales jointly) are trimmed from the end, the fifth would make the run 100 >= 90.
  EXPECT_NEAR(d.hi, 2.048 + 2.048 * 22 / 26 - 0.001, 1e-9);
}

// The range's end leaves below two noise scales are trimmed, but a run of them stops once it
// jointly holds two scales; with no leaf clearing two scales nothing is trimmed.
TEST(NumericBinsTest, EndLeavesOfNoiseAreTrimmed) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 45;
  // Ages: [8, 16) empty, [16, 32) .. [64, 96) hold records, [96, 128) empty with noise 74.
  leaves.edges = {8, 16, 32, 64, 80, 96, 128};
  leaves.counts = {-12, 2000, 4000, 900, 100, 74};
  leaves.groups = {3, 4, 5, 6, 6, 6};
  ColumnDomain d = Binned(leaves, {.max_bins = 4, .categorical = false});
  EXPECT_EQ(d.lo, 16);
  EXPECT_EQ(d.hi, 95);  // [96, 128) trimmed; [80, 96) (100 >= 90) kept
  // Two end leaves of 60 each: the first is trimmed, the second would make the run 120.
  leaves.counts = {60, 60, 4000, 900, 100, 74};
  leaves.groups = {4, 4, 5, 6, 6, 6};
  d = Binned(leaves, {.max_bins = 4, .categorical = false});
  EXPECT_EQ(d.lo, 16);
  // No leaf clears two scales: the range stays whole.
  leaves.counts = {10, 60, 80, 70, 50, 74};
  leaves.groups = {6, 6, 6, 6, 6, 6};
  d = Binned(leaves, {.max_bins = 4, .categorical = false});
  EXPECT_EQ(d.lo, 8);
  EXPECT_EQ(d.hi, 127);
}

// A real tail whose leaves each hold only a few noise scales is kept whole: thresholds apply to
// groups, not to single leaves (fnlwgt: leaves of about b records each).
TEST(NumericBinsTest, ThinLeavesOfARealTailAreKept) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 60;
  for (int i = 0; i <= 32; ++i) leaves.edges.push_back(16384 + 512 * i);
  for (int i = 0; i < 32; ++i) {
    leaves.counts.push_back(150);  // 2.5 noise scales each, 32 leaves in one bucket
    leaves.groups.push_back(15);
  }
  const ColumnDomain d = Binned(leaves, {.max_bins = 8, .categorical = false});
  EXPECT_EQ(d.lo, 16384);
  EXPECT_EQ(d.hi, 16384 + 512 * 32 - 1);
  EXPECT_EQ(d.bins, 8);
}

// futime-like (days of follow-up): a thin real tail toward 0 beside the bulk. The narrow group
// [128, 256) (1/30 of the range [256, 4096)) holds a noisy 102, below the Chernoff test's 114
// for two leaves at p = 1/2, and is taken on its positive sum; [64, 128) (noisy −5) is not.
// Upward, the empty [4096, 8192) is about as wide as the range [128, 4096): its noise of 60
// must clear the Chernoff test (85 for one leaf) and does not.
TEST(NumericBinsTest, ANarrowTailGroupWithAPositiveSumIsTakenAWideOneIsNot) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 45;
  leaves.edges = {64, 128, 192, 256, 384, 512, 1024, 2048, 4096, 8192};
  leaves.counts = {-5, 92, 10, 186, 115, 800, 2000, 4000, 60};
  leaves.groups = {6, 7, 7, 8, 8, 9, 10, 11, 12};
  ASSERT_GT(LaplaceSumThreshold(2, 45, kRangeExtendFalsePositive), 102);
  ASSERT_GT(LaplaceSumThreshold(1, 45, kRangeExtendFalsePositive), 60);
  ColumnDomain d = Binned(leaves, {.max_bins = 6, .categorical = false});
  EXPECT_EQ(d.lo, 128);
  EXPECT_EQ(d.hi, 4095);
  // The same group with a sum of 0 (noisy 50 and −50) is not taken: the test is strict.
  leaves.counts[1] = 50;
  leaves.counts[2] = -50;
  d = Binned(leaves, {.max_bins = 6, .categorical = false});
  EXPECT_EQ(d.lo, 256);
  // Half as wide as the range (above the 1/8), a group with the positive sum of 102 is not
  // taken either (the Chernoff test): the range [2048, 4096) alone, [1024, 2048) beside it.
  NoisyLeaves wide;
  wide.step = 1;
  wide.count_noise_scale = 45;
  wide.edges = {1024, 1536, 2048, 4096};
  wide.counts = {92, 10, 4000};
  wide.groups = {10, 10, 11};
  d = Binned(wide, {.max_bins = 6, .categorical = false});
  EXPECT_EQ(d.lo, 2048);
}

// Under public bounds nothing is cut: the bounds are the range.
TEST(NumericBinsTest, PublicBoundsAreTheRange) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.edges = {0, 50, 100};
  leaves.counts = {-3, 500};
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(d.lo, 0);
  EXPECT_EQ(d.hi, 99);
  EXPECT_EQ(d.leaf_weights, (std::vector<double>{0, 500}));
}

TEST(NumericBinsTest, CategoricalColumnsGetOneBinPerFrequentValue) {
  // A 0/1 flag and a rare value 7 merged with its neighbours by the adaptive histogram.
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.edges = {-8, 0, 1, 2, 4, 8, 16};
  leaves.counts = {0, 2400, 2600, 1, 0, -3};
  leaves.groups = {-4, 0, 1, 2, 3, 4};
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = true});
  EXPECT_EQ(d.bins, 2);
  EXPECT_EQ(d.FirstPointOf(0), 0);
  EXPECT_EQ(d.LastPointOf(0), 0);
  EXPECT_EQ(d.FirstPointOf(1), 1);
  EXPECT_EQ(d.LastPointOf(1), 1);
  EXPECT_EQ(d.CodeLabel(1), "1");
}

TEST(NumericBinsTest, EducationNumKeepsEveryFrequentCode) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.edges = {1, 3};  // 1..2 merged (rare)
  leaves.counts = {330};
  for (int v = 3; v <= 16; ++v) {
    leaves.edges.push_back(v + 1);
    leaves.counts.push_back(1000 + v);
  }
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = true});
  // 1..2 (not a single value) holds less than half a bin's share (330 < 14,465 / 40), so it
  // joins its neighbour 3; 4..16 one bin each. Its leaf keeps its weight within that bin.
  EXPECT_EQ(d.bins, 14);
  EXPECT_EQ(d.CodeLabel(0), "1–3");
  EXPECT_EQ(d.leaf_weights[0], 330);
  for (std::uint32_t b = 1; b < 14; ++b) EXPECT_EQ(d.FirstPointOf(b), d.LastPointOf(b));
}

TEST(NumericBinsTest, EqualWeightBinsOnASmoothColumn) {
  NoisyLeaves leaves;
  leaves.step = 0.01;  // a Float with two decimals
  leaves.count_noise_scale = 10;
  for (int i = 0; i <= 64; ++i) leaves.edges.push_back(i * 0.5);
  for (int i = 0; i < 64; ++i) leaves.counts.push_back(100);
  const ColumnDomain d = Binned(leaves, {.max_bins = 8, .categorical = false});
  EXPECT_EQ(d.bins, 8);
  EXPECT_DOUBLE_EQ(d.lo, 0);
  EXPECT_DOUBLE_EQ(d.hi, 31.99);
  for (std::uint32_t b = 0; b < 8; ++b) {
    const auto [first, last] = d.LeavesOfBin(b);
    EXPECT_EQ(last - first, 8u) << b;
  }
}

TEST(NumericBinsTest, OnlyNoiseGivesTheHeaviestGroup) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.edges = {0, 10, 20, 30};
  // Scale 1: the 1 beside the 7 does not clear the extension test (its Chernoff threshold for
  // one Laplace leaf is about 1.9), so the heaviest group stays alone.
  leaves.counts = {1, 7, -4};
  leaves.groups = {1, 2, 3};
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(d.lo, 10);
  EXPECT_EQ(d.hi, 19);
  EXPECT_EQ(d.bins, 1);
  EXPECT_EQ(d.leaf_weights, std::vector<double>{7});
}

// A small table: no group clears the seed threshold (its noise grows with √leaves), but the
// data spans two magnitude groups. The heaviest group is extended like a seed, so the other
// dense group is kept (before: the heaviest alone, and GermanCredit's ages 32–75 — 55% of its
// 1,000 rows — were clamped into [16, 32)).
TEST(NumericBinsTest, WithoutASeedTheHeaviestGroupStillExtends) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.gaussian = true;
  leaves.count_noise_scale = 47;
  // Groups: [8,16) one leaf, [16,32) four leaves, [32,64) eight leaves, [64,128) one leaf.
  leaves.edges = {8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 128};
  leaves.counts = {-20, 60, 150, 130, 110, 60, 50, 40, 40, 30, 20, 10, 5, 5};
  leaves.groups = {3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6};
  // No seed: [16,32) sums 450 against 47·√(8 ln 1e5) = 451, and the window [16,64) 705
  // against 781 (12 leaves).
  ASSERT_LT(450, NoiseSumThreshold(true, 4, 47, kSeedFalsePositive));
  ASSERT_LT(705, NoiseSumThreshold(true, 12, 47, kSeedFalsePositive));
  // [32,64) sums 255 and clears the extension test, 47·√(16 ln 2) = 157; [8,16) and
  // [64,128) do not (47·√(2 ln 2) = 55).
  ASSERT_GT(255, NoiseSumThreshold(true, 8, 47, kRangeExtendFalsePositive));
  ASSERT_LT(5, NoiseSumThreshold(true, 1, 47, kRangeExtendFalsePositive));
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = false});
  // The end leaves below 1.49σ = 70 are trimmed while they jointly stay below it: [16,20) on
  // the left; 5, 10, 20 and 30 on the right, where [40,44)'s 40 would make 105.
  EXPECT_EQ(d.lo, 20);
  EXPECT_EQ(d.hi, 47);  // the heaviest group alone would end at 31
}

// The demo's capital-loss (10,000 rows, σ = 45 a leaf): 95% zeros, then 375 records in
// [1024, 2048), split into four leaves whose noisy sum (352) stays below the seed threshold
// of four leaves, 45·√(8 ln 1e5) = 432, with empty magnitudes between them and the zeros. A
// direct noisy count of each magnitude group (σ_g = 63.6) joins the leaves' sum by inverse
// variance: 367 with σ = 52, which clears the seed threshold 52·√(2 ln 1e5) = 249, so the
// non-zero losses are kept; without the group counts the range is the zero spike alone.
TEST(NumericBinsTest, GroupCountsJoinTheLeavesInTheRangeRule) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.gaussian = true;
  leaves.count_noise_scale = 45;
  // Groups: {0}, [1,2), [2,4), ..., [512,1024) one leaf each, [1024,2048) four leaves,
  // [2048,4096) one leaf.
  leaves.edges = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1280, 1536, 1792, 2048, 4096};
  leaves.counts = {9540, -30, 12, -5, 20, -41, 8, 0, -17, 25, 31, 70, 95, 110, 77, 40};
  leaves.groups = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 11, 12};
  ASSERT_LT(352, NoiseSumThreshold(true, 4, 45, kSeedFalsePositive));
  const ColumnDomain alone = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(alone.lo, 0);
  EXPECT_EQ(alone.hi, 0);

  leaves.group_counts = {9510, 12, -40, 3, 61, -22, 5, 30, -9, -60, 14, 375, 51};
  leaves.group_noise_scale = 45 * std::sqrt(2.0);
  const ColumnDomain joined = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(joined.lo, 0);
  // [1024, 2048) seeds; [2048, 4096) passes the extension test (its leaf's 40 and its count's
  // 51 combine to 43.7 with σ = 36.7, against 36.7·√(2 ln 2) = 43.3), and its leaf, below
  // 1.49σ = 67, is then trimmed from the end.
  EXPECT_EQ(joined.hi, 2047);
  // The zero spike is a bin of its own, and the empty magnitudes between it and the losses
  // weigh nothing: each group's combined estimate is below kLoneLeafScales of its σ (rule 2),
  // and the bin that spans them shrinks within each group only (rule 6), so the even spread
  // by length no longer carries the losses' records down into [1, 1024) (without the group
  // counts, such a bin put 176 of them there).
  ASSERT_GE(joined.edges.size(), 3u);
  EXPECT_EQ(joined.edges[1], 1);
  double between = 0, losses = 0;
  for (std::size_t j = 0; j + 1 < joined.leaf_edges.size(); ++j) {
    if (joined.leaf_edges[j] >= 1 && joined.leaf_edges[j + 1] <= 1024) between += joined.leaf_weights[j];
    if (joined.leaf_edges[j] >= 1024) losses += joined.leaf_weights[j];
  }
  EXPECT_EQ(between, 0);
  // The losses weigh their groups' combined estimates: 367.3 for [1024, 2048).
  EXPECT_NEAR(losses, 367.3, 0.1);

  // One count per group, and a positive scale, or the leaves are malformed.
  leaves.group_counts.pop_back();
  ColumnDomain d;
  EXPECT_FALSE(SetBinsFromLeaves(leaves, {}, d).has_value());
}

TEST(NumericBinsTest, RejectsMalformedLeaves) {
  ColumnDomain d;
  NoisyLeaves bad;
  bad.edges = {0, 1};
  bad.counts = {1, 2};
  EXPECT_FALSE(SetBinsFromLeaves(bad, {}, d).has_value());
  bad.edges = {0, 1, 1};
  EXPECT_FALSE(SetBinsFromLeaves(bad, {}, d).has_value());
  bad.edges = {0, 1, 2};
  EXPECT_FALSE(SetBinsFromLeaves(bad, {.max_bins = 0}, d).has_value());
  bad.groups = {1};
  EXPECT_FALSE(SetBinsFromLeaves(bad, {}, d).has_value());
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// capital-gain: a spike at 0, nothing in 1..127, then a thin cluster spread over several
// magnitude buckets, none of which clears the seed threshold alone; jointly they do.
TEST(NumericBinsTest, AThinClusterOverSeveralMagnitudesIsKept) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 45;
  leaves.edges = {0, 1, 128};
  leaves.counts = {44000, 3};
  leaves.groups = {0, 1000};
  // Buckets [2^11, 2^12) .. [2^16, 2^17): 8 leaves each, 70 records per leaf.
  for (int bits = 12; bits <= 17; ++bits) {
    const double lo = std::ldexp(1.0, bits - 1), width = lo / 8;
    for (int i = 0; i < 8; ++i) {
      if (leaves.edges.back() < lo + i * width) {  // the empty stretch 128 .. 2^11
        leaves.edges.push_back(lo + i * width);
        leaves.counts.push_back(-4);
        leaves.groups.push_back(1000 + bits - 2);
      }
      leaves.edges.push_back(lo + (i + 1) * width);
      leaves.counts.push_back(70);
      leaves.groups.push_back(1000 + bits);
    }
  }
  // A single bucket of 8 leaves holds 560 against a threshold of about 1,050 (8 leaves at
  // scale 45, p = 1e-5); four buckets hold 2,240 against about 1,860.
  EXPECT_LT(560, LaplaceSumThreshold(8, 45, kSeedFalsePositive));
  EXPECT_GT(2240, LaplaceSumThreshold(32, 45, kSeedFalsePositive));
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(d.lo, 0);
  // The cluster reaches the last bucket; its very last leaf (70 < two noise scales) is trimmed
  // from the range's end, the one before would make the trimmed run 140 >= 90.
  EXPECT_EQ(d.hi, std::ldexp(1.0, 17) - std::ldexp(1.0, 13) - 1);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// Adult's capital-loss, half of the rows (24,421), ε = 1: 95% zeros and ~1,100 records in
// [1024, 2048), which the adaptive stage split into 16 leaves (noisy sum 1,128, as drawn in a
// real run). Under the ε₂-DP Laplace pass (scale 45) the group's sum is below the seed
// threshold (about 1,395) and the range stays {0}: every synthetic capital-loss was 0. The
// same ρ spent as a Gaussian pass (σ = 45, the marginals mode) seeds it (threshold about
// 870), and the rules' single-count thresholds keep their false-positive rates.
TEST(NumericBinsTest, GaussianCountsKeepAThinClusterTheLaplaceOnesLose) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 45;
  leaves.edges = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  leaves.counts = {23280, 4, 47, -30, -3, 20, -11, 12, 43, -48, -51};
  leaves.groups = {0, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010};
  for (int i = 0; i < 16; ++i) {
    leaves.edges.push_back(1024 + 64 * (i + 1));
    leaves.counts.push_back(i < 8 ? 71 : 70);  // 1,128 in all
    leaves.groups.push_back(1011);
  }
  leaves.edges.push_back(4096);
  leaves.counts.push_back(-36);
  leaves.groups.push_back(1012);
  EXPECT_LT(1128, LaplaceSumThreshold(16, 45, kSeedFalsePositive));
  EXPECT_GT(1128, NoiseSumThreshold(true, 16, 45, kSeedFalsePositive));
  const ColumnDomain laplace = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(laplace.lo, 0);
  EXPECT_EQ(laplace.hi, 0);
  leaves.gaussian = true;
  const ColumnDomain gaussian = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_EQ(gaussian.lo, 0);
  EXPECT_EQ(gaussian.hi, 2047);  // the cluster's group; the empty magnitudes between weigh 0
  // Same false-positive rate ½e^{-k} for a single count: Q(z) = ½e^{-3} = 0.024894 at
  // z = 1.9617 (Q(1.96) = 0.02500).
  EXPECT_EQ(NoiseThreshold(false, 45, 3), 135);
  EXPECT_NEAR(NoiseThreshold(true, 45, 3), 45 * 1.9617, 0.01);
  EXPECT_NEAR(NoiseSumThreshold(true, 4, 10, 0.5), 10 * std::sqrt(8 * std::log(2.0)), 1e-9);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// A million-row column's histogram can have 100,000 leaves: the domain keeps at most
// kMaxLeaves, merged within bins, the total weight and every bin edge unchanged.
TEST(NumericBinsTest, LeavesAreCappedWithinBins) {
  NoisyLeaves leaves;
  leaves.step = 1;
  leaves.count_noise_scale = 10;
  for (int i = 0; i <= 50000; ++i) leaves.edges.push_back(1000.0 + 2 * i);
  double total = 0;
  for (int i = 0; i < 50000; ++i) {
    leaves.counts.push_back(i == 25000 ? 500000 : 30 + i % 7);  // one spike in the middle
    total += static_cast<double>(leaves.counts.back());
  }
  const ColumnDomain d = Binned(leaves, {.max_bins = 20, .categorical = false});
  EXPECT_LE(d.leaf_weights.size(), kMaxLeaves);
  EXPECT_GT(d.leaf_weights.size(), kMaxLeaves / 2);
  double kept = 0;
  for (double w : d.leaf_weights) kept += w;
  EXPECT_NEAR(kept, total, total * 1e-12);  // rule 6 moves weight only within a bin
  // The spike keeps a leaf (and a bin) of its own: the value 51000.
  const std::uint32_t spike = d.BinOf(51000);
  EXPECT_EQ(d.FirstPointOf(spike), 51000);
  EXPECT_EQ(d.LastPointOf(spike), 51001);  // its leaf [51000, 51002) holds two integers
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// Rule 6: James–Stein shrinkage inside a bin, computed by hand. One bin [0, 4) of four
// unit-wide integer leaves, noise scale s = 1 (variance 2): counts 10, 14, 6, 10 around the even
// spread 10: Σ(c − e)² = 16 + 16 = 32, λ = 1 − 3·2/32 = 0.8125 → 10, 13.25, 6.75, 10.
// A second bin [4, 6) of two leaves is left alone (k < 3), and a bin whose shape is far above
// the noise (a spike) keeps it: λ = 1 − 3·2/(3·40² + ... ) ≈ 1.
TEST(NumericBinsTest, WithinABinNoiseShrinksTowardTheEvenSpreadAndShapeSurvives) {
  ColumnDomain lattice;
  lattice.step = 1;
  const std::vector<double> leaf_edges = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> bin_edges = {0, 4, 6, 10};
  std::vector<double> weights = {10, 14, 6, 10, 3, 9, 0, 160, 0, 0};
  ShrinkWithinBins(leaf_edges, bin_edges, lattice, 1.0, weights);
  EXPECT_DOUBLE_EQ(weights[0], 10.0);
  EXPECT_DOUBLE_EQ(weights[1], 13.25);
  EXPECT_DOUBLE_EQ(weights[2], 6.75);
  EXPECT_DOUBLE_EQ(weights[3], 10.0);
  EXPECT_EQ(weights[4], 3.0);
  EXPECT_EQ(weights[5], 9.0);
  // The spike bin [6, 10): even 40 each, Σ(c − e)² = 3·1600 + 120² = 19200, λ = 1 − 6/19200.
  const double keep = 1 - 6.0 / 19200.0;
  EXPECT_DOUBLE_EQ(weights[7], 40 + keep * 120);
  EXPECT_DOUBLE_EQ(weights[6], 40 - keep * 40);
  // Weight is conserved per bin.
  EXPECT_DOUBLE_EQ(weights[0] + weights[1] + weights[2] + weights[3], 40.0);
  EXPECT_NEAR(weights[6] + weights[7] + weights[8] + weights[9], 160.0, 1e-12);
  // Pure noise (deviation below what the noise explains) becomes the even spread: λ = 0.
  std::vector<double> flat = {10, 11, 9, 10, 3, 9, 40, 40, 40, 40};
  ShrinkWithinBins(leaf_edges, bin_edges, lattice, 1.0, flat);
  for (int j = 0; j < 4; ++j) EXPECT_DOUBLE_EQ(flat[static_cast<std::size_t>(j)], 10.0);
  // Lengths count lattice points: a two-point leaf gets twice a one-point leaf's even share.
  const std::vector<double> uneven_edges = {0, 2, 3, 4};
  std::vector<double> uneven = {20, 10, 10};
  ShrinkWithinBins(uneven_edges, {0, 4}, lattice, 100.0, uneven);
  EXPECT_DOUBLE_EQ(uneven[0], 20.0);
  EXPECT_DOUBLE_EQ(uneven[1], 10.0);
}

// Rule 6 with magnitude groups: a bin that spans two groups shrinks within each group only.
// Three unit leaves of [1, 4) ⊂ [2^0, 2^2) hold 100 records each; three leaves of length 100 in
// the next group hold noise (3, 0, 3). Over the whole bin the even spread by length would give
// the short leaves about 1 each, and with noise variance 10⁴ (σ = 100) λ = 1 − 5·10⁴/Σ(c − e)²
// ≈ 0.14, so most of the 300 records would move to the long leaves. Within each group the
// short leaves are already even (kept exactly) and the long ones become their even spread, 2.
TEST(NumericBinsTest, WithinABinSpanningGroupsEachGroupShrinksAlone) {
  ColumnDomain lattice;
  lattice.step = 1;
  const std::vector<double> leaf_edges = {1, 2, 3, 4, 104, 204, 304};
  const std::vector<double> bin_edges = {1, 304};
  const std::vector<double> counts = {100, 100, 100, 3, 0, 3};
  std::vector<double> across = counts;
  ShrinkWithinBins(leaf_edges, bin_edges, lattice, 100.0, across, /*gaussian=*/true);
  EXPECT_LT(across[0] + across[1] + across[2], 100.0);
  std::vector<double> within = counts;
  ShrinkWithinBins(leaf_edges, bin_edges, lattice, 100.0, within, /*gaussian=*/true,
                   {0, 0, 0, 1, 1, 1});
  for (int j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(within[static_cast<std::size_t>(j)], 100.0);
  for (int j = 3; j < 6; ++j) EXPECT_DOUBLE_EQ(within[static_cast<std::size_t>(j)], 2.0);
  // Bins inside one group shrink exactly as without groups, every bin of them.
  const std::vector<double> edges = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> plain = {10, 14, 6, 10, 3, 9, 0, 160, 0, 0};
  std::vector<double> one_group = plain;
  ShrinkWithinBins(edges, {0, 4, 6, 10}, lattice, 1.0, plain);
  ShrinkWithinBins(edges, {0, 4, 6, 10}, lattice, 1.0, one_group, false,
                   std::vector<std::int64_t>(10, 7));
  EXPECT_EQ(one_group, plain);
  EXPECT_DOUBLE_EQ(one_group[1], 13.25);
}

}  // namespace
}  // namespace deniable
