// SPDX-License-Identifier: Apache-2.0
// Two-digit years (%y) read into a declared 100-year window, "two_digit_year_start": parsing
// and formatting agree, inference moves the window when the POSIX rule would put dates in the
// future (a date of birth "4/18/47" is 1947, not 2047), and the schema JSON carries it.
#include <gtest/gtest.h>

#include "engine/schema/column_review.h"
#include "engine/schema/datetime.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "engine/schema/typed_values.h"
#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using test_support::Cells;

constexpr std::int64_t kToday2026 = 20596;  // 2026-05-23 (Python: date(2026,5,23) - date(1970,1,1))

double Date(int year, int month, int day) {
  return static_cast<double>(DaysFromCivil(year, month, day)) * 86400.0;
}

TEST(TwoDigitYearTest, TheWindowDecidesTheCentury) {
  EXPECT_EQ(ParseDateTime("4/18/47", "%-m/%-d/%y"), Date(2047, 4, 18));  // POSIX: 00-68 -> 20xx
  EXPECT_EQ(ParseDateTime("4/18/47", "%-m/%-d/%y", nullptr, 1930), Date(1947, 4, 18));
  EXPECT_EQ(ParseDateTime("4/18/29", "%-m/%-d/%y", nullptr, 1930), Date(2029, 4, 18));
  EXPECT_EQ(ParseDateTime("4/18/30", "%-m/%-d/%y", nullptr, 1930), Date(1930, 4, 18));
  EXPECT_EQ(ParseDateTime("01/01/00", "%m/%d/%y", nullptr, 1900), Date(1900, 1, 1));
  EXPECT_EQ(ParseDateTime("31/12/99", "%d/%m/%y", nullptr, 1900), Date(1999, 12, 31));
  EXPECT_EQ(ParseDateTime("29.02.00", "%d.%m.%y", nullptr, 2000), Date(2000, 2, 29));
  EXPECT_FALSE(ParseDateTime("29.02.00", "%d.%m.%y", nullptr, 1900));  // 1900 is no leap year
  EXPECT_EQ(ParseDateTime("05-Mar-17", "%d-%b-%y", nullptr, 1927), Date(2017, 3, 5));
  // The default is the POSIX window, for the parser and for a column.
  EXPECT_EQ(ColumnSchema{}.two_digit_year_start, kPosixTwoDigitYearStart);
  EXPECT_EQ(ParseDateTime("01/01/69", "%m/%d/%y"), Date(1969, 1, 1));
  EXPECT_EQ(ParseDateTime("12/31/68", "%m/%d/%y"), Date(2068, 12, 31));
}

TEST(TwoDigitYearTest, ParseThenFormatRoundTripsForEveryWindowAndYear) {
  for (int start : {0, 1900, 1927, 1930, 1969, 2000, 9900}) {
    for (int year = start; year <= start + 99; ++year) {
      const double seconds = Date(year, 7, 4);
      std::string text;
      FormatDateTime(seconds, "%m/%d/%y", text);
      const auto parsed = ParseDateTime(text, "%m/%d/%y", nullptr, start);
      ASSERT_TRUE(parsed.has_value()) << text;
      EXPECT_EQ(*parsed, seconds) << "window " << start << ", year " << year << ": " << text;
    }
  }
}

TEST(TwoDigitYearTest, ColumnParsingAndFormattingUseTheColumnsWindow) {
  ColumnSchema dob;
  dob.name = "dob";
  dob.type = DataType::kDateTime;
  dob.datetime_format = "%-m/%-d/%y";
  dob.two_digit_year_start = 1930;
  const auto value = ParseNumericCell("4/18/47", dob);
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, Date(1947, 4, 18));  // 1947 stays 1947
  std::string out;
  FormatNumericCell(*value, dob, out);
  EXPECT_EQ(out, "4/18/47");
}

TEST(TwoDigitYearTest, FormatRangeIsTheWindow) {
  const auto range = DateTimeFormatRange("%m/%d/%y", 1930);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->lo, Date(1930, 1, 1));
  EXPECT_EQ(range->hi, Date(2030, 1, 1));
  EXPECT_EQ(DateTimeFormatRange("%Y-%m-%d")->hi, Date(10000, 1, 1));
  EXPECT_EQ(DateTimeFormatRange("%H:%M")->hi, 86400.0);
  EXPECT_EQ(DateTimeFormatRange("%d %H:%M")->hi, Date(1970, 2, 1));
  EXPECT_FALSE(DateTimeFormatRange("%q").has_value());
  EXPECT_TRUE(HasTwoDigitYear("%d-%b-%y"));
  EXPECT_FALSE(HasTwoDigitYear("%Y-%m-%d"));
  EXPECT_FALSE(HasTwoDigitYear("%%y"));  // a literal "%y"
}

TEST(TwoDigitYearTest, InferenceProposesAWindowEndingThisYearWhenPosixPutsDatesInTheFuture) {
  // Dates of birth 1935-1998 written m/d/yy: POSIX reads 35-68 as 2035-2068.
  const RawTable table = test_support::MakeRawTable(
      {{"dob", Cells(64, [](std::size_t i) {
          return std::to_string(1 + i % 12) + "/" + std::to_string(1 + i % 28) + "/" +
                 std::to_string(35 + i);
        })}});
  InferOptions options;
  options.today_days = kToday2026;
  const ColumnSchema column = InferSchema(table, options).columns[0];
  ASSERT_EQ(column.type, DataType::kDateTime);
  EXPECT_EQ(column.datetime_format, "%-m/%-d/%y");
  EXPECT_EQ(column.two_digit_year_start, 1927);  // 1927-2026
  EXPECT_EQ(CellsAfterToday(table.columns[0], column.datetime_format, 1969, kToday2026), 34u);
  EXPECT_EQ(CellsAfterToday(table.columns[0], column.datetime_format, 1927, kToday2026), 0u);
  // The review says so.
  ReviewOptions review_options;
  review_options.today_days = kToday2026;
  const ColumnReview review = ReviewColumn(column, table.columns[0], review_options);
  ASSERT_EQ(review.notes.size(), 1u);
  EXPECT_EQ(review.notes[0],
            "Two-digit years (%y) are read in 1927-2026: with the POSIX rule (1969-2068) 34 "
            "dates would fall after today. Set two_digit_year_start if the dates lie in another "
            "century.");
  EXPECT_TRUE(review.warnings.empty());
}

TEST(TwoDigitYearTest, InferenceKeepsPosixWhenNoDateIsInTheFuture) {
  const RawTable table = test_support::MakeRawTable(
      {{"visit", Cells(30, [](std::size_t i) { return "03/05/" + std::to_string(10 + i); })}});
  InferOptions options;
  options.today_days = kToday2026;  // 2010..2039 under POSIX: 2027.. are in the future
  EXPECT_EQ(InferSchema(table, options).columns[0].two_digit_year_start, 1927);
  options.today_days = DaysFromCivil(2040, 1, 1);  // nothing after 2040-01-01
  EXPECT_EQ(InferSchema(table, options).columns[0].two_digit_year_start, 1969);
}

class TwoDigitYearJsonTest : public ::testing::Test {
 protected:
  RawTable table_ = test_support::MakeRawTable(
      {{"dob", Cells(30, [](std::size_t i) { return "04/18/" + std::to_string(40 + i); })},
       {"when", Cells(30, [](std::size_t i) {
          return "2017-01-" + std::string(i < 9 ? "0" : "") + std::to_string(i + 1);
        })}});
  Schema base_ = InferSchema(table_, {});
};

TEST_F(TwoDigitYearJsonTest, WrittenOnlyForFormatsWithTwoDigitYearsAndReadBack) {
  const nlohmann::json json = SchemaToJson(base_, false);
  EXPECT_TRUE(json["columns"][0].contains("two_digit_year_start"));
  EXPECT_FALSE(json["columns"][1].contains("two_digit_year_start"));
  auto changed = ApplySchemaJson(
      base_, nlohmann::json::parse(R"({"columns": [{"name": "dob", "two_digit_year_start": 1930,
                                       "public": {"min": "01/01/30", "max": "12/31/29"}}]})"),
      "s.json", &table_);
  ASSERT_TRUE(changed.has_value()) << changed.error().message;
  const ColumnSchema& dob = changed->columns[0];
  EXPECT_EQ(dob.two_digit_year_start, 1930);
  EXPECT_EQ(*dob.public_min, Date(1930, 1, 1));
  EXPECT_EQ(*dob.public_max, Date(2029, 12, 31));
  EXPECT_EQ(ParseNumericCell("04/18/47", dob), Date(1947, 4, 18));
  // Round trip through the JSON text: same schema.
  auto again = ApplySchemaJson(base_, SchemaToJson(*changed, false), "s.json", &table_);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(SchemaToJson(*again, false), SchemaToJson(*changed, false));
  EXPECT_NE(SchemaJsonText(*changed, false).find("\"two_digit_year_start\": 1930"),
            std::string::npos);
}

TEST_F(TwoDigitYearJsonTest, Errors) {
  const auto error = [this](const char* text) {
    auto result = ApplySchemaJson(base_, nlohmann::json::parse(text), "s.json", &table_);
    return result.has_value() ? std::string("(accepted)") : result.error().message;
  };
  EXPECT_EQ(error(R"({"columns": [{"name": "when", "two_digit_year_start": 1930}]})"),
            "s.json: columns[0].two_digit_year_start: only for DateTime columns whose "
            "datetime_format has %y (column 'when' is written '%Y-%m-%d')");
  EXPECT_EQ(error(R"({"columns": [{"name": "dob", "two_digit_year_start": 9901}]})"),
            "s.json: columns[0].two_digit_year_start: must be between 0 and 9900 (got 9901)");
  EXPECT_EQ(error(R"({"columns": [{"name": "dob", "two_digit_year_start": "1930"}]})"),
            "s.json: columns[0].two_digit_year_start: expected an integer (got string '1930')");
  // A window moved away from declared bounds would read them back a century off.
  auto bounded = ApplySchemaJson(
      base_, nlohmann::json::parse(R"({"columns": [{"name": "dob", "two_digit_year_start": 1930,
                                       "public": {"min": "01/01/30"}}]})"),
      "s.json", &table_);
  ASSERT_TRUE(bounded.has_value()) << bounded.error().message;
  auto moved = ApplySchemaJson(
      *bounded, nlohmann::json::parse(R"({"columns": [{"name": "dob", "two_digit_year_start": 1950}]})"),
      "s.json", &table_);
  ASSERT_FALSE(moved.has_value());
  EXPECT_EQ(moved.error().message,
            "s.json: columns[0].public.min: the bound (1930-01-01) lies outside the "
            "two-digit-year window 1950-2049 of column 'dob'; give the bound again or move the "
            "window");
}

TEST_F(TwoDigitYearJsonTest, ChangingToATwoDigitFormatInfersTheWindowFromTheData) {
  // Make the date column a %y column by hand: the window is inferred unless given.
  const RawTable table = test_support::MakeRawTable(
      {{"d", Cells(30, [](std::size_t i) { return "18.04." + std::to_string(40 + i); })}});
  Schema base = InferSchema(table, {});
  base.columns[0].type = DataType::kString;
  base.columns[0].datetime_format.clear();
  auto given = ApplySchemaJson(
      base, nlohmann::json::parse(R"({"columns": [{"name": "d", "type": "DateTime",
                                      "datetime_format": "%d.%m.%y",
                                      "two_digit_year_start": 1900}]})"),
      "s.json", &table);
  ASSERT_TRUE(given.has_value()) << given.error().message;
  EXPECT_EQ(given->columns[0].two_digit_year_start, 1900);
  auto inferred = ApplySchemaJson(
      base, nlohmann::json::parse(R"({"columns": [{"name": "d", "type": "DateTime",
                                      "datetime_format": "%d.%m.%y"}]})"),
      "s.json", &table);
  ASSERT_TRUE(inferred.has_value()) << inferred.error().message;
  // 40..68 read by POSIX as 2040..2068 lie after today (until 2040): the window ends this year.
  EXPECT_EQ(inferred->columns[0].two_digit_year_start,
            static_cast<int>(YearOfDays(TodayDays())) - 99);
}

}  // namespace
}  // namespace deniable
