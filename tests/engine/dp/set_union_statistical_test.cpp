// SPDX-License-Identifier: Apache-2.0
// DP set union, statistically: (1) the δ part — the items that only a newly added record holds
// (here: a dataset of that one record, holding t items no one else holds) are released with
// probability <= δ, for both policies; (2) Policy Gaussian's keep decision has exactly the
// probability Q((τ − H)/σ); (3) a stochastic privacy check on tiny neighbouring inputs, at the
// worst case of the Gaussian part.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/set_union.h"
#include "tests/engine/dp/binomial_check.h"

namespace deniable {
namespace {

using test_support::CountMatchesProbability;

class SetUnionDeltaTest : public ::testing::TestWithParam<SetUnionMechanism> {};

TEST_P(SetUnionDeltaTest, ItemsOfASingleRecordAreReleasedWithProbabilityAtMostDelta) {
  // δ large enough to measure: 0.05. 40,000 runs per t: the count of runs releasing anything is
  // Binomial(40000, p) with p <= 0.05; 5 sigma above 0.05 is 0.05 + 5·sqrt(0.05·0.95/40000)
  // = 0.0554.
  const double delta = 0.05;
  for (std::size_t t : {1u, 3u, 8u}) {
    SetUnionInput input;
    input.records = 1;
    for (std::size_t g = 0; g < t; ++g) {
      input.values.push_back({0});
      input.value_counts.push_back(1);
    }
    SeededRng rng(100 + t);
    NullProgress progress;
    int released = 0;
    const int runs = 40000;
    for (int run = 0; run < runs; ++run) {
      PrivacyAccountant accountant = PrivacyAccountant::Create({10.0, 0.5}).value();
      SetUnionOptions options;
      options.epsilon = 1.0;
      options.delta = delta;
      options.mechanism = GetParam();
      auto result = DpSetUnion(input, options, accountant, "x", "all", rng, progress);
      ASSERT_TRUE(result.has_value());
      bool any = false;
      for (const auto& kept : result->kept) any = any || !kept.empty();
      released += any ? 1 : 0;
    }
    EXPECT_LE(released / static_cast<double>(runs), 0.0554) << "t = " << t;
    EXPECT_GT(released, 0) << "t = " << t;  // the bound is not vacuous: some releases happen
  }
}

INSTANTIATE_TEST_SUITE_P(BothPolicies, SetUnionDeltaTest,
                         ::testing::Values(SetUnionMechanism::kPolicyLaplace,
                                           SetUnionMechanism::kPolicyGaussian));

TEST(SetUnionGaussianStatisticalTest, KeepFrequenciesMatchTheGaussianTail) {
  // 1,000,000 draws per weight; tolerance 5σ + 1 of the binomial count (binomial_check.h).
  constexpr std::uint64_t kDraws = 1'000'000;
  const double threshold = 40.0;
  const double sigma = 7.5;
  SeededRng rng(2718);
  // Below, at and above τ, including a weight where the keep probability is 1.3e-3 and one
  // where the drop probability is (both computed without cancellation).
  for (double weight : {40.0 - 3 * 7.5, 40.0 - 7.5, 40.0, 40.0 + 0.5 * 7.5, 40.0 + 3 * 7.5}) {
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < kDraws; ++i) {
      kept += SampleGaussianThresholdKeep(weight, threshold, sigma, rng) ? 1 : 0;
    }
    EXPECT_TRUE(CountMatchesProbability(kept, kDraws, GaussianTail((threshold - weight) / sigma)))
        << "weight " << weight;
  }
}

// Pr[DpSetUnion keeps value 0 of the only group] over `runs` runs.
double KeepRate(const SetUnionInput& input, double epsilon, double delta, int runs,
                std::uint64_t seed) {
  SeededRng rng(seed);
  NullProgress progress;
  int kept = 0;
  for (int run = 0; run < runs; ++run) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({10.0, 0.5}).value();
    SetUnionOptions options;
    options.epsilon = epsilon;
    options.delta = delta;
    auto result = DpSetUnion(input, options, accountant, "x", "all", rng, progress);
    EXPECT_TRUE(result.has_value());
    kept += !result->kept[0].empty() ? 1 : 0;
  }
  return static_cast<double>(kept) / runs;
}

// The worst case of the Gaussian part: one group, D = k records holding a, D′ = D + one more.
// The added record's whole unit step lands on a (H = k vs k + 1), and the output "a kept" is a
// threshold of the Gaussian — the optimal distinguishing event for a Gaussian shift — so where
// the ratio is worst the divergence comes close to the analytic curve's δ_g = δ/2. At ε = 1,
// δ = 0.1, one group: σ = 1.3328, τ = 3.7831; exactly (Q((τ − k)/σ) vs Q((τ − k − 1)/σ)):
//   k = 1: Pr_D′[kept] − e·Pr_D[kept] = 0.0905 − e·0.0184 = 0.0405,
//   k = 5: Pr_D[dropped] − e·Pr_D′[dropped] = 0.1806 − e·0.0481 = 0.0498,
// both <= δ_g = 0.05; with σ half as large the first would be 0.228. Tolerance: the estimates'
// standard deviations are 0.0007 and 0.0017 at 400,000 runs; we accept δ_g + 0.009 (> 5σ) and
// require the larger divergence to exceed 0.035 (the check sits near its bound, so a
// miscalibration shows).
TEST(SetUnionGaussianStatisticalTest, NeighbouringTinyInputsStayWithinTheGaussianDelta) {
  const double epsilon = 1.0;
  const double delta = 0.1;
  const std::vector<double> one = {1.0};
  const auto calibration = CalibratePolicyGaussian(epsilon, delta, 1, 6.0, one).value();
  const PolicyGaussianRound& round = calibration.rounds[0];
  ASSERT_NEAR(round.sigma, 1.3328, 1e-4);
  ASSERT_NEAR(round.threshold, 3.7831, 1e-4);
  const int runs = 400000;
  double largest = 0;
  for (std::uint32_t k : {1u, 5u}) {
    SetUnionInput d;
    d.records = k;
    d.values = {std::vector<std::uint32_t>(k, 0)};
    d.value_counts = {1};
    SetUnionInput d_prime = d;
    d_prime.records = k + 1;
    d_prime.values[0].push_back(0);
    const double p = KeepRate(d, epsilon, delta, runs, 31 + k);
    const double p_prime = KeepRate(d_prime, epsilon, delta, runs, 32 + k);
    const double forward = p_prime - std::exp(epsilon) * p;
    const double backward = (1 - p) - std::exp(epsilon) * (1 - p_prime);
    EXPECT_LE(forward, calibration.delta_gaussian + 0.009) << "k = " << k;
    EXPECT_LE(backward, calibration.delta_gaussian + 0.009) << "k = " << k;
    largest = std::max({largest, forward, backward});
    // The keep rates are the Gaussian tails (5σ of the binomial estimates).
    EXPECT_NEAR(p, GaussianTail((round.threshold - k) / round.sigma), 0.004) << "k = " << k;
    EXPECT_NEAR(p_prime, GaussianTail((round.threshold - k - 1) / round.sigma), 0.004);
  }
  EXPECT_GT(largest, 0.035);
}

}  // namespace
}  // namespace deniable
