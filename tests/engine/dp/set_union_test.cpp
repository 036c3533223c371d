// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/set_union.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/dp/gaussian_accounting.h"

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

// A random table whose last record is the added one r*, a random order of the others, and the
// same order with r* inserted at a random position (the coupling of the privacy proofs).
struct Neighbours {
  SetUnionInput input;
  std::vector<std::uint32_t> order;       // without r*
  std::vector<std::uint32_t> order_with;  // with r*
};
Neighbours RandomNeighbours(Rng& rng, std::size_t max_groups, std::size_t max_records) {
  const std::size_t groups = 1 + UniformBelow(rng, max_groups);
  const std::size_t records = 1 + UniformBelow(rng, max_records);
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
  Neighbours result{Input(values, counts), Identity(records), {}};
  Shuffle(std::span<std::uint32_t>(result.order), rng);
  result.order_with = result.order;
  result.order_with.insert(
      result.order_with.begin() + static_cast<std::ptrdiff_t>(UniformBelow(rng, records + 1)),
      static_cast<std::uint32_t>(records));
  return result;
}

// ‖a − b‖_p over all items, p = 1 or 2.
double Distance(const std::vector<std::vector<double>>& a,
                const std::vector<std::vector<double>>& b, int p) {
  double total = 0;
  for (std::size_t g = 0; g < a.size(); ++g) {
    for (std::size_t v = 0; v < a[g].size(); ++v) {
      const double d = std::fabs(a[g][v] - b[g][v]);
      total += p == 1 ? d : d * d;
    }
  }
  return p == 1 ? total : std::sqrt(total);
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
    const Neighbours n = RandomNeighbours(rng, 6, 60);
    const double cap = 0.5 + 4.0 * UniformUnit(rng);
    const auto w_without = PolicyLaplaceWeights(n.input, n.order, cap);
    const auto w_with = PolicyLaplaceWeights(n.input, n.order_with, cap);
    ASSERT_LE(Distance(w_with, w_without, 1), 1.0 + 1e-9) << "trial " << trial;
  }
}

TEST(SetUnionTest, ThresholdMatchesTheFormulaComputedByHand) {
  // ε = 0.1, δ = 1e-9, Δ0 = 15: b = 10.00001; the maximum is at t = 15:
  // 1/15 + b·ln(1/(2·(1 − (1 − 1e-9)^(1/15)))) = 0.0667 + 10.00001·ln(7.5e9) = 227.45.
  EXPECT_NEAR(SetUnionThreshold(0.1, 1e-9, 15), 227.45, 0.02);
  // Δ0 = 1 reduces to partition selection's 1 + b·ln(1/(2δ)) = 1 + 1.000001·ln(5e8) = 21.03.
  EXPECT_NEAR(SetUnionThreshold(1.0, 1e-9, 1), 21.03, 0.01);
}

class SetUnionMechanismTest : public ::testing::TestWithParam<SetUnionMechanism> {};

TEST_P(SetUnionMechanismTest, KeepsFrequentValuesDropsSingletonsAndSpendsOnce) {
  std::vector<std::uint32_t> g0(2000), g1(2000);
  for (std::size_t r = 0; r < 2000; ++r) {
    g0[r] = r < 1500 ? 0 : 1;                                // 1500 and 500 records
    g1[r] = r == 7 ? 2 : static_cast<std::uint32_t>(r % 2);  // value 2 held by one record
  }
  const SetUnionInput input = Input({g0, g1}, {2, 3});
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 1e-6}).value();
  SetUnionOptions options;
  options.epsilon = 0.5;
  options.delta = 1e-7;
  options.mechanism = GetParam();
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
  const std::string& text = accountant.entries()[0].mechanism;
  if (GetParam() == SetUnionMechanism::kPolicyGaussian) {
    EXPECT_NE(text.find("Policy Gaussian"), std::string::npos) << text;
    EXPECT_NE(text.find("σ = "), std::string::npos) << text;
    EXPECT_NE(text.find("analytic Gaussian + threshold δ"), std::string::npos) << text;
    EXPECT_GT(result->sigma, 0);
  } else {
    EXPECT_NE(text.find("Policy Laplace"), std::string::npos) << text;
    EXPECT_EQ(result->sigma, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(BothPolicies, SetUnionMechanismTest,
                         ::testing::Values(SetUnionMechanism::kPolicyLaplace,
                                           SetUnionMechanism::kPolicyGaussian));

TEST(SetUnionTest, PolicyGaussianIsTheDefault) {
  EXPECT_EQ(SetUnionOptions{}.mechanism, SetUnionMechanism::kPolicyGaussian);
}

TEST(SetUnionTest, LaplaceRoundsAreLedgeredOneEntryEachGaussianRoundsAsOne) {
  const SetUnionInput input = Input({{0, 0, 1}}, {2});
  SeededRng rng(8);
  NullProgress progress;
  for (SetUnionMechanism mechanism :
       {SetUnionMechanism::kPolicyLaplace, SetUnionMechanism::kPolicyGaussian}) {
    PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 1e-6}).value();
    SetUnionOptions options;
    options.epsilon = 0.5;
    options.delta = 1e-7;
    options.mechanism = mechanism;
    options.round_fractions = {0.5, 0.5};
    ASSERT_TRUE(DpSetUnion(input, options, accountant, "v", "all", rng, progress).has_value());
    const bool gaussian = mechanism == SetUnionMechanism::kPolicyGaussian;
    EXPECT_EQ(accountant.entries().size(), gaussian ? 1u : 2u);
    EXPECT_EQ(accountant.Total().epsilon, 0.5);
    if (gaussian) {
      EXPECT_NE(accountant.entries()[0].mechanism.find("2 rounds"), std::string::npos);
    }
  }
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
  SetUnionInput out_of_range = Input({{0, 5}}, {2});
  auto bad_value = DpSetUnion(out_of_range, options, accountant, "x", "all", rng, progress);
  ASSERT_FALSE(bad_value.has_value());
  EXPECT_NE(bad_value.error().message.find("group 0 holds value 5 but has only 2 values"),
            std::string::npos);
  options.gaussian_alpha = 31;
  EXPECT_FALSE(DpSetUnion(Input({{0}}, {1}), options, accountant, "x", "all", rng, progress));
  EXPECT_TRUE(accountant.entries().empty());  // nothing spent on refused calls
}

TEST(SetUnionTest, GaussianStepIsTheProjectionOfTheGapsOntoTheUnitBall) {
  // Cap 2. Record 0 holds a: gap 2, norm 2 > 1: a += 1. Record 1 holds a and b: gaps (1, 2),
  // norm sqrt(5): a += 1/sqrt(5), b += 2/sqrt(5). Record 2 holds b only, gap 2 − 2/sqrt(5)
  // = 1.106 > 1: b += 1. Record 3 holds a in group 0 and nothing else; a's gap
  // 1 − 1/sqrt(5) = 0.553 <= 1: filled exactly to the cap.
  const SetUnionInput input = Input({{0, 0, kNoItem, 0}, {kNoItem, 0, 0, kNoItem}}, {1, 1});
  const auto w = PolicyGaussianWeights(input, Identity(4), /*cap=*/2.0);
  EXPECT_DOUBLE_EQ(w[0][0], 2.0);
  EXPECT_DOUBLE_EQ(w[1][0], 2 / std::sqrt(5.0) + 1);
}

TEST(SetUnionTest, GaussianWeightsNeverExceedTheCapAndSkipFullItems) {
  const SetUnionInput input = Input({{0, 0, 0, 0, 0}, {0, 0, 0, 1, 1}}, {1, 2});
  std::vector<std::vector<char>> full = {{1}, {0, 0}};
  const auto w = PolicyGaussianWeights(input, Identity(5), /*cap=*/2.5, &full);
  EXPECT_EQ(w[0][0], 0.0);  // full: takes no weight
  EXPECT_EQ(w[1][0], 2.5);  // three records of weight <= 1 each fill 2.5
  EXPECT_EQ(w[1][1], 2.0);
}

// The privacy proof rests on ℓ2 contractivity: adding one record anywhere in the order changes
// the final weights by at most 1 in ℓ2 (plus rounding, far below 1e-9 here).
TEST(SetUnionTest, PolicyIsL2Contractive) {
  SeededRng rng(2025);
  double largest = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Neighbours n = RandomNeighbours(rng, 8, 80);
    // Caps from below 1 (every step fills) to well above (every step is scaled).
    const double cap = 0.3 + 6.0 * UniformUnit(rng);
    // Every other trial, a random set of items is already full (a later round).
    std::vector<std::vector<char>> full(n.input.values.size());
    for (std::size_t g = 0; g < full.size(); ++g) {
      for (std::size_t v = 0; v < n.input.value_counts[g]; ++v) {
        full[g].push_back(UniformBelow(rng, 6) == 0);
      }
    }
    const auto* full_or_null = trial % 2 == 0 ? &full : nullptr;
    const auto w_without = PolicyGaussianWeights(n.input, n.order, cap, full_or_null);
    const auto w_with = PolicyGaussianWeights(n.input, n.order_with, cap, full_or_null);
    const double distance = Distance(w_with, w_without, 2);
    largest = std::max(largest, distance);
    ASSERT_LE(distance, 1.0 + 1e-9) << "trial " << trial;
  }
  EXPECT_GT(largest, 0.9);  // the bound is attained nearly: the test has teeth
}

// The ℓ1 policy is NOT ℓ2-to-ℓ2 what the ℓ2 policy is: on a record with m open items the ℓ2
// step gives each about 1/sqrt(m), the ℓ1 step 1/m.
TEST(SetUnionTest, GaussianPolicyGivesEachOfMItemsOneOverSqrtM) {
  std::vector<std::vector<std::uint32_t>> values(25, std::vector<std::uint32_t>{0});
  const SetUnionInput input = Input(values, std::vector<std::uint32_t>(25, 1));
  const auto l2 = PolicyGaussianWeights(input, Identity(1), 100.0);
  const auto l1 = PolicyLaplaceWeights(input, Identity(1), 100.0);
  EXPECT_DOUBLE_EQ(l2[7][0], 0.2);   // 1/sqrt(25)
  EXPECT_DOUBLE_EQ(l1[7][0], 0.04);  // 1/25
}

TEST(SetUnionTest, GaussianCalibrationMeetsItsOwnPrivacyConditions) {
  const std::vector<double> one = {1.0};
  auto calibration = CalibratePolicyGaussian(0.7, 1e-9, 30, 5.0, one);
  ASSERT_TRUE(calibration.has_value()) << calibration.error().message;
  const PolicyGaussianRound& round = calibration->rounds.at(0);
  // δ_g = δ/2, δ_T = δ_g·e^{−ε}·(1 − 2^-20): the parts add up to at most δ.
  EXPECT_EQ(calibration->delta_gaussian, 5e-10);
  EXPECT_LE(calibration->delta_gaussian + std::exp(0.7) * calibration->delta_threshold, 1e-9);
  // σ_1 is the analytic Gaussian σ for (0.7, 5e-10) at sensitivity 1: 7.895 (by mpmath
  // 7.89507...), and σ covers the charged sensitivity.
  EXPECT_NEAR(calibration->base_sigma, 7.89507, 1e-4);
  EXPECT_LE(AnalyticGaussianDelta(0.7, calibration->base_sigma, 1.0), 5e-10);
  EXPECT_GE(round.sigma, round.l2_sensitivity * calibration->base_sigma);
  EXPECT_GT(round.l2_sensitivity, 1.0);
  EXPECT_LT(round.l2_sensitivity, 1.001);  // the floating-point slack costs < 0.1% of σ
  // New items: 30 of weight <= 1 each kept with probability <= δ_T in all.
  EXPECT_LE(30 * GaussianTail((round.threshold - 1.0) / round.sigma), calibration->delta_threshold);
  EXPECT_GT(30 * GaussianTail((round.threshold - 1.0) / round.sigma),
            0.99 * calibration->delta_threshold);  // and not much more conservative
  EXPECT_DOUBLE_EQ(round.cap, round.threshold + 5.0 * round.sigma);
  // Two rounds split μ²: σ grows by sqrt(2) each.
  const std::vector<double> halves = {0.5, 0.5};
  auto two = CalibratePolicyGaussian(0.7, 1e-9, 30, 5.0, halves);
  ASSERT_TRUE(two.has_value());
  EXPECT_NEAR(two->rounds[0].sigma / round.sigma, std::sqrt(2.0), 1e-3);
  // Refusals.
  EXPECT_FALSE(CalibratePolicyGaussian(0.7, 1e-300, 30, 5.0, one).has_value());
  EXPECT_FALSE(CalibratePolicyGaussian(1e-9, 1e-9, 30, 5.0, one).has_value());
  EXPECT_FALSE(CalibratePolicyGaussian(0.7, 1e-9, 30, -1.0, one).has_value());
  EXPECT_FALSE(CalibratePolicyGaussian(0.7, 1e-9, std::size_t{1} << 21, 5.0, one).has_value());
}

// Under zCDP (dp/set_union.md, "Under zCDP"): σ_1 = 1/sqrt(2ρ) rounded up, the new items and
// the ±37.5 cutoff within the coupling τ, and one approximate-zCDP ledger entry (ρ, τ).
TEST(SetUnionTest, ZcdpCalibrationAndLedgerEntry) {
  const std::vector<double> one = {1.0};
  const double rho = 0.0015;
  const double coupling = 1e-10;
  auto calibration = CalibratePolicyGaussianZcdp(rho, coupling, 10, 6.0, one);
  ASSERT_TRUE(calibration.has_value()) << calibration.error().message;
  // σ_1 = 1/sqrt(0.003) = 18.257418583505537, never below it.
  EXPECT_GE(calibration->base_sigma, 18.257418583505537);
  EXPECT_NEAR(calibration->base_sigma, 18.257418583505537, 1e-12);
  EXPECT_LE(0.5 / (calibration->base_sigma * calibration->base_sigma), rho);
  EXPECT_EQ(calibration->delta_gaussian, 0.0);
  EXPECT_LE(calibration->delta_threshold, coupling);
  EXPECT_GT(calibration->delta_threshold, coupling * (1 - 0x1p-19));
  const PolicyGaussianRound& round = calibration->rounds.at(0);
  EXPECT_GE(round.sigma, round.l2_sensitivity * calibration->base_sigma);
  EXPECT_LE(10 * GaussianTail((round.threshold - 1.0) / round.sigma),
            calibration->delta_threshold);
  // The same noise as the (ε, δ) calibration would need far more ε: the analytic Gaussian
  // σ for ε = 0.3 at δ/2 = 5e-11 is larger than 18.26.
  EXPECT_GT(CalibratePolicyGaussian(0.3, 1e-10, 10, 6.0, one)->base_sigma,
            calibration->base_sigma);
  EXPECT_FALSE(CalibratePolicyGaussianZcdp(0, coupling, 10, 6.0, one).has_value());
  EXPECT_FALSE(CalibratePolicyGaussianZcdp(rho, 1e-300, 10, 6.0, one).has_value());

  // The run: one entry with rho_each = ρ and delta_each = τ, after SetZcdpDelta.
  std::vector<std::uint32_t> g0(3000);
  for (std::size_t r = 0; r < g0.size(); ++r) g0[r] = r < 2000 ? 0 : (r == 5 ? 2 : 1);
  const SetUnionInput input = Input({g0}, {3});
  SetUnionOptions options;
  options.rho = rho;
  options.delta = coupling;
  SeededRng rng(4);
  NullProgress progress;
  PrivacyAccountant no_delta = PrivacyAccountant::Create({1.0, 1e-9}).value();
  auto refused = DpSetUnion(input, options, no_delta, "values", "all", rng, progress);
  ASSERT_FALSE(refused.has_value());  // zCDP entries need the conversion δ first
  EXPECT_EQ(refused.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_TRUE(no_delta.entries().empty());
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 1e-9}).value();
  ASSERT_TRUE(accountant.SetZcdpDelta(5e-10).has_value());
  auto result = DpSetUnion(input, options, accountant, "values", "all", rng, progress);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->kept[0], (std::vector<std::uint32_t>{0, 1}));  // 2000 and 999; not the one
  EXPECT_EQ(result->sigma, CalibratePolicyGaussianZcdp(rho, coupling, 1, 6.0, one)->rounds[0].sigma);
  ASSERT_EQ(accountant.entries().size(), 1u);
  const LedgerEntry& entry = accountant.entries()[0];
  EXPECT_EQ(entry.rho_each, rho);
  EXPECT_EQ(entry.delta_each, coupling);
  EXPECT_EQ(entry.epsilon_each, 0.0);
  EXPECT_EQ(entry.composition, "zcdp");
  EXPECT_NE(entry.mechanism.find("zCDP + new-item coupling δ"), std::string::npos)
      << entry.mechanism;
  // The block: ε of ρ at δ_z = 5e-10, δ = δ_z + e^ε·τ.
  const double epsilon = ZcdpEpsilon(rho, 5e-10).value();
  EXPECT_NEAR(accountant.Total().epsilon, epsilon, 1e-12);
  EXPECT_NEAR(accountant.Total().delta, 5e-10 + std::exp(epsilon) * coupling, 1e-20);
  // ρ with Policy Laplace is refused.
  options.mechanism = SetUnionMechanism::kPolicyLaplace;
  EXPECT_FALSE(DpSetUnion(input, options, accountant, "values", "all", rng, progress).has_value());
}

SetUnionInput OneGroup(const std::vector<std::uint32_t>& counts) {
  std::vector<std::uint32_t> values;
  for (std::uint32_t v = 0; v < counts.size(); ++v) values.insert(values.end(), counts[v], v);
  return Input({values}, {static_cast<std::uint32_t>(counts.size())});
}

TEST(SetUnionForecastTest, OneGroupIsExactAndTheSummaryNamesTheMergeCount) {
  // One group: every record's step is min(1, gap), so H = min(count, Γ) in any order and the
  // forecast is exactly Q((τ − min(count, Γ))/σ).
  const SetUnionInput input = OneGroup({500, 80, 40, 30, 20, 1});
  SetUnionOptions options;
  options.epsilon = 1.0;
  options.delta = 1e-9;
  auto forecast = ForecastSetUnion(input, options);
  ASSERT_TRUE(forecast.has_value()) << forecast.error().message;
  const std::vector<double> counts = {500, 80, 40, 30, 20, 1};
  for (std::size_t v = 0; v < counts.size(); ++v) {
    const double h = std::min(counts[v], forecast->cap);
    EXPECT_DOUBLE_EQ(forecast->keep_probability[0][v],
                     GaussianTail((forecast->threshold - h) / forecast->sigma))
        << v;
  }
  // τ ≈ 36 at ε = 1 for one group: 500 and 80 kept, 40 likely (p ≈ 0.77), 30 and 20 not.
  EXPECT_GT(forecast->keep_probability[0][2], 0.5);
  EXPECT_LT(forecast->keep_probability[0][3], 0.5);
  const SetUnionGroupForecast& group = forecast->groups.at(0);
  EXPECT_EQ(group.values, 6u);
  EXPECT_EQ(group.likely_kept, 3u);
  EXPECT_EQ(group.merge_below, 31u);  // 1 + the largest dropped count (30)
  EXPECT_EQ(group.summary, "values with fewer than about 31 rows merge into Other");
}

TEST(SetUnionForecastTest, MergeCountIsTheSmallestCountAboveEveryDroppedValue) {
  // Definition: merge_below = 1 + max{count : Pr[kept] < ½}; every value with at least that
  // many rows is kept with probability >= ½. Checked on a random 6-column table for both
  // policies, and the all-kept case reads "every value is likely kept".
  SeededRng rng(77);
  std::vector<std::vector<std::uint32_t>> values(6, std::vector<std::uint32_t>(3000));
  std::vector<std::uint32_t> counts(6, 40);
  for (auto& column : values) {
    for (auto& v : column) {
      v = static_cast<std::uint32_t>(UniformBelow(rng, 40) * UniformBelow(rng, 40) / 40);
    }
  }
  const SetUnionInput input = Input(values, counts);
  for (SetUnionMechanism mechanism :
       {SetUnionMechanism::kPolicyLaplace, SetUnionMechanism::kPolicyGaussian}) {
    SetUnionOptions options;
    options.epsilon = 0.5;
    options.mechanism = mechanism;
    auto forecast = ForecastSetUnion(input, options);
    ASSERT_TRUE(forecast.has_value());
    for (std::size_t g = 0; g < 6; ++g) {
      const SetUnionGroupForecast& group = forecast->groups[g];
      std::uint64_t largest_dropped = 0;
      bool dropped = false;
      for (std::size_t v = 0; v < 40; ++v) {
        const std::uint64_t count = forecast->counts[g][v];
        if (count == 0) continue;
        if (forecast->keep_probability[g][v] < 0.5) {
          dropped = true;
          largest_dropped = std::max(largest_dropped, count);
        }
      }
      ASSERT_TRUE(dropped);  // rare values exist in every column at ε = 0.5
      EXPECT_EQ(group.merge_below, largest_dropped + 1);
      for (std::size_t v = 0; v < 40; ++v) {
        if (forecast->counts[g][v] >= group.merge_below) {
          EXPECT_GE(forecast->keep_probability[g][v], 0.5);
        }
      }
    }
  }
  SetUnionOptions generous;
  generous.epsilon = 50;
  auto all_kept = ForecastSetUnion(OneGroup({400, 300}), generous);
  ASSERT_TRUE(all_kept.has_value());
  EXPECT_EQ(all_kept->groups[0].summary, "every value is likely kept");
  EXPECT_EQ(all_kept->groups[0].merge_below, 0u);
}

TEST(SetUnionForecastTest, RejectsWhatDpSetUnionRejects) {
  SetUnionOptions options;
  options.epsilon = 0;
  EXPECT_FALSE(ForecastSetUnion(OneGroup({3}), options).has_value());
}

}  // namespace
}  // namespace deniable
