// SPDX-License-Identifier: Apache-2.0
#include "engine/model/encoded_table.h"

#include <cassert>

namespace deniable {

EncodedTable SelectRows(const EncodedTable& table, const std::vector<std::uint32_t>& row_indices) {
  EncodedTable out;
  out.rows = row_indices.size();
  out.cardinalities = table.cardinalities;
  out.columns.resize(table.columns.size());
  for (std::size_t a = 0; a < table.columns.size(); ++a) {
    const std::vector<Code>& source = table.columns[a];
    std::vector<Code>& target = out.columns[a];
    target.resize(row_indices.size());
    for (std::size_t i = 0; i < row_indices.size(); ++i) {
      assert(row_indices[i] < source.size() && "SelectRows: row index out of range");
      target[i] = source[row_indices[i]];
    }
  }
  return out;
}

}  // namespace deniable
