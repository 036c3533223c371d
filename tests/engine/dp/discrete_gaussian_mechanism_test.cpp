// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/discrete_gaussian_mechanism.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/secure_sampling.h"
#include "tests/engine/dp/scripted_rng.h"

namespace deniable {
namespace {

TEST(DiscreteGaussianMechanismTest, VarianceComesFromRhoAndSensitivityRoundedUp) {
  auto mechanism = DiscreteGaussianMechanism::Create(/*rho=*/0.125, /*l2_sensitivity=*/1.0);
  ASSERT_TRUE(mechanism.has_value()) << mechanism.error().message;
  EXPECT_EQ(mechanism->sigma_squared(), 4.0);  // 1² / (2·0.125), exact
  EXPECT_EQ(mechanism->rho(), 0.125);
  // 3 histograms of the same rows: Δ2 = sqrt(3); ρ = 0.1 → σ² = 3/0.2 = 15 (rounded up).
  auto three = DiscreteGaussianMechanism::Create(0.1, std::sqrt(3.0));
  ASSERT_TRUE(three.has_value());
  EXPECT_GE(three->sigma_squared(), 15.0 * (1 - 1e-15));
  EXPECT_NEAR(three->sigma_squared(), 15.0, 1e-12);
  // ε at δ comes from the zCDP conversion of ρ.
  EXPECT_EQ(mechanism->EpsilonFor(1e-6).value(), ZcdpEpsilon(0.125, 1e-6).value());
}

TEST(DiscreteGaussianMechanismTest, RejectsBadParametersWithTheirValues) {
  auto negative = DiscreteGaussianMechanism::Create(-1.0, 1.0);
  ASSERT_FALSE(negative.has_value());
  EXPECT_NE(negative.error().message.find("rho must be finite and positive (got -1)"),
            std::string::npos);
  EXPECT_FALSE(DiscreteGaussianMechanism::Create(0.1, 0.0).has_value());
  EXPECT_FALSE(DiscreteGaussianMechanism::Create(std::nan(""), 1.0).has_value());
  // σ² = 1/(2·1e-20) = 5e19 > 2^56.
  auto tiny_rho = DiscreteGaussianMechanism::Create(1e-20, 1.0);
  ASSERT_FALSE(tiny_rho.has_value());
  EXPECT_NE(tiny_rho.error().message.find("outside the supported range"), std::string::npos);
  EXPECT_FALSE(DiscreteGaussianMechanism::Create(1e6, 1.0).has_value());  // σ² = 5e-7 < 2^-8
}

TEST(DiscreteGaussianMechanismTest, AddNoiseSaturatesAtTheInt64Range) {
  auto mechanism = DiscreteGaussianMechanism::Create(1e-12, 1.0).value();  // σ ≈ 7e5
  SeededRng rng(5);
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  bool saw_top = false;
  bool saw_bottom = false;
  for (int i = 0; i < 50; ++i) {
    const std::int64_t high = mechanism.AddNoise(kMax, rng);
    const std::int64_t low = mechanism.AddNoise(kMin, rng);
    EXPECT_LE(high, kMax);
    EXPECT_GE(low, kMin);
    saw_top = saw_top || high == kMax;
    saw_bottom = saw_bottom || low == kMin;
  }
  EXPECT_TRUE(saw_top);  // half the draws are >= 0 and saturate
  EXPECT_TRUE(saw_bottom);
}

TEST(DiscreteGaussianMechanismTest, SamplesAreIntegersCenteredOnTheCount) {
  auto mechanism = DiscreteGaussianMechanism::Create(0.5, 1.0).value();  // σ = 1
  SeededRng rng(11);
  int within_five = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t noisy = mechanism.AddNoise(100, rng);
    within_five += std::llabs(noisy - 100) <= 5 ? 1 : 0;
  }
  // Pr[|Z| > 5] for σ = 1 is about 6e-7: all 1000 draws are within 5.
  EXPECT_EQ(within_five, 1000);
}

TEST(SampleBernoulliExpWideTest, EdgeCasesAreExact) {
  SeededRng rng(3);
  const Uint128 big = (static_cast<Uint128>(1) << 120) + 12345;
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(SampleBernoulliExpWide(0, big, rng));  // exp(0) = 1
    // γ ≈ 2^26: exp(−γ) is 0 to every precision; the exp(−1) factors fail within a few draws.
    EXPECT_FALSE(SampleBernoulliExpWide(big << 6, big >> 20, rng));
  }
  // A fraction: long division of 1/3 = 0.0101…₂ compared with random bits. The all-zero word
  // is below it (the γ-Bernoulli succeeds), the all-one word above it (it fails).
  test_support::ScriptedRng ones({}, ~std::uint64_t{0});
  // γ-Bernoulli fails at once → K = 1 → odd → true.
  EXPECT_TRUE(SampleBernoulliExpWide(1, 3, ones));
}

}  // namespace
}  // namespace deniable
