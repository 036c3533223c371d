// SPDX-License-Identifier: Apache-2.0
// Differential fuzzing with a fixed seed: 4,000 mutated CSV texts (bytes replaced,
// inserted, deleted with quotes, delimiters, line breaks, invalid UTF-8, NULs) are parsed by
// ParseCsv and by a slow, obviously-correct reference parser written here from the rules in
// csv_reader.h. Both must agree on accept/reject and, when accepted, on every name and cell; a
// rejection must be ErrorCode::kParse located inside the text. Accepted tables must also survive
// a write/read round trip.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/io/csv_reader.h"
#include "engine/io/csv_writer.h"
#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::Cell;
using test_support::Cells;
using test_support::CellsOf;
using test_support::ExpectConsistent;
using test_support::ExpectSameTable;
using test_support::FileBytes;
using test_support::NamesOf;
using test_support::ReadOk;

struct Table {
  std::vector<std::string> names;
  Cells cells;
};

bool ValidUtf8WithoutNul(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c == 0) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length;
    std::uint32_t code;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
      code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      code = c & 0x07;
    } else {
      return false;
    }
    if (i + length > n) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

// The reader's rules, one character at a time. nullopt = the text must be rejected.
std::optional<Table> ReferenceParse(std::string text, const std::vector<std::string>& tokens) {
  if (text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0) return std::nullopt;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  if (!ValidUtf8WithoutNul(text)) return std::nullopt;
  const char delimiter = DetectDelimiter(text);
  struct Field {
    std::string text;
    bool quoted = false;
  };
  std::vector<std::vector<Field>> records;
  std::size_t i = 0;
  const std::size_t n = text.size();
  const auto at_line_end = [&](std::size_t k) {
    return k < n && (text[k] == '\n' || (text[k] == '\r' && k + 1 < n && text[k + 1] == '\n'));
  };
  const auto skip_line_end = [&](std::size_t& k) { k += text[k] == '\n' ? 1 : 2; };
  std::optional<std::size_t> columns;
  while (i < n) {
    if (at_line_end(i) && (!columns || *columns > 1)) {  // a blank line
      skip_line_end(i);
      continue;
    }
    std::vector<Field> record;
    while (true) {  // one field per iteration
      Field field;
      if (i < n && text[i] == '"') {
        field.quoted = true;
        ++i;
        while (true) {
          if (i >= n) return std::nullopt;  // unterminated
          if (text[i] == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              field.text += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          field.text += text[i++];
        }
      } else {
        while (i < n && text[i] != delimiter && text[i] != '\n' && text[i] != '\r') {
          if (text[i] == '"') return std::nullopt;  // quote in an unquoted field
          field.text += text[i++];
        }
      }
      record.push_back(field);
      if (i >= n) break;
      if (text[i] == delimiter) {
        ++i;
        continue;
      }
      if (!at_line_end(i)) return std::nullopt;  // text after a quote, or a bare CR
      skip_line_end(i);
      break;
    }
    if (!columns) columns = record.size();
    records.push_back(record);
  }
  if (records.empty()) return std::nullopt;
  Table table;
  std::set<std::string> seen;
  for (const Field& field : records[0]) {
    std::string name = field.text;
    if (!field.quoted) {
      const std::size_t first = name.find_first_not_of(" \t");
      name = first == std::string::npos
                 ? ""
                 : name.substr(first, name.find_last_not_of(" \t") - first + 1);
    }
    if (name.empty() || !seen.insert(name).second) return std::nullopt;
    table.names.push_back(name);
  }
  if (records.size() < 2) return std::nullopt;
  const std::set<std::string> missing(tokens.begin(), tokens.end());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != table.names.size()) return std::nullopt;
    std::vector<Cell> row;
    for (const Field& field : records[r]) {
      const bool is_missing =
          (!field.quoted || field.text.empty()) && missing.count(field.text) > 0;
      row.push_back(is_missing ? Cell() : Cell(field.text));
    }
    table.cells.push_back(row);
  }
  return table;
}

// Splits into lines the way error positions count them (LF ends a line; a BOM is not counted).
std::vector<std::string> PhysicalLines(std::string text) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  std::vector<std::string> lines(1);
  for (const char c : text) {
    if (c == '\n') {
      lines.emplace_back();
    } else {
      lines.back() += c;
    }
  }
  return lines;
}

void ExpectLocatedInside(const std::string& message, const std::string& text) {
  unsigned long long line = 0;
  unsigned long long column = 0;
  ASSERT_EQ(std::sscanf(message.c_str(), "fuzz.csv:%llu:%llu: ", &line, &column), 2) << message;
  const std::vector<std::string> lines = PhysicalLines(text);
  ASSERT_GE(line, 1u) << message;
  ASSERT_LE(line, lines.size()) << message;
  EXPECT_GE(column, 1u) << message;
  EXPECT_LE(column, lines[line - 1].size() + 1) << message;
}

std::string Mutate(std::string text, Rng& rng) {
  static const std::vector<std::string> kPieces = {",",
                                                   ";",
                                                   "\t",
                                                   "|",
                                                   "\"",
                                                   "\"\"",
                                                   "\n",
                                                   "\r\n",
                                                   "\r",
                                                   " ",
                                                   "a",
                                                   "NA",
                                                   "",
                                                   "\xC3\xA9",
                                                   "\xC3",
                                                   "\x80",
                                                   "\xFF",
                                                   std::string(1, '\0'),
                                                   "\xEF\xBB\xBF",
                                                   "\n\n"};
  const int mutations = 1 + static_cast<int>(UniformBelow(rng, 3));
  for (int m = 0; m < mutations; ++m) {
    const std::size_t at = text.empty() ? 0 : UniformBelow(rng, text.size() + 1);
    const std::string& piece = kPieces[UniformBelow(rng, kPieces.size())];
    switch (UniformBelow(rng, 4)) {
      case 0:  // insert
        text.insert(at, piece);
        break;
      case 1:  // replace one byte
        if (at < text.size()) text.replace(at, 1, piece);
        break;
      case 2:  // delete a few bytes
        if (at < text.size()) text.erase(at, 1 + UniformBelow(rng, 3));
        break;
      default:  // truncate
        text.resize(at);
        break;
    }
  }
  return text;
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds = {
      "a,b,c\n1,2,3\n4,,6\n",
      "\"x\",\"y\"\n\"1,5\",\"say \"\"hi\"\"\"\n\"\",NA\n",
      "k\nv\n\nw\n",
      "a;b\r\n1;\"multi\r\nline\"\r\n2;3\r\n",
      "h1\th2\n\"q\"\tr\n é\t?\n",
  };
  for (const char* fixture : {"embedded.csv", "missing_quoted.csv", "unicode_unquoted.csv",
                              "r_style.csv", "blank_lines.csv", "header_spaces.csv"}) {
    seeds.push_back(FileBytes(test_support::TestDataPath(std::string("csv/") + fixture)));
  }
  return seeds;
}

TEST(CsvFuzzTest, AgreesWithTheReferenceParserOnMutatedTexts) {
  SeededRng rng(20240601);  // fixed: the same 4,000 texts every run
  const std::vector<std::string> seeds = Seeds();
  const CsvReadOptions options;
  int accepted = 0;
  int rejected = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    const std::string text = Mutate(seeds[UniformBelow(rng, seeds.size())], rng);
    SCOPED_TRACE(testing::PrintToString(text));
    NullProgress progress;
    const Result<RawTable> table = ParseCsv(text, "fuzz.csv", options, progress);
    const std::optional<Table> expected = ReferenceParse(text, options.missing_tokens);
    ASSERT_EQ(table.has_value(), expected.has_value())
        << (table ? std::string("accepted") : table.error().message);
    if (!table) {
      ++rejected;
      EXPECT_EQ(table.error().code, ErrorCode::kParse);
      ExpectLocatedInside(table.error().message, text);
      continue;
    }
    ++accepted;
    EXPECT_EQ(NamesOf(*table), expected->names);
    EXPECT_EQ(CellsOf(*table), expected->cells);
    ExpectConsistent(*table);
    if (iteration % 25 == 0) {  // a round trip now and then (it writes a file)
      const std::string path = test_support::TempDir() + "/fuzz.csv";
      ASSERT_TRUE(WriteRawTable(path, *table, WriteOptionsFor(table->dialect), progress));
      ExpectSameTable(*table, ReadOk(path));
    }
  }
  // Both outcomes are well represented (about 1 in 4 mutated texts is still valid).
  EXPECT_GT(accepted, 600);
  EXPECT_GT(rejected, 1500);
}

}  // namespace
}  // namespace deniable
