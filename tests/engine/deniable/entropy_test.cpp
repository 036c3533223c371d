// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/entropy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

namespace deniable {
namespace {

// The noise is calibrated to ΔH plus twice the bound on a computed entropy's rounding error.
TEST(EntropySensitivityTest, QueriesAddTheEvaluationErrorMargin) {
  for (double n : {0.0, 1.0, 1023.0, 10256.0, 4294967295.0}) {
    EXPECT_GE(EntropyQuerySensitivity(n), EntropySensitivity(n) + 0x1p-42) << n;
    EXPECT_NEAR(EntropyQuerySensitivity(n), EntropySensitivity(n) + 0x1p-42, 1e-15) << n;
  }
}

TEST(EntropySensitivityTest, MatchesHandComputedValues) {
  // ΔH(n) = (log2(n + 1) + 1/ln 2)/(n + 1).
  EXPECT_NEAR(EntropySensitivity(0), 1.0 / std::numbers::ln2, 1e-15);
  EXPECT_NEAR(EntropySensitivity(1), (1.0 + 1.0 / std::numbers::ln2) / 2.0, 1e-15);
  EXPECT_NEAR(EntropySensitivity(1023), (10.0 + 1.0 / std::numbers::ln2) / 1024.0, 1e-15);
  EXPECT_NEAR(EntropySensitivity(10256), (std::log2(10257.0) + 1.0 / std::numbers::ln2) / 10257.0,
              1e-15);
  // Rounded up, never down.
  EXPECT_GE(EntropySensitivity(1023), (10.0 + 1.0 / std::numbers::ln2) / 1024.0);
  // Decreasing in n (so a lower bound on n gives an upper bound on the sensitivity).
  for (double n = 0; n < 5000; n += 7) EXPECT_GT(EntropySensitivity(n), EntropySensitivity(n + 1));
}

// Every histogram of n records over `cells` cells, and every neighbour with one more record:
// |H' - H| never exceeds ΔH(n), and the bound is tight within a factor of 2.5 (so it is not
// vacuous).
TEST(EntropySensitivityTest, BoundsEveryAddRemoveNeighbourOfSmallHistograms) {
  for (int cells = 1; cells <= 4; ++cells) {
    for (int n = 0; n <= 12; ++n) {
      double worst = 0;
      std::vector<std::uint64_t> h(static_cast<std::size_t>(cells), 0);
      std::function<void(int, int)> visit = [&](int cell, int left) {
        if (cell == cells - 1) {
          h[static_cast<std::size_t>(cell)] = static_cast<std::uint64_t>(left);
          const double base = EntropyOfCounts(h);
          for (int add = 0; add < cells; ++add) {
            ++h[static_cast<std::size_t>(add)];
            worst = std::max(worst, std::abs(EntropyOfCounts(h) - base));
            --h[static_cast<std::size_t>(add)];
          }
          return;
        }
        for (int c = 0; c <= left; ++c) {
          h[static_cast<std::size_t>(cell)] = static_cast<std::uint64_t>(c);
          visit(cell + 1, left - c);
        }
      };
      visit(0, n);
      EXPECT_LE(worst, EntropySensitivity(n)) << cells << " cells, n = " << n;
      if (cells >= 2 && n >= 1) {
        EXPECT_GT(worst * 2.5, EntropySensitivity(n)) << n;
      }
    }
  }
}

TEST(EntropyTest, HistogramsAndColumns) {
  EXPECT_DOUBLE_EQ(EntropyOfCounts(std::vector<std::uint64_t>{1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(EntropyOfCounts(std::vector<std::uint64_t>{5, 5, 5, 5}), 2.0);
  EXPECT_DOUBLE_EQ(EntropyOfCounts(std::vector<std::uint64_t>{2, 1, 1, 0}), 1.5);
  EXPECT_DOUBLE_EQ(EntropyOfCounts(std::vector<std::uint64_t>{}), 0.0);
  const std::vector<Code> a = {0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<Code> b = {0, 0, 1, 1, 2, 2, 3, 3};
  EXPECT_DOUBLE_EQ(ColumnEntropy(a, {}, 4), 2.0);
  // Buckets {0,1} -> 0 and {2,3} -> 1: one bit.
  EXPECT_DOUBLE_EQ(ColumnEntropy(a, {0, 0, 1, 1}, 2), 1.0);
  // All 8 pairs distinct: 3 bits; with b bucketed into 2, pairs (a, bkt b) are 8 distinct too.
  EXPECT_DOUBLE_EQ(PairEntropy(a, 4, b, {}, 4), 3.0);
  EXPECT_DOUBLE_EQ(PairEntropy(a, 4, b, {0, 0, 1, 1}, 2), 3.0);
  EXPECT_DOUBLE_EQ(PairEntropy(a, 4, a, {}, 4), 2.0);
}

TEST(NoisyRowCountLowerBoundTest, MarginIsTheSmallestWithTailBelowDelta) {
  auto accountant = PrivacyAccountant::Create(PrivacyCost{10, 1e-3});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->AddPartition("D_T", "all", "test").has_value());
  SeededRng rng(3);
  const double epsilon = 0.1, delta = 1e-6;
  auto bound = NoisyRowCountLowerBound(1000, epsilon, delta, *accountant, "D_T", rng);
  ASSERT_TRUE(bound.has_value());
  // Pr[DLap > c] = q^{c+1}/(1+q), q = e^{-ε}.
  const double q = std::exp(-epsilon);
  const double c = static_cast<double>(bound->margin);
  EXPECT_LE(std::pow(q, c + 1) / (1 + q), delta);
  EXPECT_GT(std::pow(q, c) / (1 + q), delta);
  EXPECT_EQ(bound->lower, bound->noisy - bound->margin);
  ASSERT_EQ(accountant->entries().size(), 1u);
  EXPECT_DOUBLE_EQ(accountant->entries()[0].cost.epsilon, epsilon);
  EXPECT_DOUBLE_EQ(accountant->entries()[0].cost.delta, delta);
  EXPECT_EQ(accountant->entries()[0].partition, "D_T");
}

TEST(NoisyRowCountLowerBoundTest, RefusesWhenTheBudgetIsExhausted) {
  auto accountant = PrivacyAccountant::Create(PrivacyCost{0.05, 1e-3});
  ASSERT_TRUE(accountant.has_value());
  SeededRng rng(3);
  auto bound = NoisyRowCountLowerBound(1000, 0.1, 1e-6, *accountant, "all", rng);
  ASSERT_FALSE(bound.has_value());
  EXPECT_EQ(bound.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_TRUE(accountant->entries().empty());
}

}  // namespace
}  // namespace deniable
