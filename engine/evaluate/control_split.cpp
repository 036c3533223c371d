// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/control_split.h"

#include <cmath>
#include <numeric>
#include <string>

namespace deniable {

RawTable SelectRawRows(const RawTable& table, const std::vector<std::uint32_t>& rows) {
  RawTable out;
  out.source = table.source;
  out.dialect = table.dialect;
  out.row_line.reserve(rows.size());
  for (std::uint32_t r : rows) out.row_line.push_back(table.row_line[r]);
  for (const RawColumn& column : table.columns) {
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
    out.columns.push_back(std::move(c));
  }
  return out;
}

Result<ControlSplit> SplitControlRows(const RawTable& table, double fraction, Rng& rng) {
  if (!(fraction > 0 && fraction < 1)) {
    return InvalidArgument("control-fraction must be in (0, 1) (got " + std::to_string(fraction) +
                           ")");
  }
  const std::size_t n = table.num_rows();
  const auto control_rows =
      static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
  if (control_rows == 0 || control_rows >= n) {
    return InvalidArgument("control-fraction " + std::to_string(fraction) + " of " +
                           std::to_string(n) +
                           " rows leaves no control or no training row");
  }
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t i = 0; i < control_rows; ++i) {  // partial Fisher-Yates
    std::swap(order[i], order[i + UniformBelow(rng, n - i)]);
  }
  std::vector<bool> is_control(n, false);
  for (std::size_t i = 0; i < control_rows; ++i) is_control[order[i]] = true;
  std::vector<std::uint32_t> train, control;
  for (std::uint32_t r = 0; r < n; ++r) (is_control[r] ? control : train).push_back(r);
  return ControlSplit{SelectRawRows(table, train), SelectRawRows(table, control)};
}

}  // namespace deniable
