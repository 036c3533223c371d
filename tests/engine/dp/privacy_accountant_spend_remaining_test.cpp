// SPDX-License-Identifier: Apache-2.0
// #12 item 7: "spend what remains" goes through the accountant (RemainingToSpend,
// RemainingRhoToSpend, WithBudgetRaisedBy), not through ad-hoc ε·(1 − 1e-9) in the pipeline.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/dp/privacy_accountant.h"

namespace deniable {
namespace {

LedgerEntry Entry(const std::string& label, double epsilon, const std::string& partition,
                  std::size_t count = 1, double delta = 0) {
  LedgerEntry e;
  e.label = label;
  e.mechanism = "test";
  e.partition = partition;
  e.epsilon_each = epsilon;
  e.delta_each = delta;
  e.count = count;
  return e;
}

TEST(PrivacyAccountantSpendRemainingTest, RemainingToSpendIsJustBelowRemaining) {
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1.0, 1e-6}).value();
  ASSERT_TRUE(accountant.Spend(Entry("count", 0.1, "all", 1, 1e-7)).has_value());
  const PrivacyCost left = accountant.Remaining();
  const PrivacyCost to_spend = accountant.RemainingToSpend();
  EXPECT_LT(to_spend.epsilon, left.epsilon);
  EXPECT_GE(to_spend.epsilon, left.epsilon * (1 - 2e-9));
  EXPECT_LT(to_spend.delta, left.delta);
  EXPECT_GE(to_spend.delta, left.delta * (1 - 2e-9));
}

// Budgets and prior spends chosen so that naive sums of shares round up past the budget.
TEST(PrivacyAccountantSpendRemainingTest, AnySplitOfWhatRemainsFits) {
  for (double budget : {0.1, 0.3, 1.0, 2.7, 7.0}) {
    for (double prior : {0.0, 0.01, 1.0 / 3}) {
      for (std::size_t parts : {3u, 7u, 1000u, 1'000'000u}) {
        auto accountant = PrivacyAccountant::Create(PrivacyCost{budget, 0}).value();
        ASSERT_TRUE(accountant.AddPartition("D_T", "all", "half").has_value());
        ASSERT_TRUE(accountant.AddPartition("D_P", "all", "half").has_value());
        if (prior > 0) {
          ASSERT_TRUE(accountant.Spend(Entry("prior", prior * budget, "all")).has_value());
        }
        const double epsilon = accountant.RemainingToSpend().epsilon;
        // Parallel composition: each partition spends all of it, in two uneven pieces and a
        // batch of equal parts.
        for (const char* partition : {"D_T", "D_P"}) {
          const double first = ShareOf(epsilon, 0.3);
          const double second = ShareOf(epsilon, 0.2);
          const double rest = EvenShare(epsilon - first - second, parts);
          ASSERT_TRUE(accountant.Spend(Entry("first", first, partition)).has_value());
          ASSERT_TRUE(accountant.Spend(Entry("second", second, partition)).has_value());
          const Status s = accountant.Spend(Entry("rest", rest, partition, parts));
          ASSERT_TRUE(s.has_value()) << budget << " " << prior << " " << parts << ": "
                                     << s.error().message;
        }
        EXPECT_LE(accountant.Total().epsilon, budget);
      }
    }
  }
}

TEST(PrivacyAccountantSpendRemainingTest, RemainingRhoToSpendFits) {
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1.0, 1e-6}).value();
  ASSERT_TRUE(accountant.SetZcdpDelta(accountant.RemainingToSpend().delta).has_value());
  const double rho = accountant.RemainingRhoToSpend();
  EXPECT_GT(rho, 0.0);
  EXPECT_LT(rho, accountant.RemainingRho());
  LedgerEntry entry = Entry("marginals", 0, "all", 10);
  entry.rho_each = rho / 10;
  ASSERT_TRUE(accountant.Spend(entry).has_value());
}

// Issue 12, part 7: one margin, applied in one place (Spendable), for every "spend what is
// left" — the accountant's own remainders and a step's planned shares (AIM, MST).
TEST(PrivacyAccountantSpendRemainingTest, SpendableIsTheOneMargin) {
  EXPECT_EQ(PrivacyAccountant::Spendable(1.0), 1.0 - PrivacyAccountant::kSpendMargin);
  EXPECT_EQ(PrivacyAccountant::Spendable(0.0), 0.0);
  EXPECT_EQ(PrivacyAccountant::Spendable(-1.0), 0.0);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1.0, 1e-6}).value();
  ASSERT_TRUE(accountant.Spend(Entry("model", 0.25, "all")).has_value());
  EXPECT_EQ(accountant.RemainingToSpend().epsilon,
            PrivacyAccountant::Spendable(accountant.Remaining().epsilon));
  EXPECT_EQ(accountant.RemainingToSpend().delta,
            PrivacyAccountant::Spendable(accountant.Remaining().delta));
  ASSERT_TRUE(accountant.SetZcdpDelta(accountant.RemainingToSpend().delta).has_value());
  EXPECT_EQ(accountant.RemainingRhoToSpend(),
            PrivacyAccountant::Spendable(accountant.RemainingRho()));
}

TEST(PrivacyAccountantSpendRemainingTest, RaisedBudgetFitsThePlannedCostAndKeepsTheLedger) {
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1.0, 1e-6}).value();
  ASSERT_TRUE(accountant.Spend(Entry("model", 0.999, "all")).has_value());
  auto raised = accountant.WithBudgetRaisedBy(PrivacyCost{2.5, 3e-7});
  ASSERT_TRUE(raised.has_value());
  EXPECT_EQ(raised->entries().size(), 1u);
  EXPECT_GE(raised->budget().epsilon, 3.5);
  EXPECT_LE(raised->budget().epsilon, 3.5 * (1 + 1e-8));
  // The planned cost fits exactly; a little more does not.
  ASSERT_TRUE(raised->Spend(Entry("synthesis", 2.5, "all", 1, 3e-7)).has_value());
  EXPECT_FALSE(raised->Spend(Entry("more", 2e-3, "all")).has_value());
  EXPECT_EQ(accountant.budget().epsilon, 1.0);  // the original is unchanged
  EXPECT_TRUE(accountant.WithBudgetRaisedBy(PrivacyCost{}).has_value());
  EXPECT_FALSE(accountant.WithBudgetRaisedBy(PrivacyCost{INFINITY, 0}).has_value());
  EXPECT_FALSE(accountant.WithBudgetRaisedBy(PrivacyCost{1, 1.0}).has_value());
}

}  // namespace
}  // namespace deniable
