// SPDX-License-Identifier: Apache-2.0
// DetectDelimiter, and UTF-8 validation at the edges of the valid ranges.
#include <gtest/gtest.h>

#include <string>

#include "engine/io/csv_reader.h"
#include "tests/engine/io/csv_test_helpers.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::CellsOf;
using test_support::ParseErrorOf;
using test_support::ParseOk;

TEST(DetectDelimiterTest, PicksTheCandidateThatSplitsEveryRecordAlike) {
  EXPECT_EQ(DetectDelimiter("a,b,c\n1,2,3\n"), ',');
  EXPECT_EQ(DetectDelimiter("a;b;c\n1,5;2;3\n4;5,5;6\n"), ';');  // decimal commas
  EXPECT_EQ(DetectDelimiter("a\tb\n1\t2\n"), '\t');
  EXPECT_EQ(DetectDelimiter("a|b\n1|x,y\n"), '|');
  EXPECT_EQ(DetectDelimiter("\xEF\xBB\xBF"
                            "a;b\n1;2\n"),
            ';');
  EXPECT_EQ(DetectDelimiter("a;b\r\n1;2\r\n"), ';');
}

TEST(DetectDelimiterTest, IgnoresDelimitersInsideQuotes) {
  EXPECT_EQ(DetectDelimiter("\"a,b\";\"c,d\"\n\"1,2\";\"3,4\"\n"), ';');
  EXPECT_EQ(DetectDelimiter("x;y\n\"multi\nline, with, commas\";2\n"), ';');
}

TEST(DetectDelimiterTest, PrefersMoreFieldsAmongConsistentCandidates) {
  // Both ',' and '|' split every line alike; ',' gives more fields.
  EXPECT_EQ(DetectDelimiter("a,b,c|d\n1,2,3|4\n"), ',');
  EXPECT_EQ(DetectDelimiter("a,b|c|d\n1,2|3|4\n"), '|');
}

TEST(DetectDelimiterTest, FallsBackToTheHeaderThenComma) {
  // Ragged: no candidate is consistent, the header decides.
  EXPECT_EQ(DetectDelimiter("a;b;c\n1;2\n"), ';');
  EXPECT_EQ(DetectDelimiter("name\nsmith\n"), ',');
  EXPECT_EQ(DetectDelimiter(""), ',');
}

TEST(DetectDelimiterTest, ParseUsesIt) {
  const RawTable table = ParseOk("a;b\n1,5;x\n");
  EXPECT_EQ(table.dialect.delimiter, ';');
  EXPECT_EQ(CellsOf(table), (Cells{{"1,5", "x"}}));
}

TEST(CsvUtf8Test, AcceptsTheWholeValidRange) {
  // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF.
  const std::string text =
      "v\n\xC2\x80\n\xDF\xBF\n\xE0\xA0\x80\n\xED\x9F\xBF\n\xEE\x80\x80\n\xEF\xBF\xBF\n"
      "\xF0\x90\x80\x80\n\xF4\x8F\xBF\xBF\n";
  EXPECT_EQ(ParseOk(text).num_rows(), 8u);
}

TEST(CsvUtf8Test, RejectsEachKindOfInvalidSequence) {
  EXPECT_EQ(ParseErrorOf("v,w\n1,\xF4\x90\x80\x80\n"),
            "test.csv:2:3: invalid UTF-8: code point above U+10FFFF (bytes 0xF4 0x90); the file "
            "must be UTF-8 (re-save it as UTF-8) (field 2)");
  EXPECT_EQ(ParseErrorOf("v,w\n1,\xF5\x80\x80\x80\n")
                .rfind("test.csv:2:3: invalid UTF-8: byte 0xF5 never occurs in UTF-8", 0),
            0u);
  EXPECT_EQ(ParseErrorOf("v,w\n1,\xE0\x9F\xBF\n")
                .rfind("test.csv:2:3: invalid UTF-8: overlong encoding (bytes 0xE0 0x9F)", 0),
            0u);
  EXPECT_EQ(ParseErrorOf("v,w\n1,\xF0\x8F\xBF\xBF\n")
                .rfind("test.csv:2:3: invalid UTF-8: overlong encoding (bytes 0xF0 0x8F)", 0),
            0u);
  EXPECT_EQ(
      ParseErrorOf("v,w\n1,ok\xC3\n")
          .rfind("test.csv:2:5: invalid UTF-8: truncated sequence (lead byte 0xC3 followed by "
                 "0x0A)",
                 0),
      0u);
  // Inside a quoted field spanning lines, and in the header.
  EXPECT_EQ(ParseErrorOf("v,w\n1,\"a\nb\xFF\"\n").rfind("test.csv:3:2: invalid UTF-8", 0), 0u);
  EXPECT_EQ(ParseErrorOf("v,\xFFw\n1,2\n").rfind("test.csv:1:3: invalid UTF-8", 0), 0u);
}

TEST(CsvUtf8Test, FindsABadByteFarFromTheStart) {
  // Past the 256 KB the validator checks ahead of the tokenizer in one go.
  std::string text = "v,w\n";
  for (int i = 0; i < 60000; ++i) text += "é,ü\n";
  text += "x,\x80\n";
  EXPECT_EQ(ParseErrorOf(text),
            "test.csv:60002:3: invalid UTF-8: continuation byte 0x80 without "
            "a lead byte; the file must be UTF-8 (re-save it as UTF-8) "
            "(field 2)");
}

}  // namespace
}  // namespace deniable
