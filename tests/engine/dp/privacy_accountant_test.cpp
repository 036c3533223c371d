// SPDX-License-Identifier: Apache-2.0
// The accountant's arithmetic against hand-computed values (in the comments), the partition
// tree, refusal, and the composition theorems.
#include "engine/dp/privacy_accountant.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace deniable {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LedgerEntry Entry(const std::string& label, double epsilon, const std::string& partition = "all",
                  std::size_t count = 1, double delta = 0) {
  LedgerEntry e;
  e.label = label;
  e.mechanism = "test mechanism";
  e.partition = partition;
  e.reference = "test";
  e.epsilon_each = epsilon;
  e.delta_each = delta;
  e.sensitivity = 1;
  e.count = count;
  return e;
}

TEST(PrivacyAccountantTest, RejectsInvalidBudgets) {
  for (double epsilon : {0.0, -1.0, kNaN, std::numeric_limits<double>::infinity()}) {
    auto a = PrivacyAccountant::Create({epsilon, 0.0});
    ASSERT_FALSE(a.has_value()) << epsilon;
    EXPECT_EQ(a.error().code, ErrorCode::kInvalidArgument);
  }
  for (double delta : {-0.1, 1.0, kNaN}) {
    auto a = PrivacyAccountant::Create({1.0, delta});
    ASSERT_FALSE(a.has_value()) << delta;
    EXPECT_NE(a.error().message.find("delta"), std::string::npos);
  }
  EXPECT_FALSE(PrivacyAccountant::Create({1.0, 0.0}, -1e-9).has_value());
  EXPECT_FALSE(PrivacyAccountant::Create({1.0, 0.0}, 1.0).has_value());
}

TEST(PrivacyAccountantTest, RejectsInvalidEntriesWithoutRecording) {
  auto a = PrivacyAccountant::Create({1.0, 1e-6}).value();
  EXPECT_FALSE(a.Spend(Entry("", 0.1)).has_value());                     // no label
  EXPECT_FALSE(a.Spend(Entry("x", -0.1)).has_value());                    // ε < 0
  EXPECT_FALSE(a.Spend(Entry("x", kNaN)).has_value());                    // ε NaN
  EXPECT_FALSE(a.Spend(Entry("x", 0.1, "all", 1, 1.0)).has_value());      // δ = 1
  EXPECT_FALSE(a.Spend(Entry("x", 0.1, "all", 0)).has_value());           // count 0
  EXPECT_FALSE(a.Spend(Entry("x", 0.1, "nowhere")).has_value());          // partition
  LedgerEntry bad_sensitivity = Entry("x", 0.1);
  bad_sensitivity.sensitivity = kNaN;
  EXPECT_FALSE(a.Spend(bad_sensitivity).has_value());
  auto unknown = a.Spend(Entry("x", 0.1, "nowhere"));
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("nowhere"), std::string::npos);
  EXPECT_TRUE(a.entries().empty());
  EXPECT_EQ(a.CostOf(Entry("x", -1.0)).epsilon, std::numeric_limits<double>::infinity());
}

// 0.25 + 0.5 = 0.75 exactly; remaining 0.25.
TEST(PrivacyAccountantTest, SequentialCompositionWithinANode) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.Spend(Entry("first", 0.25)).has_value());
  ASSERT_TRUE(a.Spend(Entry("second", 0.5)).has_value());
  EXPECT_EQ(a.Total().epsilon, 0.75);
  EXPECT_EQ(a.Remaining().epsilon, 0.25);
  EXPECT_EQ(a.entries()[0].composition, "single");
}

// Exact spends stay exact: 0.25 + 0.75 = 1 fits a budget of exactly 1.
TEST(PrivacyAccountantTest, ExactlyFullBudgetIsAllowed) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.Spend(Entry("a", 0.25)).has_value());
  ASSERT_TRUE(a.Spend(Entry("b", 0.75)).has_value());
  EXPECT_EQ(a.Total().epsilon, 1.0);
  EXPECT_EQ(a.Remaining().epsilon, 0.0);
}

// fl(0.1) = 0.1000000000000000055511151231257827...; 0.1 + 0.5 = 0.6000000000000000055... is
// not a double: round-to-nearest gives 0.59999999999999997780 (too small), the accountant
// rounds up to the next double 0.60000000000000008882.
TEST(PrivacyAccountantTest, InexactSumsRoundUp) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.Spend(Entry("a", 0.1)).has_value());
  ASSERT_TRUE(a.Spend(Entry("b", 0.5)).has_value());
  EXPECT_EQ(a.Total().epsilon, std::nextafter(0.6, 1.0));
  EXPECT_GT(a.Total().epsilon, 0.1 + 0.5);
}

// Ten spends of fl(0.1) really cost 1.0000000000000000555 > 1: the tenth is refused, with a
// hint; ten spends of EvenShare(1, 10) fit exactly.
TEST(PrivacyAccountantTest, NaiveBudgetSplitsAreCaughtAndEvenShareFits) {
  auto naive = PrivacyAccountant::Create({1.0, 0.0}).value();
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(naive.Spend(Entry("part", 1.0 / 10)).has_value());
  auto tenth = naive.Spend(Entry("part", 1.0 / 10));
  ASSERT_FALSE(tenth.has_value());
  EXPECT_EQ(tenth.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_NE(tenth.error().message.find("EvenShare"), std::string::npos);

  const double share = EvenShare(1.0, 10);
  EXPECT_LT(share, 0.1);  // fl(0.1) > 1/10, so the share is the double below it
  EXPECT_EQ(share, std::nextafter(0.1, 0.0));
  auto even = PrivacyAccountant::Create({1.0, 0.0}).value();
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(even.Spend(Entry("part", share)).has_value());
  EXPECT_LE(even.Total().epsilon, 1.0);
  EXPECT_EQ(EvenShare(1.0, 4), 0.25);  // exact splits are unchanged
  EXPECT_EQ(EvenShare(1.0, 0), 0.0);
  EXPECT_EQ(ShareOf(1.0, 0.3), 0.3);   // fl(0.3)·1 is exact
  EXPECT_LE(ShareOf(0.7, 0.3) * 1.0, 0.7 * 0.3);
}

// all: 0.125 own; children D_T: 0.25, D_P: 0.5 (disjoint) → 0.125 + max(0.25, 0.5) = 0.625.
TEST(PrivacyAccountantTest, ParallelCompositionAcrossDisjointPartitions) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.AddPartition("D_T", "all", "structure rows").has_value());
  ASSERT_TRUE(a.AddPartition("D_P", "all", "parameter rows").has_value());
  ASSERT_TRUE(a.Spend(Entry("structure", 0.25, "D_T")).has_value());
  ASSERT_TRUE(a.Spend(Entry("parameters", 0.5, "D_P")).has_value());
  ASSERT_TRUE(a.Spend(Entry("row count", 0.125, "all")).has_value());
  EXPECT_EQ(a.TotalOf("D_T").epsilon, 0.25);
  EXPECT_EQ(a.TotalOf("D_P").epsilon, 0.5);
  EXPECT_EQ(a.Total().epsilon, 0.625);
  // D_T can take 0.25 more (its total 0.5 ties D_P's): the release stays at 0.625.
  ASSERT_TRUE(a.Spend(Entry("more structure", 0.25, "D_T")).has_value());
  EXPECT_EQ(a.Total().epsilon, 0.625);
  // But D_P cannot take 0.5 more: 0.125 + 1.0 > 1.
  EXPECT_FALSE(a.Spend(Entry("too much", 0.5, "D_P")).has_value());
  EXPECT_EQ(a.TotalOf("unknown").epsilon, 0.0);
}

// all → {A, B}, A → {A1, A2}. Spends: A1 0.25, A2 0.5, A 0.125, B 0.5, all 0.0625.
// total(A) = 0.125 + max(0.25, 0.5) = 0.625; total(all) = 0.0625 + max(0.625, 0.5) = 0.6875.
TEST(PrivacyAccountantTest, NestedPartitions) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.AddPartition("A", "all", "").has_value());
  ASSERT_TRUE(a.AddPartition("B", "all", "").has_value());
  ASSERT_TRUE(a.AddPartition("A1", "A", "").has_value());
  ASSERT_TRUE(a.AddPartition("A2", "A", "").has_value());
  ASSERT_TRUE(a.Spend(Entry("a1", 0.25, "A1")).has_value());
  ASSERT_TRUE(a.Spend(Entry("a2", 0.5, "A2")).has_value());
  ASSERT_TRUE(a.Spend(Entry("a", 0.125, "A")).has_value());
  ASSERT_TRUE(a.Spend(Entry("b", 0.5, "B")).has_value());
  ASSERT_TRUE(a.Spend(Entry("root", 0.0625, "all")).has_value());
  EXPECT_EQ(a.TotalOf("A").epsilon, 0.625);
  EXPECT_EQ(a.TotalOf("B").epsilon, 0.5);
  EXPECT_EQ(a.Total().epsilon, 0.6875);
}

TEST(PrivacyAccountantTest, PartitionsMustBeNewAndHaveAKnownParent) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  EXPECT_FALSE(a.AddPartition("", "all", "").has_value());
  EXPECT_FALSE(a.AddPartition("all", "all", "").has_value());
  auto orphan = a.AddPartition("X", "Y", "");
  ASSERT_FALSE(orphan.has_value());
  EXPECT_NE(orphan.error().message.find("'Y'"), std::string::npos);
  ASSERT_TRUE(a.AddPartition("X", "all", "").has_value());
  EXPECT_FALSE(a.AddPartition("X", "all", "").has_value());
}

TEST(PrivacyAccountantTest, RefusalLeavesTheLedgerUnchanged) {
  auto a = PrivacyAccountant::Create({1.0, 1e-6}).value();
  ASSERT_TRUE(a.Spend(Entry("a", 0.75)).has_value());
  const std::string before = a.ToJson().dump();
  auto over = a.Spend(Entry("b", 0.5));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_NE(over.error().message.find("'b'"), std::string::npos);
  auto over_delta = a.Spend(Entry("c", 0.0, "all", 1, 2e-6));
  EXPECT_EQ(over_delta.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_EQ(a.ToJson().dump(), before);
  EXPECT_EQ(a.entries().size(), 1u);
}

// Theorem 3 by hand for ε = 0.01, δ = 0, k = 1000, δ'' = 1e-6:
//   2k·ln(1/δ'') = 2000·13.815510557964274 = 27631.021115928546, sqrt = 166.225813626911
//   ε·sqrt(...) = 1.66225813626911;  k·ε·(e^ε − 1) = 10·0.010050167084168058 = 0.10050167084168
//   ε' = 1.7627598071107906, δ' = 1e-6.
TEST(CompositionTest, AdvancedCompositionByHand) {
  const PrivacyCost c = AdvancedComposition(0.01, 0.0, 1000, 1e-6);
  EXPECT_GE(c.epsilon, 1.7627598071107906);  // rounded up: never below the exact value
  EXPECT_NEAR(c.epsilon, 1.7627598071107906, 1e-14);
  EXPECT_EQ(c.delta, 1e-6);
  // δ' = kδ + δ'' = 1000·1e-9 + 1e-6 = 2e-6.
  EXPECT_NEAR(AdvancedComposition(0.01, 1e-9, 1000, 1e-6).delta, 2e-6, 1e-20);
  EXPECT_EQ(AdvancedComposition(0.01, 0.0, 0, 1e-6).epsilon, 0.0);
  EXPECT_TRUE(std::isinf(AdvancedComposition(0.01, 0.0, 10, 0.0).epsilon));
}

TEST(CompositionTest, SequentialSumsBoth) {
  const PrivacyCost c = SequentialComposition({{0.25, 1e-7}, {0.5, 2e-7}, {0.125, 0}});
  EXPECT_EQ(c.epsilon, 0.875);
  EXPECT_GE(c.delta, 3e-7);
  EXPECT_NEAR(c.delta, 3e-7, 1e-22);
}

// Best of the two: k = 1000 at ε = 0.01 → advanced (1.76 < 10); k = 2 → sequential
// (0.02 < 0.01·sqrt(4·13.8) + ...).
TEST(CompositionTest, BestCompositionPicksTheSmallerEpsilon) {
  const PrivacyCost many = BestComposition(0.01, 0.0, 1000, 1e-6);
  EXPECT_NEAR(many.epsilon, 1.7627598071107906, 1e-14);
  EXPECT_EQ(many.delta, 1e-6);
  const PrivacyCost few = BestComposition(0.01, 0.0, 2, 1e-6);
  EXPECT_EQ(few.epsilon, 0.02);
  EXPECT_EQ(few.delta, 0.0);
  // No slack: sequential, 1000·fl(0.01) = 10.000000000000000208 > 10, rounded up.
  EXPECT_EQ(BestComposition(0.01, 0.0, 1000, 0.0).epsilon, std::nextafter(10.0, 11.0));
}

// Theorem 4: ε = 1, p = 0.1: ln(1 + 0.1·(e − 1)) = ln(1.17182818) = 0.1585650787404291.
TEST(CompositionTest, AmplificationBySampling) {
  const PrivacyCost c = AmplifyBySampling({1.0, 1e-6}, 0.1);
  EXPECT_GE(c.epsilon, 0.1585650787404291);
  EXPECT_NEAR(c.epsilon, 0.1585650787404291, 1e-15);
  EXPECT_NEAR(c.delta, 1e-7, 1e-22);
  // Rates outside (δ, 1) give the input back (always a valid bound).
  for (double rate : {0.0, 1.0, 1.5, -0.2, kNaN, 1e-7}) {
    const PrivacyCost same = AmplifyBySampling({1.0, 1e-6}, rate);
    EXPECT_EQ(same.epsilon, 1.0) << rate;
    EXPECT_EQ(same.delta, 1e-6) << rate;
  }
}

// A batch of 1000 spends of 0.01 with slack 1e-6 costs the advanced 1.7628 (δ 1e-6).
TEST(PrivacyAccountantTest, BatchUsesAdvancedCompositionWhenBetter) {
  auto a = PrivacyAccountant::Create({2.0, 1e-5}, 1e-6).value();
  ASSERT_TRUE(a.Spend(Entry("entropies", 0.01, "all", 1000)).has_value());
  EXPECT_EQ(a.entries()[0].composition, "advanced");
  EXPECT_NEAR(a.Total().epsilon, 1.7627598071107906, 1e-14);
  EXPECT_EQ(a.Total().delta, 1e-6);
  // Small batches stay sequential: 3·0.0625 = 0.1875.
  ASSERT_TRUE(a.Spend(Entry("three", 0.0625, "all", 3)).has_value());
  EXPECT_EQ(a.entries()[1].composition, "sequential");
  EXPECT_EQ(a.entries()[1].cost.epsilon, 0.1875);
}

// With δ budget 0 the advanced δ'' cannot be paid: sequential is used if it fits.
// k = 1000 at ε = 2^-7: sequential 7.8125 (exact), advanced ≈ 1.36 but with δ = 1e-6.
TEST(PrivacyAccountantTest, AdvancedIsSkippedWhenItsDeltaDoesNotFit) {
  auto a = PrivacyAccountant::Create({10.0, 0.0}, 1e-6).value();
  const LedgerEntry batch = Entry("entropies", 0x1p-7, "all", 1000);
  EXPECT_LT(AdvancedComposition(0x1p-7, 0.0, 1000, 1e-6).epsilon, 1.4);
  EXPECT_EQ(a.CostOf(batch).epsilon, 7.8125);
  ASSERT_TRUE(a.Spend(batch).has_value());
  EXPECT_EQ(a.entries()[0].composition, "sequential");
  EXPECT_EQ(a.Total().delta, 0.0);
}

TEST(PrivacyAccountantJsonTest, RoundTripsExactly) {
  auto a = PrivacyAccountant::Create({2.0, 1e-5}, 1e-6).value();
  ASSERT_TRUE(a.AddPartition("D_T", "all", "structure").has_value());
  ASSERT_TRUE(a.Spend(Entry("entropies", 0.01, "D_T", 1000)).has_value());
  ASSERT_TRUE(a.Spend(Entry("count", 0.1, "all")).has_value());
  const nlohmann::json json = a.ToJson();
  EXPECT_EQ(json["budget"]["epsilon"], 2.0);
  EXPECT_EQ(json["entries"][0]["composition"], "advanced");
  auto back = PrivacyAccountant::FromJson(json);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->ToJson(), json);
  EXPECT_EQ(back->Total().epsilon, a.Total().epsilon);
  EXPECT_EQ(back->partitions().size(), 2u);
  // Through text as well (the description file).
  auto reparsed = PrivacyAccountant::FromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(reparsed.has_value());
  EXPECT_EQ(reparsed->ToJson(), json);
}

TEST(PrivacyAccountantJsonTest, RejectsEditedOrBrokenLedgers) {
  auto a = PrivacyAccountant::Create({1.0, 0.0}).value();
  ASSERT_TRUE(a.Spend(Entry("count", 0.5)).has_value());
  nlohmann::json edited = a.ToJson();
  edited["entries"][0]["cost"]["epsilon"] = 0.1;  // understated
  auto e1 = PrivacyAccountant::FromJson(edited);
  ASSERT_FALSE(e1.has_value());
  EXPECT_EQ(e1.error().code, ErrorCode::kParse);
  EXPECT_NE(e1.error().message.find("entries[0]"), std::string::npos);

  nlohmann::json missing = a.ToJson();
  missing["entries"][0].erase("epsilon_each");
  auto e2 = PrivacyAccountant::FromJson(missing);
  ASSERT_FALSE(e2.has_value());
  EXPECT_NE(e2.error().message.find("epsilon_each"), std::string::npos);

  nlohmann::json over = a.ToJson();
  over["entries"].push_back(over["entries"][0]);
  over["entries"].push_back(over["entries"][0]);  // 1.5 > 1
  over.erase("total");
  EXPECT_FALSE(PrivacyAccountant::FromJson(over).has_value());

  EXPECT_FALSE(PrivacyAccountant::FromJson(nlohmann::json::array()).has_value());
  nlohmann::json wrong_type = a.ToJson();
  wrong_type["partitions"] = "all";
  EXPECT_FALSE(PrivacyAccountant::FromJson(wrong_type).has_value());
}

}  // namespace
}  // namespace deniable
