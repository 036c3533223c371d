// SPDX-License-Identifier: Apache-2.0
// DP bounds land near the true quantiles on large samples at ε = 1, over several seeds.
//
// Targets and tolerance, in ranks: the quantile step runs the exponential mechanism with
// ε/4 = 0.25, so c = 0.125 per rank of utility, over N <= 2^16 + 1 grid cells. The target rank
// q·n is first moved inward to at least r_min = (ln N + ln 1000)/c <= (11.09 + 6.91)/0.125 =
// 144 ranks from each end. A cell r ranks away from the target has weight <= e^{−0.125 r}, so
// Pr[distance > r] <= 2^16·e^{−0.125 r} < 1e-6 for r >= 200. We accept ranks in
// [q·n − 250, q·n + 144 + 250] (mirrored at the top).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/dp/dp_bounds.h"

namespace deniable {
namespace {

constexpr double kRankTolerance = 250;
constexpr double kMaxInward = 144;

// Number of values strictly below x, in sorted `values`.
double RankOf(const std::vector<double>& sorted, double x) {
  return static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), x) - sorted.begin());
}
double RankUpTo(const std::vector<double>& sorted, double x) {
  return static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin());
}

void CheckNearQuantiles(std::vector<double> values, bool integer) {
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    SeededRng rng(300 + seed);
    auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    BoundsOptions options{.epsilon = 1.0, .method = BoundsMethod::kQuantiles,
                          .coarse_fraction = 0.5, .integer = integer};
    auto range = EstimateBounds(values, options, accountant, "x", "all", rng);
    ASSERT_TRUE(range.has_value());
    // lo's ranks [#below lo, #up to lo] meet [0.001·n − 250, 0.001·n + 144 + 250].
    EXPECT_LE(RankOf(values, range->lo), 0.001 * n + kMaxInward + kRankTolerance)
        << "lo " << range->lo;
    EXPECT_GE(RankUpTo(values, range->lo), 0.001 * n - kRankTolerance) << "lo " << range->lo;
    EXPECT_GE(RankUpTo(values, range->hi), 0.999 * n - kMaxInward - kRankTolerance)
        << "hi " << range->hi;
    EXPECT_LE(RankOf(values, range->hi), 0.999 * n + kRankTolerance) << "hi " << range->hi;
  }
}

TEST(EstimateBoundsStatisticalTest, UniformReals) {
  std::vector<double> values;
  for (int i = 0; i < 100'000; ++i) values.push_back(i * 1e-3);  // [0, 100)
  CheckNearQuantiles(values, false);
}

// Log-uniform over e^-3..e^3 mirrored to both signs: half negative, spanning 8 binades.
TEST(EstimateBoundsStatisticalTest, SkewedTwoSidedReals) {
  std::vector<double> values;
  for (int i = 0; i < 100'000; ++i) {
    const double u = (i / 2 + 0.5) / 50'000.0;
    const double magnitude = std::exp(6 * (u - 0.5));
    values.push_back(i % 2 == 0 ? magnitude : -magnitude * 1000);
  }
  CheckNearQuantiles(values, false);
}

// Ages 17..90 (each ~1,350 times): the 0.001 and 0.999 quantiles are 17 and 90 exactly, and
// neighbouring integers are >= 1,000 ranks away, so the bounds are exact.
TEST(EstimateBoundsStatisticalTest, IntegerAgesAreExact) {
  std::vector<double> values;
  for (int i = 0; i < 100'000; ++i) values.push_back(17 + i % 74);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    SeededRng rng(400 + seed);
    auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    auto range = EstimateBounds(values, {.epsilon = 1.0, .method = BoundsMethod::kQuantiles, .coarse_fraction = 0.5, .integer = true}, accountant, "age",
                                "all", rng);
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, 17);
    EXPECT_EQ(range->hi, 90);
  }
  CheckNearQuantiles(values, true);
}

// Small n: 20,000 integers 20..80 at ε = 0.8 (c = 0.1). The 0.999 quantile is only 20 ranks
// below the maximum, while the 47 empty integer cells above 80 in the coarse range [16, 128]
// would each weigh e^-2: without moving the quantile inward the upper bound lands above 80
// most of the time. Moved to r_min = (ln 113 + ln 1000)/0.1 = 116 ranks, the cell of 80 (328
// records) still holds the target and the 47 empty cells weigh e^-11.6 each (4e-4 in all).
TEST(EstimateBoundsStatisticalTest, SmallIntegerColumnStaysInsideTheData) {
  std::vector<double> values;
  for (int i = 0; i < 20'000; ++i) values.push_back(20 + i % 61);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SeededRng rng(500 + seed);
    auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    auto range = EstimateBounds(values, {.epsilon = 0.8, .method = BoundsMethod::kQuantiles, .coarse_fraction = 0.5, .integer = true}, accountant, "age",
                                "all", rng);
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, 20) << seed;
    EXPECT_EQ(range->hi, 80) << seed;
  }
}

// Large magnitudes and a far outlier: 10^5 values around 1e12 plus one record at −8e15; the
// outlier's bucket holds 1 record, below the coarse threshold, so it cannot drag the bounds.
TEST(EstimateBoundsStatisticalTest, HugeValuesAndAnOutlier) {
  std::vector<double> values;
  for (int i = 0; i < 100'000; ++i) values.push_back(1e12 + i * 1e6);
  values.push_back(-8e15);
  CheckNearQuantiles(values, false);
}

}  // namespace
}  // namespace deniable
