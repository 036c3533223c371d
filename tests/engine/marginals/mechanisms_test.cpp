// SPDX-License-Identifier: Apache-2.0
// MST and AIM on a small correlated table: what they measure and what they spend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/marginals/aim.h"
#include "engine/marginals/mst.h"

namespace deniable {
namespace {

// 2,000 rows, 5 attributes: b copies a most of the time, the rest independent.
EncodedTable SmallTable() {
  SeededRng rng(9);
  EncodedTable t;
  t.rows = 2000;
  t.cardinalities = {4, 4, 3, 2, 5};
  t.columns.assign(5, std::vector<Code>(t.rows));
  for (std::size_t r = 0; r < t.rows; ++r) {
    t.columns[0][r] = static_cast<Code>(UniformBelow(rng, 4));
    t.columns[1][r] =
        UniformBelow(rng, 10) < 8 ? t.columns[0][r] : static_cast<Code>(UniformBelow(rng, 4));
    t.columns[2][r] = static_cast<Code>(UniformBelow(rng, 3));
    t.columns[3][r] = static_cast<Code>(UniformBelow(rng, 2));
    t.columns[4][r] = static_cast<Code>(UniformBelow(rng, 5));
  }
  return t;
}

PrivacyAccountant Ledger() {
  auto accountant = PrivacyAccountant::Create({2.0, 1e-9});
  EXPECT_TRUE(accountant.has_value());
  EXPECT_TRUE(accountant->SetZcdpDelta(1e-9).has_value());
  return std::move(accountant.value());
}

TEST(MstTest, MeasuresEveryColumnAndASpanningTreeWithinRho) {
  const EncodedTable data = SmallTable();
  PrivacyAccountant accountant = Ledger();
  SeededRng rng(1);
  NullProgress progress;
  MstOptions options;
  options.rho = 0.05;
  auto model = RunMst(data, options, accountant, rng, progress);
  ASSERT_TRUE(model.has_value()) << model.error().message;
  std::size_t one_way = 0, two_way = 0;
  for (const Clique& c : model->measured) (c.size() == 1 ? one_way : two_way) += 1;
  EXPECT_EQ(one_way, 5u);
  EXPECT_EQ(two_way, 4u);  // d − 1 edges
  EXPECT_LE(accountant.RhoOf("all"), 0.05);
  EXPECT_GT(accountant.RhoOf("all"), 0.05 * 0.999);
  // The strong pair (0, 1) is in the tree at this budget.
  bool strong = false;
  for (const Clique& c : model->measured) strong = strong || c == Clique{0, 1};
  EXPECT_TRUE(strong);
  const EncodedTable sample = model->Sample(300, {}, rng);
  EXPECT_EQ(sample.rows, 300u);
  EXPECT_EQ(sample.cardinalities, data.cardinalities);
}

TEST(AimTest, SpendsAtMostRhoAndReportsErrorBounds) {
  const EncodedTable data = SmallTable();
  PrivacyAccountant accountant = Ledger();
  SeededRng rng(2);
  NullProgress progress;
  AimOptions options;
  options.rho = 0.05;
  auto model = RunAim(data, options, accountant, rng, progress);
  ASSERT_TRUE(model.has_value()) << model.error().message;
  EXPECT_LE(accountant.RhoOf("all"), 0.05);
  EXPECT_GT(accountant.RhoOf("all"), 0.05 * 0.99);  // the last round uses what is left
  EXPECT_GT(model->rounds, 0);
  EXPECT_EQ(model->error_bounds.size(), 10u + 10u);  // all 2- and 3-way marginals of 5 columns
  for (const QueryErrorBound& b : model->error_bounds) {
    if (b.measured) {
      EXPECT_GT(b.expected_l1_fraction, 0.0);
    }
  }
}

// Counts released by an earlier step (a histogram's second pass) join the 1-way measurement by
// inverse variance: with a prior of exact counts at a tiny variance, the model's 1-way marginal
// of that attribute follows the prior, where AIM's own noisy measurement alone (σ ≈ 100
// records here) leaves it tens of records away.
TEST(AimTest, PriorCountsJoinTheOneWayMeasurementByInverseVariance) {
  const EncodedTable data = SmallTable();
  std::vector<double> exact(5, 0.0);
  for (Code c : data.columns[4]) exact[c] += 1;
  auto fit = [&](bool with_prior) {
    AimOptions options;
    options.rho = 0.0005;
    if (with_prior) {
      options.prior_counts.assign(5, {});
      options.prior_variances.assign(5, {});
      options.prior_counts[4] = exact;
      options.prior_variances[4] = {1e-6, 1e-6, 1e-6, 1e-6, 1e-6};
    }
    PrivacyAccountant accountant = Ledger();
    SeededRng rng(4);
    NullProgress progress;
    auto model = RunAim(data, options, accountant, rng, progress);
    EXPECT_TRUE(model.has_value()) << model.error().message;
    return model->model.Marginal({4}).values;
  };
  const std::vector<double> with = fit(true), without = fit(false);
  double worst_with = 0, worst_without = 0;
  for (std::size_t c = 0; c < 5; ++c) {
    worst_with = std::max(worst_with, std::fabs(with[c] - exact[c]));
    worst_without = std::max(worst_without, std::fabs(without[c] - exact[c]));
  }
  EXPECT_LT(worst_with, 2.0);
  EXPECT_GT(worst_without, 10.0);
}

TEST(AimTest, TooFewRoundsAreRaisedToTheColumnCount) {
  const EncodedTable data = SmallTable();
  PrivacyAccountant accountant = Ledger();
  SeededRng rng(3);
  NullProgress progress;
  AimOptions options;
  options.rho = 0.05;
  options.rounds = 1;
  auto model = RunAim(data, options, accountant, rng, progress);
  ASSERT_TRUE(model.has_value()) << model.error().message;
  EXPECT_LE(accountant.RhoOf("all"), 0.05);
}

TEST(AimTest, RefusesWhenTheLedgerCannotPay) {
  const EncodedTable data = SmallTable();
  auto small = PrivacyAccountant::Create({0.01, 1e-9});
  ASSERT_TRUE(small.has_value());
  ASSERT_TRUE(small->SetZcdpDelta(1e-9).has_value());
  SeededRng rng(4);
  NullProgress progress;
  AimOptions options;
  options.rho = 0.05;  // far more than ε = 0.01 allows
  auto model = RunAim(data, options, *small, rng, progress);
  ASSERT_FALSE(model.has_value());
  EXPECT_EQ(model.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_LE(small->Total().epsilon, 0.01);
}

// The estimation's work budget (aim.h): a small model gets the full iteration counts, a large
// one budget / cells, never fewer than the minimum; a fixed count (the CLI's --iterations) is
// taken as is.
TEST(AimTest, IterationsFollowTheCellBudget) {
  EXPECT_EQ(IterationsFor(13836, 1500, kMinFinalIterations, kFinalCellIterations, false), 1500);
  EXPECT_EQ(IterationsFor(120000, 1500, kMinFinalIterations, kFinalCellIterations, false), 500);
  EXPECT_EQ(IterationsFor(1000000, 1500, kMinFinalIterations, kFinalCellIterations, false),
            kMinFinalIterations);
  EXPECT_EQ(IterationsFor(80000, 100, kMinRoundIterations, kRoundCellIterations, false), 50);
  EXPECT_EQ(IterationsFor(1000000, 100, kMinRoundIterations, kRoundCellIterations, false),
            kMinRoundIterations);
  EXPECT_EQ(IterationsFor(1000000, 1500, kMinFinalIterations, kFinalCellIterations, true), 1500);
  EXPECT_EQ(IterationsFor(1000000, 10, kMinRoundIterations, kRoundCellIterations, false), 10);
}

// The automatic rounds (aim.h): T = ⌊n̂²ρ/(kAimRoundsSnr·d)⌋ within [d, 16d]. The figures are
// the pipeline's own at ε = 1: flchain (n̂ 7,930, ρ 0.004055, 11 columns) keeps aim.py's 16d;
// the 30-column composite (5,056, 0.000914, 29) and GermanCredit (1,056, 0.000634, 22) drop to
// d rounds; in between the rule is the formula.
TEST(AimTest, AutomaticRoundsFollowTheNoisyRowCount) {
  EXPECT_EQ(AutomaticAimRounds(11, 0.004055, 7930), 176);
  EXPECT_EQ(AutomaticAimRounds(29, 0.000914, 5056), 29);
  EXPECT_EQ(AutomaticAimRounds(22, 0.000634, 1056), 22);
  // 10,000² · 0.001 / (128 · 10) = 78.125.
  EXPECT_EQ(AutomaticAimRounds(10, 0.001, 10000), 78);
  // Unknown row count: aim.py's default.
  EXPECT_EQ(AutomaticAimRounds(10, 0.001, -1), 160);
  EXPECT_EQ(AutomaticAimRounds(0, 0.001, -1), 16);
}

}  // namespace
}  // namespace deniable
