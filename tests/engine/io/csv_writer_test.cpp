// SPDX-License-Identifier: Apache-2.0
// WriteCsv / WriteRawTable / AppendCsvField: quoting only when needed, exact bytes, options,
// refusals, cancellation.
#include "engine/io/csv_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/fake_progress.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::CellsOf;
using test_support::FileBytes;
using test_support::ParseOk;
using test_support::TempDir;

std::string Field(std::string_view value, const CsvWriteOptions& options = {}) {
  std::string line = "<";
  AppendCsvField(value, options, line);
  return line.substr(1);
}

TEST(CsvWriterTest, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(Field("plain"), "plain");
  EXPECT_EQ(Field("12.5"), "12.5");
  EXPECT_EQ(Field("in side"), "in side");
  EXPECT_EQ(Field("a,b"), "\"a,b\"");
  EXPECT_EQ(Field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(Field("\""), "\"\"\"\"");
  EXPECT_EQ(Field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(Field("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(Field(" lead"), "\" lead\"");
  EXPECT_EQ(Field("trail\t"), "\"trail\t\"");
  EXPECT_EQ(Field(""), "\"\"");
  EXPECT_EQ(Field("\xEF\xBB\xBFx"), "\"\xEF\xBB\xBFx\"");
  EXPECT_EQ(Field("Zoë 東京"), "Zoë 東京");
}

TEST(CsvWriterTest, QuotesValuesThatEqualMissingTokens) {
  for (const char* token : {"NA", "N/A", "null", "?", "NaN"}) {
    EXPECT_EQ(Field(token), "\"" + std::string(token) + "\"") << token;
  }
  EXPECT_EQ(Field("NAN"), "NAN");
  CsvWriteOptions options;
  options.missing_tokens = {"-"};
  EXPECT_EQ(Field("NA", options), "NA");
  EXPECT_EQ(Field("-", options), "\"-\"");
}

TEST(CsvWriterTest, QuotesForTheChosenDelimiterOnly) {
  CsvWriteOptions options;
  options.delimiter = ';';
  EXPECT_EQ(Field("3,5", options), "3,5");
  EXPECT_EQ(Field("a;b", options), "\"a;b\"");
  options.delimiter = '\t';
  EXPECT_EQ(Field("a\tb", options), "\"a\tb\"");
}

TEST(CsvWriterTest, QuoteAllStringsQuotesEveryNonNumber) {
  CsvWriteOptions options;
  options.quote_all_strings = true;
  EXPECT_EQ(Field("text", options), "\"text\"");
  for (const char* number : {"0", "-12", "+3.25", ".5", "7.", "1e-5", "-2.5E+10", "Inf", "-Inf"}) {
    EXPECT_EQ(Field(number, options), number) << number;
  }
  for (const char* text : {"1e", "e5", "1.2.3", "--1", "0x10", "1,5", "12 "}) {
    EXPECT_EQ(Field(text, options).front(), '"') << text;
  }
}

TEST(CsvWriterTest, WritesHeaderCellsAndMissingExactly) {
  const std::string path = TempDir() + "/out.csv";
  const std::vector<std::vector<const char*>> cells = {{"1", "a,b", nullptr},
                                                       {nullptr, "NA", "x\"y"}};
  NullProgress progress;
  const Status status = WriteCsv(
      path, {"id", "text", "note"}, cells.size(),
      [&](std::size_t row, std::size_t column, std::string& out) {
        if (cells[row][column] == nullptr) return false;
        out += cells[row][column];
        return true;
      },
      CsvWriteOptions{}, progress);
  ASSERT_TRUE(status.has_value()) << status.error().message;
  EXPECT_EQ(FileBytes(path), "id,text,note\n1,\"a,b\",\n,\"NA\",\"x\"\"y\"\n");
  EXPECT_EQ(CellsOf(ParseOk(FileBytes(path))),
            (Cells{{"1", "a,b", std::nullopt}, {std::nullopt, "NA", "x\"y"}}));
}

TEST(CsvWriterTest, HonoursDialectOptions) {
  const std::string path = TempDir() + "/out.csv";
  CsvDialect dialect;
  dialect.delimiter = ';';
  dialect.had_bom = true;
  dialect.crlf = true;
  dialect.quote_all_strings = true;
  NullProgress progress;
  const Status status = WriteCsv(
      path, {"n", "s"}, 2,
      [](std::size_t row, std::size_t column, std::string& out) {
        out += column == 0 ? std::to_string(row) + ".5" : "v;" + std::to_string(row);
        return true;
      },
      WriteOptionsFor(dialect), progress);
  ASSERT_TRUE(status.has_value()) << status.error().message;
  EXPECT_EQ(FileBytes(path), "\xEF\xBB\xBF\"n\";\"s\"\r\n0.5;\"v;0\"\r\n1.5;\"v;1\"\r\n");
  const RawTable table = ParseOk(FileBytes(path));
  EXPECT_EQ(table.dialect.delimiter, ';');
  EXPECT_TRUE(table.dialect.had_bom);
  EXPECT_TRUE(table.dialect.crlf);
  EXPECT_TRUE(table.dialect.quote_all_strings);
}

TEST(CsvWriterTest, MissingIsTheFirstTokenWhenEmptyIsNotOne) {
  const std::string path = TempDir() + "/out.csv";
  CsvWriteOptions options;
  options.missing_tokens = {"NA", "-"};
  NullProgress progress;
  ASSERT_TRUE(WriteCsv(
                  path, {"a", "b"}, 1,
                  // column 0 missing, column 1 an empty value
                  [](std::size_t, std::size_t column, std::string&) { return column != 0; },
                  options, progress)
                  .has_value());
  EXPECT_EQ(FileBytes(path), "a,b\nNA,\"\"\n");
  CsvReadOptions read_options;
  read_options.missing_tokens = options.missing_tokens;
  EXPECT_EQ(CellsOf(ParseOk(FileBytes(path), read_options)), (Cells{{std::nullopt, ""}}));
}

TEST(CsvWriterTest, RefusesHeadersItCouldNotReadBack) {
  const std::string path = TempDir() + "/out.csv";
  NullProgress progress;
  const auto none = [](std::size_t, std::size_t, std::string&) { return false; };
  const Status empty_name = WriteCsv(path, {"a", ""}, 0, none, CsvWriteOptions{}, progress);
  ASSERT_FALSE(empty_name.has_value());
  EXPECT_EQ(empty_name.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(empty_name.error().message, "column 2 has an empty name");
  const Status duplicate = WriteCsv(path, {"a", "b", "a"}, 0, none, CsvWriteOptions{}, progress);
  ASSERT_FALSE(duplicate.has_value());
  EXPECT_EQ(duplicate.error().message, "duplicate column name 'a' (column 3)");
  const Status no_columns = WriteCsv(path, {}, 0, none, CsvWriteOptions{}, progress);
  ASSERT_FALSE(no_columns.has_value());
  CsvWriteOptions bad_delimiter;
  bad_delimiter.delimiter = '\n';
  const Status delimiter = WriteCsv(path, {"a"}, 0, none, bad_delimiter, progress);
  ASSERT_FALSE(delimiter.has_value());
  EXPECT_EQ(delimiter.error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(CsvWriterTest, CancelledWriteLeavesNoFile) {
  const std::string path = TempDir() + "/out.csv";
  test_support::FakeProgress progress(/*cancel_after_reports=*/1);
  const Status status = WriteCsv(
      path, {"a"}, 100000,
      [](std::size_t row, std::size_t, std::string& out) {
        out += std::to_string(row);
        return true;
      },
      CsvWriteOptions{}, progress);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kCancelled);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(path).parent_path()));
}

TEST(CsvWriterTest, WriteRawTableQuotesEachDistinctTextAsNeeded) {
  const RawTable table = ParseOk("k,v\n\"a,b\",1\nNA,\"NA\"\n\"a,b\",\n");
  const std::string path = TempDir() + "/out.csv";
  NullProgress progress;
  ASSERT_TRUE(WriteRawTable(path, table, CsvWriteOptions{}, progress).has_value());
  EXPECT_EQ(FileBytes(path), "k,v\n\"a,b\",1\n,\"NA\"\n\"a,b\",\n");
}

TEST(CsvWriterTest, WriteRawTableRejectsInconsistentTables) {
  RawTable table = ParseOk("k,v\n1,2\n3,4\n");
  table.columns[1].codes[1] = 7;  // outside the dictionary
  const std::string path = TempDir() + "/out.csv";
  NullProgress progress;
  const Status status = WriteRawTable(path, table, CsvWriteOptions{}, progress);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().message, "column 'v' row 1 has code 7 outside its dictionary");
  table.columns[1].codes.pop_back();
  EXPECT_EQ(WriteRawTable(path, table, CsvWriteOptions{}, progress).error().message,
            "column 'v' has 1 rows, the table 2");
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace deniable
