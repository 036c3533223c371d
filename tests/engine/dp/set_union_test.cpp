// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/set_union.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace deniable {
namespace {

SetUnionInput Input(const std::vector<std::vector<std::uint32_t>>& rows_by_group,
                    std::vector<std::uint32_t> counts) {
  SetUnionInput input;
  input.values = rows_by_group;
  input.value_counts = std::move(counts);
  input.records = rows_by_group.empty() ? 0 : rows_by_group[0].size();
  return input;
}

std::vector<std::uint32_t> Identity(std::size_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

TEST(SetUnionTest, WaterFillingPoursTheUnitWeightIntoTheEmptiestItemsFirst) {
  // Two groups; record 0 holds (g0: a), record 1 holds (g0: a, g1: b); cap 2.
  const SetUnionInput input = Input({{0, 0}, {kNoItem, 0}}, {1, 1});
  const auto w = PolicyLaplaceWeights(input, Identity(2), /*cap=*/2.0);
  // Record 0: a = 1. Record 1: gaps a = 1, b = 2: both rise by 0.5.
  EXPECT_DOUBLE_EQ(w[0][0], 1.5);
  EXPECT_DOUBLE_EQ(w[1][0], 0.5);
}

TEST(SetUnionTest, FullItemsReceiveNothingAndSmallGapsAreFilledExactly) {
  // Group 0 value 0 is held by all 4 records; group 1 gives each record its own value.
  const SetUnionInput input = Input({{0, 0, 0, 0}, {0, 1, 2, 3}}, {1, 4});
  const auto w = PolicyLaplaceWeights(input, Identity(4), /*cap=*/0.75);
  // r0: gaps .75/.75: each .5. r1: gaps .25 (shared) and .75: shared filled (.25), new gets .75.
  // r2, r3: shared is full: the whole budget would go to their own item, capped at .75.
  EXPECT_DOUBLE_EQ(w[0][0], 0.75);
  EXPECT_DOUBLE_EQ(w[1][0], 0.5);
  EXPECT_DOUBLE_EQ(w[1][1], 0.75);
  EXPECT_DOUBLE_EQ(w[1][2], 0.75);
  EXPECT_DOUBLE_EQ(w[1][3], 0.75);
}

// The privacy proof rests on ℓ1 contractivity: adding one record anywhere in the order changes
// the final weights by at most 1 in ℓ1. Checked on random tables with random insertion points.
TEST(SetUnionTest, PolicyIsL1Contractive) {
  SeededRng rng(2024);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t groups = 1 + UniformBelow(rng, 6);
    const std::size_t records = 1 + UniformBelow(rng, 60);
    std::vector<std::uint32_t> counts(groups);
    std::vector<std::vector<std::uint32_t>> values(groups, std::vector<std::uint32_t>(records + 1));
    for (std::size_t g = 0; g < groups; ++g) {
      counts[g] = static_cast<std::uint32_t>(1 + UniformBelow(rng, 8));
      for (std::size_t r = 0; r <= records; ++r) {
        values[g][r] = UniformBelow(rng, 5) == 0
                           ? kNoItem
                           : static_cast<std::uint32_t>(UniformBelow(rng, counts[g]));
      }
    }
    const SetUnionInput with = Input(values, counts);  // record `records` is the added one
    std::vector<std::uint32_t> order = Identity(records);
    Shuffle(std::span<std::uint32_t>(order), rng);
    std::vector<std::uint32_t> order_with = order;
    order_with.insert(order_with.begin() + static_cast<std::ptrdiff_t>(UniformBelow(rng, records + 1)),
                      static_cast<std::uint32_t>(records));
    const double cap = 0.5 + 4.0 * UniformUnit(rng);
    const auto w_without = PolicyLaplaceWeights(with, order, cap);
    const auto w_with = PolicyLaplaceWeights(with, order_with, cap);
    double l1 = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::size_t v = 0; v < counts[g]; ++v) l1 += std::fabs(w_with[g][v] - w_without[g][v]);
    }
    ASSERT_LE(l1, 1.0 + 1e-9) << "trial " << trial;
  }
}

TEST(SetUnionTest, ThresholdMatchesTheFormulaComputedByHand) {
  // ε = 0.1, δ = 1e-9, Δ0 = 15: b = 10.00001; the maximum is at t = 15:
  // 1/15 + b·ln(1/(2·(1 − (1 − 1e-9)^(1/15)))) = 0.0667 + 10.00001·ln(7.5e9) = 227.45.
  EXPECT_NEAR(SetUnionThreshold(0.1, 1e-9, 15), 227.45, 0.02);
  // Δ0 = 1 reduces to partition selection's 1 + b·ln(1/(2δ)) = 1 + 1.000001·ln(5e8) = 21.03.
  EXPECT_NEAR(SetUnionThreshold(1.0, 1e-9, 1), 21.03, 0.01);
}

TEST(SetUnionTest, KeepsFrequentValuesDropsSingletonsAndSpendsOnce) {
  std::vector<std::uint32_t> g0(2000), g1(2000);
  for (std::size_t r = 0; r < 2000; ++r) {
    g0[r] = r < 1500 ? 0 : 1;                             // 1500 and 500 records
    g1[r] = r == 7 ? 2 : static_cast<std::uint32_t>(r % 2);  // value 2 held by one record
  }
  const SetUnionInput input = Input({g0, g1}, {2, 3});
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 1e-6}).value();
  SetUnionOptions options;
  options.epsilon = 0.5;
  options.delta = 1e-7;
  SeededRng rng(3);
  NullProgress progress;
  auto result = DpSetUnion(input, options, accountant, "values", "all", rng, progress);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->kept[0], (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(result->kept[1], (std::vector<std::uint32_t>{0, 1}));  // value 2 (one record) dropped
  ASSERT_EQ(accountant.entries().size(), 1u);
  EXPECT_EQ(accountant.Total().epsilon, 0.5);
  EXPECT_EQ(accountant.Total().delta, 1e-7);
  EXPECT_GT(result->cap, result->threshold);
}

TEST(SetUnionTest, RejectsBadParametersAndMismatchedInput) {
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 1e-6}).value();
  SeededRng rng(1);
  NullProgress progress;
  SetUnionOptions options;
  options.epsilon = -1;
  EXPECT_FALSE(DpSetUnion(Input({{0}}, {1}), options, accountant, "x", "all", rng, progress));
  options.epsilon = 0.1;
  options.delta = 0;
  EXPECT_FALSE(DpSetUnion(Input({{0}}, {1}), options, accountant, "x", "all", rng, progress));
  options.delta = 1e-9;
  SetUnionInput bad = Input({{0, 0}}, {1});
  bad.records = 3;
  auto result = DpSetUnion(bad, options, accountant, "x", "all", rng, progress);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(accountant.entries().empty());  // nothing spent on refused calls
}

}  // namespace
}  // namespace deniable
