// SPDX-License-Identifier: Apache-2.0
// Helpers for the CSV tests: tables as plain cell grids, and the RawTable invariants.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/table.h"
#include "engine/io/csv_reader.h"

namespace deniable::test_support {

using Cell = std::optional<std::string>;  // nullopt = missing
using Cells = std::vector<std::vector<Cell>>;

inline Cells CellsOf(const RawTable& table) {
  Cells cells(table.num_rows(), std::vector<Cell>(table.num_columns()));
  for (std::size_t c = 0; c < table.num_columns(); ++c) {
    const RawColumn& column = table.columns[c];
    for (std::size_t r = 0; r < table.num_rows(); ++r) {
      if (!column.is_missing(r)) cells[r][c] = column.dictionary[column.codes[r]];
    }
  }
  return cells;
}

inline std::vector<std::string> NamesOf(const RawTable& table) {
  std::vector<std::string> names;
  for (const RawColumn& column : table.columns) names.push_back(column.name);
  return names;
}

inline RawTable ParseOk(std::string_view text, const CsvReadOptions& options = {}) {
  NullProgress progress;
  Result<RawTable> table = ParseCsv(text, "test.csv", options, progress);
  if (!table) {
    ADD_FAILURE() << "ParseCsv failed: " << table.error().message;
    return RawTable{};
  }
  return std::move(table).value();
}

inline RawTable ReadOk(const std::string& path, const CsvReadOptions& options = {}) {
  NullProgress progress;
  Result<RawTable> table = ReadCsv(path, options, progress);
  if (!table) {
    ADD_FAILURE() << "ReadCsv failed: " << table.error().message;
    return RawTable{};
  }
  return std::move(table).value();
}

// The message of a parse that must fail with ErrorCode::kParse.
inline std::string ParseErrorOf(std::string_view text, const CsvReadOptions& options = {}) {
  NullProgress progress;
  Result<RawTable> table = ParseCsv(text, "test.csv", options, progress);
  if (table) {
    ADD_FAILURE() << "ParseCsv succeeded on malformed text";
    return "";
  }
  EXPECT_EQ(table.error().code, ErrorCode::kParse) << table.error().message;
  return table.error().message;
}

inline std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The RawTable invariants, checked from the codes alone: dictionary entries distinct and in
// order of first appearance, counts and first rows exact, missing_count exact.
inline void ExpectConsistent(const RawTable& table) {
  ASSERT_EQ(table.row_line.size(), table.num_rows());
  for (const RawColumn& column : table.columns) {
    SCOPED_TRACE("column " + column.name);
    ASSERT_EQ(column.codes.size(), table.num_rows());
    ASSERT_EQ(column.counts.size(), column.dictionary.size());
    ASSERT_EQ(column.first_row.size(), column.dictionary.size());
    EXPECT_EQ(std::set<std::string>(column.dictionary.begin(), column.dictionary.end()).size(),
              column.dictionary.size());
    std::vector<std::uint64_t> counts(column.dictionary.size(), 0);
    std::uint64_t missing = 0;
    std::uint32_t next_new_code = 0;
    for (std::size_t r = 0; r < column.codes.size(); ++r) {
      const std::uint32_t code = column.codes[r];
      if (code == kMissingCode) {
        ++missing;
        continue;
      }
      ASSERT_LT(code, column.dictionary.size());
      if (counts[code]++ == 0) {
        EXPECT_EQ(code, next_new_code++) << "dictionary not in first-appearance order";
        EXPECT_EQ(column.first_row[code], r);
      }
    }
    EXPECT_EQ(next_new_code, column.dictionary.size()) << "unused dictionary entries";
    EXPECT_EQ(counts, column.counts);
    EXPECT_EQ(missing, column.missing_count);
  }
}

// Same names, dictionaries (order included), codes (hence cells), counts and first rows.
inline void ExpectSameTable(const RawTable& a, const RawTable& b) {
  EXPECT_EQ(NamesOf(a), NamesOf(b));
  ASSERT_EQ(a.num_columns(), b.num_columns());
  for (std::size_t c = 0; c < a.num_columns(); ++c) {
    EXPECT_EQ(a.columns[c].dictionary, b.columns[c].dictionary);
    EXPECT_EQ(a.columns[c].codes, b.columns[c].codes);
    EXPECT_EQ(a.columns[c].counts, b.columns[c].counts);
    EXPECT_EQ(a.columns[c].first_row, b.columns[c].first_row);
    EXPECT_EQ(a.columns[c].missing_count, b.columns[c].missing_count);
  }
}

}  // namespace deniable::test_support
