// SPDX-License-Identifier: Apache-2.0
// Read -> WriteRawTable -> read gives an identical table for every valid fixture; for files
// already written the way the writer writes, the bytes come back identical too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/io/csv_reader.h"
#include "engine/io/csv_writer.h"
#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::ExpectConsistent;
using test_support::ExpectSameTable;
using test_support::FileBytes;
using test_support::ParseOk;
using test_support::ReadOk;
using test_support::TempDir;
using test_support::TestDataPath;

const std::vector<std::string> kValidFixtures = {
    "basic_unquoted.csv",
    "basic_quoted.csv",
    "bom_unquoted.csv",
    "bom_quoted.csv",
    "crlf_unquoted.csv",
    "crlf_quoted.csv",
    "semicolon_unquoted.csv",
    "semicolon_quoted.csv",
    "tab_unquoted.tsv",
    "tab_quoted.tsv",
    "pipe_unquoted.csv",
    "pipe_quoted.csv",
    "missing_unquoted.csv",
    "missing_quoted.csv",
    "no_final_newline_unquoted.csv",
    "no_final_newline_quoted.csv",
    "one_row_unquoted.csv",
    "one_row_quoted.csv",
    "single_column_unquoted.csv",
    "single_column_quoted.csv",
    "unicode_unquoted.csv",
    "unicode_quoted.csv",
    "embedded.csv",
    "blank_lines.csv",
    "header_spaces.csv",
    "r_style.csv",
};

// Fixtures written exactly as WriteRawTable writes in their dialect.
const std::vector<std::string> kCanonicalFixtures = {
    "basic_unquoted.csv",   "bom_unquoted.csv",
    "crlf_unquoted.csv",    "semicolon_unquoted.csv",
    "tab_unquoted.tsv",     "pipe_unquoted.csv",
    "one_row_unquoted.csv", "single_column_unquoted.csv",
    "unicode_unquoted.csv", "embedded.csv",
    "r_style.csv",
};

class RoundTripTest : public testing::TestWithParam<std::string> {};

TEST_P(RoundTripTest, ReadWriteReadGivesTheSameTable) {
  const RawTable original = ReadOk(TestDataPath("csv/" + GetParam()));
  ASSERT_GT(original.num_rows(), 0u);
  ExpectConsistent(original);
  for (const bool same_dialect : {true, false}) {
    SCOPED_TRACE(same_dialect ? "same dialect" : "default dialect");
    const std::string path = TempDir() + "/copy.csv";
    const CsvWriteOptions options =
        same_dialect ? WriteOptionsFor(original.dialect) : CsvWriteOptions{};
    NullProgress progress;
    const Status written = WriteRawTable(path, original, options, progress);
    ASSERT_TRUE(written.has_value()) << written.error().message;
    const RawTable copy = ReadOk(path);
    ExpectSameTable(original, copy);
    if (same_dialect) {
      EXPECT_EQ(copy.dialect.delimiter, original.dialect.delimiter);
      EXPECT_EQ(copy.dialect.had_bom, original.dialect.had_bom);
      EXPECT_EQ(copy.dialect.crlf, original.dialect.crlf);
      EXPECT_EQ(copy.dialect.quote_all_strings, original.dialect.quote_all_strings);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RoundTripTest, testing::ValuesIn(kValidFixtures),
                         [](const testing::TestParamInfo<std::string>& param) {
                           return param.param.substr(0, param.param.find('.'));
                         });

TEST(RoundTripBytesTest, CanonicalFixturesComeBackByteForByte) {
  for (const std::string& name : kCanonicalFixtures) {
    SCOPED_TRACE(name);
    const std::string source = TestDataPath("csv/" + name);
    const RawTable table = ReadOk(source);
    const std::string path = TempDir() + "/copy.csv";
    NullProgress progress;
    ASSERT_TRUE(WriteRawTable(path, table, WriteOptionsFor(table.dialect), progress).has_value());
    EXPECT_EQ(FileBytes(path), FileBytes(source));
  }
}

TEST(RoundTripBytesTest, AwkwardValuesSurvive) {
  // Values a careless writer breaks: tokens as categories, quotes, line breaks, edge spaces,
  // a leading BOM character, lone CRs, delimiters of every kind.
  const std::vector<std::string> values = {"NA",
                                           "N/A",
                                           "null",
                                           "?",
                                           "NaN",
                                           "\"",
                                           "\"\"",
                                           "a\"b",
                                           "x\ny",
                                           "x\r\ny",
                                           "\r",
                                           "lone\rcr",
                                           " lead",
                                           "trail ",
                                           "\tt",
                                           "\xEF\xBB\xBF"
                                           "bom",
                                           ",",
                                           ";",
                                           "|",
                                           "\t",
                                           "é",
                                           "😀"};
  std::string text = "v,w\n";
  for (const std::string& value : values) {
    std::string quoted = "\"";
    for (const char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    text += quoted + "\",x\n";
  }
  const RawTable original = ParseOk(text);
  ASSERT_EQ(original.columns[0].dictionary, values);
  for (const char delimiter : {',', ';', '\t', '|'}) {
    SCOPED_TRACE(std::string(1, delimiter));
    CsvWriteOptions options;
    options.delimiter = delimiter;
    const std::string path = TempDir() + "/copy.csv";
    NullProgress progress;
    ASSERT_TRUE(WriteRawTable(path, original, options, progress).has_value());
    ExpectSameTable(original, ReadOk(path));
  }
}

}  // namespace
}  // namespace deniable
