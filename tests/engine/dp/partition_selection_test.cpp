// SPDX-License-Identifier: Apache-2.0
// Partition selection: the threshold against hand-computed values, validation, accounting.
#include "engine/dp/partition_selection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace deniable {
namespace {

// ε = 1 (scale 1, α = e^-1 = 0.36788), δ = 1e-5:
//   α^11/(1+α) = 1.221e-5 > δ,  α^12/(1+α) = 4.492e-6 <= δ  →  k* = 12, τ = 13.
// ε = 1, δ = 0.05: α^2/(1+α) = 0.0989 > δ, α^3/(1+α) = 0.0364 <= δ → τ = 4.
// ε = 0.5 (scale 2, α = e^-0.5 = 0.60653), δ = 1e-3: (ln 1000 − ln 1.60653)·2 = 12.867
//   → k* = 13, τ = 14; keep probability α^13/(1+α) = 9.358e-4 <= δ.
TEST(PartitionSelectionThresholdTest, MatchesHandComputedValues) {
  EXPECT_EQ(PartitionSelectionThreshold(1.0, 1e-5), 13.0);
  EXPECT_EQ(PartitionSelectionThreshold(1.0, 0.05), 4.0);
  EXPECT_EQ(PartitionSelectionThreshold(0.5, 1e-3), 14.0);
  EXPECT_NEAR(PartitionSelectionKeepProbabilityOfSingleton(1.0, 1e-5), 4.49177914982504e-06,
              1e-18);
  EXPECT_NEAR(PartitionSelectionKeepProbabilityOfSingleton(1.0, 0.05), 0.0363972634351655,
              1e-15);
  EXPECT_NEAR(PartitionSelectionKeepProbabilityOfSingleton(0.5, 1e-3), 9.358297545634756e-4,
              1e-16);
}

// Large δ: Pr[Z >= 0] = 1/(1+α) <= δ already, so τ = 1 (every present value with count >= 1
// is kept unless the noise pulls it below 1).
TEST(PartitionSelectionThresholdTest, LargeDeltaGivesThresholdOne) {
  EXPECT_EQ(PartitionSelectionThreshold(1.0, 0.9), 1.0);
}

TEST(PartitionSelectionThresholdTest, KeepProbabilityNeverExceedsDelta) {
  for (double epsilon : {0.01, 0.1, 0.3, 1.0, 2.0, 10.0}) {
    for (double delta : {1e-12, 1e-9, 1e-6, 1e-3, 0.1}) {
      const double p = PartitionSelectionKeepProbabilityOfSingleton(epsilon, delta);
      EXPECT_LE(p, delta) << epsilon << " " << delta;
      // Minimal: one step lower would exceed δ (α^(k−1)/(1+α) = p/α > δ), unless τ = 1.
      const double tau = PartitionSelectionThreshold(epsilon, delta);
      if (tau > 1) {
        EXPECT_GT(p * std::exp(epsilon), delta * (1 - 1e-9)) << epsilon << " " << delta;
      }
    }
  }
}

TEST(PartitionSelectionThresholdTest, InvalidParametersGiveNaN) {
  EXPECT_TRUE(std::isnan(PartitionSelectionThreshold(0.0, 1e-5)));
  EXPECT_TRUE(std::isnan(PartitionSelectionThreshold(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(PartitionSelectionThreshold(1.0, 1.0)));
  EXPECT_TRUE(std::isnan(PartitionSelectionThreshold(std::nan(""), 1e-5)));
}

TEST(SelectPartitionsTest, RejectsInvalidParametersWithoutSpending) {
  auto accountant = PrivacyAccountant::Create({10.0, 0.5}).value();
  SeededRng rng(31);
  const std::vector<std::uint64_t> counts = {5, 1};
  for (auto [epsilon, delta] : {std::pair{0.0, 1e-5}, std::pair{-1.0, 1e-5},
                                std::pair{std::nan(""), 1e-5}, std::pair{1.0, 0.0},
                                std::pair{1.0, 1.0}, std::pair{1.0, -0.1},
                                std::pair{1e13, 1e-5}}) {
    auto selected = SelectPartitions(counts, epsilon, delta, accountant, "x", "all", rng);
    ASSERT_FALSE(selected.has_value()) << epsilon << " " << delta;
    EXPECT_EQ(selected.error().code, ErrorCode::kInvalidArgument);
  }
  auto message = SelectPartitions(counts, 1.0, 2.0, accountant, "x", "all", rng);
  EXPECT_NE(message.error().message.find("delta"), std::string::npos);
  EXPECT_NE(message.error().message.find("2"), std::string::npos);
  EXPECT_TRUE(accountant.entries().empty());
}

TEST(SelectPartitionsTest, RecordsTheSpendAndRefusesOverBudget) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-5}).value();
  SeededRng rng(32);
  const std::vector<std::uint64_t> counts = {1000, 2000};
  auto selected = SelectPartitions(counts, 0.5, 5e-6, accountant, "categories of sex", "all", rng);
  ASSERT_TRUE(selected.has_value());
  ASSERT_EQ(accountant.entries().size(), 1u);
  EXPECT_EQ(accountant.entries()[0].label, "categories of sex");
  EXPECT_EQ(accountant.Total().epsilon, 0.5);
  EXPECT_EQ(accountant.Total().delta, 5e-6);
  auto refused = SelectPartitions(counts, 0.75, 1e-6, accountant, "again", "all", rng);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_EQ(accountant.entries().size(), 1u);
}

// Counts of 1000 with τ = 14 at ε = 0.5: dropping needs noise <= −987, probability e^-493.
TEST(SelectPartitionsTest, KeepsLargeCountsWithNoisyCountsAboveThreshold) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-3}).value();
  SeededRng rng(33);
  const std::vector<std::uint64_t> counts = {1000, 0, 5000, 1000};
  auto selected = SelectPartitions(counts, 0.5, 1e-3, accountant, "x", "all", rng);
  ASSERT_TRUE(selected.has_value());
  EXPECT_EQ(selected->threshold, 14.0);
  ASSERT_GE(selected->kept.size(), 3u);
  EXPECT_EQ(selected->kept.front(), 0u);
  EXPECT_EQ(selected->kept.back(), 3u);
  ASSERT_EQ(selected->kept.size(), selected->noisy_counts.size());
  for (std::size_t i = 0; i < selected->kept.size(); ++i) {
    EXPECT_GE(selected->noisy_counts[i], 14);
    if (i > 0) {
      EXPECT_GT(selected->kept[i], selected->kept[i - 1]);
    }
  }
  // The zero count (index 1) clears 14 only with noise >= 14: probability 9.4e-4·α ≈ 5.7e-4.
}

TEST(SelectPartitionsTest, EmptyInputKeepsNothingButStillSpends) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-3}).value();
  SeededRng rng(34);
  auto selected = SelectPartitions({}, 0.5, 1e-3, accountant, "x", "all", rng);
  ASSERT_TRUE(selected.has_value());
  EXPECT_TRUE(selected->kept.empty());
  EXPECT_EQ(accountant.entries().size(), 1u);
}

}  // namespace
}  // namespace deniable
