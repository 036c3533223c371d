// SPDX-License-Identifier: Apache-2.0
// Texts large enough (> 4 MB of rows) for the reader to parse in two chunks on two threads:
// the merged table must equal the one-thread parse (ParseCsv with max_rows parses on one
// thread), whatever lies at the split point, and errors must carry absolute line numbers.
#include <gtest/gtest.h>

#include <string>

#include "engine/io/csv_reader.h"
#include "tests/engine/io/csv_test_helpers.h"

namespace deniable {
namespace {

using test_support::CellsOf;
using test_support::ExpectConsistent;
using test_support::ExpectSameTable;
using test_support::ParseErrorOf;
using test_support::ParseOk;

constexpr std::size_t kRows = 150000;  // ~5.2 MB with the rows below

// Row i: a value frequent everywhere, one that first appears in the second half, a
// high-cardinality one, a quoted one with a doubled quote, and a missing cell now and then.
std::string Row(std::size_t i) {
  std::string row = "c" + std::to_string(i % 5) + ",";
  row += (i >= kRows / 2 + 1000 ? "late" : "early") + std::to_string(i % 3) + ",";
  row += std::to_string(i * 2654435761u % 1000003u) + ",";
  row += "\"q \"\"" + std::to_string(i % 11) + "\"\" x\",";
  row += i % 17 == 0 ? "" : "w" + std::to_string(i % 4);
  return row;
}

std::string Rows(std::size_t begin, std::size_t end, const char* line_end = "\n") {
  std::string text;
  for (std::size_t i = begin; i < end; ++i) text += Row(i) + line_end;
  return text;
}

const char* const kHeader = "a,b,c,d,e\n";

RawTable ParseOneThread(const std::string& text) {
  CsvReadOptions options;
  options.max_rows = static_cast<std::size_t>(-1);  // a preview of everything: one thread
  return ParseOk(text, options);
}

void ExpectSameAsOneThread(const std::string& text) {
  ASSERT_GT(text.size(), std::size_t{4} << 20);
  const RawTable two = ParseOk(text);
  const RawTable one = ParseOneThread(text);
  ExpectSameTable(one, two);
  EXPECT_EQ(one.row_line, two.row_line);
  ExpectConsistent(two);
}

TEST(CsvParallelTest, MergedChunksEqualTheOneThreadParse) {
  const std::string text = kHeader + Rows(0, kRows);
  const RawTable table = ParseOk(text);
  ASSERT_EQ(table.num_rows(), kRows);
  EXPECT_EQ(table.row_line.back(), kRows + 1);
  // "late" values first appear in the second chunk (from row 76,000 = 3 * 25,333 + 1), so they
  // follow every "early" value.
  EXPECT_EQ(table.columns[1].dictionary,
            (std::vector<std::string>{"early0", "early1", "early2", "late1", "late2", "late0"}));
  EXPECT_EQ(table.columns[3].dictionary[0], "q \"0\" x");
  EXPECT_EQ(table.columns[4].missing_count, (kRows + 16) / 17);
  ExpectSameAsOneThread(text);
}

TEST(CsvParallelTest, CrlfAndBlankLinesAroundTheMiddle) {
  std::string text = "a,b,c,d,e\r\n" + Rows(0, kRows / 2, "\r\n");
  text += "\r\n\r\n\n";
  text += Rows(kRows / 2, kRows, "\r\n");
  const RawTable table = ParseOk(text);
  EXPECT_EQ(table.num_rows(), kRows);
  EXPECT_TRUE(table.dialect.crlf);
  EXPECT_EQ(table.row_line.back(), kRows + 4);
  ExpectSameAsOneThread(text);
}

TEST(CsvParallelTest, QuotedLineBreaksAtTheMiddleFallBackToOneThread) {
  // A huge quoted field spanning the middle whose lines look like records: the second chunk,
  // starting inside it, must not be trusted.
  std::string fake_records;
  std::string expected;  // the same with the doubled quotes undone
  for (int i = 0; i < 400000; ++i) {
    fake_records += "x,y,1,\"\"z\"\",w\n";
    expected += "x,y,1,\"z\",w\n";
  }
  const std::string text =
      kHeader + Rows(0, 1000) + "c0,early0,1,\"" + fake_records + "\",w1\n" + Rows(1000, 2000);
  const RawTable table = ParseOk(text);
  ASSERT_EQ(table.num_rows(), 2001u);
  EXPECT_TRUE(CellsOf(table)[1000][3] == expected);
  // Row 1000 starts on line 1002 and spans 400,001 lines.
  EXPECT_EQ(table.row_line[1001], 1002u + 400001u);
  ExpectSameAsOneThread(text);
}

TEST(CsvParallelTest, ErrorInTheSecondChunkHasItsAbsoluteLine) {
  const std::string text = kHeader + Rows(0, kRows - 10) + "c1,early0,1\n" + Rows(0, 5);
  // Header on line 1, rows on lines 2..: the short row is on line kRows - 10 + 2.
  EXPECT_EQ(ParseErrorOf(text), "test.csv:" + std::to_string(kRows - 8) +
                                    ":12: ragged row: 3 fields, but the header has 5 (field 4)");
}

TEST(CsvParallelTest, FirstChunkErrorWinsOverSecondChunkError) {
  const std::string text =
      kHeader + Rows(0, 10) + "bad\"row,1,2,3,4\n" + Rows(10, kRows) + "c1,early0,1\n";
  EXPECT_EQ(ParseErrorOf(text).rfind("test.csv:12:4: quote inside an unquoted field", 0), 0u);
}

TEST(CsvParallelTest, InvalidUtf8InTheSecondChunk) {
  const std::string text = kHeader + Rows(0, kRows) + "c1,early0,1,caf\xE9,x\n";
  EXPECT_EQ(
      ParseErrorOf(text).rfind(
          "test.csv:" + std::to_string(kRows + 2) + ":16: invalid UTF-8: truncated sequence", 0),
      0u);
}

}  // namespace
}  // namespace deniable
