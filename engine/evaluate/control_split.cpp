// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/control_split.h"

#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>

#include "engine/core/select_rows.h"

namespace deniable {
namespace {

std::string RowText(const RawTable& table, const std::vector<int>& columns, std::size_t row) {
  std::string key;
  for (int c : columns) {
    const RawColumn& column = table.columns[c];
    const std::uint32_t code = column.codes[row];
    key += code == kMissingCode ? std::string("\x1e") : column.dictionary[code];
    key += '\x1f';
  }
  return key;
}

}  // namespace

std::pair<RawTable, bool> RemoveControlRows(const RawTable& real, const RawTable& control) {
  if (control.num_rows() == 0 || control.num_rows() >= real.num_rows() ||
      control.num_columns() != real.num_columns()) {
    return {real, false};
  }
  std::vector<int> real_columns, control_columns;
  for (std::size_t c = 0; c < real.num_columns(); ++c) {
    const int other = control.ColumnIndex(real.columns[c].name);
    if (other < 0) return {real, false};
    real_columns.push_back(static_cast<int>(c));
    control_columns.push_back(other);
  }
  std::unordered_map<std::string, std::size_t> held;
  for (std::size_t r = 0; r < control.num_rows(); ++r) {
    ++held[RowText(control, control_columns, r)];
  }
  std::vector<std::uint32_t> keep;
  std::size_t removed = 0;
  for (std::size_t r = 0; r < real.num_rows(); ++r) {
    auto it = held.find(RowText(real, real_columns, r));
    if (it != held.end() && it->second > 0) {
      --it->second;
      ++removed;
    } else {
      keep.push_back(static_cast<std::uint32_t>(r));
    }
  }
  if (removed != control.num_rows()) return {real, false};
  return {SelectRawRows(real, keep), true};
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
                           std::to_string(n) + " rows leaves no control or no training row");
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
