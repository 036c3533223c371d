// SPDX-License-Identifier: Apache-2.0
// The short DP audit: every mechanism of engine/dp and engine/histogram and every synthesis
// mode must give ε_lb <= its claim, and every deliberately broken variant ε_lb > its claim,
// each with a fixed seed (audit_cases.h, audit_notes.md).
//
// Sample sizes (AuditCase::samples, runs on EACH of D and D′, half for selection and half for
// evaluation; α = 1e-3, 8 events, so each Clopper–Pearson bound is at level 6.25e-5):
//  * Real mechanisms cannot fail except with probability α = 1e-3 per case (the bound is valid
//    whatever the sample size); with the fixed seed the figures below are exact and stay far
//    below the claims (the closest: Laplace 0.947 and geometric 0.976 against 1 — these two
//    are TIGHT mechanisms, the auditor's bound approaches ε from below as n grows).
//  * Broken ones need enough samples for the bound to clear the claim: Laplace/geometric with
//    half the scale have true ε = 2; with 50,000 evaluation samples the best tail event has
//    ~3,000–5,000 hits under the unfavoured input, so the bound loses ~0.1 (1.90, 1.96 > 1).
//    Discrete Gaussian σ halved: true ε at δ = 1e-3 ≈ 2.8 at the {X >= 13} event with ~450
//    hits in 100,000: 2.33 > 1.55. Set union without threshold: the new value is kept ~57% on
//    D′ and never on D, so 1,000 evaluation samples give ln(0.5/0.0097) ≈ 3.97 > 1. DP bounds
//    with the true max: Pr[hi <= 511] ≈ 10% on D and 0 on D′, 1,000 samples give 1.89 > 1.
// Each case takes well under 5 s; the modes together about a minute (time in docs/dp-audit.md).
#include <gtest/gtest.h>

#include <string>

#include "engine/audit/audit_cases.h"
#include "engine/audit/dp_auditor.h"

namespace deniable {
namespace {

constexpr std::uint64_t kSeed = 20261127;

void ExpectVerdict(const AuditCase& c) {
  AuditOptions options;
  options.samples = c.samples;
  options.delta = c.delta_claimed;
  options.seed = kSeed;
  auto result = AuditDp(c.mechanism, options);
  ASSERT_TRUE(result.has_value()) << c.name << ": " << result.error().message;
  const std::string event =
      result->epsilon_lb > 0 ? result->event.Describe(c.feature_names) : "none";
  if (c.broken) {
    EXPECT_GT(result->epsilon_lb, c.epsilon_claimed)
        << c.name << " (deliberately broken) was not caught; event " << event;
  } else {
    EXPECT_LE(result->epsilon_lb, c.epsilon_claimed)
        << c.name << " violates its claim: eps_lb " << result->epsilon_lb << " > "
        << c.epsilon_claimed << " at delta " << c.delta_claimed << "; event " << event;
  }
}

class MechanismAuditTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MechanismAuditTest, VerdictMatchesTheCase) {
  auto cases = MechanismAuditCases();
  ASSERT_TRUE(cases.has_value()) << cases.error().message;
  for (const AuditCase& c : *cases) {
    if (c.name == GetParam()) return ExpectVerdict(c);
  }
  FAIL() << "no case " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(
    Dp, MechanismAuditTest,
    ::testing::Values("laplace", "laplace_half_scale", "geometric", "geometric_half_scale",
                      "discrete_gaussian", "discrete_gaussian_half_sigma", "exponential",
                      "exponential_monotonic", "partition_selection",
                      "partition_selection_new_value", "set_union_gaussian", "set_union_laplace",
                      "set_union_no_threshold", "dp_bounds", "dp_bounds_leaked_max",
                      "adaptive_histogram_improved", "adaptive_histogram_basic"));

TEST(MechanismAuditCasesTest, EveryCaseIsTested) {
  auto cases = MechanismAuditCases();
  ASSERT_TRUE(cases.has_value());
  EXPECT_EQ(cases->size(), 17u);
  int broken = 0;
  for (const AuditCase& c : *cases) broken += c.broken ? 1 : 0;
  EXPECT_EQ(broken, 5);
}

class ModeAuditTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ModeAuditTest, ReleaseMeetsItsClaim) {
  auto cases = SynthesisAuditCases();
  ASSERT_TRUE(cases.has_value()) << cases.error().message;
  for (const AuditCase& c : *cases) {
    if (c.name == GetParam()) return ExpectVerdict(c);
  }
  FAIL() << "no case " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Modes, ModeAuditTest,
                         ::testing::Values("mode_random", "mode_independent", "mode_correlated",
                                           "mode_marginals", "mode_deniable"));

}  // namespace
}  // namespace deniable
