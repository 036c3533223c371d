// SPDX-License-Identifier: Apache-2.0
// MetricReportToJson and MetricReportSummary on a report computed from a hand-built table.
#include "engine/metrics/metric_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/metrics/marginals.h"
#include "tests/engine/metrics/metrics_test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;
using ::testing::HasSubstr;

// x: real a a b b, synthetic a a a b -> 1-way TVD 1/4.
// y: real u v u v, synthetic u u v v -> 1-way TVD 0.
// (x, y): real (a,u) (a,v) (b,u) (b,v) 1/4 each; synthetic (a,u) 1/2, (a,v) 1/4, (b,v) 1/4
//   -> 2-way TVD = (1/4 + 0 + 1/4 + 0) / 2 = 1/4.
MetricReport SmallReport() {
  const RawTable real = MakeTable(
      "real", {MakeColumn("id", {"1", "2", "3", "4"}), MakeColumn("x", {"a", "a", "b", "b"}),
               MakeColumn("y", {"u", "v", "u", "v"})});
  const RawTable synthetic = MakeTable(
      "syn", {MakeColumn("x", {"a", "a", "a", "b"}), MakeColumn("y", {"u", "u", "v", "v"}),
              MakeColumn("z", {"1", "1", "1", "1"})});
  NullProgress progress;
  auto report = CompareTables(real, synthetic,
                              MakeSchema({MakeColumnSchema("id", DataType::kInteger),
                                          MakeColumnSchema("x", DataType::kString),
                                          MakeColumnSchema("y", DataType::kString)}),
                              CompareOptions{}, progress);
  EXPECT_TRUE(report.has_value());
  return report ? *report : MetricReport{};
}

TEST(MetricReportTest, JsonHoldsEveryFigure) {
  const nlohmann::json json = MetricReportToJson(SmallReport());
  EXPECT_EQ(json["format"], "deniable-metrics");
  EXPECT_EQ(json["version"], 1);
  EXPECT_EQ(json["measure"]["bins"], 20);
  EXPECT_EQ(json["measure"]["max_distinct_for_values"], 20);
  EXPECT_EQ(json["real_rows"], 4);
  EXPECT_EQ(json["synthetic_rows"], 4);
  EXPECT_DOUBLE_EQ(json["mean_pair_tvd"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(json["mean_column_tvd"].get<double>(), 0.125);
  EXPECT_EQ(json["pair_count"], 1);
  ASSERT_EQ(json["columns"].size(), 2u);
  EXPECT_EQ(json["columns"][0]["name"], "x");
  EXPECT_EQ(json["columns"][0]["kind"], "values");
  EXPECT_DOUBLE_EQ(json["columns"][0]["tvd"].get<double>(), 0.25);
  EXPECT_EQ(json["columns"][0]["categories"], 2);
  EXPECT_EQ(json["columns"][0]["histogram"]["labels"], nlohmann::json({"a", "b"}));
  EXPECT_EQ(json["columns"][0]["histogram"]["real"], nlohmann::json({0.5, 0.5}));
  EXPECT_EQ(json["columns"][0]["histogram"]["synthetic"], nlohmann::json({0.75, 0.25}));
  EXPECT_EQ(json["matrix_columns"], nlohmann::json({"x", "y"}));
  EXPECT_DOUBLE_EQ(json["pair_tvd"][0][1].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(json["pair_tvd"][0][0].get<double>(), 0.25);
  EXPECT_EQ(json["nmi_real"][0][1], 0.0);  // x, y independent in the real table
  EXPECT_GT(json["nmi_synthetic"][0][1].get<double>(), 0.0);
  EXPECT_EQ(json["excluded"],
            nlohmann::json::parse(R"([{"name": "id", "reason": "all values distinct"}])"));
  EXPECT_EQ(json["ignored_synthetic_columns"], nlohmann::json({"z"}));
}

TEST(MetricReportTest, JsonWritesNullWhenNoPairs) {
  MetricReport report = SmallReport();
  report.columns.resize(1);
  report.mean_pair_tvd.reset();
  const nlohmann::json json = MetricReportToJson(report);
  EXPECT_TRUE(json["mean_pair_tvd"].is_null());
  EXPECT_EQ(json["pair_count"], 0);
}

TEST(MetricReportTest, SummaryNamesMeansColumnsAndExclusions) {
  const std::string summary = MetricReportSummary(SmallReport());
  EXPECT_THAT(summary, HasSubstr("Compared 2 of 3 columns: 4 real rows, 4 synthetic rows."));
  EXPECT_THAT(summary, HasSubstr("Mean 2-way TVD: 0.2500 over 1 column pairs"));
  EXPECT_THAT(summary, HasSubstr("Mean 1-way TVD: 0.1250"));
  EXPECT_THAT(summary, HasSubstr("x       values  0.2500\n"));
  EXPECT_THAT(summary, HasSubstr("y       values  0.0000\n"));
  EXPECT_THAT(summary, HasSubstr("  (x, y): 0.2500\n"));
  EXPECT_THAT(summary, HasSubstr("Excluded: id (all values distinct)"));
  EXPECT_THAT(summary, HasSubstr("Ignored synthetic columns (not in the real table): z"));
}

TEST(MetricReportTest, JsonRoundTripsThroughText) {
  const MetricReport report = SmallReport();
  const nlohmann::json json = MetricReportToJson(report);
  auto read = MetricReportFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(MetricReportToJson(*read), json);
  EXPECT_EQ(read->pair_tvd, report.pair_tvd);  // doubles survive the text exactly
  EXPECT_EQ(read->nmi_synthetic, report.nmi_synthetic);
  EXPECT_EQ(read->columns[0].histogram.labels, report.columns[0].histogram.labels);
  EXPECT_EQ(read->excluded[0].reason, "all values distinct");
}

TEST(MetricReportTest, JsonReaderNamesTheBadField) {
  const nlohmann::json good = MetricReportToJson(SmallReport());
  auto error_of = [](const nlohmann::json& json) {
    auto read = MetricReportFromJson(json);
    EXPECT_FALSE(read.has_value());
    EXPECT_EQ(read ? ErrorCode::kInternal : read.error().code, ErrorCode::kParse);
    return read ? std::string() : read.error().message;
  };
  nlohmann::json json = good;
  json.erase("real_rows");
  EXPECT_EQ(error_of(json), "metrics JSON: 'real_rows' is missing");
  json = good;
  json["version"] = 2;
  EXPECT_EQ(error_of(json), "metrics JSON: 'version' must be 1 (got 2)");
  json = good;
  json["columns"][1]["tvd"] = 1.5;
  EXPECT_EQ(error_of(json), "metrics JSON: 'columns[1].tvd' must be in [0, 1] (got 1.5)");
  json = good;
  json["columns"][0]["histogram"]["real"] = {0.5};
  EXPECT_EQ(error_of(json),
            "metrics JSON: 'columns[0].histogram.real' must be an array of 2 numbers");
  json = good;
  json["nmi_real"] = {{1.0}};
  EXPECT_EQ(error_of(json), "metrics JSON: 'nmi_real' must be a 2 x 2 array");
  json = good;
  json["columns"][0]["kind"] = "bins";
  EXPECT_EQ(error_of(json),
            "metrics JSON: 'columns[0].kind' must be \"binned\" or \"values\" (got \"bins\")");
  EXPECT_EQ(error_of(nlohmann::json::array()), "metrics JSON: the document must be an object");
  json = good;
  json["columns"][0]["histogram"] = 3;
  EXPECT_EQ(error_of(json), "metrics JSON: 'columns[0].histogram' must be an object");
}

TEST(MetricReportTest, KindNames) {
  EXPECT_STREQ(ComparisonKindName(ComparisonKind::kBinned), "binned");
  EXPECT_STREQ(ComparisonKindName(ComparisonKind::kValues), "values");
}

}  // namespace
}  // namespace deniable
