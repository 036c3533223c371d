// SPDX-License-Identifier: Apache-2.0
// Internal to engine/metrics: how a compared column's categories are shown (histograms, pair
// tables). Display only: distances are always taken over all categories. Not API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/metrics/column_encoding.h"
#include "engine/metrics/metric_report.h"

namespace deniable::internal {

// Display categories of a compared column: `map[code]` is the display index of each code and
// `labels` the display labels. All codes are shown when there are at most `max_categories`
// (or it is 0); otherwise bins and "(missing)" are always shown, the other codes with the
// largest max(real fraction, synthetic fraction) fill the remaining places but one, and the
// rest are merged into one "(N other values)" category placed before "(missing)". Shown codes
// keep their display order.
struct DisplayCategories {
  std::vector<std::uint32_t> map;
  std::vector<std::string> labels;
};
DisplayCategories ChooseDisplayCategories(const ComparedColumn& column, std::uint64_t real_rows,
                                          std::uint64_t synthetic_rows, int max_categories);

// The column's histogram over its display categories, as fractions of each table's rows.
ColumnHistogram DisplayHistogram(const ComparedColumn& column, std::uint64_t real_rows,
                                 std::uint64_t synthetic_rows, int max_categories);

}  // namespace deniable::internal
