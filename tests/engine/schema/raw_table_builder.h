// SPDX-License-Identifier: Apache-2.0
// Builds RawTables by hand for schema tests, the way the CSV reader would: each column
// dictionary-encoded in order of first appearance, with counts and first rows.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/core/table.h"

namespace deniable::test_support {

// A cell equal to `missing` (default: the empty string) is a missing cell.
inline RawColumn MakeRawColumn(const std::string& name, const std::vector<std::string>& cells,
                               const std::string& missing = "") {
  RawColumn column;
  column.name = name;
  std::unordered_map<std::string, std::uint32_t> index;
  for (std::size_t row = 0; row < cells.size(); ++row) {
    if (cells[row] == missing) {
      column.codes.push_back(kMissingCode);
      ++column.missing_count;
      continue;
    }
    const auto [it, inserted] =
        index.emplace(cells[row], static_cast<std::uint32_t>(column.dictionary.size()));
    if (inserted) {
      column.dictionary.push_back(cells[row]);
      column.counts.push_back(0);
      column.first_row.push_back(static_cast<std::uint32_t>(row));
    }
    ++column.counts[it->second];
    column.codes.push_back(it->second);
  }
  return column;
}

// Rows start on line 2 (line 1 is the header), one line per row.
using NamedCells = std::vector<std::pair<std::string, std::vector<std::string>>>;

inline RawTable MakeRawTable(NamedCells columns) {
  RawTable table;
  table.source = "test.csv";
  for (auto& [name, cells] : columns) table.columns.push_back(MakeRawColumn(name, cells));
  const std::size_t rows = table.columns.empty() ? 0 : table.columns.front().num_rows();
  for (std::size_t row = 0; row < rows; ++row) table.row_line.push_back(row + 2);
  return table;
}

// `n` cells made by `make(i)`.
template <typename Make>
std::vector<std::string> Cells(std::size_t n, Make make) {
  std::vector<std::string> cells;
  cells.reserve(n);
  for (std::size_t i = 0; i < n; ++i) cells.push_back(make(i));
  return cells;
}

}  // namespace deniable::test_support
