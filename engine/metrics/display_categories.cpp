// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/display_categories.h"

#include <algorithm>

namespace deniable::internal {

DisplayCategories ChooseDisplayCategories(const ComparedColumn& column, std::uint64_t real_rows,
                                          std::uint64_t synthetic_rows, int max_categories) {
  const std::uint32_t categories = column.categories();
  const std::uint32_t missing = column.has_missing ? categories - 1 : categories;
  std::vector<bool> shown(categories, true);
  std::uint32_t merged = 0;
  if (max_categories > 0 && categories > static_cast<std::uint32_t>(max_categories)) {
    std::vector<std::uint32_t> candidates;  // neither a bin nor "(missing)"
    for (std::uint32_t c = column.bins; c < missing; ++c) candidates.push_back(c);
    const auto fixed = static_cast<std::uint32_t>(categories - candidates.size());
    const auto limit = static_cast<std::uint32_t>(max_categories);
    const std::uint32_t room = limit > fixed + 1 ? limit - fixed - 1 : 0;  // 1: "other"
    auto weight = [&](std::uint32_t c) {
      return std::max(
          static_cast<double>(column.real_counts[c]) / static_cast<double>(real_rows),
          static_cast<double>(column.synthetic_counts[c]) / static_cast<double>(synthetic_rows));
    };
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return weight(a) > weight(b); });
    for (std::size_t k = room; k < candidates.size(); ++k) {
      shown[candidates[k]] = false;
      ++merged;
    }
  }
  DisplayCategories display;
  display.map.assign(categories, 0);
  for (std::uint32_t c = 0; c < missing; ++c) {
    if (!shown[c]) continue;
    display.map[c] = static_cast<std::uint32_t>(display.labels.size());
    display.labels.push_back(column.labels[c]);
  }
  if (merged > 0) {
    const auto other = static_cast<std::uint32_t>(display.labels.size());
    for (std::uint32_t c = 0; c < missing; ++c) {
      if (!shown[c]) display.map[c] = other;
    }
    display.labels.push_back("(" + std::to_string(merged) +
                             (merged == 1 ? " other value)" : " other values)"));
  }
  if (column.has_missing) {
    display.map[missing] = static_cast<std::uint32_t>(display.labels.size());
    display.labels.push_back(column.labels[missing]);
  }
  return display;
}

ColumnHistogram DisplayHistogram(const ComparedColumn& column, std::uint64_t real_rows,
                                 std::uint64_t synthetic_rows, int max_categories) {
  DisplayCategories display =
      ChooseDisplayCategories(column, real_rows, synthetic_rows, max_categories);
  std::vector<std::uint64_t> real(display.labels.size(), 0);
  std::vector<std::uint64_t> synthetic(display.labels.size(), 0);
  for (std::uint32_t c = 0; c < column.categories(); ++c) {
    real[display.map[c]] += column.real_counts[c];
    synthetic[display.map[c]] += column.synthetic_counts[c];
  }
  ColumnHistogram histogram;
  histogram.labels = std::move(display.labels);
  // Divisions (not multiplications by 1/rows): each fraction is the correctly rounded count/rows.
  for (std::size_t d = 0; d < real.size(); ++d) {
    histogram.real.push_back(static_cast<double>(real[d]) / static_cast<double>(real_rows));
    histogram.synthetic.push_back(static_cast<double>(synthetic[d]) /
                                  static_cast<double>(synthetic_rows));
  }
  return histogram;
}

}  // namespace deniable::internal
