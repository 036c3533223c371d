// SPDX-License-Identifier: Apache-2.0
// A random EncodedTable with one planted dependency, for the model's tests.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/random.h"
#include "engine/model/encoded_table.h"

namespace deniable::test_support {

// Attribute a is uniform over cardinalities[a] (seeded); attribute 1 copies attribute 0 modulo
// its cardinality, so that there is structure to find.
inline EncodedTable RandomEncodedTable(std::size_t rows, std::vector<std::uint32_t> cardinalities,
                                       std::uint64_t seed) {
  SeededRng rng(seed);
  EncodedTable t;
  t.rows = rows;
  t.cardinalities = cardinalities;
  t.columns.assign(cardinalities.size(), std::vector<Code>(rows));
  for (std::size_t a = 0; a < cardinalities.size(); ++a) {
    for (std::size_t r = 0; r < rows; ++r) {
      t.columns[a][r] = static_cast<Code>(UniformBelow(rng, cardinalities[a]));
    }
  }
  if (cardinalities.size() > 1) {
    for (std::size_t r = 0; r < rows; ++r) {
      t.columns[1][r] = static_cast<Code>(t.columns[0][r] % cardinalities[1]);
    }
  }
  return t;
}

// `table` with one more record (one code per attribute): a neighbouring table.
inline EncodedTable WithRecord(EncodedTable table, const std::vector<Code>& record) {
  ++table.rows;
  for (std::size_t a = 0; a < record.size() && a < table.columns.size(); ++a) {
    table.columns[a].push_back(record[a]);
  }
  return table;
}

}  // namespace deniable::test_support
