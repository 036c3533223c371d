// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/schema_json.h"

#include <gtest/gtest.h>

#include <fstream>

#include "engine/schema/infer_schema.h"
#include "tests/engine/schema/raw_table_builder.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using nlohmann::json;
using test_support::Cells;

std::string Two(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// 25 rows: an identifier, an integer, a categorical string with gaps, a date, a float, a
// string that is mostly integers and one that is mostly dates.
RawTable FixtureTable() {
  return test_support::MakeRawTable({
      {"id", Cells(25, [](std::size_t i) { return "u0" + Two(i + 1); })},
      {"age", Cells(25, [](std::size_t i) { return std::to_string(20 + i % 10); })},
      {"city", Cells(25, [](std::size_t i) {
         return i % 5 == 4 ? "" : (i % 2 ? "Oslo" : "Rome");
       })},
      {"when", Cells(25, [](std::size_t i) { return "2017-01-" + Two(i + 1); })},
      {"score", Cells(25, [](std::size_t i) { return std::to_string(i) + ".25"; })},
      {"mixed", Cells(25, [](std::size_t i) { return i % 4 == 0 ? "x" : std::to_string(i); })},
      {"stamp", Cells(25, [](std::size_t i) {
         return i % 3 == 0 ? "junk" : "2018-02-" + Two(i + 1);
       })},
  });
}

class SchemaJsonTest : public ::testing::Test {
 protected:
  RawTable table_ = FixtureTable();
  Schema base_ = InferSchema(table_, {});

  Schema Apply(const json& corrections, const RawTable* table = nullptr) {
    auto schema = ApplySchemaJson(base_, corrections, "fix.json", table);
    EXPECT_TRUE(schema.has_value()) << schema.error().message;
    return schema.has_value() ? *schema : base_;
  }
  const ColumnSchema& Col(const Schema& schema, const std::string& name) {
    return schema.columns.at(static_cast<std::size_t>(schema.ColumnIndex(name)));
  }
};

TEST_F(SchemaJsonTest, FixtureIsInferredAsExpected) {
  EXPECT_EQ(Col(base_, "id").role, ColumnRole::kIdentifier);
  EXPECT_EQ(Col(base_, "id").id_pattern, "a###");  // 25 values: no literals
  EXPECT_EQ(Col(base_, "age").type, DataType::kInteger);
  EXPECT_TRUE(Col(base_, "age").categorical);
  EXPECT_EQ(Col(base_, "city").type, DataType::kString);
  EXPECT_EQ(Col(base_, "when").datetime_format, "%Y-%m-%d");
  EXPECT_EQ(Col(base_, "score").decimals, 2);
  EXPECT_EQ(Col(base_, "mixed").type, DataType::kString);
  EXPECT_EQ(Col(base_, "stamp").type, DataType::kString);
}

TEST_F(SchemaJsonTest, WritesTheDocumentedFields) {
  Schema schema = base_;
  ColumnSchema& when = schema.columns[3];
  when.public_min = 1483228800;  // 2017-01-01
  when.public_max = 1514678400;  // 2017-12-31
  schema.columns[1].public_min = 0;
  schema.columns[1].public_max = 120;
  schema.columns[2].public_categories = std::vector<std::string>{"Oslo", "Rome"};
  const json out = SchemaToJson(schema, /*include_stats=*/false);
  EXPECT_EQ(out["format"], "deniable-schema");
  EXPECT_EQ(out["version"], 1);
  EXPECT_EQ(out["categorical_threshold"], 20);
  EXPECT_EQ(out["csv"]["delimiter"], ",");
  EXPECT_EQ(out["csv"]["missing_tokens"], json({"", "NA", "N/A", "null", "?", "NaN"}));
  ASSERT_EQ(out["columns"].size(), 7u);
  EXPECT_EQ(out["columns"][0], json::parse(R"({"name": "id", "type": "String",
      "categorical": false, "role": "identifier", "id_pattern": "a###", "public": {},
      "bins": 0})"));
  EXPECT_EQ(out["columns"][1]["public"], json::parse(R"({"min": 0, "max": 120})"));
  EXPECT_TRUE(out["columns"][1]["public"]["min"].is_number_integer());
  EXPECT_EQ(out["columns"][2]["public"], json::parse(R"({"categories": ["Oslo", "Rome"]})"));
  EXPECT_EQ(out["columns"][3]["datetime_format"], "%Y-%m-%d");
  EXPECT_EQ(out["columns"][3]["public"],
            json::parse(R"({"min": "2017-01-01", "max": "2017-12-31"})"));
  EXPECT_EQ(out["columns"][4]["decimals"], 2);
  EXPECT_FALSE(out["columns"][1].contains("decimals"));
  EXPECT_FALSE(out["columns"][1].contains("datetime_format"));
  EXPECT_FALSE(out["columns"][1].contains("stats"));
}

TEST_F(SchemaJsonTest, StatsOnlyWhenAsked) {
  const json out = SchemaToJson(base_, /*include_stats=*/true);
  const json& stats = out["columns"][2]["stats"];
  EXPECT_EQ(stats["rows"], 25);
  EXPECT_EQ(stats["missing"], 5);
  EXPECT_EQ(stats["missing_rate"], 0.2);
  EXPECT_EQ(stats["distinct"], 2);
  EXPECT_EQ(stats["sample_values"], json({"Rome", "Oslo"}));
  EXPECT_EQ(stats["failed_count"], 0);
  EXPECT_EQ(stats["failed_values"], json::array());
  ColumnSchema mixed = base_.columns[5];
  mixed.type = DataType::kInteger;
  Schema changed = base_;
  changed.columns[5].type = DataType::kInteger;
  changed.columns[5].stats = ComputeColumnStats(table_, 5, mixed);
  EXPECT_EQ(SchemaToJson(changed, true)["columns"][5]["stats"]["failed_values"],
            json::parse(R"([{"text": "x", "count": 7, "first_line": 2}])"));
}

TEST_F(SchemaJsonTest, TextKeepsTheDocumentedKeyOrder) {
  const std::string text = SchemaJsonText(base_, /*include_stats=*/false);
  EXPECT_EQ(text.rfind("{\n  \"format\": \"deniable-schema\",\n  \"version\": 1,\n"
                       "  \"categorical_threshold\": 20,\n  \"csv\": {\n",
                       0),
            0u);
  EXPECT_NE(text.find("{\n      \"name\": \"id\",\n      \"type\": \"String\",\n"),
            std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(json::parse(text), SchemaToJson(base_, false));
}

TEST_F(SchemaJsonTest, FullRoundTripReproducesEveryCorrection) {
  Schema edited = base_;
  edited.categorical_threshold = 20;
  edited.delimiter = '\t';
  edited.missing_tokens = {"", "-"};
  ColumnSchema& age = edited.columns[1];
  age.role = ColumnRole::kQuasiIdentifier;
  age.categorical = false;
  age.public_min = 18;
  age.public_max = 99.5;
  age.bins = 8;
  edited.columns[2].role = ColumnRole::kSensitive;
  edited.columns[2].public_categories = std::vector<std::string>{"Rome", "Oslo", "Paris"};
  edited.columns[3].datetime_format = "%Y-%m-%d %H:%M";
  edited.columns[3].public_min = -86400.0;
  edited.columns[4].decimals = -1;
  edited.columns[0].id_pattern = "ID-####";
  edited.columns[6].role = ColumnRole::kIgnore;
  const Schema back = Apply(SchemaToJson(edited, /*include_stats=*/true));
  EXPECT_EQ(SchemaToJson(back, true), SchemaToJson(edited, true));
  EXPECT_EQ(back.delimiter, '\t');
  EXPECT_EQ(back.columns[3].public_min, -86400.0);  // "1969-12-31 00:00"
  EXPECT_EQ(back.columns[1].public_max, 99.5);
}

TEST_F(SchemaJsonTest, UnchangedInspectOutputChangesNothing) {
  const Schema back = Apply(json::parse(SchemaJsonText(base_, true)), &table_);
  EXPECT_EQ(SchemaToJson(back, true), SchemaToJson(base_, true));
}

TEST_F(SchemaJsonTest, PartialCorrectionTouchesOnlyWhatItNames) {
  const Schema fixed = Apply(json::parse(R"({"columns": [{"name": "city", "role": "sensitive"},
      {"name": "age", "public": {"min": 0}}]})"));
  json expected = SchemaToJson(base_, true);
  expected["columns"][2]["role"] = "sensitive";
  expected["columns"][1]["public"]["min"] = 0;
  EXPECT_EQ(SchemaToJson(fixed, true), expected);
  const Schema quasi =
      Apply(json::parse(R"({"columns": [{"name": "city", "role": "Quasi-Identifier"}]})"));
  EXPECT_EQ(Col(quasi, "city").role, ColumnRole::kQuasiIdentifier);
}

TEST_F(SchemaJsonTest, NullClearsPublicFacts) {
  Schema with_public = Apply(json::parse(
      R"({"columns": [{"name": "age", "public": {"min": 1, "max": 5, "categories": [1, 2]}}]})"));
  EXPECT_EQ(Col(with_public, "age").public_categories, (std::vector<std::string>{"1", "2"}));
  base_ = with_public;
  const Schema cleared = Apply(json::parse(
      R"({"columns": [{"name": "age", "public": {"min": null, "categories": null}}]})"));
  EXPECT_FALSE(Col(cleared, "age").public_min.has_value());
  EXPECT_EQ(Col(cleared, "age").public_max, 5.0);
  EXPECT_FALSE(Col(cleared, "age").public_categories.has_value());
  EXPECT_FALSE(Col(Apply(json::parse(R"({"columns": [{"name": "age", "public": null}]})")), "age")
                   .public_max.has_value());
}

TEST_F(SchemaJsonTest, TypeChangeWithTheTableRecomputesStatsAndFillsFormats) {
  const Schema fixed = Apply(json::parse(R"({"columns": [
      {"name": "mixed", "type": "integer"}, {"name": "stamp", "type": "DateTime"},
      {"name": "age", "type": "Float"}, {"name": "city", "role": "identifier"}]})"),
                             &table_);
  const ColumnSchema& mixed = Col(fixed, "mixed");
  EXPECT_EQ(mixed.type, DataType::kInteger);
  EXPECT_EQ(mixed.stats.failed_count, 7u);
  EXPECT_EQ(mixed.stats.failed_values.at(0).text, "x");
  EXPECT_TRUE(mixed.categorical);  // 18 integers parse (the misfit "x" does not count)
  const ColumnSchema& stamp = Col(fixed, "stamp");
  EXPECT_EQ(stamp.datetime_format, "%Y-%m-%d");
  EXPECT_EQ(stamp.stats.failed_count, 9u);
  EXPECT_EQ(Col(fixed, "age").decimals, 0);
  EXPECT_EQ(Col(fixed, "city").id_pattern, "Aaaaaaaaaa");  // 2 distinct texts: no common shape
  EXPECT_FALSE(Col(fixed, "city").categorical);
}

TEST_F(SchemaJsonTest, TypeChangeWithoutTheTableNeedsExplicitFields) {
  const Schema fixed = Apply(json::parse(R"({"columns": [
      {"name": "stamp", "type": "DateTime", "datetime_format": "%d.%m.%Y"},
      {"name": "age", "type": "Float", "decimals": 3}, {"name": "when", "type": "String"}]})"));
  EXPECT_EQ(Col(fixed, "stamp").datetime_format, "%d.%m.%Y");
  EXPECT_EQ(Col(fixed, "age").decimals, 3);
  EXPECT_EQ(Col(fixed, "when").datetime_format, "");
  EXPECT_EQ(Col(fixed, "when").decimals, -1);
}

TEST_F(SchemaJsonTest, NewThresholdRederivesCategoricalUnlessTheUserSetIt) {
  const Schema fixed = Apply(json::parse(R"({"categorical_threshold": 5,
      "columns": [{"name": "score", "categorical": true}]})"));
  EXPECT_EQ(fixed.categorical_threshold, 5);
  EXPECT_FALSE(Col(fixed, "age").categorical);   // 10 distinct > 5
  EXPECT_TRUE(Col(fixed, "city").categorical);   // 2 distinct
  EXPECT_TRUE(Col(fixed, "score").categorical);  // the user's word
  EXPECT_FALSE(Col(fixed, "id").categorical);    // identifiers stay non-categorical
}

TEST_F(SchemaJsonTest, CsvSection) {
  EXPECT_EQ(Apply(json::parse(R"({"csv": {"delimiter": "auto"}})")).delimiter, 0);
  EXPECT_EQ(Apply(json::parse(R"({"csv": {"delimiter": null}})")).delimiter, 0);
  EXPECT_EQ(Apply(json::parse(R"({"csv": {"delimiter": "tab"}})")).delimiter, '\t');
  EXPECT_EQ(Apply(json::parse(R"({"csv": {"delimiter": "|"}})")).delimiter, '|');
  EXPECT_EQ(Apply(json::parse(R"({"csv": {"missing_tokens": ["-"]}})")).missing_tokens,
            std::vector<std::string>{"-"});
  Schema auto_detect = base_;
  auto_detect.delimiter = 0;
  EXPECT_EQ(SchemaToJson(auto_detect, false)["csv"]["delimiter"], "auto");
}

TEST(ReadJsonFileTest, ReportsSyntaxErrorsWithLineAndColumn) {
  const auto result = ParseJsonText("{\n  \"a\": 1,\n  }", "fix.json");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kParse);
  EXPECT_EQ(result.error().message,
            "fix.json:3:3: JSON syntax error: syntax error while parsing object key - unexpected "
            "'}'; expected string literal");
  const auto empty = ParseJsonText("", "e.json");
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().message.rfind("e.json:1:1: JSON syntax error: ", 0), 0u);
}

// nlohmann throws out_of_range, not parse_error, for a number beyond double's range: it used to
// escape ParseJsonText (found by tests/fuzz/fuzz_description.cpp; the input is in
// tests/fuzz/corpus/description/regression-number-overflow).
TEST(ReadJsonFileTest, ReportsNumbersOutOfRangeWithLineAndColumn) {
  const auto result = ParseJsonText("{\n  \"epsilon\": 280.4e444444444446\n}", "d.json");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kParse);
  EXPECT_EQ(result.error().message,
            "d.json:2:14: JSON number out of range: 280.4e444444444446 (beyond ±1.8e308)");
  const auto negative = ParseJsonText("[-1e400]", "n.json");
  ASSERT_FALSE(negative.has_value());
  EXPECT_EQ(negative.error().message,
            "n.json:1:2: JSON number out of range: -1e400 (beyond ±1.8e308)");
}

TEST(ReadJsonFileTest, ReadsFilesWithComments) {
  const std::string path = test_support::TempDir() + "/schema.json";
  std::ofstream(path) << "// corrections\n{\"version\": 1 /* ok */}\n";
  const auto result = ReadJsonFile(path);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ((*result)["version"], 1);
  const auto missing = ReadJsonFile(test_support::TempDir() + "/absent.json");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
}

}  // namespace
}  // namespace deniable
