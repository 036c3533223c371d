// SPDX-License-Identifier: Apache-2.0
// Privacy Test 2's pass probability as a function of k': Pr{k' >= k + Lap(1/ε0)}
// = Pr{Lap <= k' - k} = 1 - e^{-ε0 (k'-k)}/2 for k' >= k, e^{ε0 (k'-k)}/2 below.
// Fixed seeds; every comparison allows 5 binomial standard deviations (a per-check false alarm
// rate < 1e-6, so the suite is not flaky; a sign or scale error is off by far more).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/core/progress.h"
#include "engine/deniable/plausibility.h"
#include "engine/deniable/privacy_test.h"
#include "engine/deniable/seed_index.h"
#include "engine/deniable/seed_model.h"
#include "tests/engine/deniable/deniable_test_util.h"

namespace deniable {
namespace {

double PassProbability(long long k_prime, int k, double epsilon0) {
  const double j = static_cast<double>(k_prime - k);
  return j >= 0 ? 1 - 0.5 * std::exp(-epsilon0 * j) : 0.5 * std::exp(epsilon0 * j);
}

void ExpectBinomial(long long passes, long long trials, double p, const std::string& what) {
  const double sigma = std::sqrt(trials * p * (1 - p));
  EXPECT_NEAR(static_cast<double>(passes), trials * p, 5 * sigma + 1) << what;
}

TEST(PrivacyTestStatisticalTest, PassRateIsTheLaplaceCdfAtKPrimeMinusK) {
  const int k = 50;
  const double epsilon0 = 0.5;
  const PrivacyTest test = PrivacyTest::Randomized(k, epsilon0, 0.01);
  SeededRng rng(1);
  constexpr int kTrials = 200'000;
  for (int k_prime : {40, 46, 49, 50, 51, 54, 60}) {
    int passes = 0;
    for (int i = 0; i < kTrials; ++i)
      passes += test.Passes(static_cast<std::uint32_t>(k_prime), rng);
    ExpectBinomial(passes, kTrials, PassProbability(k_prime, k, epsilon0),
                   "k' = " + std::to_string(k_prime));
  }
  int floors = 0;
  for (int i = 0; i < kTrials; ++i) floors += test.FloorFails(rng);
  ExpectBinomial(floors, kTrials, 0.01, "failure floor");
}

TEST(PrivacyTestStatisticalTest, DeterministicTestIsAThreshold) {
  const PrivacyTest test = PrivacyTest::Deterministic(20);
  SeededRng rng(2);
  EXPECT_FALSE(test.Passes(19, rng));
  EXPECT_TRUE(test.Passes(20, rng));
  EXPECT_FALSE(test.FloorFails(rng));
}

// The pipeline's candidates: bin them by their fast k' and compare each bin's pass rate.
TEST(PrivacyTestStatisticalTest, CandidatesPassAtTheRateTheirKPrimePredicts) {
  SeededRng rng(3);
  const std::vector<std::uint32_t> cardinalities = {2, 3, 2, 4, 3, 2};
  const std::vector<int> order = {0, 1, 2, 3, 4, 5};
  const std::vector<std::vector<int>> parents = {{}, {0}, {1}, {2}, {3}, {4}};
  const BayesNet network = test_support::RandomNetwork(cardinalities, order, parents, rng);
  const EncodedTable seeds = test_support::SampleTable(network, cardinalities, 600, rng);
  const SeedModel model = SeedModel::Create(network, cardinalities).value();
  const OmegaRange omega{1, 4};
  NullProgress progress;
  const SeedIndex index = SeedIndex::Build(seeds, model.order(), 6 - omega.min, progress).value();
  PlausibleSeedCounter counter(index, 6, omega, 3.0);
  const int k = 20;
  const double epsilon0 = 0.3;
  const PrivacyTest test = PrivacyTest::Randomized(k, epsilon0, 0.05);
  std::map<std::uint32_t, std::pair<long long, long long>> bins;  // k' -> (passes, trials)
  std::vector<Code> y(6);
  std::vector<double> q(5);
  for (int i = 0; i < 400'000; ++i) {
    const std::size_t seed = UniformBelow(rng, index.size());
    const int w = omega.min + static_cast<int>(UniformBelow(rng, omega.width()));
    model.Generate(index.SeedCodes(seed), 6 - w, y.data(), rng);
    SuffixProbabilities(model, y.data(), omega.max, q.data());
    const std::uint32_t k_prime = counter.Count(seed, w, y.data(), q.data()).k_prime;
    auto& bin = bins[k_prime];
    bin.first += test.Passes(k_prime, rng);
    ++bin.second;
  }
  int checked = 0;
  for (const auto& [k_prime, bin] : bins) {
    if (bin.second < 2000) continue;
    ExpectBinomial(bin.first, bin.second, PassProbability(k_prime, k, epsilon0),
                   "k' = " + std::to_string(k_prime));
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

}  // namespace
}  // namespace deniable
