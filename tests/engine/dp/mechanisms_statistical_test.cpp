// SPDX-License-Identifier: Apache-2.0
// Calibration of the mechanisms with fixed seeds: Laplace variance 2b², geometric
// unbiasedness, exponential-mechanism frequencies against the exact probabilities, partition
// selection keep rates. Tolerances: 5σ (binomial_check.h or derived in each comment).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/dp/exponential_mechanism.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/dp/laplace_mechanism.h"
#include "engine/dp/partition_selection.h"
#include "tests/engine/dp/binomial_check.h"

namespace deniable {
namespace {

using test_support::CountMatchesProbability;

// Laplace(b): E X = 0, E X² = 2b², Var(X²) = E X⁴ − (E X²)² = 24b⁴ − 4b⁴ = 20b⁴. With
// n = 400,000 draws: 5σ of the mean of X² is 5·sqrt(20/n)·b² (1.8% of 2b²), of the mean
// 5·sqrt(2/n)·b. The discretisation (granularity 2^-40·b) is far below both.
TEST(LaplaceMechanismStatisticalTest, VarianceIsTwoScaleSquared) {
  constexpr int kDraws = 400'000;
  const auto mechanism = LaplaceMechanism::Create(0.5, 1.0).value();
  const double b = mechanism.scale();
  SeededRng rng(201);
  const double value = 10.3;
  double sum = 0;
  double sum_squares = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double noise = mechanism.AddNoise(value, rng) - value;
    sum += noise;
    sum_squares += noise * noise;
  }
  EXPECT_NEAR(sum_squares / kDraws, 2 * b * b, 5 * std::sqrt(20.0 / kDraws) * b * b);
  EXPECT_NEAR(sum / kDraws, 0.0, 5 * std::sqrt(2.0 / kDraws) * b);
}

// Two-sided geometric on a count of 1000 at ε = 0.3 (b = 1/0.3): E = 1000, Var = 2α/(1 − α)²
// with α = e^{−1/b}; 5σ of the mean over n = 400,000 draws is 5·sqrt(Var/n).
TEST(GeometricMechanismStatisticalTest, IsUnbiasedWithTheDiscreteLaplaceVariance) {
  constexpr int kDraws = 400'000;
  const auto mechanism = GeometricMechanism::Create(0.3, 1).value();
  const double alpha = std::exp(-1.0 / mechanism.scale());
  const double variance = 2 * alpha / ((1 - alpha) * (1 - alpha));
  SeededRng rng(202);
  double sum = 0;
  double sum_squares = 0;
  for (int i = 0; i < kDraws; ++i) {
    const auto noisy = static_cast<double>(mechanism.AddNoise(1000, rng));
    sum += noisy;
    sum_squares += (noisy - 1000) * (noisy - 1000);
  }
  EXPECT_NEAR(sum / kDraws, 1000.0, 5 * std::sqrt(variance / kDraws));
  // Var(X²) <= E X⁴ ≈ 24 b⁴ for the discrete Laplace as for the continuous one (within 1%).
  const double b = mechanism.scale();
  EXPECT_NEAR(sum_squares / kDraws, variance, 5 * std::sqrt(24.0 / kDraws) * b * b);
}

// Exact probabilities p_i = exp(c·(u_i − max u))/Σ exp(c·(u_j − max u)) with c = mechanism.exponent_factor();
// each frequency over 10^6 draws within 5σ.
void CheckExponentialFrequencies(const ExponentialMechanism& mechanism,
                                 const std::vector<double>& utilities,
                                 const std::vector<std::uint64_t>& multiplicities,
                                 std::uint64_t seed) {
  constexpr std::uint64_t kDraws = 1'000'000;
  const double c = mechanism.exponent_factor();
  const double top = *std::max_element(utilities.begin(), utilities.end());
  std::vector<double> weights;
  double total = 0;
  for (std::size_t i = 0; i < utilities.size(); ++i) {
    const double m = multiplicities.empty() ? 1.0 : static_cast<double>(multiplicities[i]);
    weights.push_back(m * std::exp(c * (utilities[i] - top)));
    total += weights.back();
  }
  SeededRng rng(seed);
  std::vector<std::uint64_t> counts(utilities.size(), 0);
  for (std::uint64_t i = 0; i < kDraws; ++i) {
    const std::size_t chosen = multiplicities.empty()
                                   ? mechanism.Select(utilities, rng)
                                   : mechanism.SelectWithMultiplicity(utilities, multiplicities,
                                                                      rng);
    ++counts[chosen];
  }
  for (std::size_t i = 0; i < utilities.size(); ++i) {
    EXPECT_TRUE(CountMatchesProbability(counts[i], kDraws, weights[i] / total)) << i;
  }
}

TEST(ExponentialMechanismStatisticalTest, FrequenciesMatchExactProbabilities) {
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();  // c ≈ 0.5
  CheckExponentialFrequencies(mechanism, {0.0, 1.0, 2.0, 3.0, 0.5, -4.0}, {}, 203);
}

TEST(ExponentialMechanismStatisticalTest, MonotonicUsesTheFullEpsilon) {
  const auto mechanism = ExponentialMechanism::Create(0.8, 2.0, /*monotonic=*/true).value();
  EXPECT_NEAR(mechanism.exponent_factor(), 0.4, 1e-12);  // ε/Δ, not ε/(2Δ)
  CheckExponentialFrequencies(mechanism, {10.0, 12.5, 11.0, 7.0}, {}, 204);
}

TEST(ExponentialMechanismStatisticalTest, MultiplicitiesWeightTheCandidates) {
  const auto mechanism = ExponentialMechanism::Create(2.0, 1.0).value();  // c ≈ 1
  CheckExponentialFrequencies(mechanism, {0.0, -1.0, -2.0, 0.0}, {1, 5, 40, 0}, 205);
}

// Large utilities (mutual-information scale × n) must not overflow: only differences matter.
TEST(ExponentialMechanismStatisticalTest, ShiftInvariantForLargeUtilities) {
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();
  CheckExponentialFrequencies(mechanism, {1e6, 1e6 + 1, 1e6 + 2}, {}, 206);
}

// Partition selection with every count 1, 10^6 values at once (one spend): the kept
// fraction estimates Pr[keep | count = 1] = α^{τ−1}/(1 + α), which must be <= δ.
//   ε = 1, δ = 0.05: τ = 4, p = e^-3/(1 + e^-1) = 0.0363972634351655.
//   ε = 0.5, δ = 1e-3: τ = 14, p = e^-6.5/(1 + e^-0.5) = 9.358297545634756e-4.
void CheckSingletonKeepRate(double epsilon, double delta, double expected, std::uint64_t seed) {
  constexpr std::size_t kValues = 1'000'000;
  auto accountant = PrivacyAccountant::Create({epsilon, delta}).value();
  SeededRng rng(seed);
  const std::vector<std::uint64_t> counts(kValues, 1);
  auto selected = SelectPartitions(counts, epsilon, delta, accountant, "singletons", "all", rng);
  ASSERT_TRUE(selected.has_value());
  EXPECT_NEAR(PartitionSelectionKeepProbabilityOfSingleton(epsilon, delta), expected, 1e-15);
  EXPECT_LE(expected, delta);
  EXPECT_TRUE(CountMatchesProbability(selected->kept.size(), kValues, expected));
  const double rate = static_cast<double>(selected->kept.size()) / kValues;
  if (expected < 0.8 * delta) {
    EXPECT_LE(rate, delta);  // 5σ below δ here, so the empirical rate must be too
  }
}

TEST(PartitionSelectionStatisticalTest, SingletonsAreKeptWithProbabilityAtMostDelta) {
  CheckSingletonKeepRate(1.0, 0.05, 0.0363972634351655, 207);
  CheckSingletonKeepRate(0.5, 1e-3, 9.358297545634756e-4, 208);
}

// Counts of 50 at ε = 1, δ = 1e-5 (τ = 13): dropped only if Z <= −38, probability
// α^38/(1 + α) ≈ 2e-17 per value, so all 10^5 values are kept.
TEST(PartitionSelectionStatisticalTest, LargeCountsAreKept) {
  constexpr std::size_t kValues = 100'000;
  auto accountant = PrivacyAccountant::Create({1.0, 1e-5}).value();
  SeededRng rng(209);
  const std::vector<std::uint64_t> counts(kValues, 50);
  auto selected = SelectPartitions(counts, 1.0, 1e-5, accountant, "large", "all", rng);
  ASSERT_TRUE(selected.has_value());
  EXPECT_EQ(selected->kept.size(), kValues);
  double sum = 0;
  for (std::int64_t c : selected->noisy_counts) sum += static_cast<double>(c);
  // Mean noisy count: 50 ± 5·sqrt(Var/n), Var = 2α/(1 − α)² = 1.84 at α = e^-1.
  EXPECT_NEAR(sum / kValues, 50.0, 5 * std::sqrt(1.84 / kValues));
}

}  // namespace
}  // namespace deniable
