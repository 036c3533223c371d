// SPDX-License-Identifier: Apache-2.0
// DP bounds land near the true quantiles on large samples at ε = 1, over several seeds.
//
// Tolerance, in ranks: the quantile step runs the exponential mechanism with ε/4 = 0.25, so
// c = 0.125 per unit of utility (rank distance). A cell r ranks away from the target has weight
// <= e^{−0.125 r}; with at most 2^20 + 1 cells, Pr[distance > r] <= 2^20·e^{−0.125 r}, which is
// below 1e-6 for r >= 222. We allow 250 ranks plus one cell of discretisation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/dp/dp_bounds.h"

namespace deniable {
namespace {

constexpr double kRankTolerance = 250;

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
    BoundsOptions options{.epsilon = 1.0, .integer = integer};
    auto range = EstimateBounds(values, options, accountant, "x", "all", rng);
    ASSERT_TRUE(range.has_value());
    // lo: the 0.001-quantile's rank lies within [#below lo, #up to lo] ± tolerance.
    EXPECT_GE(0.001 * n, RankOf(values, range->lo) - kRankTolerance) << "lo " << range->lo;
    EXPECT_LE(0.001 * n, RankUpTo(values, range->lo) + kRankTolerance) << "lo " << range->lo;
    EXPECT_GE(0.999 * n, RankOf(values, range->hi) - kRankTolerance) << "hi " << range->hi;
    EXPECT_LE(0.999 * n, RankUpTo(values, range->hi) + kRankTolerance) << "hi " << range->hi;
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
    auto range = EstimateBounds(values, {.epsilon = 1.0, .integer = true}, accountant, "age",
                                "all", rng);
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, 17);
    EXPECT_EQ(range->hi, 90);
  }
  CheckNearQuantiles(values, true);
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
