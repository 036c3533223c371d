// SPDX-License-Identifier: Apache-2.0
// Columns of the shared datasets for bench/histogram_bench.cpp (not a benchmark itself).
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/typed_values.h"

namespace deniable::bench {

struct LoadedTable {
  RawTable raw;
  Schema schema;
};

// nullopt when ../shared/data/<name> is absent.
inline std::optional<LoadedTable> LoadShared(const std::string& name) {
  static std::map<std::string, LoadedTable> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  NullProgress progress;
  auto raw = ReadCsv(std::string(DENIABLE_SHARED_DATA_DIR) + "/" + name, CsvReadOptions{},
                     progress);
  if (!raw) return std::nullopt;
  LoadedTable table{std::move(*raw), {}};
  table.schema = InferSchema(table.raw, InferOptions{});
  cache.emplace(name, table);
  return table;
}

struct NumericColumn {
  std::string name;
  std::vector<double> values;  // non-missing
  int decimals = 0;            // lattice 10^-decimals (0 for Integer)
};

inline std::optional<NumericColumn> Numbers(const LoadedTable& table, const std::string& name) {
  const int index = table.raw.ColumnIndex(name);
  if (index < 0) return std::nullopt;
  const ColumnSchema& schema = table.schema.columns[static_cast<std::size_t>(index)];
  NumericColumn column;
  column.name = name;
  column.decimals = schema.type == DataType::kFloat ? std::max(0, schema.decimals) : 0;
  for (double x : NumericRowValues(table.raw.columns[static_cast<std::size_t>(index)], schema)) {
    if (std::isfinite(x)) column.values.push_back(x);
  }
  return column;
}

inline std::vector<std::string> Texts(const LoadedTable& table, const std::string& name) {
  std::vector<std::string> out;
  const int index = table.raw.ColumnIndex(name);
  if (index < 0) return out;
  const RawColumn& column = table.raw.columns[static_cast<std::size_t>(index)];
  for (std::uint32_t code : column.codes) {
    if (code != kMissingCode) out.push_back(column.dictionary[code]);
  }
  return out;
}

}  // namespace deniable::bench
