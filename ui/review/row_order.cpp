// SPDX-License-Identifier: Apache-2.0
#include "ui/review/row_order.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

namespace deniable::ui {
namespace {

constexpr std::size_t kCheckEvery = 65536;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool containsIgnoringCase(const std::string& text, const std::string& loweredNeedle) {
  if (loweredNeedle.size() > text.size()) return false;
  const auto it = std::search(text.begin(), text.end(), loweredNeedle.begin(), loweredNeedle.end(),
                              [](char a, char b) { return lower(a) == b; });
  return it != text.end();
}

bool parseNumber(const std::string& text, double& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  while (begin < end && *begin == ' ') ++begin;
  while (end > begin && end[-1] == ' ') --end;
  if (begin < end && *begin == '+') ++begin;
  const auto result = std::from_chars(begin, end, value);
  return result.ec == std::errc() && result.ptr == end && !std::isnan(value);
}

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

}  // namespace

std::vector<std::uint32_t> RankDictionary(const RawColumn& column) {
  const std::size_t d = column.distinct();
  std::vector<std::uint32_t> order(d);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<double> numbers(d);
  bool numeric = d > 0;
  for (std::size_t i = 0; i < d && numeric; ++i) numeric = parseNumber(column.dictionary[i], numbers[i]);
  if (numeric) {
    std::stable_sort(order.begin(), order.end(),
                     [&numbers](std::uint32_t a, std::uint32_t b) { return numbers[a] < numbers[b]; });
  } else {
    std::stable_sort(order.begin(), order.end(), [&column](std::uint32_t a, std::uint32_t b) {
      return column.dictionary[a] < column.dictionary[b];
    });
  }
  std::vector<std::uint32_t> rank(d);
  for (std::size_t r = 0; r < d; ++r) rank[order[r]] = static_cast<std::uint32_t>(r);
  return rank;
}

Result<std::vector<std::uint32_t>> ComputeRowOrder(const RawTable& table, const RowQuery& query,
                                                   const std::atomic<bool>* cancel) {
  const int columns = static_cast<int>(table.num_columns());
  if (query.sort_column >= columns || query.sort_column < -1) {
    return InvalidArgument("sort column " + std::to_string(query.sort_column) +
                           " is not a column of " + table.source);
  }
  if (query.filter_column >= columns || query.filter_column < -1) {
    return InvalidArgument("filter column " + std::to_string(query.filter_column) +
                           " is not a column of " + table.source);
  }
  const std::size_t rows = table.num_rows();
  std::vector<std::uint32_t> kept;
  if (query.filter_text.empty()) {
    kept.reserve(rows);
    for (std::size_t row = 0; row < rows; ++row) kept.push_back(static_cast<std::uint32_t>(row));
  } else {
    std::string needle = query.filter_text;
    std::transform(needle.begin(), needle.end(), needle.begin(), lower);
    // Per column: which dictionary entries match (each text is looked at once).
    std::vector<std::vector<bool>> matches(table.num_columns());
    std::vector<std::size_t> searched;
    for (int c = 0; c < columns; ++c) {
      if (query.filter_column >= 0 && c != query.filter_column) continue;
      const RawColumn& column = table.columns[static_cast<std::size_t>(c)];
      auto& match = matches[static_cast<std::size_t>(c)];
      match.resize(column.distinct());
      bool any = false;
      for (std::size_t i = 0; i < column.distinct(); ++i) {
        any |= (match[i] = containsIgnoringCase(column.dictionary[i], needle));
      }
      if (any) searched.push_back(static_cast<std::size_t>(c));
    }
    for (std::size_t row = 0; row < rows; ++row) {
      if (row % kCheckEvery == 0 && cancelled(cancel)) return Cancelled("row filter cancelled");
      for (std::size_t c : searched) {
        const std::uint32_t code = table.columns[c].codes[row];
        if (code != kMissingCode && matches[c][code]) {
          kept.push_back(static_cast<std::uint32_t>(row));
          break;
        }
      }
    }
  }
  if (query.sort_column < 0) return kept;

  const RawColumn& column = table.columns[static_cast<std::size_t>(query.sort_column)];
  const std::vector<std::uint32_t> rank = RankDictionary(column);
  const std::size_t d = column.distinct();
  auto key = [&](std::uint32_t row) -> std::size_t {
    const std::uint32_t code = column.codes[row];
    if (code == kMissingCode) return d;  // missing last in both directions
    return query.descending ? d - 1 - rank[code] : rank[code];
  };
  // Counting sort by key: stable, linear.
  std::vector<std::size_t> start(d + 2, 0);
  for (std::uint32_t row : kept) ++start[key(row) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  if (cancelled(cancel)) return Cancelled("row sort cancelled");
  std::vector<std::uint32_t> sorted(kept.size());
  for (std::uint32_t row : kept) sorted[start[key(row)]++] = row;
  return sorted;
}

}  // namespace deniable::ui
