// SPDX-License-Identifier: Apache-2.0
// Unit tests of the exact samplers: exactness at chosen random words (ScriptedRng), edge
// parameters, and the discretised Laplace's granularity. Distributions: the statistical test.
#include "engine/dp/secure_sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "tests/engine/dp/scripted_rng.h"

namespace deniable {
namespace {

using test_support::ScriptedRng;

// p = 0.25 + 2^-54: its first 64-bit expansion word is 0x4000000000000400 and the rest is 0,
// so U < p exactly when U's first word is below that.
TEST(SampleBernoulliTest, ComparesTheExactBinaryExpansion) {
  const double p = 0.25 + 0x1p-54;
  ScriptedRng below({0x40000000000003FFULL});
  EXPECT_TRUE(SampleBernoulli(p, below));
  ScriptedRng equal({0x4000000000000400ULL});
  EXPECT_FALSE(SampleBernoulli(p, equal));  // U >= p: the remaining bits of p are 0
  EXPECT_EQ(equal.calls(), 1u);
  ScriptedRng above({0x4000000000000401ULL});
  EXPECT_FALSE(SampleBernoulli(p, above));
}

// p = 2^-100 lives in the second word (bit 2^28 of it): a first word of 0 defers the decision.
TEST(SampleBernoulliTest, TinyProbabilitiesUseLaterWords) {
  ScriptedRng hit({0, (std::uint64_t{1} << 28) - 1});
  EXPECT_TRUE(SampleBernoulli(0x1p-100, hit));
  EXPECT_EQ(hit.calls(), 2u);
  ScriptedRng miss({0, std::uint64_t{1} << 28});
  EXPECT_FALSE(SampleBernoulli(0x1p-100, miss));
  ScriptedRng subnormal({0}, 0);  // U = 0 < 2^-1074
  EXPECT_TRUE(SampleBernoulli(std::numeric_limits<double>::denorm_min(), subnormal));
  EXPECT_EQ(subnormal.calls(), 17u);  // 2^-1074 is in word 16 (bits 1025..1088)
}

TEST(SampleBernoulliTest, HandlesTheEndsAndNaN) {
  SeededRng rng(1);
  EXPECT_FALSE(SampleBernoulli(0.0, rng));
  EXPECT_TRUE(SampleBernoulli(1.0, rng));
  EXPECT_TRUE(SampleBernoulli(2.0, rng));
  EXPECT_FALSE(SampleBernoulli(-1.0, rng));
  EXPECT_FALSE(SampleBernoulli(std::nan(""), rng));
}

TEST(SampleBernoulliExpTest, ZeroIsCertainAndInfinityImpossible) {
  SeededRng rng(2);
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(SampleBernoulliExp(0.0, rng));
    EXPECT_TRUE(SampleBernoulliExp(std::uint64_t{0}, std::uint64_t{5}, rng));
    EXPECT_FALSE(SampleBernoulliExp(std::numeric_limits<double>::infinity(), rng));
  }
}

// exp(-2^70) and exp(-1e300) are 0 for any practical purpose; the halving recursion must end
// quickly and never overflow.
TEST(SampleBernoulliExpTest, HugeArgumentsAreFalseAndFast) {
  SeededRng rng(3);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(SampleBernoulliExp(0x1p70, rng));
    EXPECT_FALSE(SampleBernoulliExp(1e300, rng));
    EXPECT_FALSE(SampleBernoulliExp(std::numeric_limits<double>::max(), rng));
    EXPECT_FALSE(SampleBernoulliExp(std::uint64_t{1} << 62, std::uint64_t{1}, rng));
  }
}

// CKS Algorithm 1 for γ = 0.5: K is the first k with Bernoulli(γ/k) = 0, drawn as
// Bernoulli(γ) AND Bernoulli(1/k); the answer is "K odd".
TEST(SampleBernoulliExpTest, FollowsCksAlgorithmOne) {
  // U = 0 passes Bernoulli(γ) (and Bernoulli(1/1) is certain), so K reaches 2; U = all ones
  // then fails Bernoulli(γ): K = 2, even, false.
  ScriptedRng even({0, ~std::uint64_t{0}});
  EXPECT_FALSE(SampleBernoulliExp(0.5, even));
  // U = all ones fails Bernoulli(γ) at once: K = 1, true.
  ScriptedRng odd({~std::uint64_t{0}});
  EXPECT_TRUE(SampleBernoulliExp(0.5, odd));
}

TEST(SampleLaplaceCdfAtIntegerTest, FairCoinDecidesTheHalfFirst) {
  // A first word with the top bit clear is "tails": true for j >= 0, false for j < 0.
  ScriptedRng tails_positive({0});
  EXPECT_TRUE(SampleLaplaceCdfAtInteger(3, 0.5, tails_positive));
  ScriptedRng tails_negative({0});
  EXPECT_FALSE(SampleLaplaceCdfAtInteger(-3, 0.5, tails_negative));
  // Heads at j = 0: B = exp(0) = 1, so the answer is false (Pr[L <= 0] = 1/2 exactly).
  ScriptedRng heads({~std::uint64_t{0}});
  EXPECT_FALSE(SampleLaplaceCdfAtInteger(0, 0.5, heads));
}

TEST(SampleLaplaceCdfAtIntegerTest, ExtremeIntegersDoNotOverflow) {
  SeededRng rng(4);
  int true_count = 0;
  for (int i = 0; i < 2000; ++i) {
    // |j|·ε0 ≈ 9e18: exp(-|j|ε0) is 0, so j = min is false and j = max is true.
    EXPECT_FALSE(SampleLaplaceCdfAtInteger(std::numeric_limits<std::int64_t>::min(), 1.0, rng));
    EXPECT_TRUE(SampleLaplaceCdfAtInteger(std::numeric_limits<std::int64_t>::max(), 1.0, rng));
    true_count += SampleLaplaceCdfAtInteger(0, 1e-300, rng) ? 1 : 0;
  }
  // Pr = 1/2 at j = 0: 2000 fair coins lie within 1000 ± 5·sqrt(500) = ±112.
  EXPECT_NEAR(true_count, 1000, 112);
}

TEST(SampleDiscreteLaplaceTest, TinyScaleIsAlmostSurelyZero) {
  SeededRng rng(5);
  // Pr[X != 0] = 2e^{-2^40}/(1 + e^{-2^40}): zero for any practical purpose.
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(SampleDiscreteLaplace(kMinDiscreteLaplaceScale, rng), 0);
}

TEST(SampleDiscreteLaplaceTest, OutOfRangeScalesAreClampedNotFatal) {
  SeededRng rng(6);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(SampleDiscreteLaplace(1e-300, rng), 0);   // clamped up to 2^-40
    (void)SampleDiscreteLaplace(std::nan(""), rng);      // becomes the maximum scale
    (void)SampleDiscreteLaplace(1e300, rng);
  }
}

TEST(SampleDiscreteLaplaceTest, LargeScalesGiveLargeValuesBothSigns) {
  SeededRng rng(7);
  int positive = 0;
  int negative = 0;
  double sum_abs = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t x = SampleDiscreteLaplace(0x1p50, rng);
    positive += x > 0;
    negative += x < 0;
    sum_abs += std::fabs(static_cast<double>(x));
  }
  // E|X| ≈ scale for a large scale; 2000 draws put the mean within ±12% (5σ, σ = scale/√2000).
  EXPECT_NEAR(sum_abs / 2000 / 0x1p50, 1.0, 0.12);
  EXPECT_NEAR(positive, 1000, 112);  // 5σ of a fair coin
  EXPECT_EQ(positive + negative, 2000);
}

TEST(LaplaceGranularityTest, IsThePowerOfTwoJustAboveScaleTimesTwoToMinus40) {
  EXPECT_EQ(LaplaceGranularity(1.0), 0x1p-40);
  EXPECT_EQ(LaplaceGranularity(0x1p10), 0x1p-30);
  EXPECT_EQ(LaplaceGranularity(3.0), 0x1p-38);  // 3·2^-40 rounds up to 4·2^-40
  EXPECT_EQ(LaplaceGranularity(0.7), 0x1p-40);
  for (double scale : {1e-100, 0.3, 2.0, 5.5, 1e6, 1e100}) {
    const double g = LaplaceGranularity(scale);
    EXPECT_GE(scale / g, 0x1p39) << scale;
    EXPECT_LE(scale / g, 0x1p40) << scale;
  }
}

TEST(AddDiscretizedLaplaceTest, OutputIsAMultipleOfTheGranularity) {
  SeededRng rng(8);
  const double scale = 3.0;
  const double g = LaplaceGranularity(scale);
  for (double value : {0.0, 1.0 / 3.0, -12345.678, 1e15}) {
    for (int i = 0; i < 50; ++i) {
      const double noisy = AddDiscretizedLaplace(value, scale, rng);
      EXPECT_EQ(std::fmod(noisy, g), 0.0) << value;
      EXPECT_LT(std::fabs(noisy - value), 60 * scale) << value;  // Pr = e^-60
    }
  }
}

TEST(AddDiscretizedLaplaceTest, ClampsHugeValuesInsteadOfOverflowing) {
  SeededRng rng(9);
  const double limit = std::ldexp(LaplaceGranularity(1.0), 100);
  const double noisy = AddDiscretizedLaplace(std::numeric_limits<double>::infinity(), 1.0, rng);
  EXPECT_TRUE(std::isfinite(noisy));
  EXPECT_NEAR(noisy, limit, 100.0);
}

}  // namespace
}  // namespace deniable
