// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/advisor.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/progress.h"
#include "engine/deniable/guarantees.h"
#include "tests/engine/deniable/deniable_test_util.h"

namespace deniable {
namespace {

// The smallest k for which some t and ε0 meet (ε, δ), found exhaustively: for each k and t the
// best ε0 is the smallest with e^{-ε0 (k - t)} <= δ.
int SmallestFeasibleK(PrivacyCost target, double gamma) {
  for (int k = 2; k < 10000; ++k) {
    for (int t = 1; t < k; ++t) {
      const double epsilon0 = -std::log(target.delta) / (k - t);
      if (epsilon0 + std::log1p(gamma / t) <= target.epsilon) return k;
    }
  }
  return -1;
}

TEST(AdvisorTest, RecordTargetGivesTheSmallestKThatMeetsIt) {
  for (const PrivacyCost target :
       {PrivacyCost{1.2, 1e-9}, PrivacyCost{2.0, 2e-10}, PrivacyCost{0.5, 1e-6}}) {
    const ParameterProposal p = ProposeForRecordTarget(target, 4.0, 1'000'000);
    ASSERT_TRUE(p.feasible) << p.note;
    const PrivacyCost cost = TheoremOneCost(p.k, 4.0, p.epsilon0, p.t);
    EXPECT_LE(cost.epsilon, target.epsilon);
    EXPECT_LE(cost.delta, target.delta);
    EXPECT_DOUBLE_EQ(p.per_record.epsilon, cost.epsilon);
    // ε0 is searched on a grid of 2000 points: at most one k above the exact optimum.
    const int optimum = SmallestFeasibleK(target, 4.0);
    EXPECT_GE(p.k, optimum);
    EXPECT_LE(p.k, optimum + 1) << "target ε = " << target.epsilon;
    // The automatic failure floor keeps an attempt's ε at the record's.
    EXPECT_NEAR(p.per_attempt.epsilon, p.per_record.epsilon, 1e-12);
  }
}

TEST(AdvisorTest, SaysWhenKWouldExceedTheSeeds) {
  const ParameterProposal p = ProposeForRecordTarget(PrivacyCost{0.2, 1e-9}, 4.0, 100);
  EXPECT_FALSE(p.feasible);
  EXPECT_NE(p.note.find("more than the 100 seeds"), std::string::npos) << p.note;
  EXPECT_FALSE(ProposeForRecordTarget(PrivacyCost{0, 1e-9}, 4.0, 100).feasible);
}

TEST(AdvisorTest, ReleaseTargetComposesOverTheAttempts) {
  const PrivacyCost target{50.0, 1e-6};
  const ParameterProposal p = ProposeForReleaseTarget(target, 4.0, 1000, 0.5e-6, 1'000'000);
  ASSERT_TRUE(p.feasible) << p.note;
  EXPECT_EQ(p.attempts_cap, 1000u);
  EXPECT_LE(p.release.epsilon, target.epsilon);
  EXPECT_LE(p.release.delta, target.delta);
  EXPECT_NEAR(p.release.epsilon,
              BestComposition(p.per_attempt.epsilon, p.per_attempt.delta, 1000, 0.5e-6).epsilon,
              1e-12);
  // A whole release of a million attempts at ε = 1 is far out of reach.
  const ParameterProposal huge =
      ProposeForReleaseTarget(PrivacyCost{1, 1e-6}, 4.0, 1'000'000, 0.5e-6, 100'000);
  EXPECT_FALSE(huge.feasible);
}

TEST(AdvisorTest, SweepAndProposalsOnASmallTable) {
  SeededRng rng(1);
  const std::vector<std::uint32_t> cardinalities = {2, 3, 4, 2, 3, 2};
  const std::vector<std::vector<int>> parents = {{}, {0}, {1}, {2}, {3}, {4}};
  const BayesNet truth =
      test_support::RandomNetwork(cardinalities, {0, 1, 2, 3, 4, 5}, parents, rng);
  const EncodedTable data = test_support::SampleTable(truth, cardinalities, 4000, rng);
  DeniableOptions options;
  options.model_epsilon = 2;
  AdviceRequest request;
  request.candidates_per_setting = 500;
  request.release_target = PrivacyCost{100, 1e-6};
  NullProgress progress;
  auto advice = Advise(data, options, request, {}, rng, progress);
  ASSERT_TRUE(advice.has_value()) << advice.error().message;
  const PassRateSweep& sweep = advice->sweep;
  ASSERT_EQ(sweep.pass_rate.size(), sweep.omegas.size());
  // Fixed ω from m/3 = 2 to 6, then the automatic range [3, 6].
  EXPECT_EQ(sweep.omegas.front().min, 2);
  EXPECT_EQ(sweep.omegas.back().min, 3);
  EXPECT_EQ(sweep.omegas.back().max, 6);
  for (const auto& row : sweep.pass_rate) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      EXPECT_GE(row[i], 0.0);
      EXPECT_LE(row[i], 1.0);
      if (i > 0) {
        EXPECT_LE(row[i], row[i - 1]);  // larger k never passes more often
      }
    }
  }
  // Re-sampling every attribute (ω = m) makes every seed plausible: k' = |D_S| always.
  for (std::size_t o = 0; o < sweep.omegas.size(); ++o) {
    if (sweep.omegas[o].min == 6 && sweep.omegas[o].max == 6) {
      for (std::uint32_t k_prime : sweep.k_prime[o]) EXPECT_EQ(k_prime, advice->seeds);
    }
  }
  EXPECT_TRUE(advice->record.feasible);
  EXPECT_EQ(advice->release.attempts_cap, 100000u);  // max(20 × 4000, 100,000)
  EXPECT_NE(advice->ToText().find("data owner only"), std::string::npos);
  EXPECT_EQ(advice->ToJson()["sweep"]["rows"].size(), sweep.omegas.size());
}

}  // namespace
}  // namespace deniable
