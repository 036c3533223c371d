// SPDX-License-Identifier: Apache-2.0
// UtilityBaselines: the perfect independent model by hand on a tiny table, a copy of the real
// table scoring 0, uniform noise scoring far worse than the independent model, a seeded floor.
#include "engine/metrics/utility_baselines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/evaluate/verdict.h"
#include "engine/metrics/marginals.h"
#include "tests/engine/metrics/metrics_test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeColumnFromStrings;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;

// X = a a b b, Y = u u u v. Joint: au 1/2, bu 1/4, bv 1/4, av 0; marginals a b 1/2, u 3/4,
// v 1/4; products au 3/8, av 1/8, bu 3/8, bv 1/8. Every |difference| is 1/8: TVD = 4/8 / 2.
TEST(UtilityBaselinesTest, PerfectIndependentIsExactOnAHandComputedTable) {
  const RawTable real = MakeTable("tiny", {MakeColumn("x", {"a", "a", "b", "b"}),
                                           MakeColumn("y", {"u", "u", "u", "v"})});
  const Schema schema = MakeSchema(
      {MakeColumnSchema("x", DataType::kString), MakeColumnSchema("y", DataType::kString)});
  NullProgress progress;
  auto baselines = ComputeUtilityBaselines(real, schema, CompareOptions{}, 7, progress);
  ASSERT_TRUE(baselines.has_value()) << baselines.error().message;
  EXPECT_EQ(baselines->pairs, 1U);
  EXPECT_DOUBLE_EQ(baselines->perfect_independent, 0.25);
  EXPECT_DOUBLE_EQ(IndependenceTvd({0, 0, 1, 1}, {0, 0, 0, 1}, {2, 2}, {3, 1}), 0.25);
  // Independent columns score exactly 0.
  EXPECT_DOUBLE_EQ(IndependenceTvd({0, 0, 1, 1}, {0, 1, 0, 1}, {2, 2}, {2, 2}), 0.0);

  // A copy of the real table scores 0 and the verdict calls it good.
  auto copy = CompareTables(real, real, schema, CompareOptions{}, progress);
  ASSERT_TRUE(copy.has_value());
  EXPECT_DOUBLE_EQ(copy->mean_pair_tvd.value(), 0.0);
  VerdictInputs inputs;
  inputs.utility = VerdictUtility{copy->mean_pair_tvd.value(), baselines->perfect_independent,
                                  baselines->floor};
  inputs.epsilon = 1;
  inputs.delta = 1e-9;
  inputs.rows = 4;
  const Verdict verdict = ComputeVerdict(inputs);
  ASSERT_EQ(verdict.findings.size(), 2U);
  EXPECT_EQ(verdict.findings[0].topic, VerdictTopic::kUtility);
  EXPECT_EQ(verdict.findings[0].level, VerdictLevel::kGood);
  EXPECT_EQ(verdict.overall, VerdictLevel::kGood);
}

// X == Y over 2,000 rows: "a" on 85% of them, b, c, d on 5% each.
std::vector<std::string> SkewedCells() {
  std::vector<std::string> cells;
  for (int i = 0; i < 1700; ++i) cells.push_back("a");
  for (const char* v : {"b", "c", "d"}) {
    for (int i = 0; i < 100; ++i) cells.push_back(v);
  }
  return cells;
}

// X == Y, "a" on 85% of the rows and b, c, d on 5% each. The independent model: diagonal
// |.85 - .7225| + 3 |.05 - .0025| = .27, off-diagonal products 1 - .73 = .27: TVD .27. Uniform
// independent noise is ~.7875 away (2.9 x): a problem.
TEST(UtilityBaselinesTest, UniformNoiseScoresAProblem) {
  const std::vector<std::string> cells = SkewedCells();
  const RawTable real =
      MakeTable("skewed", {MakeColumnFromStrings("x", cells), MakeColumnFromStrings("y", cells)});
  const Schema schema = MakeSchema(
      {MakeColumnSchema("x", DataType::kString), MakeColumnSchema("y", DataType::kString)});
  SeededRng rng(3);
  const char* letters[] = {"a", "b", "c", "d"};
  std::vector<std::string> noise_x, noise_y;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    noise_x.push_back(letters[UniformBelow(rng, 4)]);
    noise_y.push_back(letters[UniformBelow(rng, 4)]);
  }
  const RawTable noise = MakeTable("noise", {MakeColumnFromStrings("x", noise_x),
                                             MakeColumnFromStrings("y", noise_y)});
  NullProgress progress;
  auto baselines = ComputeUtilityBaselines(real, schema, CompareOptions{}, 11, progress);
  ASSERT_TRUE(baselines.has_value()) << baselines.error().message;
  EXPECT_NEAR(baselines->perfect_independent, 0.27, 1e-12);
  // The floor: a half of the real rows; seeded, so reproducible, and small.
  auto again = ComputeUtilityBaselines(real, schema, CompareOptions{}, 11, progress);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->floor, baselines->floor);
  EXPECT_GE(baselines->floor, 0.0);
  EXPECT_LT(baselines->floor, 0.05);

  auto report = CompareTables(real, noise, schema, CompareOptions{}, progress);
  ASSERT_TRUE(report.has_value());
  EXPECT_NEAR(report->mean_pair_tvd.value(), 0.7875, 0.03);
  VerdictInputs inputs;
  inputs.utility = VerdictUtility{report->mean_pair_tvd.value(), baselines->perfect_independent,
                                  baselines->floor};
  inputs.epsilon = 1;
  inputs.delta = 1e-9;
  inputs.rows = cells.size();
  const Verdict verdict = ComputeVerdict(inputs);
  EXPECT_EQ(verdict.findings[0].level, VerdictLevel::kProblem);
  EXPECT_NE(verdict.findings[0].change.find("marginals mode"), std::string::npos);
  EXPECT_EQ(verdict.overall, VerdictLevel::kProblem);
  EXPECT_EQ(OverallAnswer(verdict.overall), "Not fit to share");
}

// The independent model drawn at a release's row count: with many rows it converges to the exact
// 0.27 (a 16-cell joint from 200,000 draws: sampling TVD about 0.003); with 40 rows its own
// sampling noise (about 0.1 over 16 cells) adds to it, which is why a small release is judged
// against it and not against the exact value. Not computed without a row count.
TEST(UtilityBaselinesTest, IndependentModelAtTheReleaseSizeIncludesItsSamplingNoise) {
  const std::vector<std::string> cells = SkewedCells();
  const RawTable real =
      MakeTable("skewed", {MakeColumnFromStrings("x", cells), MakeColumnFromStrings("y", cells)});
  const Schema schema = MakeSchema(
      {MakeColumnSchema("x", DataType::kString), MakeColumnSchema("y", DataType::kString)});
  NullProgress progress;
  auto none = ComputeUtilityBaselines(real, schema, CompareOptions{}, 5, progress);
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->perfect_independent_at_rows, 0.0);
  auto many = ComputeUtilityBaselines(real, schema, CompareOptions{}, 5, progress, 200000);
  ASSERT_TRUE(many.has_value()) << many.error().message;
  EXPECT_NEAR(many->perfect_independent_at_rows, 0.27, 0.01);
  EXPECT_NEAR(many->perfect_independent, 0.27, 1e-12);
  auto few = ComputeUtilityBaselines(real, schema, CompareOptions{}, 5, progress, 40);
  ASSERT_TRUE(few.has_value());
  EXPECT_GT(few->perfect_independent_at_rows, 0.29);
  // Seeded: the same figure again.
  auto again = ComputeUtilityBaselines(real, schema, CompareOptions{}, 5, progress, 40);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->perfect_independent_at_rows, few->perfect_independent_at_rows);
}

TEST(UtilityBaselinesTest, NeedsTwoRows) {
  const RawTable real = MakeTable("one", {MakeColumn("x", {"a"}), MakeColumn("y", {"u"})});
  const Schema schema = MakeSchema(
      {MakeColumnSchema("x", DataType::kString), MakeColumnSchema("y", DataType::kString)});
  NullProgress progress;
  auto baselines = ComputeUtilityBaselines(real, schema, CompareOptions{}, 1, progress);
  ASSERT_FALSE(baselines.has_value());
  EXPECT_EQ(baselines.error().code, ErrorCode::kFailedPrecondition);
}

}  // namespace
}  // namespace deniable
