// SPDX-License-Identifier: Apache-2.0
// The verdict's rules (engine/evaluate/verdict.h): utility thresholds, δ above 1/n, a huge ε
// without "inf", a seeded run, the deniable statement, the measured risk.
#include "engine/evaluate/verdict.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

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

}  // namespace
}  // namespace deniable
