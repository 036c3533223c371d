// SPDX-License-Identifier: Apache-2.0
// CompareTables: the utility measure of a synthetic table against the real one (issue 2,
// item 8). This is exactly the measure behind the project's targets (mean 2-way TVD <= 0.08 on
// adult at epsilon = 1; DataSynthesizer's 0.27), so results are comparable across runs and
// tools:
//  * Each real column is compared unless its schema role is identifier or ignore, or all its
//    values are distinct (an identifier in all but name; needs at least 2 rows). Those are
//    listed in MetricReport::excluded with the reason.
//  * A numeric column (Integer, Float, DateTime) with more than `max_distinct_for_values`
//    distinct parsed real values is cut into `bins` equal-width bins over the REAL column's
//    [min, max] (bin i = [min + i w, min + (i+1) w), the last one closed); synthetic values
//    outside the range go to the edge bins.
//  * Every other column is compared by value: numeric columns by parsed number (so "1" and
//    "1.0" are the same value), strings by exact text. Synthetic values never seen in the real
//    column are categories of their own (they add to the TVD).
//  * Missing cells are a category of their own. A non-missing cell of a numeric column that
//    does not parse as the column's type is a category named by its text.
//  * The schema's categorical flag does not change the measure: only the type, the role and
//    the real data do (a user's flag must not make two reports incomparable).
// Synthetic columns are matched to real columns by name; extra synthetic columns are ignored
// and listed.
//
// Speed: each compared column is encoded once into integer codes shared by both tables; each
// column pair's two joint histograms take one pass over the rows (dense counts, or sorting for
// pairs with very many category combinations), pairs spread over `threads` threads.
//
// Privacy: the report holds exact real statistics (see metric_report.h). Do not use it, or
// anything derived from it, inside a release.
//
// Example:
//   NullProgress progress;
//   auto report = CompareTables(real, synthetic, schema, CompareOptions{}, progress);
//   if (!report) return report.error();
//   std::cout << MetricReportSummary(*report);
#pragma once

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/metrics/metric_report.h"
#include "engine/schema/schema.h"

namespace deniable {

struct CompareOptions {
  int bins = 20;                       // equal-width bins for binned numeric columns, >= 1
  int max_distinct_for_values = 20;    // numeric columns with at most this many distinct real
                                       // values are compared by value, >= 0
  int max_histogram_categories = 100;  // display only (see ColumnHistogram); 0 = no limit
  int threads = 0;                     // worker threads; 0 = hardware concurrency
};

// `schema` describes the real table's columns (every real column must have an entry of the
// same name; extra schema entries are ignored). Errors:
//   kInvalidArgument   a bad option (names it and its value); a compared real column missing
//                      from the synthetic table or from the schema (names it)
//   kFailedPrecondition  either table has no rows; no column left to compare
//   kCancelled         progress.IsCancelled() turned true
// Progress is reported and polled only on the calling thread.
Result<MetricReport> CompareTables(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const CompareOptions& options,
                                   Progress& progress);

}  // namespace deniable
