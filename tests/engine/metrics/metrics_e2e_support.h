// SPDX-License-Identifier: Apache-2.0
// For the metrics e2e tests: a shared dataset with its inferred schema, and the two reference
// "synthetic" tables of issue 2 — a random half of the real rows, and a sample from the
// perfect independent model (each column drawn from the real empirical marginal).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/select_rows.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "tests/engine/metrics/metrics_test_tables.h"

namespace deniable::test_support {

struct LoadedTable {
  RawTable table;
  Schema schema;
};

inline LoadedTable LoadWithSchema(const std::string& path) {
  NullProgress progress;
  auto table = ReadCsv(path, CsvReadOptions{}, progress);
  EXPECT_TRUE(table.has_value()) << table.error().message;
  if (!table) return {};
  Schema schema = InferSchema(*table, InferOptions{});
  return {std::move(*table), std::move(schema)};
}

// A uniformly random half of the rows (without replacement), in random order.
inline RawTable RandomHalf(const RawTable& real, Rng& rng) {
  std::vector<std::uint32_t> rows(real.num_rows());
  std::iota(rows.begin(), rows.end(), std::uint32_t{0});
  Shuffle(std::span<std::uint32_t>(rows), rng);
  rows.resize(rows.size() / 2);
  std::vector<RawColumn> columns;
  for (const RawColumn& column : real.columns) {
    columns.push_back(SelectRawColumnRows(column, rows));
  }
  return MakeTable("random half", std::move(columns));
}

// `rows` rows from the perfect independent model: every cell of every column is the cell of a
// uniformly random real row, drawn independently per column.
inline RawTable IndependentSample(const RawTable& real, std::size_t rows, Rng& rng) {
  std::vector<RawColumn> columns;
  for (const RawColumn& column : real.columns) {
    std::vector<std::uint32_t> picks(rows);
    for (std::uint32_t& pick : picks) {
      pick = static_cast<std::uint32_t>(UniformBelow(rng, real.num_rows()));
    }
    columns.push_back(SelectRawColumnRows(column, picks));
  }
  return MakeTable("independent sample", std::move(columns));
}

}  // namespace deniable::test_support
