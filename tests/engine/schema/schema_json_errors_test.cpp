// SPDX-License-Identifier: Apache-2.0
// Every way a schema JSON can be wrong gives a kParse error naming the JSON path.
#include <gtest/gtest.h>

#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using test_support::Cells;

RawTable SmallTable() {
  return test_support::MakeRawTable({
      {"age", Cells(30, [](std::size_t i) { return std::to_string(20 + i % 10); })},
      {"city", Cells(30, [](std::size_t i) { return i % 2 ? "Oslo" : "Rome"; })},
      {"when", Cells(30, [](std::size_t i) {
         return "2017-01-" + std::string(i < 9 ? "0" : "") + std::to_string(i + 1);
       })},
      {"score", Cells(30, [](std::size_t i) { return std::to_string(i) + ".5"; })},
  });
}

struct ErrorCase {
  const char* json;
  const char* message;
};

class SchemaJsonErrorsTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SchemaJsonErrorsTest, NamesThePath) {
  const RawTable table = SmallTable();
  const Schema base = InferSchema(table, {});
  ASSERT_EQ(base.columns[2].type, DataType::kDateTime);
  const auto result =
      ApplySchemaJson(base, nlohmann::json::parse(GetParam().json), "schema.json", &table);
  ASSERT_FALSE(result.has_value()) << GetParam().json;
  EXPECT_EQ(result.error().code, ErrorCode::kParse);
  EXPECT_EQ(result.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    TopLevel, SchemaJsonErrorsTest,
    ::testing::Values(
        ErrorCase{R"([1])", "schema.json: expected a JSON object at the top level (got array)"},
        ErrorCase{R"({"colums": []})",
                  "schema.json: colums: unknown field 'colums' (expected format, version, "
                  "categorical_threshold, csv, columns)"},
        ErrorCase{R"({"format": "datasynthesizer"})",
                  "schema.json: format: expected \"deniable-schema\" (got 'datasynthesizer'): "
                  "not a Deniable schema file"},
        ErrorCase{R"({"format": 1})", "schema.json: format: expected a string (got number 1)"},
        ErrorCase{R"({"version": 2})",
                  "schema.json: version: unsupported version 2 (this build reads version 1)"},
        ErrorCase{R"({"categorical_threshold": -1})",
                  "schema.json: categorical_threshold: must be between 0 and 2147483647 (got "
                  "-1)"},
        ErrorCase{R"({"categorical_threshold": "20"})",
                  "schema.json: categorical_threshold: expected an integer (got string '20')"},
        ErrorCase{R"({"categorical_threshold": 2.5})",
                  "schema.json: categorical_threshold: expected an integer (got number 2.5)"},
        ErrorCase{R"({"csv": []})", "schema.json: csv: expected an object (got array)"},
        ErrorCase{R"({"csv": {"quote": "'"}})",
                  "schema.json: csv.quote: unknown field 'quote' (expected delimiter, "
                  "missing_tokens)"},
        ErrorCase{R"({"csv": {"delimiter": ";;"}})",
                  "schema.json: csv.delimiter: expected one ASCII character other than a quote "
                  "or line break, or \"auto\" (got ';;')"},
        ErrorCase{R"({"csv": {"delimiter": "\""}})",
                  "schema.json: csv.delimiter: expected one ASCII character other than a quote "
                  "or line break, or \"auto\" (got '\"')"},
        ErrorCase{R"({"csv": {"missing_tokens": "NA"}})",
                  "schema.json: csv.missing_tokens: expected an array (got string 'NA')"},
        ErrorCase{R"({"csv": {"missing_tokens": ["NA", 0]}})",
                  "schema.json: csv.missing_tokens[1]: expected a string (got number 0)"},
        ErrorCase{R"({"columns": {}})", "schema.json: columns: expected an array (got object)"}));

INSTANTIATE_TEST_SUITE_P(
    Columns, SchemaJsonErrorsTest,
    ::testing::Values(
        ErrorCase{R"({"columns": [7]})",
                  "schema.json: columns[0]: expected an object (got number 7)"},
        ErrorCase{R"({"columns": [{"type": "Integer"}]})",
                  "schema.json: columns[0]: missing field 'name'"},
        ErrorCase{R"({"columns": [{"name": null}]})",
                  "schema.json: columns[0].name: expected a string (got null)"},
        ErrorCase{R"({"columns": [{"name": "town"}]})",
                  "schema.json: columns[0].name: unknown column 'town' (the table has 'age', "
                  "'city', 'when', 'score')"},
        ErrorCase{R"({"columns": [{"name": "age"}, {"name": "city"}, {"name": "age"}]})",
                  "schema.json: columns[2].name: column 'age' is already listed in columns[0]"},
        ErrorCase{R"({"columns": [{"name": "age", "tpye": "Float"}]})",
                  "schema.json: columns[0].tpye: unknown field 'tpye' (expected name, type, "
                  "categorical, role, datetime_format, two_digit_year_start, decimals, "
                  "id_pattern, public, bins, geo, stats)"},
        ErrorCase{R"({"columns": [{"name": "a"}, {"name": "b"}, {"name": "c"},
                                  {"name": "age", "type": "Int"}]})",
                  "schema.json: columns[0].name: unknown column 'a' (the table has 'age', "
                  "'city', 'when', 'score')"},
        ErrorCase{R"({"columns": [{"name": "age"}, {"name": "city"}, {"name": "score"},
                                  {"name": "when", "type": "Int"}]})",
                  "schema.json: columns[3].type: unknown type 'Int' (expected Integer, Float, "
                  "DateTime or String)"},
        ErrorCase{R"({"columns": [{"name": "age", "type": ["Integer"]}]})",
                  "schema.json: columns[0].type: expected a string (got array)"},
        ErrorCase{R"({"columns": [{"name": "age", "role": "key"}]})",
                  "schema.json: columns[0].role: unknown role 'key' (expected attribute, "
                  "identifier, quasi-identifier, sensitive, target or ignore)"},
        ErrorCase{R"({"columns": [{"name": "age", "categorical": "yes"}]})",
                  "schema.json: columns[0].categorical: expected true or false (got string "
                  "'yes')"},
        ErrorCase{R"({"columns": [{"name": "age", "bins": -1}]})",
                  "schema.json: columns[0].bins: must be between 0 and 65534 (got -1)"},
        ErrorCase{R"({"columns": [{"name": "age", "bins": 1.5}]})",
                  "schema.json: columns[0].bins: expected an integer (got number 1.5)"},
        ErrorCase{R"({"columns": [{"name": "age", "bins": 18446744073709551615}]})",
                  "schema.json: columns[0].bins: must be between 0 and 65534 (got "
                  "18446744073709551615)"}));

INSTANTIATE_TEST_SUITE_P(
    Formats, SchemaJsonErrorsTest,
    ::testing::Values(
        ErrorCase{R"({"columns": [{"name": "when", "datetime_format": "%Y-%q"}]})",
                  "schema.json: columns[0].datetime_format: invalid datetime format '%Y-%q' "
                  "(directives: %Y %y %m %d %H %I %p %M %S %f %b %z %T %%, with %I only together "
                  "with %p; see docs/schema.md)"},
        ErrorCase{R"({"columns": [{"name": "when", "datetime_format": "%I:%M"}]})",
                  "schema.json: columns[0].datetime_format: invalid datetime format '%I:%M' "
                  "(directives: %Y %y %m %d %H %I %p %M %S %f %b %z %T %%, with %I only together "
                  "with %p; see docs/schema.md)"},
        ErrorCase{R"({"columns": [{"name": "age", "datetime_format": "%Y"}]})",
                  "schema.json: columns[0].datetime_format: only for DateTime columns (column "
                  "'age' is Integer)"},
        ErrorCase{R"({"columns": [{"name": "city", "type": "DateTime"}]})",
                  "schema.json: columns[0].datetime_format: no known format fits the values of "
                  "column 'city'; give one"},
        ErrorCase{R"({"columns": [{"name": "score", "decimals": 16}]})",
                  "schema.json: columns[0].decimals: must be between -1 and 15 (got 16)"},
        ErrorCase{R"({"columns": [{"name": "age", "decimals": 2}]})",
                  "schema.json: columns[0].decimals: only for Float columns (column 'age' is "
                  "Integer)"},
        ErrorCase{R"({"columns": [{"name": "city", "id_pattern": "AA\\"}]})",
                  "schema.json: columns[0].id_pattern: invalid identifier pattern 'AA\\' "
                  "(empty, or ends in a lone '\\')"},
        ErrorCase{R"({"columns": [{"name": "city", "id_pattern": ""}]})",
                  "schema.json: columns[0].id_pattern: invalid identifier pattern '' (empty, or "
                  "ends in a lone '\\')"}));

INSTANTIATE_TEST_SUITE_P(
    Public, SchemaJsonErrorsTest,
    ::testing::Values(
        ErrorCase{R"({"columns": [{"name": "age", "public": [0, 1]}]})",
                  "schema.json: columns[0].public: expected an object (got array)"},
        ErrorCase{R"({"columns": [{"name": "age", "public": {"low": 0}}]})",
                  "schema.json: columns[0].public.low: unknown field 'low' (expected min, max, "
                  "categories, vocabulary, case)"},
        ErrorCase{R"({"columns": [{"name": "age", "public": {"min": 10, "max": 5}}]})",
                  "schema.json: columns[0].public: min > max (10 > 5)"},
        ErrorCase{R"({"columns": [{"name": "age", "public": {"min": "10"}}]})",
                  "schema.json: columns[0].public.min: expected a number (got string '10')"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"max": 3}}]})",
                  "schema.json: columns[0].public.max: public bounds need an Integer, Float or "
                  "DateTime column (column 'city' is String)"},
        ErrorCase{R"({"columns": [{"name": "when", "public": {"min": "2017-02-30"}}]})",
                  "schema.json: columns[0].public.min: '2017-02-30' does not parse with the "
                  "column's datetime format '%Y-%m-%d'"},
        ErrorCase{R"({"columns": [{"name": "when", "public": {"min": 0}}]})",
                  "schema.json: columns[0].public.min: expected a date-time string (got number "
                  "0)"},
        ErrorCase{R"({"columns": [{"name": "when", "public": {"min": "2017-12-31",
                                                                "max": "2017-01-01"}}]})",
                  "schema.json: columns[0].public: min > max (2017-12-31 > 2017-01-01)"},
        ErrorCase{R"({"columns": [{"name": "score", "public": {"categories": ["1.5"]}}]})",
                  "schema.json: columns[0].public.categories: public categories need a "
                  "categorical column (set \"categorical\": true for column 'score')"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"categories": ["Oslo"]},
                                   "categorical": false}]})",
                  "schema.json: columns[0].public.categories: public categories need a "
                  "categorical column (set \"categorical\": true for column 'city')"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"categories": "Oslo"}}]})",
                  "schema.json: columns[0].public.categories: expected an array (got string "
                  "'Oslo')"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"categories": []}}]})",
                  "schema.json: columns[0].public.categories: must not be empty"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"categories": ["a", "b", "a"]}}]})",
                  "schema.json: columns[0].public.categories[2]: duplicate category 'a'"},
        ErrorCase{R"({"columns": [{"name": "city", "public": {"categories": [1]}}]})",
                  "schema.json: columns[0].public.categories[0]: expected a string (got number "
                  "1)"},
        ErrorCase{R"({"columns": [{"name": "age", "public": {"categories": ["20", "x"]}}]})",
                  "schema.json: columns[0].public.categories[1]: 'x' is not a valid Integer"},
        ErrorCase{R"({"columns": [{"name": "age", "public": {"categories": [20, 20.0]}}]})",
                  "schema.json: columns[0].public.categories[1]: duplicate category '20'"}));

TEST(SchemaJsonErrorsWithoutTableTest, FieldsTheTableWouldFillAreRequired) {
  const RawTable table = SmallTable();
  const Schema base = InferSchema(table, {});
  const auto apply = [&base](const char* text) {
    return ApplySchemaJson(base, nlohmann::json::parse(text), "s.json");
  };
  auto result = apply(R"({"columns": [{"name": "city", "type": "DateTime"}]})");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message,
            "s.json: columns[0].datetime_format: required for a DateTime column");
  result = apply(R"({"columns": [{"name": "city", "role": "identifier"}]})");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message,
            "s.json: columns[0].id_pattern: required for an identifier column");
  result = apply(R"({"columns": [{"name": "city", "role": "identifier", "id_pattern": "Aaaa"}]})");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_FALSE(result->columns[1].categorical);
}

TEST(SchemaJsonErrorsWithoutTableTest, AnotherTableIsNotUsedToFillFields) {
  const Schema base = InferSchema(SmallTable(), {});
  const RawTable other =
      test_support::MakeRawTable({{"age", {"1"}}, {"town", {"2017-01-01"}}});
  const auto result = ApplySchemaJson(
      base, nlohmann::json::parse(R"({"columns": [{"name": "city", "type": "DateTime"}]})"),
      "s.json", &other);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message,
            "s.json: columns[0].datetime_format: required for a DateTime column");
}

TEST(SchemaJsonErrorsWithoutTableTest, BaseCategoriesConflictingWithANewCategoricalFlag) {
  Schema base = InferSchema(SmallTable(), {});
  base.columns[1].public_categories = std::vector<std::string>{"Oslo", "Rome"};
  const auto result = ApplySchemaJson(
      base, nlohmann::json::parse(R"({"columns": [{"name": "city", "categorical": false}]})"),
      "s.json");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message,
            "s.json: columns[0].categorical: public categories need a categorical column (set "
            "\"categorical\": true for column 'city')");
}

}  // namespace
}  // namespace deniable
