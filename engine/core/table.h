// SPDX-License-Identifier: Apache-2.0
// RawTable: a CSV file as read, column by column, dictionary-encoded. Every cell is kept as its
// exact text (so the writer round-trips it and type inference works on distinct values only,
// once each); missing cells (empty or a missing-value token) are a sentinel code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace deniable {

inline constexpr std::uint32_t kMissingCode = 0xFFFFFFFFu;

struct RawColumn {
  std::string name;
  // Distinct non-missing cell texts, in order of first appearance.
  std::vector<std::string> dictionary;
  // Per dictionary entry: how many rows hold it, and the first row (0-based data row) holding it.
  std::vector<std::uint64_t> counts;
  std::vector<std::uint32_t> first_row;
  // Per row: index into `dictionary`, or kMissingCode.
  std::vector<std::uint32_t> codes;
  std::uint64_t missing_count = 0;

  std::size_t num_rows() const { return codes.size(); }
  std::size_t distinct() const { return dictionary.size(); }
  bool is_missing(std::size_t row) const { return codes[row] == kMissingCode; }
};

// How the file was written; the writer can reproduce it.
struct CsvDialect {
  char delimiter = ',';
  bool had_bom = false;
  bool crlf = false;          // line ends were CR LF
  bool quote_all_strings = false;  // e.g. R's write.csv: every non-numeric field quoted
};

struct RawTable {
  std::string source;                 // path or label, used in messages
  CsvDialect dialect;
  std::vector<RawColumn> columns;
  // 1-based physical line number on which each data row starts (rows may span lines when a
  // quoted field holds a newline). row_line.size() == num_rows().
  std::vector<std::uint64_t> row_line;

  std::size_t num_rows() const { return row_line.size(); }
  std::size_t num_columns() const { return columns.size(); }
  // -1 when absent.
  int ColumnIndex(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
};

}  // namespace deniable
