// SPDX-License-Identifier: Apache-2.0
// CompareTables on tiny hand-built tables: every expected value is computed by hand in a
// comment beside it.
#include "engine/metrics/marginals.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/engine/metrics/metrics_test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeColumnFromStrings;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

constexpr double kExact = 1e-12;  // rounding of a few additions of fractions

MetricReport CompareOrDie(const RawTable& real, const RawTable& synthetic, const Schema& schema,
                          const CompareOptions& options = {}) {
  NullProgress progress;
  auto report = CompareTables(real, synthetic, schema, options, progress);
  EXPECT_TRUE(report.has_value()) << report.error().message;
  return report ? *report : MetricReport{};
}

TEST(CompareTablesTest, StringColumnTvdAndHistogram) {
  // real a a b c -> a .5, b .25, c .25; synthetic a b b d -> a .25, b .5, d .25.
  // TVD = (|.5-.25| + |.25-.5| + |.25-0| + |0-.25|) / 2 = 0.5.
  const RawTable real = MakeTable("real", {MakeColumn("s", {"a", "a", "b", "c"})});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("s", {"a", "b", "b", "d"})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("s", DataType::kString)}));
  ASSERT_EQ(report.columns.size(), 1u);
  const ColumnComparison& column = report.columns[0];
  EXPECT_EQ(column.name, "s");
  EXPECT_EQ(column.kind, ComparisonKind::kValues);
  EXPECT_NEAR(column.tvd, 0.5, kExact);
  EXPECT_NEAR(report.mean_column_tvd, 0.5, kExact);
  // Real categories by real frequency (ties: first appearance), then synthetic-only ones.
  EXPECT_THAT(column.histogram.labels, ElementsAre("a", "b", "c", "d"));
  EXPECT_THAT(column.histogram.real, ElementsAre(0.5, 0.25, 0.25, 0.0));
  EXPECT_THAT(column.histogram.synthetic, ElementsAre(0.25, 0.5, 0.0, 0.25));
  EXPECT_FALSE(report.mean_pair_tvd.has_value());
  EXPECT_EQ(report.pair_count(), 0u);
  EXPECT_EQ(report.real_rows, 4u);
  EXPECT_EQ(report.synthetic_rows, 4u);
}

TEST(CompareTablesTest, TwoWayTvdSeesBrokenDependence) {
  // Both marginals agree exactly (1-way TVD 0), the joints do not:
  // real (a,u) (a,v) (b,u) (b,v) each .25; synthetic (a,u) .5 and (b,v) .5.
  // 2-way TVD = (|.25-.5| + .25 + .25 + |.25-.5|) / 2 = 0.5.
  const RawTable real = MakeTable(
      "real", {MakeColumn("x", {"a", "a", "b", "b"}), MakeColumn("y", {"u", "v", "u", "v"})});
  const RawTable synthetic = MakeTable(
      "syn", {MakeColumn("x", {"a", "a", "b", "b"}), MakeColumn("y", {"u", "u", "v", "v"})});
  const MetricReport report = CompareOrDie(real, synthetic,
                                           MakeSchema({MakeColumnSchema("x", DataType::kString),
                                                       MakeColumnSchema("y", DataType::kString)}));
  ASSERT_EQ(report.columns.size(), 2u);
  EXPECT_NEAR(report.columns[0].tvd, 0.0, kExact);
  EXPECT_NEAR(report.columns[1].tvd, 0.0, kExact);
  ASSERT_TRUE(report.mean_pair_tvd.has_value());
  EXPECT_NEAR(*report.mean_pair_tvd, 0.5, kExact);
  EXPECT_NEAR(report.pair_tvd[0][1], 0.5, kExact);
  EXPECT_NEAR(report.pair_tvd[1][0], 0.5, kExact);
  EXPECT_EQ(report.pair_count(), 1u);
  // Real: x and y independent, I = 0 -> NMI 0. Synthetic: y is a bijection of x,
  // I = H(x) = H(y) = ln 2 -> NMI 1.
  EXPECT_NEAR(report.nmi_real[0][1], 0.0, kExact);
  EXPECT_NEAR(report.nmi_synthetic[0][1], 1.0, kExact);
  EXPECT_EQ(report.nmi_real[0][0], 1.0);
  EXPECT_EQ(report.nmi_synthetic[1][1], 1.0);
}

TEST(CompareTablesTest, NormalisedMutualInformationMatchesHandComputation) {
  // x = a a b b, y = u u u v. H(x) = ln 2; H(y) = -(3/4 ln 3/4 + 1/4 ln 1/4) = 2 ln 2 - 3/4 ln 3;
  // joint (a,u) 1/2, (b,u) 1/4, (b,v) 1/4: H(x,y) = 3/2 ln 2.
  // I = H(x) + H(y) - H(x,y) = 3/2 ln 2 - 3/4 ln 3.
  // NMI = I / ((H(x) + H(y)) / 2) = (3 ln 2 - 3/2 ln 3) / (3 ln 2 - 3/4 ln 3) = 0.3437...
  const RawTable table = MakeTable(
      "t", {MakeColumn("x", {"a", "a", "b", "b"}), MakeColumn("y", {"u", "u", "u", "v"})});
  const MetricReport report = CompareOrDie(table, table,
                                           MakeSchema({MakeColumnSchema("x", DataType::kString),
                                                       MakeColumnSchema("y", DataType::kString)}));
  const double expected =
      (3 * std::log(2.0) - 1.5 * std::log(3.0)) / (3 * std::log(2.0) - 0.75 * std::log(3.0));
  EXPECT_NEAR(report.nmi_real[0][1], expected, kExact);
  EXPECT_NEAR(report.nmi_real[1][0], expected, kExact);
  EXPECT_NEAR(report.nmi_synthetic[0][1], expected, kExact);
  EXPECT_NEAR(*report.mean_pair_tvd, 0.0, kExact);
}

TEST(CompareTablesTest, ConstantColumnsHaveZeroNmi) {
  // H(x) = H(y) = 0: NMI is defined as 0 (documented; scikit-learn would say 1), diagonal too.
  const RawTable table =
      MakeTable("t", {MakeColumn("x", {"k", "k", "k"}), MakeColumn("y", {"1", "1", "1"})});
  const MetricReport report = CompareOrDie(table, table,
                                           MakeSchema({MakeColumnSchema("x", DataType::kString),
                                                       MakeColumnSchema("y", DataType::kInteger)}));
  EXPECT_EQ(report.nmi_real[0][1], 0.0);
  EXPECT_EQ(report.nmi_real[0][0], 0.0);
  EXPECT_EQ(report.nmi_synthetic[1][1], 0.0);
}

TEST(CompareTablesTest, ManyDistinctNumbersAreBinnedOverTheRealRange) {
  // Real 0, 0, 1, ..., 20 (22 rows, 21 distinct > 20): 20 bins of width 1 over [0, 20];
  // bin 0 = {0, 0}, bins 1..18 one value each, bin 19 = [19, 20] = {19, 20}.
  // Synthetic -5 -> bin 0 (below the range), 100 -> bin 19 (above), 10 and 10.5 -> bin 10.
  // TVD = (2 (1/4 - 2/22) + (1/2 - 1/22) + 17 (1/22)) / 2 = (7/22 + 10/22 + 17/22) / 2 = 17/22.
  std::vector<std::string> texts = {"0"};
  for (int v = 0; v <= 20; ++v) texts.push_back(std::to_string(v));
  const RawTable real = MakeTable("real", {MakeColumnFromStrings("n", texts)});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("n", {"-5", "100", "10", "10.5"})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("n", DataType::kInteger)}));
  ASSERT_EQ(report.columns.size(), 1u);
  const ColumnComparison& column = report.columns[0];
  EXPECT_EQ(column.kind, ComparisonKind::kBinned);
  EXPECT_NEAR(column.tvd, 17.0 / 22.0, kExact);
  ASSERT_EQ(column.histogram.labels.size(), 20u);
  EXPECT_EQ(column.histogram.labels[0], "[0, 1)");
  EXPECT_EQ(column.histogram.labels[10], "[10, 11)");
  EXPECT_EQ(column.histogram.labels[19], "[19, 20]");
  EXPECT_NEAR(column.histogram.real[0], 2.0 / 22, kExact);
  EXPECT_NEAR(column.histogram.real[19], 2.0 / 22, kExact);
  EXPECT_NEAR(column.histogram.synthetic[0], 0.25, kExact);
  EXPECT_NEAR(column.histogram.synthetic[10], 0.5, kExact);
  EXPECT_NEAR(column.histogram.synthetic[19], 0.25, kExact);
}

TEST(CompareTablesTest, BinLabelsUseTheRealRange) {
  // Real ages 17..90 with one repeat: width (90 - 17) / 20 = 3.65; first bin [17, 20.65).
  std::vector<std::string> texts = {"17"};
  for (int v = 17; v <= 90; ++v) texts.push_back(std::to_string(v));
  const RawTable real = MakeTable("real", {MakeColumnFromStrings("age", texts)});
  const MetricReport report =
      CompareOrDie(real, real, MakeSchema({MakeColumnSchema("age", DataType::kInteger)}));
  EXPECT_EQ(report.columns[0].histogram.labels.front(), "[17, 20.65)");
  EXPECT_EQ(report.columns[0].histogram.labels.back(), "[86.35, 90]");
  EXPECT_EQ(report.columns[0].tvd, 0.0);
}

TEST(CompareTablesTest, FewDistinctNumbersAreComparedByParsedValue) {
  // Integer column, 3 distinct real values (<= 20): by value. Synthetic "1.0" is the value 1;
  // 4 is a synthetic-only value; missing is its own category.
  // Real 1 1 2 3 -> 1 .5, 2 .25, 3 .25; synthetic 1.0 2 4 NA -> 1 .25, 2 .25, 4 .25, NA .25.
  // TVD = (.25 + 0 + .25 + .25 + .25) / 2 = 0.5.
  const RawTable real = MakeTable("real", {MakeColumn("n", {"1", "1", "2", "3"})});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("n", {"1.0", "2", "4", nullptr})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("n", DataType::kInteger)}));
  const ColumnComparison& column = report.columns[0];
  EXPECT_EQ(column.kind, ComparisonKind::kValues);
  EXPECT_THAT(column.histogram.labels, ElementsAre("1", "2", "3", "4", "(missing)"));
  EXPECT_THAT(column.histogram.real, ElementsAre(0.5, 0.25, 0.25, 0.0, 0.0));
  EXPECT_THAT(column.histogram.synthetic, ElementsAre(0.25, 0.25, 0.0, 0.25, 0.25));
  EXPECT_NEAR(column.tvd, 0.5, kExact);
}

TEST(CompareTablesTest, StringColumnsCompareExactText) {
  // A String column: "1" and "1.0" are different values. TVD = (1 + 1) / 2 = 1.
  const RawTable real = MakeTable("real", {MakeColumn("code", {"1", "1"})});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("code", {"1.0", "1.0"})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("code", DataType::kString)}));
  EXPECT_THAT(report.columns[0].histogram.labels, ElementsAre("1", "1.0"));
  EXPECT_NEAR(report.columns[0].tvd, 1.0, kExact);
}

TEST(CompareTablesTest, MissingIsItsOwnCategory) {
  // Real a NA a NA -> a .5, NA .5; synthetic a a a NA -> a .75, NA .25. TVD = (.25 + .25) / 2.
  const RawTable real = MakeTable("real", {MakeColumn("s", {"a", nullptr, "a", nullptr})});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("s", {"a", "a", "a", nullptr})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("s", DataType::kString)}));
  EXPECT_THAT(report.columns[0].histogram.labels, ElementsAre("a", "(missing)"));
  EXPECT_NEAR(report.columns[0].tvd, 0.25, kExact);
}

TEST(CompareTablesTest, BinnedColumnKeepsMissingAndUnparsableCells) {
  // Float column, real 0..20 plus 0 plus NA (23 rows); synthetic 5, "abc", NA, NA.
  // Categories: 20 bins, then "abc" (text that is not a number), then (missing).
  // Real: bin 0 2/23, bins 1..18 1/23, bin 19 2/23, missing 1/23.
  // Synthetic: bin 5 1/4, abc 1/4, missing 1/2.
  // L1 = 21/23 (the 21 real rows in bins other than 5, where synthetic has nothing)
  //      + (1/4 - 1/23) (bin 5) + 1/4 (abc) + (1/2 - 1/23) (missing) = 42/23; TVD = 21/23.
  std::vector<std::string> texts = {"0", ""};
  for (int v = 0; v <= 20; ++v) texts.push_back(std::to_string(v) + ".0");
  const RawTable real = MakeTable("real", {MakeColumnFromStrings("f", texts)});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("f", {"5", "abc", nullptr, nullptr})});
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("f", DataType::kFloat)}));
  const ColumnComparison& column = report.columns[0];
  EXPECT_EQ(column.kind, ComparisonKind::kBinned);
  ASSERT_EQ(column.histogram.labels.size(), 22u);
  EXPECT_EQ(column.histogram.labels[20], "abc");
  EXPECT_EQ(column.histogram.labels[21], "(missing)");
  EXPECT_NEAR(column.histogram.real[21], 1.0 / 23, kExact);
  EXPECT_NEAR(column.histogram.synthetic[5], 0.25, kExact);
  EXPECT_NEAR(column.tvd, 21.0 / 23, kExact);
}

TEST(CompareTablesTest, ExcludesIdentifiersIgnoredAndAllDistinctColumns) {
  const RawTable real =
      MakeTable("real", {MakeColumn("id", {"1", "2", "3"}), MakeColumn("key", {"x", "y", "z"}),
                         MakeColumn("skip", {"p", "p", "q"}), MakeColumn("v", {"a", "a", "b"}),
                         MakeColumn("w", {"c", "d", "c"})});
  // The synthetic table may lack excluded columns; "extra" has no real counterpart.
  const RawTable synthetic = MakeTable(
      "syn",
      {MakeColumn("v", {"a", "b"}), MakeColumn("extra", {"1", "2"}), MakeColumn("w", {"c", "c"})});
  const Schema schema = MakeSchema(
      {MakeColumnSchema("id", DataType::kInteger, ColumnRole::kIdentifier),
       MakeColumnSchema("key", DataType::kString),
       MakeColumnSchema("skip", DataType::kString, ColumnRole::kIgnore),
       MakeColumnSchema("v", DataType::kString), MakeColumnSchema("w", DataType::kString)});
  const MetricReport report = CompareOrDie(real, synthetic, schema);
  ASSERT_EQ(report.columns.size(), 2u);
  EXPECT_EQ(report.columns[0].name, "v");
  EXPECT_EQ(report.columns[1].name, "w");
  ASSERT_EQ(report.excluded.size(), 3u);
  EXPECT_EQ(report.excluded[0].name, "id");
  EXPECT_EQ(report.excluded[0].reason, "role identifier");
  EXPECT_EQ(report.excluded[1].name, "key");
  EXPECT_EQ(report.excluded[1].reason, "all values distinct");
  EXPECT_EQ(report.excluded[2].name, "skip");
  EXPECT_EQ(report.excluded[2].reason, "role ignore");
  EXPECT_THAT(report.ignored_synthetic_columns, ElementsAre("extra"));
  // v: real a 2/3, b 1/3; synthetic a 1/2, b 1/2 -> TVD 1/6.
  // w: real c 2/3, d 1/3; synthetic c 1 -> TVD 1/3. Mean 1-way = 1/4.
  // (v, w): real (a,c) 1/3 (a,d) 1/3 (b,c) 1/3; synthetic (a,c) 1/2 (b,c) 1/2.
  // 2-way TVD = (1/6 + 1/3 + 1/6) / 2 = 1/3.
  EXPECT_NEAR(report.columns[0].tvd, 1.0 / 6, kExact);
  EXPECT_NEAR(report.columns[1].tvd, 1.0 / 3, kExact);
  EXPECT_NEAR(report.mean_column_tvd, 0.25, kExact);
  EXPECT_NEAR(*report.mean_pair_tvd, 1.0 / 3, kExact);
  EXPECT_NEAR(report.pair_tvd[0][0], 1.0 / 6, kExact);  // diagonal: the 1-way TVD
}

TEST(CompareTablesTest, CategoricalFlagDoesNotChangeTheMeasure) {
  // The measure depends on type and data only: a user's categorical flag on a numeric column
  // with 21 distinct values still gives bins.
  std::vector<std::string> texts = {"0"};
  for (int v = 0; v <= 20; ++v) texts.push_back(std::to_string(v));
  const RawTable real = MakeTable("real", {MakeColumnFromStrings("n", texts)});
  ColumnSchema column = MakeColumnSchema("n", DataType::kInteger);
  column.categorical = true;
  const MetricReport report = CompareOrDie(real, real, MakeSchema({column}));
  EXPECT_EQ(report.columns[0].kind, ComparisonKind::kBinned);
}

TEST(CompareTablesTest, OptionsChangeBinsAndThreshold) {
  // 5 distinct values; threshold 4 -> binned into 2 bins [1, 3) [3, 5]: real 1 2 | 3 4 5 5.
  const RawTable real = MakeTable("real", {MakeColumn("n", {"1", "2", "3", "4", "5", "5"})});
  CompareOptions options;
  options.bins = 2;
  options.max_distinct_for_values = 4;
  const MetricReport report =
      CompareOrDie(real, real, MakeSchema({MakeColumnSchema("n", DataType::kInteger)}), options);
  EXPECT_EQ(report.columns[0].kind, ComparisonKind::kBinned);
  EXPECT_THAT(report.columns[0].histogram.labels, ElementsAre("[1, 3)", "[3, 5]"));
  EXPECT_THAT(report.columns[0].histogram.real, ElementsAre(2.0 / 6, 4.0 / 6));
  EXPECT_EQ(report.bins, 2);
  EXPECT_EQ(report.max_distinct_for_values, 4);
}

TEST(CompareTablesTest, SchemaOrderDoesNotMatter) {
  // Schema entries are matched by name; the report follows the real table's column order.
  const RawTable table =
      MakeTable("t", {MakeColumn("a", {"1", "1", "2"}), MakeColumn("b", {"x", "y", "x"})});
  const MetricReport report =
      CompareOrDie(table, table,
                   MakeSchema({MakeColumnSchema("b", DataType::kString),
                               MakeColumnSchema("unused", DataType::kString),
                               MakeColumnSchema("a", DataType::kInteger)}));
  ASSERT_EQ(report.columns.size(), 2u);
  EXPECT_EQ(report.columns[0].name, "a");
  EXPECT_EQ(report.columns[1].name, "b");
}

TEST(CompareTablesHistogramTest, ManyCategoriesAreMergedForDisplayOnly) {
  // Real a a a a b b b c c d; synthetic a a a a e e e e e e. Largest max(real, synthetic)
  // fractions: e .6, a .4, b .3, c .2, d .1. Limit 3: a and e shown (in display order), b, c, d
  // merged: real .3 + .2 + .1 = .6, synthetic 0.
  // The TVD is still over all 5 categories: (0 + .3 + .2 + .1 + .6) / 2 = 0.6.
  const RawTable real =
      MakeTable("real", {MakeColumn("s", {"a", "a", "a", "a", "b", "b", "b", "c", "c", "d"})});
  const RawTable synthetic =
      MakeTable("syn", {MakeColumn("s", {"a", "a", "a", "a", "e", "e", "e", "e", "e", "e"})});
  CompareOptions options;
  options.max_histogram_categories = 3;
  const MetricReport report = CompareOrDie(
      real, synthetic, MakeSchema({MakeColumnSchema("s", DataType::kString)}), options);
  const ColumnComparison& column = report.columns[0];
  EXPECT_THAT(column.histogram.labels, ElementsAre("a", "e", "(3 other values)"));
  EXPECT_THAT(column.histogram.real, ElementsAre(0.4, 0.0, 0.6));
  EXPECT_THAT(column.histogram.synthetic, ElementsAre(0.4, 0.6, 0.0));
  EXPECT_EQ(column.categories, 5u);
  EXPECT_NEAR(column.tvd, 0.6, 1e-12);
}

TEST(CompareTablesHistogramTest, BinsAndMissingAreNeverMerged) {
  // Real 0, 0, 1..20, NA; synthetic 5, "abc", NA, NA. 20 bins + "abc" + (missing) = 22
  // categories; with a limit of 3 only "abc" can go: it becomes "(1 other value)".
  std::vector<std::string> texts = {"0", ""};
  for (int v = 0; v <= 20; ++v) texts.push_back(std::to_string(v));
  const RawTable real = MakeTable("real", {MakeColumnFromStrings("f", texts)});
  const RawTable synthetic = MakeTable("syn", {MakeColumn("f", {"5", "abc", nullptr, nullptr})});
  CompareOptions options;
  options.max_histogram_categories = 3;
  const MetricReport report =
      CompareOrDie(real, synthetic, MakeSchema({MakeColumnSchema("f", DataType::kFloat)}), options);
  const ColumnComparison& column = report.columns[0];
  ASSERT_EQ(column.histogram.labels.size(), 22u);
  EXPECT_EQ(column.histogram.labels[20], "(1 other value)");
  EXPECT_EQ(column.histogram.synthetic[20], 0.25);
  EXPECT_EQ(column.histogram.labels[21], "(missing)");
  EXPECT_EQ(column.categories, 22u);
}

}  // namespace
}  // namespace deniable
