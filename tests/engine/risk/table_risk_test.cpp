// SPDX-License-Identifier: Apache-2.0
// Record-level risk of a real table and the recommended ε (#11).
#include "engine/risk/table_risk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/risk/disclosure_risk.h"
#include "engine/risk/dirichlet_synthesizer.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

RawColumn Column(const std::string& name, const std::vector<std::string>& cells) {
  RawColumn column;
  column.name = name;
  for (std::size_t row = 0; row < cells.size(); ++row) {
    if (cells[row].empty()) {
      column.codes.push_back(kMissingCode);
      ++column.missing_count;
      continue;
    }
    std::uint32_t code = 0;
    while (code < column.dictionary.size() && column.dictionary[code] != cells[row]) ++code;
    if (code == column.dictionary.size()) {
      column.dictionary.push_back(cells[row]);
      column.counts.push_back(0);
      column.first_row.push_back(static_cast<std::uint32_t>(row));
    }
    ++column.counts[code];
    column.codes.push_back(code);
  }
  return column;
}

RawTable Table(const std::vector<RawColumn>& columns) {
  RawTable table;
  table.source = "test";
  table.columns = columns;
  for (std::size_t row = 0; row < columns[0].codes.size(); ++row) table.row_line.push_back(row + 2);
  return table;
}

// 10 records, one cell: 3 "yes", 7 "no".
RawTable TenRecords() {
  return Table({Column("y", {"yes", "no", "no", "yes", "no", "no", "yes", "no", "no", "no"})});
}

TEST(TableRiskTest, RecordsWithTheSameCellAndValueShareAGroup) {
  RawTable table = Table({Column("sex", {"F", "F", "M", "M", "M", ""}),
                          Column("y", {"a", "a", "a", "b", "b", "b"})});
  auto report = AnalyseTableRisk(table, {.sensitive = "y", .quasi_identifiers = {"sex"},
                                         .epsilons = {1.0}});
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_EQ(report->cells, 3);  // F, M, missing
  EXPECT_EQ(report->categories, 2);
  ASSERT_EQ(report->groups.size(), 4u);  // (F,a) (M,a) (M,b) (missing,b)
  EXPECT_EQ(report->row_group[0], report->row_group[1]);
  EXPECT_EQ(report->row_group[3], report->row_group[4]);
  EXPECT_NE(report->row_group[2], report->row_group[3]);
  EXPECT_EQ(report->groups[report->row_group[3]].records, 2);
  EXPECT_EQ(report->groups[report->row_group[3]].cell_records, 3);
  EXPECT_EQ(report->groups[report->row_group[5]].cell, std::vector<std::string>{""});
}

TEST(TableRiskTest, TwoValuesGiveThePapersRiskAtTheReleaseQuantile) {
  const double epsilon = 3;
  auto report = AnalyseTableRisk(TenRecords(), {.sensitive = "y", .epsilons = {epsilon},
                                                .prior_points = 1, .quantile = 0.9});
  ASSERT_TRUE(report.has_value());
  const std::uint32_t yes = report->row_group[0];
  // By hand: X*_yes ~ Bin(10, p(3)); its 0.9-quantile x; R_j = eq. 5 at X* = x, w = 0.5.
  auto synthesizer = DirichletSynthesizer::Create(epsilon, 10, 2).value();
  double lp, lq;
  synthesizer.LogPredictiveOf(3, 10, lp, lq);
  std::int64_t x = 0;
  double cumulative = 0;
  for (; x <= 10; ++x) {
    cumulative += std::exp(LogBinomialPmf(x, 10, lp, lq));
    if (cumulative >= 0.9) break;
  }
  auto expected = BinaryRecordRisk({.n = 10, .ns = 10, .epsilon = epsilon, .others_ones = 2,
                                    .synthetic_ones = x, .true_value = 1, .prior_one = 0.5});
  ASSERT_TRUE(expected.has_value());
  const GroupRisk& risk = report->per_epsilon[0].groups[yes];
  EXPECT_NEAR(risk.absolute_at_half, expected->absolute, 1e-12);
  EXPECT_NEAR(risk.max_relative, expected->relative, 1e-12);  // the grid is {0.5}
}

TEST(TableRiskTest, RecommendsTheLargestEpsilonWithEveryRecordInside) {
  // A unique cell: its record's RR reaches ≈ e^ε at small w, so the region RR ≤ 1.05 above
  // R = 0.1 holds up to ε ≈ log 1.05 ≈ 0.049 and fails beyond.
  RawTable table = Table({Column("q", {"u", "c", "c", "c", "c", "c", "c", "c"}),
                          Column("y", {"a", "a", "b", "a", "b", "a", "b", "a"})});
  auto report = AnalyseTableRisk(table, {.sensitive = "y", .quasi_identifiers = {"q"},
                                         .epsilons = {1, 0.01, 0.04, 0.1, 10}});
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->per_epsilon.size(), 5u);
  EXPECT_DOUBLE_EQ(report->per_epsilon[0].epsilon, 0.01);  // sorted
  ASSERT_TRUE(report->recommended_epsilon.has_value());
  EXPECT_DOUBLE_EQ(*report->recommended_epsilon, 0.04);
  EXPECT_GT(report->per_epsilon[3].records_outside, 0);
  // The unique record is outside at ε = 1 and its RR stays below the DP bound e^ε.
  const GroupRisk& unique = report->per_epsilon[3].groups[report->row_group[0]];
  EXPECT_FALSE(unique.inside);
  EXPECT_LE(unique.max_relative, std::exp(1.0) * (1 + 1e-12));
  // More records outside at a larger ε here (not a theorem, but this table's shape).
  EXPECT_LE(report->per_epsilon[3].records_outside, report->per_epsilon[4].records_outside);
}

TEST(TableRiskTest, NoRecommendationWhenEvenTheSmallestEpsilonFails) {
  auto report = AnalyseTableRisk(TenRecords(), {.sensitive = "y", .epsilons = {1000},
                                                .max_relative_risk_above = 1.0});
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->recommended_epsilon.has_value());
}

TEST(TableRiskTest, EveryGroupCarriesTheLikelihoodRatioItsRisksComeFrom) {
  auto report = AnalyseTableRisk(TenRecords(), {.sensitive = "y", .epsilons = {0.5, 3},
                                                .prior_points = 9});
  ASSERT_TRUE(report.has_value());
  for (const EpsilonRisk& level : report->per_epsilon) {
    for (const GroupRisk& risk : level.groups) {
      EXPECT_DOUBLE_EQ(RiskFromLogLikelihoodRatio(risk.log_likelihood_ratio, 0.5).absolute,
                       risk.absolute_at_half);
      double max_relative = 0;
      for (double w : PriorGrid(9)) {
        max_relative = std::max(max_relative,
                                RiskFromLogLikelihoodRatio(risk.log_likelihood_ratio, w).relative);
      }
      EXPECT_DOUBLE_EQ(max_relative, risk.max_relative);
    }
  }
}

TEST(TableRiskTest, ReportsProgressAndStopsWhenCancelled) {
  test_support::FakeProgress progress;
  auto report = AnalyseTableRisk(TenRecords(), {.sensitive = "y", .epsilons = {1, 2}}, progress);
  ASSERT_TRUE(report.has_value());
  EXPECT_DOUBLE_EQ(progress.last_fraction(), 1.0);
  // One report for the grouping pass, one per ε, one at the end.
  EXPECT_EQ(progress.reports(), 4u);
  test_support::FakeProgress cancelling(/*cancel_after_reports=*/2);
  auto cancelled =
      AnalyseTableRisk(TenRecords(), {.sensitive = "y", .epsilons = {1, 2}}, cancelling);
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code, ErrorCode::kCancelled);
}

TEST(TableRiskTest, RejectsBadOptionsNamingThem) {
  const RawTable table = TenRecords();
  auto unknown = AnalyseTableRisk(table, {.sensitive = "nope"});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("nope"), std::string::npos);
  auto quasi = AnalyseTableRisk(table, {.sensitive = "y", .quasi_identifiers = {"y"}});
  ASSERT_FALSE(quasi.has_value());
  EXPECT_NE(quasi.error().message.find("quasi column"), std::string::npos);
  auto max_r = AnalyseTableRisk(table, {.sensitive = "y", .max_absolute_risk = 0});
  ASSERT_FALSE(max_r.has_value());
  EXPECT_NE(max_r.error().message.find("max-r"), std::string::npos);
  auto max_rr = AnalyseTableRisk(table, {.sensitive = "y", .max_relative_risk = 0.5});
  ASSERT_FALSE(max_rr.has_value());
  EXPECT_NE(max_rr.error().message.find("max-rr"), std::string::npos);
  auto epsilon = AnalyseTableRisk(table, {.sensitive = "y", .epsilons = {1, -2}});
  ASSERT_FALSE(epsilon.has_value());
  EXPECT_NE(epsilon.error().message.find("epsilon"), std::string::npos);
  auto quantile = AnalyseTableRisk(table, {.sensitive = "y", .quantile = 1});
  ASSERT_FALSE(quantile.has_value());
  EXPECT_NE(quantile.error().message.find("quantile"), std::string::npos);
  RawTable constant = Table({Column("y", {"a", "a", "a"})});
  auto single = AnalyseTableRisk(constant, {.sensitive = "y"});
  ASSERT_FALSE(single.has_value());
  EXPECT_NE(single.error().message.find("at least 2"), std::string::npos);
}

}  // namespace
}  // namespace deniable
