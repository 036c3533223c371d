// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/pair_comparison.h"

#include <utility>

#include "engine/metrics/column_encoding.h"
#include "engine/metrics/compare_inputs.h"
#include "engine/metrics/display_categories.h"
#include "engine/metrics/pairwise.h"

namespace deniable {
namespace {

Result<internal::ComparedColumn> EncodeNamed(const RawTable& real, const RawTable& synthetic,
                                             const Schema& schema, const std::string& name,
                                             const CompareOptions& options) {
  const int index = real.ColumnIndex(name);
  if (index < 0) {
    return InvalidArgument("real table " + real.source + " has no column '" + name + "'");
  }
  auto sources = internal::FindColumnSources(real, synthetic, schema,
                                             real.columns[static_cast<std::size_t>(index)]);
  if (!sources) return sources.error();
  if (!sources->exclusion.empty()) {
    return InvalidArgument("column '" + name + "' is not compared (" + sources->exclusion + ")");
  }
  return internal::EncodeComparedColumn(*sources->real, *sources->synthetic, *sources->schema,
                                        options.bins, options.max_distinct_for_values);
}

// counts[map_x[x]][map_y[y]] over the rows.
std::vector<std::vector<std::uint64_t>> DisplayCounts(const std::vector<std::uint32_t>& x_codes,
                                                      const std::vector<std::uint32_t>& y_codes,
                                                      const internal::DisplayCategories& x,
                                                      const internal::DisplayCategories& y) {
  std::vector<std::vector<std::uint64_t>> counts(x.labels.size(),
                                                 std::vector<std::uint64_t>(y.labels.size(), 0));
  for (std::size_t row = 0; row < x_codes.size(); ++row) {
    ++counts[x.map[x_codes[row]]][y.map[y_codes[row]]];
  }
  return counts;
}

}  // namespace

Result<PairComparison> ComparePair(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const std::string& row_column,
                                   const std::string& column_column,
                                   const CompareOptions& options) {
  if (Status valid = internal::ValidateCompareOptions(options); !valid) return valid.error();
  const auto real_rows = internal::CheckedRowCount(real, "real");
  if (!real_rows) return real_rows.error();
  const auto synthetic_rows = internal::CheckedRowCount(synthetic, "synthetic");
  if (!synthetic_rows) return synthetic_rows.error();
  auto x = EncodeNamed(real, synthetic, schema, row_column, options);
  if (!x) return x.error();
  auto y = EncodeNamed(real, synthetic, schema, column_column, options);
  if (!y) return y.error();

  PairComparison pair;
  pair.row_name = row_column;
  pair.column_name = column_column;
  pair.real_rows = *real_rows;
  pair.synthetic_rows = *synthetic_rows;
  const internal::DisplayCategories x_display = internal::ChooseDisplayCategories(
      *x, pair.real_rows, pair.synthetic_rows, options.max_histogram_categories);
  const internal::DisplayCategories y_display = internal::ChooseDisplayCategories(
      *y, pair.real_rows, pair.synthetic_rows, options.max_histogram_categories);
  pair.row_labels = x_display.labels;
  pair.column_labels = y_display.labels;
  pair.real_counts = DisplayCounts(x->real_codes, y->real_codes, x_display, y_display);
  pair.synthetic_counts =
      DisplayCounts(x->synthetic_codes, y->synthetic_codes, x_display, y_display);

  const double real_entropy_x = internal::Entropy(x->real_counts, pair.real_rows);
  const double synthetic_entropy_x = internal::Entropy(x->synthetic_counts, pair.synthetic_rows);
  if (row_column == column_column) {  // the diagonal, exactly as CompareTables fills it
    pair.tvd = internal::TotalVariationDistance(x->real_counts, pair.real_rows, x->synthetic_counts,
                                                pair.synthetic_rows);
    pair.nmi_real = real_entropy_x > 0 ? 1.0 : 0.0;
    pair.nmi_synthetic = synthetic_entropy_x > 0 ? 1.0 : 0.0;
    return pair;
  }
  internal::PairCounter counter;
  const internal::PairStatistics stats = counter.Compute(*x, *y);
  pair.tvd = stats.tvd;
  pair.nmi_real =
      internal::NormalizedMutualInformation(stats.mutual_information_real, real_entropy_x,
                                            internal::Entropy(y->real_counts, pair.real_rows));
  pair.nmi_synthetic = internal::NormalizedMutualInformation(
      stats.mutual_information_synthetic, synthetic_entropy_x,
      internal::Entropy(y->synthetic_counts, pair.synthetic_rows));
  return pair;
}

}  // namespace deniable
