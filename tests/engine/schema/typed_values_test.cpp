// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/typed_values.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using Kind = NumberText::Kind;

ColumnSchema Column(DataType type, int decimals = -1, std::string format = "") {
  ColumnSchema column;
  column.name = "x";
  column.type = type;
  column.decimals = decimals;
  column.datetime_format = std::move(format);
  return column;
}

std::string Format(double value, const ColumnSchema& column) {
  std::string out;
  FormatNumericCell(value, column, out);
  return out;
}

TEST(ClassifyNumberTextTest, Integers) {
  const NumberText info = ClassifyNumberText("42");
  EXPECT_EQ(info.kind, Kind::kInteger);
  EXPECT_EQ(info.value, 42.0);
  EXPECT_TRUE(info.exact_integer);
  EXPECT_FALSE(info.leading_zero);
  EXPECT_EQ(ClassifyNumberText("-7").value, -7.0);
  EXPECT_EQ(ClassifyNumberText("+5").value, 5.0);
  EXPECT_EQ(ClassifyNumberText(" 12\t").value, 12.0);
  EXPECT_FALSE(ClassifyNumberText("0").leading_zero);
  EXPECT_FALSE(ClassifyNumberText("-0").leading_zero);
}

TEST(ClassifyNumberTextTest, LeadingZerosMarkCodes) {
  EXPECT_TRUE(ClassifyNumberText("007").leading_zero);
  EXPECT_TRUE(ClassifyNumberText("-01").leading_zero);
  EXPECT_TRUE(ClassifyNumberText("00.5").leading_zero);
  EXPECT_FALSE(ClassifyNumberText("0.5").leading_zero);
  EXPECT_FALSE(ClassifyNumberText("-0.5").leading_zero);
  EXPECT_EQ(ClassifyNumberText("007").value, 7.0);
}

TEST(ClassifyNumberTextTest, IntegersBeyond2To53AreNotExact) {
  EXPECT_TRUE(ClassifyNumberText("9007199254740992").exact_integer);
  EXPECT_TRUE(ClassifyNumberText("-9007199254740992").exact_integer);
  EXPECT_FALSE(ClassifyNumberText("9007199254740993").exact_integer);
  const NumberText huge = ClassifyNumberText("123456789012345678901234");
  EXPECT_EQ(huge.kind, Kind::kInteger);
  EXPECT_FALSE(huge.exact_integer);
  EXPECT_EQ(huge.value, 123456789012345678901234.0);
}

TEST(ClassifyNumberTextTest, Decimals) {
  NumberText info = ClassifyNumberText("1.25");
  EXPECT_EQ(info.kind, Kind::kDecimal);
  EXPECT_EQ(info.value, 1.25);
  EXPECT_EQ(info.fraction_digits, 2);
  EXPECT_FALSE(info.exponent);
  info = ClassifyNumberText("-1.5E-3");
  EXPECT_EQ(info.kind, Kind::kDecimal);
  EXPECT_EQ(info.value, -0.0015);
  EXPECT_TRUE(info.exponent);
  EXPECT_EQ(ClassifyNumberText("1e5").value, 100000.0);
  EXPECT_EQ(ClassifyNumberText("5.").kind, Kind::kDecimal);
  EXPECT_EQ(ClassifyNumberText(".5").value, 0.5);
  EXPECT_EQ(ClassifyNumberText("-.5").value, -0.5);
}

TEST(ClassifyNumberTextTest, NotNumbers) {
  for (const char* text : {"", " ", "abc", "1,000", "1 000", "0x10", "inf", "-inf", "nan", "NaN",
                           "1e400", "--1", "+-1", "1e", "e5", ".", "-", "1.2.3", "12abc",
                           "1e5.5", "\xd9\xa1"}) {
    EXPECT_EQ(ClassifyNumberText(text).kind, Kind::kNotNumber) << text;
  }
}

TEST(ParseNumericCellTest, IntegerColumn) {
  const ColumnSchema column = Column(DataType::kInteger);
  EXPECT_EQ(ParseNumericCell("42", column), 42.0);
  EXPECT_EQ(ParseNumericCell(" -3 ", column), -3.0);
  EXPECT_EQ(ParseNumericCell("007", column), 7.0);  // the user chose Integer for a code column
  EXPECT_FALSE(ParseNumericCell("3.0", column));
  EXPECT_EQ(ParseNumericCell("1e3", column), 1000.0);     // an exponent leaving no decimals
  EXPECT_EQ(ParseNumericCell("1e+05", column), 100000.0);  // as R writes 100000
  EXPECT_EQ(ParseNumericCell("2.5E3", column), 2500.0);
  EXPECT_FALSE(ParseNumericCell("2.55e1", column));        // 25.5
  EXPECT_FALSE(ParseNumericCell("1e-3", column));
  EXPECT_FALSE(ParseNumericCell("1e16", column));          // beyond 2^53
  EXPECT_FALSE(ParseNumericCell("9007199254740993", column));
  EXPECT_FALSE(ParseNumericCell("x", column));
}

TEST(ParseNumericCellTest, FloatDateTimeAndStringColumns) {
  const ColumnSchema real = Column(DataType::kFloat);
  EXPECT_EQ(ParseNumericCell("1e-3", real), 0.001);
  EXPECT_EQ(ParseNumericCell("3", real), 3.0);
  EXPECT_EQ(ParseNumericCell("9007199254740993", real), 9007199254740992.0);
  EXPECT_FALSE(ParseNumericCell("3,5", real));
  const ColumnSchema when = Column(DataType::kDateTime, -1, "%Y-%m-%d");
  EXPECT_EQ(ParseNumericCell("1970-01-02", when), 86400.0);
  EXPECT_EQ(ParseNumericCell(" 1970-01-02 ", when), 86400.0);
  EXPECT_FALSE(ParseNumericCell("1970-02-30", when));
  EXPECT_FALSE(ParseNumericCell("42", Column(DataType::kString)));
}

TEST(NumericValuesTest, DictionaryAndRowValues) {
  const RawColumn raw = test_support::MakeRawColumn("x", {"3", "", "x", "1.5", "3", "1.5"});
  const ColumnSchema column = Column(DataType::kFloat);
  const std::vector<double> by_code = NumericDictionaryValues(raw, column);
  ASSERT_EQ(by_code.size(), 3u);  // "3", "x", "1.5"
  EXPECT_EQ(by_code[0], 3.0);
  EXPECT_TRUE(std::isnan(by_code[1]));
  EXPECT_EQ(by_code[2], 1.5);
  const std::vector<double> rows = NumericRowValues(raw, column);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0], 3.0);
  EXPECT_TRUE(std::isnan(rows[1]));  // missing
  EXPECT_TRUE(std::isnan(rows[2]));  // failed
  EXPECT_EQ(rows[3], 1.5);
  EXPECT_EQ(rows[4], 3.0);
  EXPECT_EQ(rows[5], 1.5);
  for (double value : NumericRowValues(raw, Column(DataType::kString))) {
    EXPECT_TRUE(std::isnan(value));
  }
}

TEST(FormatNumericCellTest, Integers) {
  const ColumnSchema column = Column(DataType::kInteger);
  EXPECT_EQ(Format(42, column), "42");
  EXPECT_EQ(Format(2.5, column), "3");
  EXPECT_EQ(Format(-2.5, column), "-3");
  EXPECT_EQ(Format(-0.4, column), "0");
  EXPECT_EQ(Format(1e20, column), "100000000000000000000");
  EXPECT_EQ(Format(NAN, column), "");
  EXPECT_EQ(Format(INFINITY, column), "");
}

TEST(FormatNumericCellTest, FloatsWithDecimalsOrShortest) {
  EXPECT_EQ(Format(3.14159, Column(DataType::kFloat, 2)), "3.14");
  EXPECT_EQ(Format(-0.001, Column(DataType::kFloat, 2)), "0.00");
  EXPECT_EQ(Format(2, Column(DataType::kFloat, 0)), "2");
  EXPECT_EQ(Format(44.98045, Column(DataType::kFloat, 8)), "44.98045000");
  const ColumnSchema shortest = Column(DataType::kFloat, -1);
  EXPECT_EQ(Format(0.1, shortest), "0.1");
  EXPECT_EQ(Format(44.96661711, shortest), "44.96661711");
  EXPECT_EQ(Format(1e20, shortest), "1e+20");
  EXPECT_EQ(Format(-0.0, shortest), "0");
  // Shortest output parses back to the same double.
  for (double value : {0.1, 1.0 / 3.0, -93.24645826, 1e-300, 123456789.125}) {
    EXPECT_EQ(ParseNumericCell(Format(value, shortest), shortest), value);
  }
}

TEST(FormatNumericCellTest, DateTimes) {
  const ColumnSchema column = Column(DataType::kDateTime, -1, "%Y-%m-%d %H:%M:%S");
  EXPECT_EQ(Format(1483228842, column), "2017-01-01 00:00:42");
  EXPECT_EQ(Format(NAN, column), "");
}

}  // namespace
}  // namespace deniable
