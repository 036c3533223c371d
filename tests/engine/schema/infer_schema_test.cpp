// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/infer_schema.h"

#include <gtest/gtest.h>

#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::MakeRawColumn;
using test_support::MakeRawTable;

// Infers a one-column table.
ColumnSchema InferOne(const std::vector<std::string>& cells, InferOptions options = {}) {
  const Schema schema = InferSchema(MakeRawTable({{"x", cells}}), options);
  return schema.columns.at(0);
}

std::vector<std::string> Repeat(std::vector<std::string> values, std::size_t times) {
  std::vector<std::string> cells;
  for (std::size_t t = 0; t < times; ++t) cells.insert(cells.end(), values.begin(), values.end());
  return cells;
}

TEST(InferSchemaTest, IntegerColumnWithMissingValues) {
  const ColumnSchema column = InferOne({"1", "-2", "", "30", "1"});
  EXPECT_EQ(column.name, "x");
  EXPECT_EQ(column.type, DataType::kInteger);
  EXPECT_TRUE(column.categorical);
  EXPECT_EQ(column.role, ColumnRole::kAttribute);
  EXPECT_EQ(column.stats.rows, 5u);
  EXPECT_EQ(column.stats.missing, 1u);
  EXPECT_EQ(column.stats.distinct, 3u);
  EXPECT_DOUBLE_EQ(column.stats.missing_rate(), 0.2);
  EXPECT_EQ(column.stats.sample_values, (std::vector<std::string>{"1", "-2", "30"}));
  EXPECT_EQ(column.stats.failed_count, 0u);
}

TEST(InferSchemaTest, SmallFloatColumnKeepsTheLargestNumberOfDecimals) {
  // Under 10 cells no outlier is allowed: the most precise value sets the decimals.
  const ColumnSchema column = InferOne({"1.5", "2", "3.25", "-0.125"});
  EXPECT_EQ(column.type, DataType::kFloat);
  EXPECT_EQ(column.decimals, 3);
  EXPECT_EQ(InferOne({"1.5", "2e3"}).decimals, 1);  // an exponent counts its plain decimals
  EXPECT_EQ(InferOne({"0.1234567890123456789", "1"}).decimals, 15);
}

TEST(InferSchemaTest, LeadingZerosAndHugeIntegersAreStringCodes) {
  EXPECT_EQ(InferOne({"007", "12", "5"}).type, DataType::kString);
  EXPECT_EQ(InferOne({"01.5", "2.5"}).type, DataType::kString);
  EXPECT_EQ(InferOne({"12345678901234567890", "1"}).type, DataType::kString);
  EXPECT_EQ(InferOne({"0", "-0", "10"}).type, DataType::kInteger);
  EXPECT_EQ(InferOne({" 5", "6 "}).type, DataType::kInteger);
}

TEST(InferSchemaTest, DetectsIsoDateTimes) {
  const ColumnSchema column = InferOne({"2017-01-01 00:00:42", "2017-12-31 23:52:35"});
  EXPECT_EQ(column.type, DataType::kDateTime);
  EXPECT_EQ(column.datetime_format, "%Y-%m-%d %H:%M:%S");
  EXPECT_EQ(InferOne({"2017-01-01", "2018-02-03"}).datetime_format, "%Y-%m-%d");
  EXPECT_EQ(InferOne({"2017-01", "2018-12"}).datetime_format, "%Y-%m");
  EXPECT_EQ(InferOne({"14:07", "23:59"}).datetime_format, "%H:%M");
  const ColumnSchema padded = InferOne({" 2017-01-01", "2018-02-03\t"});  // blanks are ignored
  EXPECT_EQ(padded.datetime_format, "%Y-%m-%d");
  EXPECT_EQ(padded.stats.failed_count, 0u);
}

TEST(InferSchemaTest, DayMonthOrderIsSettledByTheValues) {
  EXPECT_EQ(InferOne({"01/02/2017", "02/03/2017"}).datetime_format, "%m/%d/%Y");
  EXPECT_EQ(InferOne({"01/02/2017", "13/02/2017"}).datetime_format, "%d/%m/%Y");
  EXPECT_EQ(InferOne({"1/5/2017", "12/25/2017"}).datetime_format, "%-m/%-d/%Y");
  EXPECT_EQ(InferOne({"25.12.2017", "01.01.2018"}).datetime_format, "%d.%m.%Y");
}

TEST(InferSchemaTest, NarrowsFractionDigitsAndConstantOffsets) {
  EXPECT_EQ(InferOne({"2017-01-01 00:00:00.123", "2017-01-01 00:00:01.500"}).datetime_format,
            "%Y-%m-%d %H:%M:%S.%3f");
  EXPECT_EQ(InferOne({"2017-01-01 00:00:00.123456", "2017-01-01 00:00:01.5"}).datetime_format,
            "%Y-%m-%d %H:%M:%S.%f");
  EXPECT_EQ(InferOne({"2017-01-01T00:00:00+02:00", "2017-06-01T10:00:00+02:00"}).datetime_format,
            "%Y-%m-%dT%H:%M:%S+02:00");
  EXPECT_EQ(InferOne({"2017-01-01T00:00:00+02:00", "2017-06-01T10:00:00Z"}).datetime_format,
            "%Y-%m-%dT%H:%M:%S%z");
}

TEST(InferSchemaTest, MixedDateShapesAreStrings) {
  EXPECT_EQ(InferOne({"2017-01-01", "2017-01-01 10:00:00"}).type, DataType::kString);
}

TEST(InferSchemaTest, ToleratesAFewMisfitsAndListsThem) {
  // 2,000 integers and one "unknown" at row 700 (line 702): within 0.1% of 2,001 cells.
  std::vector<std::string> cells =
      Cells(2000, [](std::size_t i) { return std::to_string(i % 50); });
  cells.insert(cells.begin() + 700, "unknown");
  const ColumnSchema column = InferOne(cells);
  EXPECT_EQ(column.type, DataType::kInteger);
  EXPECT_EQ(column.stats.failed_count, 1u);
  EXPECT_EQ(column.stats.failed_distinct, 1u);
  ASSERT_EQ(column.stats.failed_values.size(), 1u);
  EXPECT_EQ(column.stats.failed_values[0].text, "unknown");
  EXPECT_EQ(column.stats.failed_values[0].count, 1u);
  EXPECT_EQ(column.stats.failed_values[0].first_line, 702u);
  EXPECT_FALSE(column.categorical);  // 50 integers; the misfit does not count

  // Three misfits among 1,003 cells exceed floor(0.001 * 1003) = 1.
  std::vector<std::string> more = Cells(1000, [](std::size_t i) { return std::to_string(i); });
  more.insert(more.end(), {"unknown", "n/a", "unknown"});
  EXPECT_EQ(InferOne(more).type, DataType::kString);
  InferOptions lenient;
  lenient.max_failed_fraction = 0.01;
  EXPECT_EQ(InferOne(more, lenient).type, DataType::kInteger);
  lenient.max_failed_distinct = 1;
  EXPECT_EQ(InferOne(more, lenient).type, DataType::kString);  // two distinct misfits
}

TEST(InferSchemaTest, FewerFailuresWinBetweenIntegerAndFloat) {
  std::vector<std::string> cells = Cells(3000, [](std::size_t i) { return std::to_string(i); });
  cells.push_back("3.5");
  EXPECT_EQ(InferOne(cells).type, DataType::kFloat);  // every value is a number
  cells.push_back("x");
  const ColumnSchema column = InferOne(cells);  // Integer: 2 misfits, Float: 1
  EXPECT_EQ(column.type, DataType::kFloat);
  EXPECT_EQ(column.decimals, 0);  // one "3.5" among 3,000 integers does not set the precision
  ASSERT_EQ(column.stats.failed_values.size(), 1u);
  EXPECT_EQ(column.stats.failed_values[0].text, "x");
}

TEST(InferSchemaTest, DateTimeWithAMisfit) {
  std::vector<std::string> cells = Cells(2000, [](std::size_t i) {
    return "2017-03-" + std::string(i % 28 < 9 ? "0" : "") + std::to_string(i % 28 + 1);
  });
  cells.push_back("soon");
  const ColumnSchema column = InferOne(cells);
  EXPECT_EQ(column.type, DataType::kDateTime);
  EXPECT_EQ(column.datetime_format, "%Y-%m-%d");
  EXPECT_EQ(column.stats.failed_count, 1u);
  EXPECT_EQ(column.stats.failed_values.at(0).first_line, 2002u);
}

TEST(InferSchemaTest, CategoricalThreshold) {
  const auto cells = Cells(42, [](std::size_t i) { return "v" + std::to_string(i % 21); });
  EXPECT_FALSE(InferOne(cells).categorical);  // 21 > 20
  InferOptions options;
  options.categorical_threshold = 21;
  EXPECT_TRUE(InferOne(cells, options).categorical);
  const Schema schema = InferSchema(MakeRawTable({{"x", cells}}), options);
  EXPECT_EQ(schema.categorical_threshold, 21);
  EXPECT_TRUE(InferOne(Repeat({"same"}, 100)).categorical);  // constant column
}

TEST(InferSchemaTest, UniqueStringsAndIntegersAreIdentifiers) {
  const auto ids = Cells(25, [](std::size_t i) {
    return "A-0" + std::string(i + 1 < 10 ? "0" : "") + std::to_string(i + 1);
  });
  const ColumnSchema column = InferOne(ids);
  EXPECT_EQ(column.type, DataType::kString);
  EXPECT_EQ(column.role, ColumnRole::kIdentifier);
  EXPECT_FALSE(column.categorical);
  EXPECT_EQ(column.id_pattern, "A-###");  // 25 values: too few for literal characters

  const ColumnSchema numbers =
      InferOne(Cells(30, [](std::size_t i) { return std::to_string(1000 + i * 7); }));
  EXPECT_EQ(numbers.type, DataType::kInteger);
  EXPECT_EQ(numbers.role, ColumnRole::kIdentifier);
  EXPECT_EQ(numbers.id_pattern, "####");  // a counter's leading digit is never a literal
}

TEST(InferSchemaTest, IdentifierNeedsMoreThan20RowsNoMissingAndNoFloats) {
  const auto twenty = Cells(20, [](std::size_t i) { return "id" + std::to_string(i); });
  EXPECT_EQ(InferOne(twenty).role, ColumnRole::kAttribute);
  auto with_missing = Cells(30, [](std::size_t i) { return "id" + std::to_string(i); });
  with_missing[3] = "";
  EXPECT_EQ(InferOne(with_missing).role, ColumnRole::kAttribute);
  const auto floats = Cells(30, [](std::size_t i) { return std::to_string(i) + ".5"; });
  EXPECT_EQ(InferOne(floats).role, ColumnRole::kAttribute);
  auto repeated = Cells(30, [](std::size_t i) { return "id" + std::to_string(i); });
  repeated[29] = "id0";
  EXPECT_EQ(InferOne(repeated).role, ColumnRole::kAttribute);
}

TEST(InferSchemaTest, EmptyColumnIsIgnoredString) {
  const ColumnSchema column = InferOne({"", "", ""});
  EXPECT_EQ(column.type, DataType::kString);
  EXPECT_EQ(column.role, ColumnRole::kIgnore);
  EXPECT_FALSE(column.categorical);
  EXPECT_EQ(column.stats.rows, 3u);
  EXPECT_EQ(column.stats.missing, 3u);
  EXPECT_EQ(column.stats.distinct, 0u);
}

TEST(InferSchemaTest, SampleValuesAreTheMostFrequentFirstAppearanceBreaksTies) {
  std::vector<std::string> cells = {"a", "b", "c", "b", "d", "e", "f", "g", "h", "i", "j", "c"};
  const ColumnSchema column = InferOne(cells);
  EXPECT_EQ(column.stats.sample_values,
            (std::vector<std::string>{"b", "c", "a", "d", "e", "f", "g", "h"}));
}

TEST(InferSchemaTest, TakesTheDelimiterFromTheDialect) {
  RawTable table = MakeRawTable({{"a", {"1"}}, {"b", {"x"}}});
  table.dialect.delimiter = ';';
  const Schema schema = InferSchema(table, {});
  EXPECT_EQ(schema.delimiter, ';');
  ASSERT_EQ(schema.columns.size(), 2u);
  EXPECT_EQ(schema.columns[1].name, "b");
}

TEST(ComputeColumnStatsTest, RecomputesFailuresForAUserChosenType) {
  const RawTable table = MakeRawTable({{"x", {"a", "1", "2", "a", "b", ""}}});
  ColumnSchema column = InferSchema(table, {}).columns[0];
  EXPECT_EQ(column.type, DataType::kString);
  EXPECT_EQ(column.stats.failed_count, 0u);
  column.type = DataType::kInteger;
  const ColumnStats stats = ComputeColumnStats(table, 0, column);
  EXPECT_EQ(stats.rows, 6u);
  EXPECT_EQ(stats.missing, 1u);
  EXPECT_EQ(stats.distinct, 4u);
  EXPECT_EQ(stats.failed_count, 3u);
  EXPECT_EQ(stats.failed_distinct, 2u);
  ASSERT_EQ(stats.failed_values.size(), 2u);
  EXPECT_EQ(stats.failed_values[0].text, "a");
  EXPECT_EQ(stats.failed_values[0].count, 2u);
  EXPECT_EQ(stats.failed_values[0].first_line, 2u);
  EXPECT_EQ(stats.failed_values[1].text, "b");
  EXPECT_EQ(stats.failed_values[1].first_line, 6u);
}

TEST(ComputeColumnStatsTest, ListsAtMostTwentyFailedValuesMostFrequentFirst) {
  std::vector<std::string> cells;
  for (int v = 0; v < 30; ++v) {
    for (int k = 0; k <= v % 3; ++k) cells.push_back("bad" + std::to_string(v));
  }
  const RawTable table = MakeRawTable({{"x", cells}});
  ColumnSchema column;
  column.type = DataType::kFloat;
  const ColumnStats stats = ComputeColumnStats(table, 0, column);
  EXPECT_EQ(stats.failed_distinct, 30u);
  EXPECT_EQ(stats.failed_count, cells.size());
  ASSERT_EQ(stats.failed_values.size(), 20u);
  EXPECT_EQ(stats.failed_values[0].text, "bad2");   // count 3, first of its count
  EXPECT_EQ(stats.failed_values[9].text, "bad29");  // the tenth value with count 3
  EXPECT_EQ(stats.failed_values[10].text, "bad1");  // then count 2
  EXPECT_EQ(stats.failed_values[10].count, 2u);
}

TEST(DetectDateTimeFormatTest, ForcedDetectionAcceptsManyFailures) {
  const RawColumn raw = MakeRawColumn("x", {"2017-01-01", "junk", "more junk", "2018-05-06"});
  EXPECT_FALSE(DetectDateTimeFormat(raw, InferOptions{}));
  InferOptions any;
  any.max_failed_fraction = 1.0;
  any.max_failed_distinct = 1000;
  EXPECT_EQ(DetectDateTimeFormat(raw, any), "%Y-%m-%d");
  EXPECT_FALSE(DetectDateTimeFormat(MakeRawColumn("x", {"junk"}), any));
}

std::vector<std::string> Numbered(const char* format, int first, int last) {
  std::vector<std::string> out;
  char buffer[64];
  for (int i = first; i <= last; ++i) {
    std::snprintf(buffer, sizeof buffer, format, i);
    out.emplace_back(buffer);
  }
  return out;
}

// A release carries the pattern: it may hold a format many records share, never a fact about a
// few of them (an audit found the first record's name copied into every synthetic one).
TEST(InferIdPatternTest, LiteralsOnlyWhereManyValuesAgree) {
  // 120 values share the letters "PR": a format. Digits are never literals (the "17-000" of
  // 17-000000 ... 17-000119 would tell how many there are).
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("PR-%04d", 0, 119))), "\\P\\R-####");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("17-%06d", 0, 119))), "##-######");
  // 50 values: a shape, but too few for literals.
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("PR-%04d", 0, 49))), "AA-####");
  // A counter 100..1950: "####" (951 values) beats "###" (900); its leading "1" is not kept.
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("%d", 100, 1950))), "####");
  // Letters and punctuation: classes and literal separators; '#' and '\' escaped.
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("Ab-%02d", 10, 29))), "Aa-##");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("#%d", 0, 9))), "\\##");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("a\\b%d", 0, 9))), "a\\\\a#");
  // Non-ASCII characters are the class 'a', never literal bytes, even when all values share them.
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", Numbered("\u00d6x%03d", 0, 149))), "a\\x###");
}

TEST(InferIdPatternTest, NoCommonShapeGivesAGenericPattern) {
  // Names: every shape is held by one or two values; the first record's shape must not leak.
  EXPECT_EQ(InferIdPattern(MakeRawColumn(
                "x", {"Zo\u00eb-\u00c5ngstr\u00f6m \u00d6degaard", "Ann Lee", "Bob Stone",
                      "Cy Young", "Di Hart"})),
            "Aaaaaaaaaa");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", {"17", "4242", "9"})), "##########");
  // Ties between common shapes go to the smallest shape, not to the first value.
  std::vector<std::string> tied = Numbered("b%02d", 10, 19);
  for (const std::string& v : Numbered("%03d", 100, 109)) tied.push_back(v);
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", tied)), "###");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", {""}, "-")), "");
  EXPECT_EQ(InferIdPattern(MakeRawColumn("x", {})), "");
}

}  // namespace
}  // namespace deniable
