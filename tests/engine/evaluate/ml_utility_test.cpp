// SPDX-License-Identifier: Apache-2.0
// Machine-learning utility with XGBoost (engine/evaluate/ml_utility.h) on tables whose answers
// are known.
#include "engine/evaluate/ml_utility.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/random.h"
#include "tests/support/fake_progress.h"
#include "tests/support/test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeTable;
using test_support::TypedColumn;

Schema ThreeColumns(bool numeric_target) {
  Schema schema;
  schema.columns = {
      TypedColumn("x", DataType::kInteger, false), TypedColumn("colour", DataType::kString, true),
      TypedColumn("y", numeric_target ? DataType::kInteger : DataType::kString, !numeric_target)};
  return schema;
}

// x uniform in 0..99, colour independent noise, y a deterministic function of x: "hi" when
// x ≥ 50 (classification) or 2x (regression). `shift` moves x (an obviously different table).
RawTable Table(std::size_t rows, std::uint64_t seed, bool numeric_target, int shift = 0) {
  SeededRng rng(seed);
  std::vector<std::optional<std::string>> x, colour, y;
  const char* colours[] = {"red", "green", "blue"};
  for (std::size_t i = 0; i < rows; ++i) {
    const int value = static_cast<int>(UniformBelow(rng, 100));
    x.push_back(std::to_string(value + shift));
    colour.push_back(std::string(colours[UniformBelow(rng, 3)]));
    y.push_back(numeric_target ? std::to_string(2 * value) : (value >= 50 ? "hi" : "lo"));
  }
  return MakeTable({MakeColumn("x", x), MakeColumn("colour", colour), MakeColumn("y", y)});
}

Result<MlUtilityReport> Evaluate(const RawTable& train, const RawTable& control,
                                 const RawTable& synthetic, bool numeric_target) {
  auto tables = EncodeMixedTables(train, control, synthetic, ThreeColumns(numeric_target));
  if (!tables) return tables.error();
  MlUtilityOptions options;
  options.target = "y";
  // One thread: XGBoost's many short parallel regions wait for a time slice at every barrier on
  // a loaded machine (seconds per model when the cores are shared); one thread has none. The
  // CLI's default is 2.
  options.threads = 1;
  test_support::FakeProgress progress;
  return EvaluateMlUtility(tables.value(), options, progress);
}

TEST(MlUtilityTest, AreaUnderCurveIsTheMannWhitneyStatistic) {
  // Positives 0.35, 0.8; negatives 0.1, 0.4: 3 of the 4 pairs are ordered right.
  EXPECT_DOUBLE_EQ(AreaUnderCurve({0.1f, 0.4f, 0.35f, 0.8f}, {false, false, true, true}), 0.75);
  EXPECT_DOUBLE_EQ(AreaUnderCurve({0.5f, 0.5f}, {true, false}), 0.5);  // a tie counts half
  EXPECT_DOUBLE_EQ(AreaUnderCurve({0.1f, 0.9f}, {false, true}), 1.0);
  EXPECT_TRUE(std::isnan(AreaUnderCurve({0.1f, 0.9f}, {true, true})));
}

TEST(MlUtilityTest, ADeterministicTargetIsLearnedFromARealCopy) {
  const RawTable train = Table(2000, 1, false);
  const RawTable control = Table(600, 2, false);
  auto report = Evaluate(train, control, train, false);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_TRUE(report->classification);
  EXPECT_EQ(report->classes, 2);
  EXPECT_EQ(report->test_rows, 600u);
  // y = [x ≥ 50] is one split on x: both models are exact, and the same model (same data, same
  // seed), so they agree everywhere.
  EXPECT_DOUBLE_EQ(report->real_model.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(report->synthetic_model.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(report->real_model.auc, 1.0);
  EXPECT_DOUBLE_EQ(report->agreement.value(), 1.0);
  // Every split is on x: all of the gain is x's.
  ASSERT_EQ(report->importances.size(), 2u);
  EXPECT_EQ(report->importances[0].name, "x");
  EXPECT_NEAR(report->importances[0].real, 1.0, 1e-6);
  EXPECT_NEAR(report->importances[0].synthetic, 1.0, 1e-6);
}

TEST(MlUtilityTest, RegressionReportsRSquared) {
  const RawTable train = Table(2000, 1, true);
  const RawTable control = Table(600, 2, true);
  auto report = Evaluate(train, control, train, true);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_FALSE(report->classification);
  EXPECT_FALSE(report->agreement.has_value());
  // y = 2x on 100 values: 60 rounds of depth-6 trees fit it to well within 1% of its variance.
  EXPECT_GT(report->real_model.r2, 0.99);
  EXPECT_DOUBLE_EQ(report->synthetic_model.r2, report->real_model.r2);
}

TEST(MlUtilityTest, TheDistinguishingGameIsAtChanceOnOneDistributionAndWinsOnTwo) {
  const RawTable train = Table(3000, 1, false);
  const RawTable control = Table(600, 2, false);
  // A second, independent draw from the same distribution: whatever the classifier learned, its
  // predictions on held-out rows are independent of their labels, so its accuracy is
  // Binomial(n, 1/2)/n with n = 30% of 6,000 = 1,800 rows: standard deviation 0.0118; four of
  // them (0.047) bound it with probability > 0.9999.
  const RawTable same = Table(3000, 3, false);
  auto report = Evaluate(train, control, same, false);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_EQ(report->distinguish_test_rows, 1800u);
  EXPECT_NEAR(report->distinguish_accuracy.rate, 0.5, 0.047);
  EXPECT_NEAR(report->distinguish_auc, 0.5, 0.06);
  // Shifted by 100, the synthetic x never overlaps the real one: one split tells them apart.
  const RawTable shifted = Table(3000, 3, false, 100);
  auto different = Evaluate(train, control, shifted, false);
  ASSERT_TRUE(different.has_value()) << different.error().message;
  EXPECT_DOUBLE_EQ(different->distinguish_accuracy.rate, 1.0);
  EXPECT_DOUBLE_EQ(different->distinguish_auc, 1.0);
  // Trained on the shifted table, x ≥ 150 never holds on real rows: the synthetic model falls
  // to the majority... or worse; the real one stays exact.
  EXPECT_DOUBLE_EQ(different->real_model.accuracy, 1.0);
  EXPECT_LT(different->synthetic_model.accuracy, 0.7);
  EXPECT_LT(different->agreement.value(), 0.7);
}

TEST(MlUtilityTest, BadTargetsAreNamed) {
  const RawTable train = Table(100, 1, false);
  auto tables = EncodeMixedTables(train, train, train, ThreeColumns(false));
  ASSERT_TRUE(tables.has_value());
  test_support::FakeProgress progress;
  MlUtilityOptions options;
  options.target = "nope";
  auto unknown = EvaluateMlUtility(tables.value(), options, progress);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message.rfind("target: no compared column is named 'nope'", 0), 0u);
  std::vector<std::optional<std::string>> same(100, std::string("one"));
  const RawTable single =
      MakeTable({MakeColumn("x", same), MakeColumn("colour", same), MakeColumn("y", same)});
  auto one = EncodeMixedTables(single, single, single, ThreeColumns(false));
  ASSERT_TRUE(one.has_value());
  options.target = "y";
  auto refused = EvaluateMlUtility(one.value(), options, progress);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("single value"), std::string::npos);
}

}  // namespace
}  // namespace deniable
