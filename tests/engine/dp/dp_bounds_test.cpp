// SPDX-License-Identifier: Apache-2.0
// DP bounds: validation, accounting (all three spends or none), and the shapes that must never
// break it (no values, a constant column, zeros, negatives, huge ranges, integers).
#include "engine/dp/dp_bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace deniable {
namespace {

PrivacyAccountant Budget(double epsilon = 10.0) {
  return PrivacyAccountant::Create({epsilon, 0.0}).value();
}

TEST(EstimateBoundsTest, RejectsInvalidOptions) {
  const std::vector<double> values = {1, 2, 3};
  SeededRng rng(41);
  auto accountant = Budget();
  auto check = [&](BoundsOptions options, const std::string& fragment) {
    auto range = EstimateBounds(values, options, accountant, "bounds of x", "all", rng);
    ASSERT_FALSE(range.has_value()) << fragment;
    EXPECT_EQ(range.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(range.error().message.find(fragment), std::string::npos) << range.error().message;
  };
  check({.epsilon = 0.0}, "epsilon");
  check({.epsilon = std::nan("")}, "epsilon");
  check({.epsilon = 1.0, .coarse_min = 5, .coarse_max = 5}, "coarse");
  check({.epsilon = 1.0, .coarse_min = 0, .coarse_max = std::numeric_limits<double>::infinity()},
        "coarse");
  check({.epsilon = 1.0, .coarse_min = -1e308, .coarse_max = 1e308}, "finite width");
  check({.epsilon = 1.0, .coarse_min = 0.2, .coarse_max = 0.8, .integer = true}, "no integer");
  check({.epsilon = 1.0, .lower_quantile = 0.9, .upper_quantile = 0.1}, "quantiles");
  check({.epsilon = 1.0, .lower_quantile = -0.1}, "quantiles");
  check({.epsilon = 1.0, .upper_quantile = 1.5}, "quantiles");
  EXPECT_TRUE(accountant.entries().empty());

  const std::vector<double> with_nan = {1, std::nan(""), 3};
  auto range = EstimateBounds(with_nan, {.epsilon = 1.0}, accountant, "x", "all", rng);
  ASSERT_FALSE(range.has_value());
  EXPECT_NE(range.error().message.find("value 1 is NaN"), std::string::npos);
}

// The quantile method with the original even split (ε/2 coarse, ε/4 per quantile).
BoundsOptions kQuantiles(double epsilon) {
  return {.epsilon = epsilon, .method = BoundsMethod::kQuantiles, .coarse_fraction = 0.5};
}

TEST(EstimateBoundsTest, SpendsEpsilonInThreeEntries) {
  const std::vector<double> values(1000, 3.0);
  SeededRng rng(42);
  auto accountant = Budget(1.0);
  auto range = EstimateBounds(values, kQuantiles(0.5), accountant, "bounds of x", "all", rng);
  ASSERT_TRUE(range.has_value());
  ASSERT_EQ(accountant.entries().size(), 3u);
  EXPECT_EQ(accountant.entries()[0].epsilon_each, 0.25);
  EXPECT_EQ(accountant.entries()[1].epsilon_each, 0.125);
  EXPECT_EQ(accountant.entries()[2].epsilon_each, 0.125);
  EXPECT_EQ(accountant.Total().epsilon, 0.5);
  // 0.75 more does not fit: nothing at all is recorded.
  auto refused = EstimateBounds(values, kQuantiles(0.75), accountant, "again", "all", rng);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_EQ(accountant.entries().size(), 3u);
}

// Every shape returns lo <= hi, inside the coarse range, for many seeds.
TEST(EstimateBoundsTest, AlwaysReturnsAnOrderedRangeInsideTheCoarseRange) {
  std::vector<std::vector<double>> shapes = {
      {},                                  // no values
      std::vector<double>(500, 0.0),       // all zero
      std::vector<double>(500, -7.25),     // constant negative
      {1e15, -1e15, 0, 3},                 // huge range, few values
      {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()},
  };
  std::vector<double> mixed;
  for (int i = -300; i <= 300; ++i) mixed.push_back(i * 0.37);
  shapes.push_back(mixed);
  for (bool integer : {false, true}) {
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      for (std::uint64_t seed = 0; seed < 20; ++seed) {
        SeededRng rng(seed);
        auto accountant = Budget();
        BoundsOptions options{.epsilon = 1.0, .integer = integer};
        auto range = EstimateBounds(shapes[s], options, accountant, "x", "all", rng);
        ASSERT_TRUE(range.has_value()) << s;
        EXPECT_LE(range->lo, range->hi) << "shape " << s << " seed " << seed;
        EXPECT_GE(range->lo, options.coarse_min);
        EXPECT_LE(range->hi, options.coarse_max);
        if (integer) {
          EXPECT_EQ(range->lo, std::floor(range->lo));
          EXPECT_EQ(range->hi, std::floor(range->hi));
        }
      }
    }
  }
}

// 200,000 copies of 42 at ε = 1 (ε/4 = 0.25 per quantile, c = 0.125): the coarse bucket
// [32, 64) holds every record, far above the threshold (≈ 2·ln(107/0.001) ≈ 23); the cell of 42
// has utility 0 and every other cell loses at least q·n = 200 ranks, weight e^-25 each, so
// both quantiles land on 42 (failure probability < 32·e^-25 ≈ 5e-10 per run).
TEST(EstimateBoundsTest, ConstantIntegerColumnGivesItsValue) {
  const std::vector<double> values(200000, 42.0);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SeededRng rng(100 + seed);
    auto accountant = Budget();
    auto range = EstimateBounds(
        values, {.epsilon = 1.0, .method = BoundsMethod::kQuantiles, .coarse_fraction = 0.5,
                 .integer = true},
        accountant, "x", "all", rng);
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, 42) << seed;
    EXPECT_EQ(range->hi, 42) << seed;
  }
}

// The same for a real column: the cell of 42.0 is [42, 42 + 2^-10) on the grid over [32, 64]
// (width 2^(ilogb(32) + 1 − 16)), so lo = 42 and hi = 42 + 2^-10.
TEST(EstimateBoundsTest, ConstantRealColumnGivesItsCell) {
  const std::vector<double> values(200000, 42.0);
  SeededRng rng(7);
  auto accountant = Budget();
  auto range = EstimateBounds(values, kQuantiles(1.0), accountant, "x", "all", rng);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->lo, 42.0);
  EXPECT_EQ(range->hi, 42.0 + 0x1p-10);
}

// Extreme public ranges: nearly the whole double range, and a subnormal one.
TEST(EstimateBoundsTest, ExtremeCoarseRangesWork) {
  const std::vector<double> values = {1e300, -1e300, 0.0, 5e-324, 1e-310, 3.0};
  for (auto [lo, hi] : {std::pair{-8e307, 8e307}, std::pair{0.0, 1e-310},
                        std::pair{-1e-320, 1e-320}}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      SeededRng rng(seed);
      auto accountant = Budget();
      auto range = EstimateBounds(values, {.epsilon = 1.0, .coarse_min = lo, .coarse_max = hi},
                                  accountant, "x", "all", rng);
      ASSERT_TRUE(range.has_value()) << lo << " " << hi;
      EXPECT_LE(range->lo, range->hi);
      EXPECT_GE(range->lo, lo);
      EXPECT_LE(range->hi, hi);
    }
  }
}

// Zeros land in the "zero" bucket (−2^m, 2^m) of a real column, m = ilogb(9e15) − 100 = −48.
TEST(EstimateBoundsTest, AllZeroRealColumnStaysNearZero) {
  const std::vector<double> values(200000, 0.0);
  SeededRng rng(8);
  auto accountant = Budget();
  auto range = EstimateBounds(values, kQuantiles(1.0), accountant, "x", "all", rng);
  ASSERT_TRUE(range.has_value());
  EXPECT_LE(range->lo, 0.0);
  EXPECT_GE(range->hi, 0.0);
  EXPECT_LE(range->hi - range->lo, 0x1p-60);
}

}  // namespace
}  // namespace deniable
