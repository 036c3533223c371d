// SPDX-License-Identifier: Apache-2.0
// Floats keep the input's precision: the decimals a column carries are count-weighted, so one
// odd value (10 decimals, or written with an exponent as R writes 100000 as "1e+05") does not
// make every synthetic value print with 15 digits. Fixture: tests/data/schema/
// income_r_export.csv (incomes with cents written the way R's write.csv writes doubles).
#include <gtest/gtest.h>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/typed_values.h"
#include "tests/engine/schema/raw_table_builder.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::MakeRawColumn;

int Decimals(const std::vector<std::string>& cells) {
  return InferDecimals(MakeRawColumn("x", cells));
}

TEST(NumberTextTest, ExponentAndSignificantDigits) {
  NumberText info = ClassifyNumberText("1e+05");
  EXPECT_EQ(info.kind, NumberText::Kind::kDecimal);
  EXPECT_EQ(info.exponent_value, 5);
  EXPECT_EQ(info.significant_digits, 1);
  EXPECT_EQ(info.PlainDecimals(), 0);
  EXPECT_TRUE(info.exact_integer);  // 100000: an Integer column reads it
  info = ClassifyNumberText("-2.50E-3");
  EXPECT_EQ(info.exponent_value, -3);
  EXPECT_EQ(info.fraction_digits, 2);
  EXPECT_EQ(info.significant_digits, 3);
  EXPECT_EQ(info.PlainDecimals(), 5);  // -0.00250
  EXPECT_FALSE(info.exact_integer);
  EXPECT_EQ(ClassifyNumberText("0.00120").significant_digits, 3);
  EXPECT_EQ(ClassifyNumberText("100").significant_digits, 3);
  EXPECT_EQ(ClassifyNumberText("0").significant_digits, 0);
  EXPECT_EQ(ClassifyNumberText("4.50").PlainDecimals(), 2);  // written zeros are precision
  EXPECT_EQ(ClassifyNumberText("1.25e1").PlainDecimals(), 1);
  EXPECT_FALSE(ClassifyNumberText("1e20").exact_integer);  // beyond 2^53
  EXPECT_EQ(ClassifyNumberText("1e99999999999").kind, NumberText::Kind::kNotNumber);
}

TEST(ValueDecimalsTest, BinaryRoundingArtefactsCountTheirShortDecimals) {
  EXPECT_EQ(ValueDecimals(ClassifyNumberText("0.30000000000000004")), 1);
  EXPECT_EQ(ValueDecimals(ClassifyNumberText("12.340000000000002")), 2);
  EXPECT_EQ(ValueDecimals(ClassifyNumberText("0.92248062015503")), 14);  // 14 digits: kept
  EXPECT_EQ(ValueDecimals(ClassifyNumberText("1.5e-20")), 15);            // capped
  EXPECT_EQ(ValueDecimals(ClassifyNumberText("abc")), 0);
}

TEST(InferDecimalsTest, OneOddValueDoesNotSetThePrecision) {
  std::vector<std::string> cells = Cells(99, [](std::size_t i) {
    return std::to_string(i) + "." + std::to_string(10 + i % 90);
  });
  EXPECT_EQ(Decimals(cells), 2);
  cells.push_back("3.1415926535");  // 1 of 100 cells: within the 1% allowed
  EXPECT_EQ(Decimals(cells), 2);
  cells.push_back("2.7182818284");  // 2 of 101: beyond 1% (1 cell)
  EXPECT_EQ(Decimals(cells), 10);
}

TEST(InferDecimalsTest, ExponentValuesContributeTheirPlainDecimals) {
  std::vector<std::string> cells = Cells(50, [](std::size_t i) { return std::to_string(i) + ".25"; });
  cells.insert(cells.end(), {"1e+05", "2e+05", "1.5e+05"});  // R's 100000, 200000, 150000
  EXPECT_EQ(Decimals(cells), 2);
  EXPECT_EQ(Decimals({"2.5e-3", "1.25e-2", "0.5", "0.75"}), 4);
}

TEST(InferDecimalsTest, CountsAreWeightedByCells) {
  // 5 distinct texts, but the 3-decimal value holds 30 of 130 cells: it is not an outlier.
  std::vector<std::string> cells;
  for (int k = 0; k < 25; ++k) cells.insert(cells.end(), {"1.5", "2.5", "3.5", "4.5"});
  for (int k = 0; k < 30; ++k) cells.push_back("0.125");
  EXPECT_EQ(Decimals(cells), 3);
  // The same texts, the 3-decimal one held by a single cell of 101.
  std::vector<std::string> rare(cells.begin(), cells.begin() + 100);
  rare.push_back("0.125");
  EXPECT_EQ(Decimals(rare), 1);
}

TEST(InferDecimalsTest, SmallColumnsAllowOneOutlierFromTenCells) {
  std::vector<std::string> cells = Cells(9, [](std::size_t i) { return std::to_string(i) + ".5"; });
  cells.push_back("0.123");  // 10 cells: one outlier allowed
  EXPECT_EQ(Decimals(cells), 1);
  cells.pop_back();
  cells.pop_back();
  cells.push_back("0.123");  // 9 cells: none allowed
  EXPECT_EQ(Decimals(cells), 3);
}

TEST(InferDecimalsTest, RExportedIncomeFixtureKeepsItsCents) {
  // The tester's case: an income column with 2 decimals, three values R wrote with an exponent
  // and one with 10 decimals. It used to get decimals -1 (any exponent), so synthetic incomes
  // were written with up to 17 significant digits.
  NullProgress progress;
  auto table = ReadCsv(test_support::TestDataPath("schema/income_r_export.csv"), CsvReadOptions{},
                       progress);
  ASSERT_TRUE(table.has_value()) << table.error().message;
  const Schema schema = InferSchema(*table, InferOptions{});
  const ColumnSchema& income = schema.columns.at(1);
  ASSERT_EQ(income.name, "income");
  EXPECT_EQ(income.type, DataType::kFloat);
  EXPECT_EQ(income.decimals, 2);
  EXPECT_EQ(income.stats.failed_count, 0u);
  // A value a model draws uniformly inside a bin is written with the input's precision, and
  // every value of the input reads back.
  std::string out;
  FormatNumericCell(52314.123456789012, income, out);
  EXPECT_EQ(out, "52314.12");
  for (const std::string& text : table->columns[1].dictionary) {
    EXPECT_TRUE(ParseNumericCell(text, income).has_value()) << text;
  }
}

TEST(InferDecimalsTest, IntegersWrittenWithAnExponentStayAnIntegerColumn) {
  std::vector<std::string> cells = Cells(40, [](std::size_t i) { return std::to_string(1000 * i); });
  cells.push_back("1e+05");
  const ColumnSchema column = InferSchema(test_support::MakeRawTable({{"x", cells}}), {}).columns[0];
  EXPECT_EQ(column.type, DataType::kInteger);
  EXPECT_EQ(column.stats.failed_count, 0u);
  std::string out;
  FormatNumericCell(*ParseNumericCell("1e+05", column), column, out);
  EXPECT_EQ(out, "100000");
}

}  // namespace
}  // namespace deniable
