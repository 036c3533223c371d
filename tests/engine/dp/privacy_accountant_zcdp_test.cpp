// SPDX-License-Identifier: Apache-2.0
// zCDP entries in the privacy accountant (issue 10: the marginals mode's ledger).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {
namespace {

LedgerEntry Zcdp(const std::string& label, double rho, std::size_t count = 1) {
  LedgerEntry e;
  e.label = label;
  e.mechanism = "discrete Gaussian";
  e.partition = "all";
  e.rho_each = rho;
  e.count = count;
  e.sensitivity = 1;
  return e;
}

LedgerEntry Pure(const std::string& label, double epsilon) {
  LedgerEntry e;
  e.label = label;
  e.mechanism = "discrete Laplace";
  e.partition = "all";
  e.epsilon_each = epsilon;
  e.sensitivity = 1;
  return e;
}

TEST(PrivacyAccountantZcdpTest, ZcdpEntriesNeedAConversionDelta) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  const Status s = accountant->Spend(Zcdp("1-way marginals", 0.01));
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_TRUE(accountant->entries().empty());
}

TEST(PrivacyAccountantZcdpTest, RhoAddsAndTheBlockIsConvertedOnceWithCks) {
  auto accountant = PrivacyAccountant::Create({3.0, 2e-6});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->Spend(Pure("row count", 0.01)).has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-6).has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("1-way marginals", 0.01, 3)).has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("selection", 0.02)).has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("2-way marginals", 0.05)).has_value());
  EXPECT_NEAR(accountant->RhoOf("all"), 0.1, 1e-15);
  EXPECT_GE(accountant->RhoOf("all"), 0.1);
  // ρ = 0.1, δ = 1e-6: ε = 2.14193892838547 (gaussian_accounting.md §5), plus the 0.01.
  const PrivacyCost total = accountant->Total();
  EXPECT_NEAR(total.epsilon, 0.01 + 2.14193892838547, 1e-9);
  EXPECT_GE(total.epsilon, 0.01 + ZcdpEpsilon(0.1, 1e-6).value());
  EXPECT_EQ(total.delta, 1e-6);
  // The sum of the per-entry conversions would be far worse: the block is converted once.
  double separately = 0;
  for (const LedgerEntry& e : accountant->entries()) separately += e.cost.epsilon;
  EXPECT_GT(separately, total.epsilon + 1.0);
  EXPECT_EQ(accountant->entries().back().composition, "zcdp");
}

TEST(PrivacyAccountantZcdpTest, RefusesOverspendingAndEpsilonDeltaEntriesAfterZcdp) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-9).has_value());
  const double rho = ZcdpRhoFor(1.0, 1e-9).value();
  EXPECT_NEAR(accountant->RemainingRho(), rho, rho * 1e-6);
  ASSERT_TRUE(accountant->Spend(Zcdp("most", rho * 0.999)).has_value());
  const Status over = accountant->Spend(Zcdp("too much", rho * 0.01));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, ErrorCode::kBudgetExhausted);
  const Status late = accountant->Spend(Pure("late", 1e-6));
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(accountant->entries().size(), 1u);
  EXPECT_LE(accountant->Total().epsilon, 1.0);
  const Status again = accountant->SetZcdpDelta(1e-10);
  EXPECT_FALSE(again.has_value());
}

TEST(PrivacyAccountantZcdpTest, RhoForInvertsTheConversion) {
  for (double epsilon : {0.1, 1.0, 5.0}) {
    for (double delta : {1e-5, 1e-9}) {
      const double rho = ZcdpRhoFor(epsilon, delta).value();
      EXPECT_LE(ZcdpEpsilon(rho, delta).value(), epsilon);
      EXPECT_GT(ZcdpEpsilon(rho * 1.001, delta).value(), epsilon);
    }
  }
  EXPECT_FALSE(ZcdpRhoFor(-1, 1e-9).has_value());
}

TEST(PrivacyAccountantZcdpTest, JsonRoundTripKeepsZcdpEntries) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->Spend(Pure("row count", 0.01)).has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-9).has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("marginals", 0.001, 14)).has_value());
  const nlohmann::json json = accountant->ToJson();
  auto back = PrivacyAccountant::FromJson(json);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->ToJson(), json);
  EXPECT_EQ(back->Total().epsilon, accountant->Total().epsilon);
  // Editing ρ down is caught by the replay.
  nlohmann::json edited = json;
  edited["entries"][1]["rho_each"] = 0.0001;
  EXPECT_FALSE(PrivacyAccountant::FromJson(edited).has_value());
}

// The marginals mode folds its ε-DP domain steps into the block: an ε-DP entry is recorded as
// ρ = ε²/2 (Bun & Steinke 2016, Prop. 1.4), a batch of k as k·ε²/2 (zCDP adds; sequential ε
// would add k·ε), and it may follow zCDP entries. Entries from before the fold (the row count)
// stay pure, an (ε, δ) entry is still refused, and the ledger replays to the same total.
TEST(PrivacyAccountantZcdpTest, FoldedPureEntriesJoinTheBlockAsEpsilonSquaredOverTwo) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  EXPECT_EQ(accountant->FoldPureDpIntoZcdpBlock().error().code, ErrorCode::kFailedPrecondition);
  ASSERT_TRUE(accountant->Spend(Pure("row count", 0.01)).has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-9).has_value());
  ASSERT_TRUE(accountant->FoldPureDpIntoZcdpBlock().has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("union", 0.001)).has_value());
  ASSERT_TRUE(accountant->Spend(Pure("bins of age", 0.05)).has_value());  // after a zCDP entry
  LedgerEntry levels = Pure("basic histogram", 0.01);
  levels.count = 10;
  ASSERT_TRUE(accountant->Spend(levels).has_value());
  const auto& entries = accountant->entries();
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].composition, "single");  // recorded before the fold
  EXPECT_EQ(entries[0].epsilon_each, 0.01);
  EXPECT_EQ(entries[2].epsilon_each, 0.0);
  EXPECT_EQ(entries[2].rho_each, 0.05 * 0.05 / 2);  // exact here: 0.0025 / 2 rounded up
  EXPECT_GE(entries[2].rho_each, 0.00125);
  EXPECT_EQ(entries[2].composition, "zcdp");
  EXPECT_NE(entries[2].mechanism.find("ε ≈ 0.05-DP"), std::string::npos) << entries[2].mechanism;
  EXPECT_EQ(entries[3].rho_each, ZcdpOfPureDp(0.01));
  // ρ = 0.001 + 0.00125 + 10 × 0.00005 = 0.00275.
  EXPECT_NEAR(accountant->RhoOf("all"), 0.00275, 1e-15);
  EXPECT_NEAR(accountant->Total().epsilon, 0.01 + ZcdpEpsilon(0.00275, 1e-9).value(), 1e-12);
  // Folding pays when an entry's ε is small against the block's (ε²/2 · dε/dρ < ε); in the
  // marginals mode at ε = 1 the block holds ρ ≈ 0.01 and a histogram spends 0.0223 twice.
  auto folded = PrivacyAccountant::Create({1.0, 1e-9});
  auto beside = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(folded.has_value() && beside.has_value());
  ASSERT_TRUE(folded->SetZcdpDelta(1e-9).has_value());
  ASSERT_TRUE(folded->FoldPureDpIntoZcdpBlock().has_value());
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(folded->Spend(Pure("histogram", 0.0223)).has_value());
    ASSERT_TRUE(beside->Spend(Pure("histogram", 0.0223)).has_value());
  }
  ASSERT_TRUE(beside->SetZcdpDelta(1e-9).has_value());
  ASSERT_TRUE(folded->Spend(Zcdp("marginals", 0.007)).has_value());
  ASSERT_TRUE(beside->Spend(Zcdp("marginals", 0.007)).has_value());
  EXPECT_NEAR(beside->Total().epsilon, 0.223 + ZcdpEpsilon(0.007, 1e-9).value(), 1e-12);
  EXPECT_LT(folded->Total().epsilon, beside->Total().epsilon - 0.1);
  LedgerEntry approximate = Pure("approximate", 0.01);
  approximate.delta_each = 1e-12;
  EXPECT_EQ(accountant->Spend(approximate).error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(accountant->CostOf(Pure("probe", 0.05)).epsilon,
            ZcdpEpsilon(ZcdpOfPureDp(0.05), 1e-9).value());

  const nlohmann::json json = accountant->ToJson();
  EXPECT_EQ(json.at("pure_dp_in_zcdp_block"), true);
  auto back = PrivacyAccountant::FromJson(json);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->ToJson(), json);
  EXPECT_TRUE(back->folds_pure_dp());
  EXPECT_EQ(back->entries()[0].composition, "single");  // not folded on replay
  nlohmann::json bad = json;
  bad["pure_dp_in_zcdp_block"] = "yes";
  EXPECT_FALSE(PrivacyAccountant::FromJson(bad).has_value());
}

// An approximate-zCDP entry (the marginals mode's set union): its ρ joins the block's, and its
// total-variation term τ adds e^ε·τ to the block's δ (privacy_accountant.md, "Approximate
// zCDP entries"); ε does not move.
TEST(PrivacyAccountantZcdpTest, ApproximateEntriesAddTheirCouplingTimesEToTheEpsilon) {
  auto accountant = PrivacyAccountant::Create({3.0, 2e-6});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->Spend(Pure("row count", 0.01)).has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-6).has_value());
  LedgerEntry union_entry = Zcdp("categories", 0.02);
  union_entry.delta_each = 1e-8;
  ASSERT_TRUE(accountant->Spend(union_entry).has_value());
  ASSERT_TRUE(accountant->Spend(Zcdp("marginals", 0.08)).has_value());
  const double epsilon_z = ZcdpEpsilon(0.1, 1e-6).value();
  const PrivacyCost total = accountant->Total();
  EXPECT_NEAR(total.epsilon, 0.01 + 2.14193892838547, 1e-9);  // as without the τ
  EXPECT_NEAR(total.delta, 1e-6 + std::exp(epsilon_z) * 1e-8, 1e-18);
  EXPECT_GE(total.delta, 1e-6 + std::exp(epsilon_z) * 1e-8);
  // The entry's own cost (display): its ρ converted at δ_z, plus e^ε·τ.
  const PrivacyCost own = accountant->entries()[1].cost;
  EXPECT_NEAR(own.delta, 1e-6 + std::exp(own.epsilon) * 1e-8, 1e-18);
  // The τ counts against the δ budget: a coupling that would take δ over is refused.
  LedgerEntry greedy = Zcdp("more categories", 1e-6);
  greedy.delta_each = 2e-7;  // e^2.15·2e-7 = 1.7e-6 > the 0.9e-6 left
  const Status s = accountant->Spend(greedy);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kBudgetExhausted);
  // ε in a zCDP entry is still refused.
  LedgerEntry mixed = Zcdp("mixed", 0.01);
  mixed.epsilon_each = 0.1;
  EXPECT_EQ(accountant->Spend(mixed).error().code, ErrorCode::kInvalidArgument);
  // The JSON replay keeps the τ.
  auto back = PrivacyAccountant::FromJson(accountant->ToJson());
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->Total().delta, total.delta);
}

}  // namespace
}  // namespace deniable
