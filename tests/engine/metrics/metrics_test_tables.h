// SPDX-License-Identifier: Apache-2.0
// Hand-built tables for the metrics tests: RawColumns are dictionary-encoded here exactly as
// ReadCsv does it (dictionary in order of first appearance, counts, first rows, kMissingCode).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable::test_support {

// Cells as texts; nullptr is a missing cell.
inline RawColumn MakeColumn(std::string name, const std::vector<const char*>& cells) {
  RawColumn column;
  column.name = std::move(name);
  std::unordered_map<std::string, std::uint32_t> code_of;
  for (std::size_t row = 0; row < cells.size(); ++row) {
    if (cells[row] == nullptr) {
      column.codes.push_back(kMissingCode);
      ++column.missing_count;
      continue;
    }
    auto [it, inserted] =
        code_of.emplace(cells[row], static_cast<std::uint32_t>(column.dictionary.size()));
    if (inserted) {
      column.dictionary.emplace_back(cells[row]);
      column.counts.push_back(0);
      column.first_row.push_back(static_cast<std::uint32_t>(row));
    }
    ++column.counts[it->second];
    column.codes.push_back(it->second);
  }
  return column;
}

// The same from owned strings (for generated tables); an empty string is a missing cell.
inline RawColumn MakeColumnFromStrings(std::string name, const std::vector<std::string>& cells) {
  std::vector<const char*> pointers;
  pointers.reserve(cells.size());
  for (const std::string& cell : cells) pointers.push_back(cell.empty() ? nullptr : cell.c_str());
  return MakeColumn(std::move(name), pointers);
}

// A table whose rows start on lines 2, 3, ... (line 1 is the header).
inline RawTable MakeTable(std::string source, std::vector<RawColumn> columns) {
  RawTable table;
  table.source = std::move(source);
  table.columns = std::move(columns);
  const std::size_t rows = table.columns.empty() ? 0 : table.columns.front().num_rows();
  for (std::size_t row = 0; row < rows; ++row) table.row_line.push_back(row + 2);
  return table;
}

inline ColumnSchema MakeColumnSchema(std::string name, DataType type,
                                     ColumnRole role = ColumnRole::kAttribute) {
  ColumnSchema column;
  column.name = std::move(name);
  column.type = type;
  column.role = role;
  return column;
}

inline Schema MakeSchema(std::vector<ColumnSchema> columns) {
  Schema schema;
  schema.columns = std::move(columns);
  return schema;
}

}  // namespace deniable::test_support
