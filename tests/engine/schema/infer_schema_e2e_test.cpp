// SPDX-License-Identifier: Apache-2.0
// Inference on the shared real datasets, with the expectations of ../shared/data/README.md's
// column tables (types, distinct counts, missing counts), plus the schema JSON round trip.
#include <gtest/gtest.h>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

// What the README's table says about one column.
struct Expected {
  const char* name;
  DataType type;
  bool categorical;
  std::uint64_t distinct;
  std::uint64_t missing;
  ColumnRole role = ColumnRole::kAttribute;
};

constexpr DataType kInt = DataType::kInteger;
constexpr DataType kFloat = DataType::kFloat;
constexpr DataType kString = DataType::kString;
constexpr DataType kDateTime = DataType::kDateTime;

Schema InferFile(const std::string& path, RawTable* table_out = nullptr) {
  NullProgress progress;
  auto table = ReadCsv(path, CsvReadOptions{}, progress);
  EXPECT_TRUE(table.has_value()) << table.error().message;
  if (!table.has_value()) return Schema{};
  Schema schema = InferSchema(*table, InferOptions{});
  if (table_out != nullptr) *table_out = std::move(*table);
  return schema;
}

void ExpectColumns(const Schema& schema, std::uint64_t rows,
                   const std::vector<Expected>& expected) {
  ASSERT_EQ(schema.columns.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const ColumnSchema& column = schema.columns[i];
    SCOPED_TRACE(column.name);
    EXPECT_EQ(column.name, expected[i].name);
    EXPECT_EQ(column.type, expected[i].type);
    EXPECT_EQ(column.categorical, expected[i].categorical);
    EXPECT_EQ(column.role, expected[i].role);
    EXPECT_EQ(column.stats.rows, rows);
    EXPECT_EQ(column.stats.distinct, expected[i].distinct);
    EXPECT_EQ(column.stats.missing, expected[i].missing);
    EXPECT_EQ(column.stats.failed_count, 0u);
  }
}

TEST(InferSchemaE2eTest, Adult) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const Schema schema = InferFile(path);
  ExpectColumns(schema, 48842,
                {{"age", kInt, false, 74, 0},
                 {"workclass", kString, true, 8, 2799},
                 {"fnlwgt", kInt, false, 28523, 0},
                 {"education", kString, true, 16, 0},
                 {"education-num", kInt, true, 16, 0},
                 {"marital-status", kString, true, 7, 0},
                 {"occupation", kString, true, 14, 2809},
                 {"relationship", kString, true, 6, 0},
                 {"race", kString, true, 5, 0},
                 {"sex", kString, true, 2, 0},
                 {"capital-gain", kInt, false, 123, 0},
                 {"capital-loss", kInt, false, 99, 0},
                 {"hours-per-week", kInt, false, 96, 0},
                 {"native-country", kString, false, 41, 857},
                 {"income", kString, true, 2, 0}});
  EXPECT_EQ(schema.columns[1].stats.sample_values.at(0), "Private");
  EXPECT_EQ(schema.delimiter, ',');
}

TEST(InferSchemaE2eTest, MplsStopsHasADateTimeAndAnIdentifier) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const Schema schema = InferFile(path);
  ExpectColumns(schema, 51920,
                {{"idNum", kString, false, 51920, 0, ColumnRole::kIdentifier},
                 {"date", kDateTime, false, 51873, 0},
                 {"problem", kString, true, 2, 0},
                 {"MDC", kString, true, 2, 0},
                 {"citationIssued", kString, true, 2, 32810},
                 {"personSearch", kString, true, 2, 8221},
                 {"vehicleSearch", kString, true, 2, 8221},
                 {"preRace", kString, true, 8, 8221},
                 {"race", kString, true, 8, 8221},
                 {"gender", kString, true, 3, 8282},
                 {"lat", kFloat, false, 8749, 0},
                 {"long", kFloat, false, 9158, 0},
                 {"policePrecinct", kInt, true, 5, 0},
                 {"neighborhood", kString, false, 87, 0}});
  EXPECT_EQ(schema.columns[0].id_pattern, "##-######");  // digits are never literals
  EXPECT_EQ(schema.columns[1].datetime_format, "%Y-%m-%d %H:%M:%S");
  EXPECT_EQ(schema.columns[10].decimals, 8);
  EXPECT_EQ(schema.columns[11].decimals, 8);
}

TEST(InferSchemaE2eTest, Fertility) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fertility.csv");
  ExpectColumns(InferFile(path), 254654,
                {{"morekids", kString, true, 2, 0},
                 {"gender1", kString, true, 2, 0},
                 {"gender2", kString, true, 2, 0},
                 {"age", kInt, true, 15, 0},
                 {"afam", kString, true, 2, 0},
                 {"hispanic", kString, true, 2, 0},
                 {"other", kString, true, 2, 0},
                 {"work", kInt, false, 53, 0}});
}

TEST(InferSchemaE2eTest, Flchain) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "flchain.csv");
  const Schema schema = InferFile(path);
  ExpectColumns(schema, 7874,
                {{"age", kInt, false, 51, 0},
                 {"sex", kString, true, 2, 0},
                 {"sample.yr", kInt, true, 9, 0},
                 {"kappa", kFloat, false, 926, 0},
                 {"lambda", kFloat, false, 796, 0},
                 {"flc.grp", kInt, true, 10, 0},
                 {"creatinine", kFloat, false, 50, 1350},
                 {"mgus", kInt, true, 2, 0},
                 {"futime", kInt, false, 2977, 0},
                 {"death", kInt, true, 2, 0},
                 {"chapter", kString, true, 16, 5705}});
  // Count-weighted precision (infer_schema.h): kappa has 968 values with 3 decimals and one
  // with 4; lambda has 449 with 3, four with 4 and one computed ratio written with 14
  // (0.92248062015503), which used to make every synthetic lambda print 14 decimals.
  EXPECT_EQ(schema.columns[3].decimals, 3);
  EXPECT_EQ(schema.columns[4].decimals, 3);
  EXPECT_EQ(schema.columns[6].decimals, 1);
}

TEST(InferSchemaE2eTest, Penguins) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "penguins.csv");
  const Schema schema = InferFile(path);
  ExpectColumns(schema, 344,
                {{"species", kString, true, 3, 0},
                 {"island", kString, true, 3, 0},
                 {"bill_length_mm", kFloat, false, 164, 2},
                 {"bill_depth_mm", kFloat, false, 80, 2},
                 {"flipper_length_mm", kInt, false, 55, 2},
                 {"body_mass_g", kInt, false, 94, 2},
                 {"sex", kString, true, 2, 11},
                 {"year", kInt, true, 3, 0}});
  EXPECT_EQ(schema.columns[2].decimals, 1);
}

TEST(InferSchemaE2eTest, InspectOutputFedBackChangesNothing) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  RawTable table;
  const Schema schema = InferFile(path, &table);
  const std::string text = SchemaJsonText(schema, /*include_stats=*/true);
  auto json = ParseJsonText(text, "inspect.json");
  ASSERT_TRUE(json.has_value()) << json.error().message;
  auto back = ApplySchemaJson(schema, *json, "inspect.json", &table);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(SchemaJsonText(*back, true), text);
}

TEST(InferSchemaE2eTest, AppliesTheDocumentedCorrectionExample) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  RawTable table;
  const Schema schema = InferFile(path, &table);
  const auto json = ReadJsonFile(test_support::TestDataPath("schema/mplsstops_corrections.json"));
  ASSERT_TRUE(json.has_value()) << json.error().message;
  auto fixed = ApplySchemaJson(schema, *json, "mplsstops_corrections.json", &table);
  ASSERT_TRUE(fixed.has_value()) << fixed.error().message;
  const ColumnSchema& date = fixed->columns[1];
  EXPECT_EQ(date.public_min, 1483228800.0);  // 2017-01-01 00:00:00
  EXPECT_EQ(date.public_max, 1514764800.0);  // 2018-01-01 00:00:00
  EXPECT_EQ(fixed->columns[12].public_categories,
            (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(fixed->columns[8].role, ColumnRole::kSensitive);
  EXPECT_TRUE(fixed->columns[13].categorical);
  EXPECT_EQ(fixed->columns[13].role, ColumnRole::kQuasiIdentifier);
  EXPECT_EQ(fixed->columns[10].decimals, 4);
  EXPECT_EQ(fixed->columns[10].public_min, 44.89);
  EXPECT_EQ(fixed->columns[10].bins, 30);
  EXPECT_EQ(fixed->columns[3].role, ColumnRole::kIgnore);
  EXPECT_FALSE(fixed->columns[3].is_modelled());
}

TEST(InferSchemaE2eTest, UserTypeChangeListsFailedValuesWithLines) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  RawTable table;
  const Schema schema = InferFile(path, &table);
  auto fixed = ApplySchemaJson(
      schema, nlohmann::json::parse(R"({"columns": [{"name": "education", "type": "Integer"}]})"),
      "fix.json", &table);
  ASSERT_TRUE(fixed.has_value()) << fixed.error().message;
  const ColumnStats& stats = fixed->columns[3].stats;
  EXPECT_EQ(stats.failed_count, 48842u);
  EXPECT_EQ(stats.failed_distinct, 16u);
  ASSERT_EQ(stats.failed_values.size(), 16u);
  EXPECT_EQ(stats.failed_values[0].text, "HS-grad");
  EXPECT_EQ(stats.failed_values[0].count, 15784u);
  EXPECT_EQ(stats.failed_values[0].first_line, 4u);  // the third data row
}

}  // namespace
}  // namespace deniable
