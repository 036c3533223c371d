// SPDX-License-Identifier: Apache-2.0
// Unit tests of the Laplace, geometric and exponential mechanisms: parameter validation, the
// noise scales they choose, and behaviour that holds with certainty (or probability 1 - e^-500).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/dp/exponential_mechanism.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/dp/laplace_mechanism.h"
#include "engine/dp/secure_sampling.h"

namespace deniable {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(LaplaceMechanismTest, RejectsInvalidEpsilon) {
  for (double epsilon : {0.0, -1.0, kNaN, kInf, -kInf, 0x1p-31}) {
    auto mechanism = LaplaceMechanism::Create(epsilon, 1.0);
    ASSERT_FALSE(mechanism.has_value()) << epsilon;
    EXPECT_EQ(mechanism.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(mechanism.error().message.find("epsilon"), std::string::npos);
  }
}

TEST(LaplaceMechanismTest, RejectsInvalidSensitivity) {
  for (double sensitivity : {0.0, -2.0, kNaN, kInf}) {
    auto mechanism = LaplaceMechanism::Create(1.0, sensitivity);
    ASSERT_FALSE(mechanism.has_value()) << sensitivity;
    EXPECT_NE(mechanism.error().message.find("l1_sensitivity"), std::string::npos);
  }
  auto too_large = LaplaceMechanism::Create(1.0, 1e200);  // scale 1e200 > 2^500 ≈ 3.3e150
  ASSERT_FALSE(too_large.has_value());
  EXPECT_NE(too_large.error().message.find("outside the supported range"), std::string::npos);
}

TEST(LaplaceMechanismTest, MessageNamesTheValue) {
  auto mechanism = LaplaceMechanism::Create(-1.0, 1.0);
  ASSERT_FALSE(mechanism.has_value());
  EXPECT_EQ(mechanism.error().message, "epsilon must be finite and positive (got -1)");
}

// The scale covers the discretisation: (Δ + g)/b <= ε with g = LaplaceGranularity(b), so the
// privacy loss is exactly the ε asked for.
TEST(LaplaceMechanismTest, ScaleCoversTheGranularity) {
  for (double epsilon : {1.0, 0.1, 3.7, 0x1p-30, 1e-3}) {
    for (double sensitivity : {1.0, 0.25, 7.0, 1e-6}) {
      auto mechanism = LaplaceMechanism::Create(epsilon, sensitivity);
      ASSERT_TRUE(mechanism.has_value()) << epsilon << " " << sensitivity;
      EXPECT_EQ(mechanism->PrivacyLoss(), epsilon);
      EXPECT_EQ(mechanism->granularity(), LaplaceGranularity(mechanism->scale()));
      // b·ε >= Δ + g, checked exactly with fma (sign of b·ε − Δ − g).
      const double g = mechanism->granularity();
      EXPECT_GE(std::fma(mechanism->scale(), epsilon, -sensitivity), g);
      // ...and b is not needlessly large: b <= (Δ + 2g)/ε.
      EXPECT_LE(mechanism->scale() * epsilon, (sensitivity + 2 * g) * (1 + 1e-15));
    }
  }
}

TEST(LaplaceMechanismTest, AddsNoiseOnTheGranularityGrid) {
  auto mechanism = LaplaceMechanism::Create(1.0, 1.0);
  ASSERT_TRUE(mechanism.has_value());
  SeededRng rng(11);
  for (int i = 0; i < 100; ++i) {
    const double noisy = mechanism->AddNoise(2.5, rng);
    EXPECT_EQ(std::fmod(noisy, mechanism->granularity()), 0.0);
  }
}

TEST(GeometricMechanismTest, RejectsInvalidParameters) {
  for (double epsilon : {0.0, -0.5, kNaN, kInf}) {
    EXPECT_FALSE(GeometricMechanism::Create(epsilon, 1).has_value()) << epsilon;
  }
  for (std::int64_t sensitivity : {std::int64_t{0}, std::int64_t{-3},
                                   (std::int64_t{1} << 53) + 1}) {
    auto mechanism = GeometricMechanism::Create(1.0, sensitivity);
    ASSERT_FALSE(mechanism.has_value()) << sensitivity;
    EXPECT_NE(mechanism.error().message.find(std::to_string(sensitivity)), std::string::npos);
  }
  auto tiny = GeometricMechanism::Create(1e-20, 1);  // scale 1e20 > 2^56
  ASSERT_FALSE(tiny.has_value());
  EXPECT_NE(tiny.error().message.find("too small"), std::string::npos);
}

TEST(GeometricMechanismTest, ScaleIsSensitivityOverEpsilonRoundedUp) {
  EXPECT_EQ(GeometricMechanism::Create(0.5, 1)->scale(), 2.0);
  EXPECT_EQ(GeometricMechanism::Create(0.25, 3)->scale(), 12.0);
  const double scale = GeometricMechanism::Create(0.1, 1)->scale();
  EXPECT_GE(std::fma(scale, 0.1, -1.0), 0.0);  // b·ε >= Δ exactly
  EXPECT_EQ(GeometricMechanism::Create(0.1, 1)->PrivacyLoss(), 0.1);
  // ε above 2^40·Δ: the scale is raised to the sampler's minimum (more noise, still ε-DP).
  EXPECT_EQ(GeometricMechanism::Create(1e15, 1)->scale(), kMinDiscreteLaplaceScale);
}

TEST(GeometricMechanismTest, SaturatesInsteadOfOverflowing) {
  auto mechanism = GeometricMechanism::Create(1e-3, 1);
  ASSERT_TRUE(mechanism.has_value());
  SeededRng rng(12);
  bool saw_max = false;
  bool saw_min = false;
  for (int i = 0; i < 200; ++i) {
    const std::int64_t high = mechanism->AddNoise(std::numeric_limits<std::int64_t>::max(), rng);
    const std::int64_t low = mechanism->AddNoise(std::numeric_limits<std::int64_t>::min(), rng);
    saw_max |= high == std::numeric_limits<std::int64_t>::max();
    saw_min |= low == std::numeric_limits<std::int64_t>::min();
    EXPECT_GT(high, std::numeric_limits<std::int64_t>::max() - 100000);
    EXPECT_LT(low, std::numeric_limits<std::int64_t>::min() + 100000);
  }
  EXPECT_TRUE(saw_max);  // half the draws are >= 0 and saturate
  EXPECT_TRUE(saw_min);
}

TEST(ExponentialMechanismTest, RejectsInvalidParameters) {
  for (double epsilon : {0.0, -1.0, kNaN, kInf}) {
    EXPECT_FALSE(ExponentialMechanism::Create(epsilon, 1.0).has_value()) << epsilon;
  }
  for (double sensitivity : {0.0, -1.0, kNaN, kInf}) {
    auto mechanism = ExponentialMechanism::Create(1.0, sensitivity);
    ASSERT_FALSE(mechanism.has_value()) << sensitivity;
    EXPECT_NE(mechanism.error().message.find("sensitivity"), std::string::npos);
  }
}

// c = (ε − 2^-40)/(2Δ), or /Δ when monotonic, rounded down.
TEST(ExponentialMechanismTest, ExponentFactorLeavesTheFloatingPointSlack) {
  const auto general = ExponentialMechanism::Create(1.0, 2.0).value();
  EXPECT_EQ(general.exponent_factor(), (1.0 - 0x1p-40) / 4.0);
  EXPECT_EQ(general.PrivacyLoss(), 1.0);
  const auto monotonic = ExponentialMechanism::Create(1.0, 2.0, /*monotonic=*/true).value();
  EXPECT_EQ(monotonic.exponent_factor(), (1.0 - 0x1p-40) / 2.0);
  // ε below the slack: the mechanism degrades to a uniform choice (0-DP), never fails.
  EXPECT_EQ(ExponentialMechanism::Create(0x1p-41, 1.0)->exponent_factor(), 0.0);
}

// Range-bounded (exponential_mechanism.md §1b): c = (ε − 2^-40)/R rounded down; R = Δ is the
// monotonic form and R = 2Δ the general one.
TEST(ExponentialMechanismTest, RangeBoundedExponentIsEpsilonOverTheRange) {
  const auto bounded = ExponentialMechanism::CreateRangeBounded(1.0, 1.1).value();
  EXPECT_LE(bounded.exponent_factor(), (1.0 - 0x1p-40) / 1.1);
  EXPECT_GT(bounded.exponent_factor(), (1.0 - 0x1p-40) / 1.1 * (1 - 1e-15));
  EXPECT_LE(bounded.exponent_factor() * 1.1, 1.0 - 0x1p-40);  // c·R <= ε − η
  EXPECT_EQ(bounded.PrivacyLoss(), 1.0);
  EXPECT_EQ(ExponentialMechanism::CreateRangeBounded(0.7, 3.0)->exponent_factor(),
            ExponentialMechanism::Create(0.7, 3.0, /*monotonic=*/true)->exponent_factor());
  EXPECT_EQ(ExponentialMechanism::CreateRangeBounded(0.7, 6.0)->exponent_factor(),
            ExponentialMechanism::Create(0.7, 3.0)->exponent_factor());
  for (double range : {0.0, -1.0, kNaN, kInf}) {
    auto mechanism = ExponentialMechanism::CreateRangeBounded(1.0, range);
    ASSERT_FALSE(mechanism.has_value()) << range;
    EXPECT_NE(mechanism.error().message.find("range"), std::string::npos);
  }
  EXPECT_FALSE(ExponentialMechanism::CreateRangeBounded(kNaN, 1.0).has_value());
}

TEST(ExponentialMechanismTest, SingleCandidateIsChosen) {
  SeededRng rng(13);
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();
  const std::vector<double> one = {-5.0};
  EXPECT_EQ(mechanism.Select(one, rng), 0u);
}

// A utility gap of 1000 at ε = 1, Δ = 1 gives the losers weight e^-500 (clamped at e^-700
// would be smaller still): the best candidate wins every time.
TEST(ExponentialMechanismTest, ClearWinnerIsChosen) {
  SeededRng rng(14);
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();
  const std::vector<double> utilities = {0.0, 1000.0, -1e300, 3.0};
  for (int i = 0; i < 200; ++i) EXPECT_EQ(mechanism.Select(utilities, rng), 1u);
}

TEST(ExponentialMechanismTest, ZeroMultiplicityIsNeverChosen) {
  SeededRng rng(15);
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();
  const std::vector<double> utilities = {100.0, 0.0, 0.0, 100.0};
  const std::vector<std::uint64_t> multiplicities = {0, 3, 1, 0};
  for (int i = 0; i < 500; ++i) {
    const std::size_t chosen = mechanism.SelectWithMultiplicity(utilities, multiplicities, rng);
    EXPECT_TRUE(chosen == 1 || chosen == 2) << chosen;
  }
}

}  // namespace
}  // namespace deniable
