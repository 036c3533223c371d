// SPDX-License-Identifier: Apache-2.0
// Building small RawTables in tests without a CSV file.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable::test_support {

// One column from per-row texts; std::nullopt is a missing cell.
inline RawColumn MakeColumn(const std::string& name,
                            const std::vector<std::optional<std::string>>& cells) {
  RawColumn column;
  column.name = name;
  std::map<std::string, std::uint32_t> index;
  for (std::size_t row = 0; row < cells.size(); ++row) {
    if (!cells[row]) {
      column.codes.push_back(kMissingCode);
      ++column.missing_count;
      continue;
    }
    auto [it, inserted] = index.emplace(*cells[row], static_cast<std::uint32_t>(column.dictionary.size()));
    if (inserted) {
      column.dictionary.push_back(*cells[row]);
      column.counts.push_back(0);
      column.first_row.push_back(static_cast<std::uint32_t>(row));
    }
    ++column.counts[it->second];
    column.codes.push_back(it->second);
  }
  return column;
}

// `text` repeated `count` times, for building columns with known frequencies.
inline void Repeat(std::vector<std::optional<std::string>>& cells,
                   const std::optional<std::string>& text, std::size_t count) {
  cells.insert(cells.end(), count, text);
}

inline RawTable MakeTable(std::vector<RawColumn> columns, const std::string& source = "test.csv") {
  RawTable table;
  table.source = source;
  const std::size_t rows = columns.empty() ? 0 : columns[0].codes.size();
  for (std::size_t r = 0; r < rows; ++r) table.row_line.push_back(r + 2);
  table.columns = std::move(columns);
  return table;
}

// A schema column with a type and the categorical flag (everything else default).
inline ColumnSchema TypedColumn(const std::string& name, DataType type, bool categorical) {
  ColumnSchema column;
  column.name = name;
  column.type = type;
  column.categorical = categorical;
  return column;
}

}  // namespace deniable::test_support
