// SPDX-License-Identifier: Apache-2.0
#include "engine/core/select_rows.h"

#include <cstddef>
#include <utility>

namespace deniable {

RawColumn SelectRawColumnRows(const RawColumn& column, const std::vector<std::uint32_t>& rows) {
  RawColumn c;
  c.name = column.name;
  std::vector<std::uint32_t> remap(column.dictionary.size(), kMissingCode);
  c.codes.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::uint32_t code = column.codes[rows[i]];
    if (code == kMissingCode) {
      ++c.missing_count;
      c.codes.push_back(kMissingCode);
      continue;
    }
    if (remap[code] == kMissingCode) {
      remap[code] = static_cast<std::uint32_t>(c.dictionary.size());
      c.dictionary.push_back(column.dictionary[code]);
      c.counts.push_back(0);
      c.first_row.push_back(static_cast<std::uint32_t>(i));
    }
    ++c.counts[remap[code]];
    c.codes.push_back(remap[code]);
  }
  return c;
}

RawTable SelectRawRows(const RawTable& table, const std::vector<std::uint32_t>& rows) {
  RawTable out;
  out.source = table.source;
  out.dialect = table.dialect;
  out.row_line.reserve(rows.size());
  for (std::uint32_t r : rows) out.row_line.push_back(table.row_line[r]);
  for (const RawColumn& column : table.columns) {
    out.columns.push_back(SelectRawColumnRows(column, rows));
  }
  return out;
}

}  // namespace deniable
