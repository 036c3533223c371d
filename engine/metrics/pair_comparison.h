// SPDX-License-Identifier: Apache-2.0
// ComparePair: the 2-way table of one pair of compared columns, real beside synthetic — what a
// click on a heatmap cell opens. Its categories are exactly those CompareTables used (same
// bins, values and missing category, marginals.h), so the table explains the report's
// pair_tvd[i][j], nmi_real[i][j] and nmi_synthetic[i][j], and its figures equal them.
//
// Privacy: exact counts of the real data, for the data owner's review only (like the
// MetricReport); never part of a release.
//
// Example (the cell of report.columns[i] x report.columns[j]):
//   CompareOptions options{.bins = report.bins,
//                          .max_distinct_for_values = report.max_distinct_for_values,
//                          .max_histogram_categories = 40};
//   auto table = ComparePair(real, synthetic, schema, report.columns[i].name,
//                            report.columns[j].name, options);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/metrics/marginals.h"
#include "engine/schema/schema.h"

namespace deniable {

struct PairComparison {
  std::string row_name;     // the first column
  std::string column_name;  // the second column
  // Display categories of each column: beyond options.max_histogram_categories the smallest
  // non-bin categories are merged into one "(N other values)" category, as in ColumnHistogram.
  std::vector<std::string> row_labels;
  std::vector<std::string> column_labels;
  // counts[r][c]: rows of each table in (row category r, column category c).
  std::vector<std::vector<std::uint64_t>> real_counts;
  std::vector<std::vector<std::uint64_t>> synthetic_counts;
  std::uint64_t real_rows = 0;
  std::uint64_t synthetic_rows = 0;
  // Over all (unmerged) categories; equal to the MetricReport's cells for this pair.
  double tvd = 0;
  double nmi_real = 0;
  double nmi_synthetic = 0;

  double real_fraction(std::size_t r, std::size_t c) const {
    return static_cast<double>(real_counts[r][c]) / static_cast<double>(real_rows);
  }
  double synthetic_fraction(std::size_t r, std::size_t c) const {
    return static_cast<double>(synthetic_counts[r][c]) / static_cast<double>(synthetic_rows);
  }
};

// Compares the real columns named `row_column` and `column_column` (the same name twice gives
// the diagonal: the 1-way TVD, NMI 1 or 0) with the rules and options of CompareTables; one
// pass over the rows. options.threads is not used. Errors (kInvalidArgument unless said):
// a name that is not a column of the real table; a column without schema entry, missing from
// the synthetic table, or excluded from the comparison (with the reason); bad options; empty
// tables (kFailedPrecondition).
Result<PairComparison> ComparePair(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const std::string& row_column,
                                   const std::string& column_column, const CompareOptions& options);

}  // namespace deniable
