// SPDX-License-Identifier: Apache-2.0
// The discrete Gaussian sampler against its exact probability mass function, and the 128-bit
// exact Bernoulli(exp(−γ)) it relies on. Tolerances: binomial_check.h (5σ + 1 per count).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>

#include "engine/core/int128.h"
#include "engine/dp/discrete_gaussian_mechanism.h"
#include "engine/dp/secure_sampling.h"
#include "tests/engine/dp/binomial_check.h"

namespace deniable {
namespace {

using test_support::CountMatchesProbability;

// Pr[Z = z] = exp(−z²/(2σ²)) / Σ_y exp(−y²/(2σ²)), the sum over |y| <= 40σ + 40 (the rest is
// below 1e-300).
double Pmf(double sigma_squared, std::int64_t z) {
  const double sigma = std::sqrt(sigma_squared);
  const auto limit = static_cast<std::int64_t>(40 * sigma + 40);
  double total = 0;
  for (std::int64_t y = -limit; y <= limit; ++y) {
    total += std::exp(-static_cast<double>(y * y) / (2 * sigma_squared));
  }
  return std::exp(-static_cast<double>(z * z) / (2 * sigma_squared)) / total;
}

TEST(DiscreteGaussianStatisticalTest, FrequenciesMatchTheExactMass) {
  constexpr std::uint64_t kDraws = 400'000;
  // 0.3 (a non-dyadic σ² below 1, t = 1), 2 (exact), 12.7 (σ between integers), 1e4.
  for (double sigma_squared : {0.3, 2.0, 12.7, 1e4}) {
    SeededRng rng(static_cast<std::uint64_t>(sigma_squared * 1000) + 17);
    std::map<std::int64_t, std::uint64_t> counts;
    double sum_of_squares = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) {
      const std::int64_t z = SampleDiscreteGaussian(sigma_squared, rng);
      ++counts[z];
      sum_of_squares += static_cast<double>(z) * static_cast<double>(z);
    }
    const double sigma = std::sqrt(sigma_squared);
    if (sigma_squared < 100) {
      for (std::int64_t z = -static_cast<std::int64_t>(4 * sigma) - 1;
           z <= static_cast<std::int64_t>(4 * sigma) + 1; ++z) {
        EXPECT_TRUE(CountMatchesProbability(counts[z], kDraws, Pmf(sigma_squared, z)))
            << "σ² = " << sigma_squared << ", z = " << z;
      }
    } else {
      // Bins of width σ/4 over ±3σ (a pmf per integer would be too thin to test).
      const auto width = static_cast<std::int64_t>(sigma / 4);
      for (std::int64_t low = -12 * width; low < 12 * width; low += width) {
        std::uint64_t in_bin = 0;
        double p = 0;
        for (std::int64_t z = low; z < low + width; ++z) {
          in_bin += counts.count(z) ? counts[z] : 0;
          p += Pmf(sigma_squared, z);
        }
        EXPECT_TRUE(CountMatchesProbability(in_bin, kDraws, p))
            << "σ² = " << sigma_squared << ", bin from " << low;
      }
    }
    // For σ >= 1 the variance of N_Z(0, σ²) is within a hair of σ² (CKS §2); the estimate's
    // own relative sd is sqrt(2/400000) = 0.22%, so 1.2% is over 5 sd.
    const double variance = sum_of_squares / kDraws;
    if (sigma_squared >= 1) {
      EXPECT_NEAR(variance / sigma_squared, 1.0, 0.012) << sigma_squared;
    }
  }
}

TEST(SampleBernoulliExpWideStatisticalTest, RatesMatchForHundredBitRationals) {
  constexpr std::uint64_t kDraws = 1'000'000;
  SeededRng rng(401);
  const Uint128 unit = static_cast<Uint128>(1) << 100;
  // γ = (3·2^100 + 7) / (5·2^100 + 3) ≈ 0.6, and (17·2^100 + 1) / (7·2^100) ≈ 2.43.
  const std::pair<Uint128, Uint128> fractions[] = {{3 * unit + 7, 5 * unit + 3},
                                                   {17 * unit + 1, 7 * unit}};
  const double gammas[] = {0.6, 17.0 / 7.0};
  for (int i = 0; i < 2; ++i) {
    std::uint64_t hits = 0;
    for (std::uint64_t k = 0; k < kDraws; ++k) {
      hits += SampleBernoulliExpWide(fractions[i].first, fractions[i].second, rng) ? 1 : 0;
    }
    EXPECT_TRUE(CountMatchesProbability(hits, kDraws, std::exp(-gammas[i]))) << "case " << i;
  }
}

}  // namespace
}  // namespace deniable
