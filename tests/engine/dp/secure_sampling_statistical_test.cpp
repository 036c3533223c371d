// SPDX-License-Identifier: Apache-2.0
// Distribution checks of the exact samplers with fixed seeds; tolerances are 5σ per value
// (binomial_check.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "engine/dp/exact_weighted_choice.h"
#include "engine/dp/secure_sampling.h"
#include "tests/engine/dp/binomial_check.h"

namespace deniable {
namespace {

using test_support::CountMatchesProbability;

// Pr[X = x] = (1 − α)/(1 + α)·α^|x|, α = e^{−1/s}. Every value with n·p >= 20 is checked at
// 5σ, and the mass of all other values together as one more cell.
void CheckDiscreteLaplacePmf(double scale, std::uint64_t seed) {
  constexpr std::uint64_t kDraws = 1'000'000;
  SeededRng rng(seed);
  std::map<std::int64_t, std::uint64_t> counts;
  for (std::uint64_t i = 0; i < kDraws; ++i) ++counts[SampleDiscreteLaplace(scale, rng)];
  const double alpha = std::exp(-1.0 / scale);
  auto pmf = [&](std::int64_t x) {
    return (1 - alpha) / (1 + alpha) * std::pow(alpha, std::fabs(static_cast<double>(x)));
  };
  double checked_mass = 0;
  std::uint64_t checked_count = 0;
  int checked_values = 0;
  for (std::int64_t x = -1000; x <= 1000; ++x) {
    const double p = pmf(x);
    if (p * kDraws < 20) continue;
    EXPECT_TRUE(CountMatchesProbability(counts[x], kDraws, p)) << "scale " << scale << " x " << x;
    checked_mass += p;
    checked_count += counts[x];
    ++checked_values;
  }
  EXPECT_GE(checked_values, 3) << scale;
  EXPECT_TRUE(CountMatchesProbability(kDraws - checked_count, kDraws, 1 - checked_mass))
      << "tail of scale " << scale;
}

TEST(SampleDiscreteLaplaceStatisticalTest, PmfMatchesForNonDyadicScale) {
  CheckDiscreteLaplacePmf(0.7, 101);  // 0.7 = t/2^k with a 53-bit t
}
TEST(SampleDiscreteLaplaceStatisticalTest, PmfMatchesForUnitScale) {
  CheckDiscreteLaplacePmf(1.0, 102);  // t = 1: U is always 0
}
TEST(SampleDiscreteLaplaceStatisticalTest, PmfMatchesForLargerScales) {
  CheckDiscreteLaplacePmf(2.5, 103);
  CheckDiscreteLaplacePmf(12.0, 104);
}
TEST(SampleDiscreteLaplaceStatisticalTest, PmfMatchesForSmallScale) {
  CheckDiscreteLaplacePmf(1.0 / 3.0, 105);  // mostly 0: Pr[0] = (1 − e^-3)/(1 + e^-3)
}

// Variance of the discrete Laplace at a large non-dyadic scale s = 1000.3: 2α/(1 − α)²
// ≈ 2s² − 1/6. The sample mean of X² over n draws has σ = sqrt((E X⁴ − (E X²)²)/n), with
// E X⁴ ≈ 24 s⁴: 5σ = 5·sqrt(20/n)·s², 2.5% of 2s² at n = 200,000.
TEST(SampleDiscreteLaplaceStatisticalTest, VarianceAtLargeScale) {
  constexpr int kDraws = 200'000;
  const double scale = 1000.3;
  SeededRng rng(106);
  double sum = 0;
  double sum_squares = 0;
  for (int i = 0; i < kDraws; ++i) {
    const auto x = static_cast<double>(SampleDiscreteLaplace(scale, rng));
    sum += x;
    sum_squares += x * x;
  }
  const double alpha = std::exp(-1.0 / scale);
  const double variance = 2 * alpha / ((1 - alpha) * (1 - alpha));
  EXPECT_NEAR(sum_squares / kDraws, variance, 5 * std::sqrt(20.0 / kDraws) * scale * scale);
  EXPECT_NEAR(sum / kDraws, 0.0, 5 * std::sqrt(variance / kDraws));
}

TEST(SampleBernoulliExpStatisticalTest, RatesMatchExpOfMinusX) {
  constexpr std::uint64_t kDraws = 1'000'000;
  SeededRng rng(107);
  for (double x : {0.1, 1.0 / 3.0, 0.5, 1.0, 1.7, 3.25, 7.3}) {
    std::uint64_t hits = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) hits += SampleBernoulliExp(x, rng) ? 1 : 0;
    EXPECT_TRUE(CountMatchesProbability(hits, kDraws, std::exp(-x))) << "x = " << x;
  }
}

TEST(SampleBernoulliExpStatisticalTest, RationalRatesMatch) {
  constexpr std::uint64_t kDraws = 1'000'000;
  SeededRng rng(108);
  const std::pair<std::uint64_t, std::uint64_t> fractions[] = {
      {1, 3}, {10, 7}, {5, 2}, {123456789, 100000000}, {1, 1}};
  for (auto [numerator, denominator] : fractions) {
    std::uint64_t hits = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) {
      hits += SampleBernoulliExp(numerator, denominator, rng) ? 1 : 0;
    }
    const double p = std::exp(-static_cast<double>(numerator) / static_cast<double>(denominator));
    EXPECT_TRUE(CountMatchesProbability(hits, kDraws, p)) << numerator << "/" << denominator;
  }
}

TEST(SampleBernoulliStatisticalTest, RatesMatch) {
  constexpr std::uint64_t kDraws = 1'000'000;
  SeededRng rng(109);
  for (double p : {0.3, 1.0 / 3.0, 1e-3, 0.999}) {
    std::uint64_t hits = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) hits += SampleBernoulli(p, rng) ? 1 : 0;
    EXPECT_TRUE(CountMatchesProbability(hits, kDraws, p)) << "p = " << p;
  }
}

// Pr[Lap(1/ε0) <= j] = 1 − e^{−jε0}/2 for j >= 0, e^{jε0}/2 for j < 0.
TEST(SampleLaplaceCdfAtIntegerStatisticalTest, RatesMatchTheLaplaceCdf) {
  constexpr std::uint64_t kDraws = 200'000;
  SeededRng rng(110);
  for (double epsilon0 : {0.5, 1.0 / 3.0, 2.0}) {
    for (std::int64_t j : {-5, -1, 0, 1, 3, 10}) {
      std::uint64_t hits = 0;
      for (std::uint64_t i = 0; i < kDraws; ++i) {
        hits += SampleLaplaceCdfAtInteger(j, epsilon0, rng) ? 1 : 0;
      }
      const double e = std::exp(-std::fabs(static_cast<double>(j)) * epsilon0) / 2;
      const double p = j >= 0 ? 1 - e : e;
      EXPECT_TRUE(CountMatchesProbability(hits, kDraws, p)) << "j " << j << " ε0 " << epsilon0;
    }
  }
}

TEST(SampleProportionalStatisticalTest, FrequenciesMatchWeights) {
  constexpr std::uint64_t kDraws = 1'000'000;
  const std::vector<double> weights = {1.0, 2.0, 3.0, 0.0, 4e-3, 1e-300, 0.1};
  double total = 0;
  for (double w : weights) total += w;
  SeededRng rng(111);
  std::vector<std::uint64_t> counts(weights.size(), 0);
  for (std::uint64_t i = 0; i < kDraws; ++i) ++counts[SampleProportional(weights, rng)];
  for (std::size_t i = 0; i < weights.size(); ++i) {
    EXPECT_TRUE(CountMatchesProbability(counts[i], kDraws, weights[i] / total)) << i;
  }
}

}  // namespace
}  // namespace deniable
