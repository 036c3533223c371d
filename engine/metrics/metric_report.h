// SPDX-License-Identifier: Apache-2.0
// MetricReport: how close a synthetic table is to the real one, as computed by CompareTables
// (marginals.h) — per-column total variation distance (TVD) with the histograms behind it, the
// 2-way TVD matrix and its mean over all column pairs, and normalised mutual-information
// matrices of both tables (the GUI's heatmaps). `compare` prints MetricReportSummary() and
// writes MetricReportToJson().
//
// Privacy note: a MetricReport holds EXACT statistics of the real data (histograms, bin edges
// taken from the real column's min and max, mutual information). It is for the data owner's
// own review and must not be published with a release; nothing here went through a DP
// mechanism.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/result.h"

namespace deniable {

// How a column's values were turned into the categories the TVD is taken over.
enum class ComparisonKind {
  kBinned,  // numeric, more than max_distinct_for_values distinct real values: equal-width bins
            // over the real column's [min, max]; synthetic values outside go to the edge bins
  kValues,  // every other column: one category per value (numbers compared as numbers)
};
const char* ComparisonKindName(ComparisonKind kind);  // "binned", "values"

// What the GUI's histogram view plots for one column: categories in display order (bins
// ascending; numeric values ascending; strings by real frequency, then synthetic-only ones;
// cells that do not parse as the column's number type by text; "(missing)" last) and the
// fraction of each table's rows in each. labels, real and synthetic have the same size.
// For display only: beyond CompareOptions::max_histogram_categories categories the smallest
// non-bin ones are merged into one "(N other values)" category (so a synthesizer that invents
// 40,000 distinct floats does not make a 40,000-bar chart); the TVD is always taken over all
// categories.
struct ColumnHistogram {
  std::vector<std::string> labels;
  std::vector<double> real;
  std::vector<double> synthetic;
};

struct ColumnComparison {
  std::string name;
  ComparisonKind kind = ComparisonKind::kValues;
  std::uint64_t categories = 0;  // categories the TVD is taken over (before display merging)
  double tvd = 0;  // 1-way TVD: half the L1 distance between the two histograms, in [0, 1]
  ColumnHistogram histogram;
};

// A real column that is not compared, and why ("role identifier", "role ignore",
// "all values distinct").
struct ExcludedColumn {
  std::string name;
  std::string reason;
};

// All matrices are k x k over `columns` (k = columns.size()), in that order, symmetric.
struct MetricReport {
  std::uint64_t real_rows = 0;
  std::uint64_t synthetic_rows = 0;
  int bins = 20;  // the CompareOptions the report was computed with
  int max_distinct_for_values = 20;

  std::vector<ColumnComparison> columns;  // compared columns, in the real table's order
  double mean_column_tvd = 0;             // mean of columns[i].tvd ("1-way mean")

  // pair_tvd[i][j], i != j: TVD between the real and synthetic joint distributions of columns
  // i and j; the diagonal holds the 1-way TVD of column i (the 2-way TVD of (X, X)).
  std::vector<std::vector<double>> pair_tvd;
  // Mean of pair_tvd[i][j] over all pairs i < j; nullopt when fewer than two columns compared.
  std::optional<double> mean_pair_tvd;

  // Normalised mutual information NMI(X, Y) = I(X; Y) / ((H(X) + H(Y)) / 2) over the same
  // categories (scikit-learn's default "arithmetic" normalisation, used by DataSynthesizer's
  // heatmaps), in [0, 1]. NMI is defined as 0 when H(X) = H(Y) = 0 (two constant columns carry
  // no information about each other; scikit-learn returns 1 there). Diagonal: 1, or 0 for a
  // constant column.
  std::vector<std::vector<double>> nmi_real;
  std::vector<std::vector<double>> nmi_synthetic;

  std::vector<ExcludedColumn> excluded;                // real columns left out
  std::vector<std::string> ignored_synthetic_columns;  // synthetic columns with no real match

  std::size_t pair_count() const {
    const std::size_t k = columns.size();
    return k < 2 ? 0 : k * (k - 1) / 2;
  }
};

// The report as JSON. Keys (stable; version bumps on any incompatible change):
//   "format": "deniable-metrics", "version": 1,
//   "measure": {"bins", "max_distinct_for_values"}, "real_rows", "synthetic_rows",
//   "mean_column_tvd", "mean_pair_tvd" (null when fewer than two columns), "pair_count",
//   "columns": [{"name", "kind" ("binned"/"values"), "tvd", "categories",
//                "histogram": {"labels", "real", "synthetic"}}],
//   "matrix_columns": [names, the order of the three matrices],
//   "pair_tvd", "nmi_real", "nmi_synthetic": k x k arrays,
//   "excluded": [{"name", "reason"}], "ignored_synthetic_columns": [names].
nlohmann::json MetricReportToJson(const MetricReport& report);

// Reads what MetricReportToJson wrote (e.g. a saved `compare -o metrics.json`, for the GUI to
// show without the data). Every field is checked: kParse errors name the key path and what is
// wrong, e.g. "metrics JSON: 'columns[2].tvd' must be in [0, 1] (got 1.5)".
Result<MetricReport> MetricReportFromJson(const nlohmann::json& json);

// A short human-readable summary for the terminal: both means, per-column TVD, the worst
// pairs, excluded and ignored columns.
std::string MetricReportSummary(const MetricReport& report);

}  // namespace deniable
