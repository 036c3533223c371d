// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/guarantees.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/deniable/deniable_synthesizer.h"

namespace deniable {
namespace {

TEST(GuaranteesTest, TheoremOneAtThePapersParameters) {
  // k = 50, γ = 4, ε0 = 1 (PD paper §6.1), t = 29: ε = 1 + ln(1 + 4/29), δ = e^{-21}.
  const PrivacyCost cost = TheoremOneCost(50, 4, 1, 29);
  EXPECT_NEAR(cost.epsilon, 1 + std::log(33.0 / 29.0), 1e-12);
  EXPECT_NEAR(cost.delta, std::exp(-21.0), 1e-22);
  EXPECT_GE(cost.epsilon, 1 + std::log(33.0 / 29.0));  // rounded up
  // Best t for δ <= 2^-30 ≈ 9.31e-10: e^{-21} ≈ 7.6e-10 fits, e^{-20} ≈ 2.1e-9 does not.
  const RecordGuarantee best = BestRecordGuarantee(50, 4, 1, 0x1.0p-30);
  EXPECT_EQ(best.t, 29);
  EXPECT_TRUE(best.meets_delta);
  // t outside 1..k-1: no guarantee.
  EXPECT_FALSE(std::isfinite(TheoremOneCost(50, 4, 1, 50).epsilon));
  EXPECT_FALSE(std::isfinite(BestRecordGuarantee(1, 4, 1, 1e-9).cost.epsilon));
}

TEST(GuaranteesTest, FailureFloorMakesTheEmptyOutputNoMoreExpensiveThanARecord) {
  // φ = 1/(1 + (k+1)(e^{ε0} - 1)(1 + γ/t)) = 1/(1 + 51 (e - 1)(33/29)) ≈ 0.00993.
  const double floor = AutomaticFailFloor(50, 4, 1, 29);
  EXPECT_NEAR(floor, 1 / (1 + 51 * (std::exp(1.0) - 1) * (33.0 / 29.0)), 1e-15);
  EXPECT_NEAR(floor, 0.00993, 1e-5);
  const double record = TheoremOneCost(50, 4, 1, 29).epsilon;
  EXPECT_LE(FailureOutputEpsilon(50, 4, 29, floor), record);
  EXPECT_NEAR(FailureOutputEpsilon(50, 4, 29, floor), record, 1e-12);
  // A smaller floor makes ⊥ the more expensive output: ln(1 + γ/t + (1-φ)/(φ(k+1))).
  EXPECT_NEAR(FailureOutputEpsilon(50, 4, 29, 0.001), std::log(1 + 4.0 / 29 + 0.999 / (0.001 * 51)),
              1e-12);
  const PrivacyCost attempt = AttemptCost(50, 4, 1, 29, 0.001);
  EXPECT_NEAR(attempt.epsilon, std::log(1 + 4.0 / 29 + 0.999 / 0.051), 1e-12);
  EXPECT_NEAR(attempt.delta, std::exp(-21.0), 1e-22);
}

TEST(GuaranteesTest, AmplificationBySplitGeneralisesTheoremFour) {
  // One part with rate p and a part that costs nothing = Theorem 4 (Poisson sampling).
  const PrivacyCost parts[2] = {{1.0, 1e-6}, {0.0, 0.0}};
  const double rates[2] = {0.3, 0.7};
  const PrivacyCost amplified = AmplifyBySplit(parts, rates, 2);
  const PrivacyCost theorem4 = AmplifyBySampling(PrivacyCost{1.0, 1e-6}, 0.3);
  EXPECT_NEAR(amplified.epsilon, theorem4.epsilon, 1e-12);
  EXPECT_NEAR(amplified.delta, theorem4.delta, 1e-18);
  EXPECT_NEAR(amplified.epsilon, std::log(1 + 0.3 * (std::exp(1.0) - 1)), 1e-12);
  // Three parts: e^{ε'} = Σ f_j e^{ε_j}.
  const PrivacyCost three[3] = {{1.0, 0}, {0.5, 0}, {2.0, 0}};
  const double split[3] = {0.21, 0.21, 0.58};
  EXPECT_NEAR(AmplifyBySplit(three, split, 3).epsilon,
              std::log(0.21 * std::exp(1.0) + 0.21 * std::exp(0.5) + 0.58 * std::exp(2.0)), 1e-12);
}

TEST(GuaranteesTest, PlanComposesOverTheCapAndAddsTheCallersSpends) {
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{100, 0.1}, 1e-9).value();
  for (const char* part : {"D_T", "D_P", "D_S"}) {
    ASSERT_TRUE(accountant.AddPartition(part, "all", "test").has_value());
  }
  for (const auto& [partition, epsilon] :
       {std::pair<const char*, double>{"all", 0.1}, {"D_T", 0.9}, {"D_P", 1.0}}) {
    LedgerEntry entry;
    entry.label = std::string("spend on ") + partition;
    entry.partition = partition;
    entry.epsilon_each = epsilon;
    ASSERT_TRUE(accountant.Spend(entry).has_value());
  }
  DeniableOptions options;  // k = 50, γ = 4, ε0 = 1, record δ = 2^-30
  const ReleaseGuarantees g = PlanGuarantees(options, OmegaRange{5, 11}, accountant, 1000);
  EXPECT_EQ(g.record.t, 29);
  EXPECT_NEAR(g.model.epsilon, 1.0, 1e-15);
  EXPECT_NEAR(g.all_spends.epsilon, 0.1, 1e-15);
  // The DP check that |D_S| >= k (DeniableOptions::seed_count_*), then the T attempts.
  const PrivacyCost expected = SequentialComposition(
      {PrivacyCost{0.5, 1e-9}, BestComposition(g.attempt.epsilon, g.attempt.delta, 1000, 1e-9)});
  EXPECT_DOUBLE_EQ(g.synthesis.epsilon, expected.epsilon);
  EXPECT_DOUBLE_EQ(g.synthesis.delta, expected.delta);
  // With ε_A ≈ 1.13 per attempt, advanced composition is worse than sequential at T = 1000.
  EXPECT_EQ(g.synthesis_composition, "sequential");
  EXPECT_NEAR(g.synthesis.epsilon, 0.5 + 1000 * g.attempt.epsilon, 1e-9);
  EXPECT_NEAR(g.release.epsilon, 0.1 + g.synthesis.epsilon, 1e-9);
  EXPECT_LT(g.release_amplified.epsilon, g.release.epsilon);
  // Deterministic test: no DP for the records or the release.
  options.deterministic_test = true;
  const ReleaseGuarantees d = PlanGuarantees(options, OmegaRange{5, 11}, accountant, 1000);
  EXPECT_FALSE(std::isfinite(d.release.epsilon));
  EXPECT_NE(d.ToText().find("NONE"), std::string::npos);
  EXPECT_EQ(d.ToJson()["synthesis"]["epsilon"], "inf");
}

}  // namespace
}  // namespace deniable
