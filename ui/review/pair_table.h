// SPDX-License-Identifier: Apache-2.0
// The 2-way table of one attribute pair, real and synthetic side by side: what a click on a
// heatmap cell opens. The categories are exactly those of the MetricReport (the same bins and
// values CompareTables used), so the table explains the cell's TVD and mutual information.
//
// Privacy: exact counts of the real data, for the data owner's review only (like the
// MetricReport itself); never written to a release.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/metrics/metric_report.h"
#include "engine/schema/schema.h"

namespace deniable::ui {

struct PairTable {
  std::string row_name, column_name;
  std::vector<std::string> row_labels, column_labels;
  // counts[r][c]; row and column categories beyond kMaxPairCategories are merged into one
  // last "(N more)" category so the table stays readable.
  std::vector<std::vector<std::uint64_t>> real_counts, synthetic_counts;
  std::uint64_t real_rows = 0, synthetic_rows = 0;
  double tvd = 0;  // 2-way TVD over the (unmerged) categories, as MetricReport::pair_tvd

  double realFraction(std::size_t r, std::size_t c) const {
    return real_rows ? static_cast<double>(real_counts[r][c]) / real_rows : 0.0;
  }
  double syntheticFraction(std::size_t r, std::size_t c) const {
    return synthetic_rows ? static_cast<double>(synthetic_counts[r][c]) / synthetic_rows : 0.0;
  }
};

inline constexpr std::size_t kMaxPairCategories = 40;

// The table of report.columns[row] x report.columns[column], counted over the two tables
// (O(rows)); errors name the column that is missing from a table or the schema.
Result<PairTable> ComputePairTable(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const MetricReport& report, int row,
                                   int column);

}  // namespace deniable::ui
