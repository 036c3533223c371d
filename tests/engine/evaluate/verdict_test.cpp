// SPDX-License-Identifier: Apache-2.0
// The verdict's rules (engine/evaluate/verdict.h): utility thresholds, δ above 1/n, a huge ε
// without "inf", a seeded run, the deniable statement, the measured risk, the attacks (an
// interval above the owner's threshold, an estimate above it, an attack no better than
// guessing; a release that copies its training rows, evaluated for real).
#include "engine/evaluate/verdict.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "engine/evaluate/evaluate.h"
#include "engine/schema/infer_schema.h"
#include "tests/engine/evaluate/population.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

VerdictInputs Private() {
  VerdictInputs in;
  in.epsilon = 1;
  in.delta = 1e-9;
  in.rows = 1000;
  return in;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(VerdictTest, UtilityThresholds) {
  VerdictInputs in = Private();
  in.utility = VerdictUtility{0.10, 0.10, 0.01};
  EXPECT_EQ(ComputeVerdict(in).findings[0].level, VerdictLevel::kGood);
  in.utility = VerdictUtility{0.15, 0.10, 0.01};  // exactly 1.5 x
  EXPECT_EQ(ComputeVerdict(in).findings[0].level, VerdictLevel::kCaution);
  EXPECT_EQ(OverallAnswer(ComputeVerdict(in).overall), "Share with care");
  in.utility = VerdictUtility{0.151, 0.10, 0.01};
  const Verdict bad = ComputeVerdict(in);
  EXPECT_EQ(bad.findings[0].level, VerdictLevel::kProblem);
  EXPECT_TRUE(Contains(bad.findings[0].change, "Raise ε"));
  EXPECT_TRUE(Contains(bad.findings[0].change, "Columns page"));
  EXPECT_TRUE(Contains(bad.findings[0].change, "high-cardinality"));
  EXPECT_TRUE(Contains(bad.findings[0].change, "5000 rows or more, use the marginals mode"));
}

TEST(VerdictTest, GoodGuaranteeIsFitToShare) {
  const Verdict v = ComputeVerdict(Private());
  ASSERT_EQ(v.findings.size(), 1U);
  EXPECT_EQ(v.findings[0].topic, VerdictTopic::kGuarantee);
  EXPECT_EQ(v.findings[0].level, VerdictLevel::kGood);
  EXPECT_EQ(v.findings[0].headline, "The formal guarantee holds: ε = 1, δ = 1e-09.");
  EXPECT_TRUE(Contains(v.findings[0].reason, "e^ε ≈ 2.72"));
  EXPECT_EQ(OverallAnswer(v.overall), "Fit to share");
}

TEST(VerdictTest, DeltaAboveOneOverNIsAProblem) {
  VerdictInputs in = Private();
  in.delta = 0.002;  // 1/n = 0.001
  const Verdict v = ComputeVerdict(in);
  EXPECT_EQ(v.findings[0].level, VerdictLevel::kProblem);
  EXPECT_EQ(v.findings[0].headline,
            "δ is too large for this table: δ = 0.002 is above 1/n = 0.001.");
  in.delta = 0.001;  // exactly 1/n: allowed
  EXPECT_EQ(ComputeVerdict(in).findings[0].level, VerdictLevel::kGood);
}

TEST(VerdictTest, HugeOrInfiniteEpsilonNeverPrintsInf) {
  for (double epsilon : {3.5, 20.0, 1e300, std::numeric_limits<double>::infinity()}) {
    VerdictInputs in = Private();
    in.epsilon = epsilon;
    const Verdict v = ComputeVerdict(in);
    EXPECT_EQ(v.findings[0].level, VerdictLevel::kCaution) << epsilon;
    for (const std::string& s : {v.findings[0].headline, v.findings[0].reason}) {
      EXPECT_FALSE(Contains(s, "inf")) << s;
    }
  }
  EXPECT_EQ(EpsilonFactorText(20), "the bound is too weak to mean anything");  // e^20 > 1e6
  EXPECT_EQ(EpsilonFactorText(std::numeric_limits<double>::infinity()),
            "the bound is too weak to mean anything");
  EXPECT_TRUE(Contains(EpsilonFactorText(13), "442413"));  // e^13 ≈ 442413 < 1e6
  EXPECT_EQ(EpsilonFactorText(3.5), "no record changes the odds of any outcome by more than "
                                    "e^ε ≈ 33.1");
}

TEST(VerdictTest, SeededRunIsNotAPrivateRelease) {
  VerdictInputs in = Private();
  in.reproducible_not_private = true;
  const Verdict v = ComputeVerdict(in);
  EXPECT_EQ(v.findings[0].level, VerdictLevel::kProblem);
  EXPECT_EQ(v.findings[0].headline, "Not a private release: it was made with a fixed seed.");
  EXPECT_EQ(OverallAnswer(v.overall), "Not fit to share");
}

TEST(VerdictTest, DeniableStatementStatesKGammaAndTestEpsilon) {
  VerdictInputs in = Private();
  in.deniable = VerdictDeniable{50, 4, 0.5};
  Verdict v = ComputeVerdict(in);
  ASSERT_EQ(v.findings.size(), 2U);
  EXPECT_EQ(v.findings[1].headline, "Each released record is plausibly deniable: k = 50, γ = 4.");
  EXPECT_TRUE(Contains(v.findings[1].reason, "ε = 0.5 per record"));
  EXPECT_EQ(v.findings[1].level, VerdictLevel::kGood);
  in.deniable = VerdictDeniable{50, 4, std::nullopt};
  v = ComputeVerdict(in);
  EXPECT_EQ(v.findings[1].level, VerdictLevel::kCaution);
}

TEST(VerdictTest, RecordsOutsideTheRegionAreAProblemWithTheRecommendedEpsilon) {
  VerdictInputs in = Private();
  in.risk = VerdictRisk{1, 7, 0.3};
  Verdict v = ComputeVerdict(in);
  ASSERT_EQ(v.findings.size(), 2U);
  EXPECT_EQ(v.findings[1].topic, VerdictTopic::kRisk);
  EXPECT_EQ(v.findings[1].level, VerdictLevel::kProblem);
  EXPECT_EQ(v.findings[1].headline, "7 records are outside your acceptable disclosure risk.");
  EXPECT_TRUE(Contains(v.findings[1].change, "Lower ε to 0.3"));
  in.risk = VerdictRisk{1, 0, 1};
  EXPECT_EQ(ComputeVerdict(in).overall, VerdictLevel::kGood);
}

// The attack finding (#11 part 3 in the verdict).
const VerdictFinding& AttacksOf(const Verdict& v) {
  for (const VerdictFinding& f : v.findings) {
    if (f.topic == VerdictTopic::kAttacks) return f;
  }
  ADD_FAILURE() << "no attack finding";
  return v.findings.front();
}

TEST(VerdictAttacksTest, TheDefaultThresholdIsATenth) {
  EXPECT_EQ(kAttackRiskThreshold, 0.1);
  EXPECT_EQ(VerdictAttacks{}.threshold, 0.1);
}

TEST(VerdictAttacksTest, AnIntervalAboveTheThresholdIsAProblem) {
  VerdictInputs in = Private();
  in.attacks = VerdictAttacks{0.1, {{"singling out", 0.02, -0.01, 0.05, true},
                                    {"attribute inference", 0.3, 0.2, 0.4, true}},
                              500, 12};
  const Verdict v = ComputeVerdict(in);
  ASSERT_EQ(v.findings.size(), 2U);
  const VerdictFinding& f = AttacksOf(v);
  EXPECT_EQ(f.level, VerdictLevel::kProblem);
  EXPECT_EQ(v.overall, VerdictLevel::kProblem);
  EXPECT_EQ(f.headline,
            "An attacker learns about the real people in your data: the attribute inference "
            "risk is above 0.1 (at least 0.2).");
  EXPECT_EQ(f.reason,
            "Risk with its 95% interval, 0 = the release tells no more about its own rows than "
            "about people it never saw: singling out 0.02 [-0.01, 0.05]; attribute inference "
            "0.3 [0.2, 0.4]. Your threshold: 0.1. 12 of the 500 synthetic rows copy a training "
            "row that is unique in the training rows.");
  EXPECT_EQ(f.change,
            "Lower ε; drop or coarsen the quasi-identifiers the attacker uses (Columns page); "
            "never share a seeded (reproducible) run.");
  EXPECT_EQ(OverallAnswer(v.overall), "Not fit to share");
}

TEST(VerdictAttacksTest, AnEstimateAboveWithAnIntervalReachingBelowIsACaution) {
  VerdictInputs in = Private();
  in.attacks = VerdictAttacks{0.1, {{"linkability", 0.15, 0.05, 0.25, true}}, 500, 0};
  const Verdict v = ComputeVerdict(in);
  const VerdictFinding& f = AttacksOf(v);
  EXPECT_EQ(f.level, VerdictLevel::kCaution);
  EXPECT_EQ(f.headline,
            "The linkability risk may be above your threshold (0.15, interval down to 0.05).");
  EXPECT_EQ(f.change, "Hold out more rows (a larger control split) to settle it, or lower ε.");
  // The owner's own threshold decides: at 0.2 the same figures are good.
  in.attacks->threshold = 0.2;
  const Verdict relaxed_verdict = ComputeVerdict(in);
  const VerdictFinding& relaxed = AttacksOf(relaxed_verdict);
  EXPECT_EQ(relaxed.level, VerdictLevel::kGood);
  EXPECT_EQ(relaxed.change, "");
}

// A release that leaks nothing, measured on a small control split: the estimate lands above
// the threshold, the interval reaches 0. No measurable advantage: good, the width named.
TEST(VerdictAttacksTest, AnEstimateAboveWithAnIntervalReachingZeroIsNoFinding) {
  VerdictInputs in = Private();
  in.attacks = VerdictAttacks{0.1, {{"attribute inference", 0.118, -0.124, 0.36, true}}, 500, 0};
  const Verdict v = ComputeVerdict(in);
  const VerdictFinding& f = AttacksOf(v);
  EXPECT_EQ(f.level, VerdictLevel::kGood);
  EXPECT_EQ(f.headline,
            "No attack measurably learns more about your rows than about people never seen "
            "(every risk's interval reaches 0).");
  EXPECT_NE(f.reason.find("The attribute inference interval also reaches 0.36: at this control "
                          "size the test cannot tell"),
            std::string::npos)
      << f.reason;
  EXPECT_EQ(f.change, "");
  EXPECT_EQ(OverallAnswer(v.overall), "Fit to share");
  // The same estimate with its interval above 0 is a measurable advantage: a caution.
  in.attacks->attacks[0].low = 0.01;
  EXPECT_EQ(AttacksOf(ComputeVerdict(in)).level, VerdictLevel::kCaution);
}

TEST(VerdictAttacksTest, AnAttackNoBetterThanGuessingDoesNotCount) {
  VerdictInputs in = Private();
  in.attacks = VerdictAttacks{0.1, {{"linkability", 0.5, 0.3, 0.7, false}}, 500, 0};
  const Verdict v = ComputeVerdict(in);
  const VerdictFinding& f = AttacksOf(v);
  EXPECT_EQ(f.level, VerdictLevel::kGood);
  EXPECT_NE(f.reason.find("linkability 0.5 [0.3, 0.7] (no better than guessing)"),
            std::string::npos)
      << f.reason;
}

TEST(VerdictAttacksTest, NoAttackFiguresNoFinding) {
  for (const VerdictFinding& f : ComputeVerdict(Private()).findings) {
    EXPECT_NE(f.topic, VerdictTopic::kAttacks);
  }
}

// #11: a release that copies its training rows must get a red verdict from its attacks.
TEST(VerdictAttacksTest, AReleaseThatCopiesItsTrainingRowsIsNotFitToShare) {
  const RawTable train = test_support::Population(1500, 1, "train.csv");
  const RawTable control = test_support::Population(500, 2, "control.csv");
  RawTable synthetic = train;
  synthetic.source = "synthetic.csv";
  const Schema schema = InferSchema(train, {});
  EvaluateOptions options;
  options.quasi_identifiers = {"age", "zip", "sex", "job"};
  options.sensitive = "disease";
  options.attacks = 500;
  test_support::FakeProgress progress;
  auto report = EvaluateRelease(train, synthetic, control, schema, options, progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  const VerdictAttacks attacks = VerdictAttacksOf(report.value());
  ASSERT_EQ(attacks.attacks.size(), 3U);
  EXPECT_EQ(attacks.attacks[0].name, "singling out");
  EXPECT_EQ(attacks.attacks[0].risk, report->singling_out->risk.risk);
  EXPECT_EQ(attacks.attacks[1].name, "linkability");
  EXPECT_EQ(attacks.attacks[2].name, "attribute inference");
  EXPECT_EQ(attacks.attacks[2].low, report->inference->risk.risk_interval.low);
  EXPECT_EQ(attacks.copies_of_unique_train, report->copies.copies_of_unique_train);
  EXPECT_EQ(attacks.synthetic_rows, 1500U);
  VerdictInputs in = Private();
  in.attacks = attacks;
  const Verdict v = ComputeVerdict(in);
  EXPECT_EQ(AttacksOf(v).level, VerdictLevel::kProblem);
  EXPECT_EQ(OverallAnswer(v.overall), "Not fit to share");
}

}  // namespace
}  // namespace deniable
