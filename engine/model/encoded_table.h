// SPDX-License-Identifier: Apache-2.0
// EncodedTable: the modelled columns of a table as small integer codes (see domain.h), stored
// column-major for fast counting. This is what every model learns from and samples into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace deniable {

// Codes per column are < 65,536 (a domain never has more codes; domains.cpp enforces it).
using Code = std::uint16_t;
inline constexpr std::uint32_t kMaxCardinality = 65535;

struct EncodedTable {
  std::size_t rows = 0;
  std::vector<std::vector<Code>> columns;      // columns[attribute][row]
  std::vector<std::uint32_t> cardinalities;    // per attribute

  std::size_t num_attributes() const { return columns.size(); }
};

// The rows of `table` listed in `row_indices`, in that order (for data splits). Every index
// must be < table.rows (a programmer error otherwise).
EncodedTable SelectRows(const EncodedTable& table, const std::vector<std::uint32_t>& row_indices);

}  // namespace deniable
