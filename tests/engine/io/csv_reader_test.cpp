// SPDX-License-Identifier: Apache-2.0
// ReadCsv / ParseCsv on the valid fixtures in tests/data/csv and on inline texts: values,
// missing cells, dialect detection, line numbers, header rules, options.
#include "engine/io/csv_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::CellsOf;
using test_support::ExpectConsistent;
using test_support::NamesOf;
using test_support::ParseErrorOf;
using test_support::ParseOk;
using test_support::ReadOk;
using test_support::TestDataPath;

using Lines = std::vector<std::uint64_t>;

RawTable ReadFixture(const std::string& name, const CsvReadOptions& options = {}) {
  return ReadOk(TestDataPath("csv/" + name), options);
}

const std::vector<std::string> kBasicNames = {"id", "name", "score"};
const Cells kBasicCells = {{"1", "alice", "3.5"}, {"2", "bob", "4"}, {"3", "carol", "-1e3"}};
const Cells kEuroCells = {{"1", "alice", "3,5"}, {"2", "bob", "4"}, {"3", "carol", "-1e3"}};

struct DialectCase {
  std::string file;
  CsvDialect dialect;
  const Cells* cells;
};

class DialectFixtureTest : public testing::TestWithParam<DialectCase> {};

TEST_P(DialectFixtureTest, ReadsTheSameTableAndDetectsTheDialect) {
  const DialectCase& test = GetParam();
  const RawTable table = ReadFixture(test.file);
  EXPECT_EQ(NamesOf(table), kBasicNames);
  EXPECT_EQ(CellsOf(table), *test.cells);
  EXPECT_EQ(table.row_line, (Lines{2, 3, 4}));
  EXPECT_EQ(table.dialect.delimiter, test.dialect.delimiter);
  EXPECT_EQ(table.dialect.had_bom, test.dialect.had_bom);
  EXPECT_EQ(table.dialect.crlf, test.dialect.crlf);
  EXPECT_EQ(table.dialect.quote_all_strings, test.dialect.quote_all_strings);
  EXPECT_EQ(table.source, TestDataPath("csv/" + test.file));
  ExpectConsistent(table);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, DialectFixtureTest,
    testing::Values(
        DialectCase{"basic_unquoted.csv", {',', false, false, false}, &kBasicCells},
        DialectCase{"basic_quoted.csv", {',', false, false, true}, &kBasicCells},
        DialectCase{"bom_unquoted.csv", {',', true, false, false}, &kBasicCells},
        DialectCase{"bom_quoted.csv", {',', true, false, true}, &kBasicCells},
        DialectCase{"crlf_unquoted.csv", {',', false, true, false}, &kBasicCells},
        DialectCase{"crlf_quoted.csv", {',', false, true, true}, &kBasicCells},
        DialectCase{"semicolon_unquoted.csv", {';', false, false, false}, &kEuroCells},
        DialectCase{"semicolon_quoted.csv", {';', false, false, true}, &kEuroCells},
        DialectCase{"tab_unquoted.tsv", {'\t', false, false, false}, &kBasicCells},
        DialectCase{"tab_quoted.tsv", {'\t', false, false, true}, &kBasicCells},
        DialectCase{"pipe_unquoted.csv", {'|', false, false, false}, &kBasicCells},
        DialectCase{"pipe_quoted.csv", {'|', false, false, true}, &kBasicCells},
        DialectCase{"no_final_newline_unquoted.csv", {',', false, false, false}, &kBasicCells},
        DialectCase{"no_final_newline_quoted.csv", {',', false, false, true}, &kBasicCells}),
    [](const testing::TestParamInfo<DialectCase>& param) {
      std::string name = param.param.file.substr(0, param.param.file.find('.'));
      return name;
    });

TEST(CsvReaderTest, OneRowFiles) {
  for (const char* file : {"one_row_unquoted.csv", "one_row_quoted.csv"}) {
    const RawTable table = ReadFixture(file);
    EXPECT_EQ(NamesOf(table), kBasicNames) << file;
    EXPECT_EQ(CellsOf(table), (Cells{{"1", "alice", "3.5"}})) << file;
    EXPECT_EQ(table.row_line, (Lines{2})) << file;
  }
}

TEST(CsvReaderTest, UnquotedMissingTokensAreMissing) {
  const RawTable table = ReadFixture("missing_unquoted.csv");
  EXPECT_EQ(CellsOf(table), (Cells{{std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                    std::nullopt, std::nullopt, "x"},
                                   {"1", "2", "3", "4", "5", "6", "7"}}));
  for (std::size_t c = 0; c + 1 < table.num_columns(); ++c) {
    EXPECT_EQ(table.columns[c].missing_count, 1u);
  }
  EXPECT_EQ(table.columns[6].missing_count, 0u);
  ExpectConsistent(table);
}

TEST(CsvReaderTest, QuotedTokensAreValuesButQuotedEmptyIsMissing) {
  const RawTable table = ReadFixture("missing_quoted.csv");
  EXPECT_EQ(CellsOf(table),
            (Cells{{std::nullopt, "NA", "N/A", "null", "?", "NaN", "x"},
                   {std::nullopt, std::nullopt, std::nullopt, "1", "2", "3", "4"}}));
  EXPECT_EQ(table.columns[0].missing_count, 2u);
  EXPECT_EQ(table.columns[1].dictionary, (std::vector<std::string>{"NA"}));
  ExpectConsistent(table);
}

TEST(CsvReaderTest, CustomMissingTokensReplaceTheDefaults) {
  CsvReadOptions options;
  options.missing_tokens = {"-"};
  const RawTable table = ParseOk("a,b,c,d\n-,,\"\",NA\n", options);
  // "" is not a token any more: the empty field and "" are empty-string values.
  EXPECT_EQ(CellsOf(table), (Cells{{std::nullopt, "", "", "NA"}}));
  options.missing_tokens = {};
  EXPECT_EQ(CellsOf(ParseOk("a,b\n,-\n", options)), (Cells{{"", "-"}}));
}

TEST(CsvReaderTest, SingleColumnBlankLinesAreMissingRows) {
  const RawTable unquoted = ReadFixture("single_column_unquoted.csv");
  EXPECT_EQ(NamesOf(unquoted), (std::vector<std::string>{"value"}));
  EXPECT_EQ(CellsOf(unquoted), (Cells{{"a"}, {std::nullopt}, {"b"}}));
  EXPECT_EQ(unquoted.row_line, (Lines{2, 3, 4}));
  const RawTable quoted = ReadFixture("single_column_quoted.csv");
  EXPECT_EQ(CellsOf(quoted), (Cells{{"a"}, {std::nullopt}, {"b"}, {std::nullopt}}));
  EXPECT_EQ(quoted.row_line, (Lines{2, 3, 4, 5}));
}

TEST(CsvReaderTest, BlankLinesBetweenRecordsAreSkippedWithMoreThanOneColumn) {
  const RawTable table = ReadFixture("blank_lines.csv");
  EXPECT_EQ(NamesOf(table), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(CellsOf(table), (Cells{{"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(table.row_line, (Lines{4, 7}));
  // A line holding only spaces is not blank: it is a one-field row.
  EXPECT_NE(ParseErrorOf("a,b\n1,2\n  \n").find("test.csv:3:3: ragged row: 1 field"),
            std::string::npos);
}

TEST(CsvReaderTest, UnicodeTextIsKeptExactly) {
  const std::string long_text = [] {
    std::string text;
    for (int i = 0; i < 30; ++i) text += "naïve café ";
    return text.substr(0, text.size() - 1);
  }();
  for (const char* file : {"unicode_unquoted.csv", "unicode_quoted.csv"}) {
    const RawTable table = ReadFixture(file);
    EXPECT_EQ(NamesOf(table), (std::vector<std::string>{"city", "country", "note"})) << file;
    EXPECT_EQ(CellsOf(table), (Cells{{"Zoë", "Ελλάδα", "😀 ok"},
                                     {"東京", "日本", long_text},
                                     {"Zürich", "Schweiz", "ß∂ƒ©"}}))
        << file;
  }
}

TEST(CsvReaderTest, QuotedFieldsHoldDelimitersQuotesAndLineBreaks) {
  const RawTable table = ReadFixture("embedded.csv");
  EXPECT_EQ(CellsOf(table), (Cells{{"1", "a,b"},
                                   {"2", "say \"hi\""},
                                   {"3", "line1\nline2"},
                                   {"4", "crlf\r\ninside"},
                                   {"5", "lone\rcr"},
                                   {"6", "\""},
                                   {"7", " padded "}}));
  // Rows start on the line after the previous row's last line; a lone CR is not a line break.
  EXPECT_EQ(table.row_line, (Lines{2, 3, 4, 6, 8, 9, 10}));
  EXPECT_FALSE(table.dialect.crlf);
  ExpectConsistent(table);
}

TEST(CsvReaderTest, UnquotedHeaderNamesAreTrimmedQuotedOnesKept) {
  const RawTable table = ReadFixture("header_spaces.csv");
  EXPECT_EQ(NamesOf(table), (std::vector<std::string>{"id", "name", "score", " padded "}));
  // Values keep their whitespace.
  EXPECT_EQ(CellsOf(table), (Cells{{"1", " x ", "2", "3"}}));
  EXPECT_EQ(CellsOf(ParseOk("a,b\n x , y\t\n")), (Cells{{" x ", " y\t"}}));
}

TEST(CsvReaderTest, DetectsRWriteCsvQuoting) {
  const RawTable table = ReadFixture("r_style.csv");
  EXPECT_TRUE(table.dialect.quote_all_strings);
  EXPECT_EQ(CellsOf(table), (Cells{{"39", "State-gov", std::nullopt},
                                   {"50", std::nullopt, "NA"},
                                   {"-1.5e3", "x \"y\"", "z"}}));
  // One unquoted text field is enough to say the file is not written that way.
  EXPECT_FALSE(ParseOk("\"a\",\"b\"\n1,\"x\"\n2,y\n").dialect.quote_all_strings);
  // An unquoted header is not R's style either.
  EXPECT_FALSE(ParseOk("a,b\n1,\"x\"\n").dialect.quote_all_strings);
  // All-numeric data under a quoted header is (R quotes only the names there).
  EXPECT_TRUE(ParseOk("\"a\",\"b\"\n1,2.5\n,NA\n").dialect.quote_all_strings);
}

TEST(CsvReaderTest, DuplicateCellsShareOneDictionaryEntry) {
  const RawTable table = ParseOk("k,v\nx,1\ny,1\nx,2\nx,NA\n");
  const RawColumn& k = table.columns[0];
  EXPECT_EQ(k.dictionary, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(k.counts, (std::vector<std::uint64_t>{3, 1}));
  EXPECT_EQ(k.first_row, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(k.codes, (std::vector<std::uint32_t>{0, 1, 0, 0}));
  const RawColumn& v = table.columns[1];
  EXPECT_EQ(v.codes, (std::vector<std::uint32_t>{0, 0, 1, kMissingCode}));
  EXPECT_EQ(v.missing_count, 1u);
}

TEST(CsvReaderTest, LongAndShortKeysWithSharedPrefixesStayDistinct) {
  // Keys of <= 7 bytes are matched by one word, longer ones by prefix then bytes: exercise both
  // sides of that boundary with shared prefixes.
  const RawTable table = ParseOk(
      "k,n\nabcdefg,1\nabcdefgh,2\nabcdefghi,3\nabcdefg,4\nabcdefgh,5\nabcdefghX,6\n"
      "abcdefghi,7\nabcdefgh12345678x,8\nabcdefgh12345678y,9\nabcdefgh12345678x,10\n");
  EXPECT_EQ(table.columns[0].dictionary,
            (std::vector<std::string>{"abcdefg", "abcdefgh", "abcdefghi", "abcdefghX",
                                      "abcdefgh12345678x", "abcdefgh12345678y"}));
  EXPECT_EQ(table.columns[0].codes, (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 3, 2, 4, 5, 4}));
  ExpectConsistent(table);
}

TEST(CsvReaderTest, ManyDistinctValuesGrowTheDictionary) {
  std::string text = "id,group\n";
  for (int i = 0; i < 20000; ++i) {
    text += std::to_string(i * 7919 % 20000) + ",g" + std::to_string(i % 3) + "\n";
  }
  const RawTable table = ParseOk(text);
  ASSERT_EQ(table.num_rows(), 20000u);
  EXPECT_EQ(table.columns[0].distinct(), 20000u);  // 7919 is prime: a permutation
  EXPECT_EQ(table.columns[1].distinct(), 3u);
  EXPECT_EQ(table.columns[0].dictionary[1], "7919");
  ExpectConsistent(table);
}

TEST(CsvReaderTest, WideFiles) {
  // 20,000 columns: rows reach the column builders one at a time (batches are bounded in cells).
  for (const std::size_t columns : {std::size_t{300}, std::size_t{20000}}) {
    std::string text;
    for (std::size_t c = 0; c < columns; ++c) text += (c ? ",c" : "c") + std::to_string(c);
    text += "\n";
    for (int row = 0; row < 5; ++row) {
      for (std::size_t c = 0; c < columns; ++c) {
        text += (c ? "," : "") + std::to_string((c + static_cast<std::size_t>(row)) % 3);
      }
      text += "\n";
    }
    const RawTable table = ParseOk(text);
    ASSERT_EQ(table.num_columns(), columns);
    ASSERT_EQ(table.num_rows(), 5u);
    EXPECT_EQ(table.columns[columns - 1].name, "c" + std::to_string(columns - 1));
    EXPECT_EQ(CellsOf(table)[4][columns - 1], std::to_string((columns + 3) % 3));
    ExpectConsistent(table);
  }
}

TEST(CsvReaderTest, DelimiterOptionOverridesDetection) {
  CsvReadOptions options;
  options.delimiter = ';';
  EXPECT_EQ(NamesOf(ParseOk("a;b,c\n1;2,3\n", options)), (std::vector<std::string>{"a", "b,c"}));
  options.delimiter = ',';
  EXPECT_EQ(NamesOf(ParseOk("a;b,c\n1;2,3\n", options)), (std::vector<std::string>{"a;b", "c"}));
}

TEST(CsvReaderTest, RejectsUnusableDelimiterOption) {
  CsvReadOptions options;
  options.delimiter = '"';
  NullProgress progress;
  const Result<RawTable> table = ParseCsv("a,b\n1,2\n", "x.csv", options, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(table.error().message.find("got byte 34"), std::string::npos);
}

TEST(CsvReaderTest, MaxRowsStopsEarlyAndIgnoresLaterProblems) {
  CsvReadOptions options;
  options.max_rows = 2;
  const RawTable table = ParseOk("a,b\n1,2\n3,4\n5\n\"unterminated\n", options);
  EXPECT_EQ(CellsOf(table), (Cells{{"1", "2"}, {"3", "4"}}));
  options.max_rows = 100;
  EXPECT_EQ(ParseOk("a,b\n1,2\n3,4\n", options).num_rows(), 2u);
}

TEST(CsvReaderTest, ColumnsCountBytesOnTheirLine) {
  // "é" is two bytes: the stray quote is at byte offset 4 of line 2, column 5.
  EXPECT_EQ(ParseErrorOf("a,b\né,x\"y\n"),
            "test.csv:2:5: quote inside an unquoted field (quote the whole field and double the "
            "quotes inside it) (field 2)");
}

TEST(CsvReaderTest, ReportsTheFirstProblemInFileOrder) {
  // A bad byte before a stray quote in the same field wins.
  EXPECT_EQ(ParseErrorOf("a,b\n1,\xFF\"\n").rfind("test.csv:2:3: invalid UTF-8", 0), 0u);
  // A ragged row before a bad byte further down wins.
  EXPECT_EQ(ParseErrorOf("a,b\n1\n2,\xFF\n").rfind("test.csv:2:2: ragged row", 0), 0u);
}

TEST(CsvReaderTest, RaggedRowCountsAllItsFields) {
  EXPECT_EQ(ParseErrorOf("a,b\n1,2,3,\"x\ny\",5\n"),
            "test.csv:2:5: ragged row: 5 fields, but the header has 2 (field 3)");
  EXPECT_EQ(ParseErrorOf("a,b\n1,2,3,\"x\n"),
            "test.csv:2:5: ragged row: more than 2 fields, but the header has 2 (field 3)");
}

TEST(CsvReaderTest, EmptyFieldsAtLineEndsAndFileEnd) {
  EXPECT_EQ(CellsOf(ParseOk("a,b,c\n1,,\n,,3")),
            (Cells{{"1", std::nullopt, std::nullopt}, {std::nullopt, std::nullopt, "3"}}));
  EXPECT_EQ(CellsOf(ParseOk("a,b\n1,\"\"")), (Cells{{"1", std::nullopt}}));
}

}  // namespace
}  // namespace deniable
