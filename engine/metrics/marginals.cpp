// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/marginals.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/metrics/column_encoding.h"
#include "engine/metrics/compare_inputs.h"
#include "engine/metrics/display_categories.h"
#include "engine/metrics/pairwise.h"
#include "engine/metrics/parallel_tasks.h"

namespace deniable {
namespace {

using internal::ComparedColumn;
using internal::PairStatistics;

constexpr double kEncodingShare = 0.3;  // of the progress bar

ColumnComparison Summarise(const ComparedColumn& column, std::uint64_t real_rows,
                           std::uint64_t synthetic_rows, int max_histogram_categories) {
  ColumnComparison out;
  out.name = column.name;
  out.kind = column.kind;
  out.categories = column.categories();
  out.tvd = internal::TotalVariationDistance(column.real_counts, real_rows, column.synthetic_counts,
                                             synthetic_rows);
  out.histogram =
      internal::DisplayHistogram(column, real_rows, synthetic_rows, max_histogram_categories);
  return out;
}

}  // namespace

Result<MetricReport> CompareTables(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const CompareOptions& options,
                                   Progress& progress) {
  if (Status valid = internal::ValidateCompareOptions(options); !valid) return valid.error();
  const auto real_rows = internal::CheckedRowCount(real, "real");
  if (!real_rows) return real_rows.error();
  const auto synthetic_rows = internal::CheckedRowCount(synthetic, "synthetic");
  if (!synthetic_rows) return synthetic_rows.error();

  MetricReport report;
  report.real_rows = *real_rows;
  report.synthetic_rows = *synthetic_rows;
  report.bins = options.bins;
  report.max_distinct_for_values = options.max_distinct_for_values;

  // Which real columns are compared, against which synthetic column.
  std::vector<internal::ColumnSources> planned;
  for (const RawColumn& column : real.columns) {
    auto sources = internal::FindColumnSources(real, synthetic, schema, column);
    if (!sources) return sources.error();
    if (!sources->exclusion.empty()) {
      report.excluded.push_back({column.name, sources->exclusion});
    } else {
      planned.push_back(*sources);
    }
  }
  for (const RawColumn& column : synthetic.columns) {
    if (real.ColumnIndex(column.name) < 0) report.ignored_synthetic_columns.push_back(column.name);
  }
  if (planned.empty()) {
    return FailedPrecondition("no column to compare: all " + std::to_string(real.num_columns()) +
                              " columns of real table " + real.source + " are excluded");
  }

  std::vector<ComparedColumn> columns(planned.size());
  if (progress.IsCancelled()) return Cancelled("comparison cancelled");
  Status encoded =
      internal::RunParallel(planned.size(), options.threads, progress, 0.0, kEncodingShare,
                            "Encoding columns", [&](std::size_t i, std::size_t) {
                              columns[i] = internal::EncodeComparedColumn(
                                  *planned[i].real, *planned[i].synthetic, *planned[i].schema,
                                  options.bins, options.max_distinct_for_values);
                            });
  if (!encoded) return encoded.error();

  const std::size_t k = columns.size();
  std::vector<double> real_entropy(k);
  std::vector<double> synthetic_entropy(k);
  double tvd_sum = 0;
  for (std::size_t i = 0; i < k; ++i) {
    report.columns.push_back(Summarise(columns[i], report.real_rows, report.synthetic_rows,
                                       options.max_histogram_categories));
    tvd_sum += report.columns.back().tvd;
    real_entropy[i] = internal::Entropy(columns[i].real_counts, report.real_rows);
    synthetic_entropy[i] = internal::Entropy(columns[i].synthetic_counts, report.synthetic_rows);
  }
  report.mean_column_tvd = tvd_sum / static_cast<double>(k);

  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i + 1; j < k; ++j) pairs.emplace_back(i, j);
  }
  std::vector<PairStatistics> stats(pairs.size());
  std::vector<internal::PairCounter> counters(internal::WorkerCount(options.threads, pairs.size()));
  Status counted = internal::RunParallel(
      pairs.size(), options.threads, progress, kEncodingShare, 1.0, "Comparing column pairs",
      [&](std::size_t p, std::size_t worker) {
        stats[p] = counters[worker].Compute(columns[pairs[p].first], columns[pairs[p].second]);
      });
  if (!counted) return counted.error();

  report.pair_tvd.assign(k, std::vector<double>(k, 0.0));
  report.nmi_real.assign(k, std::vector<double>(k, 0.0));
  report.nmi_synthetic.assign(k, std::vector<double>(k, 0.0));
  for (std::size_t i = 0; i < k; ++i) {
    report.pair_tvd[i][i] = report.columns[i].tvd;
    report.nmi_real[i][i] = real_entropy[i] > 0 ? 1.0 : 0.0;
    report.nmi_synthetic[i][i] = synthetic_entropy[i] > 0 ? 1.0 : 0.0;
  }
  double pair_sum = 0;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [i, j] = pairs[p];
    const PairStatistics& s = stats[p];
    report.pair_tvd[i][j] = report.pair_tvd[j][i] = s.tvd;
    report.nmi_real[i][j] = report.nmi_real[j][i] = internal::NormalizedMutualInformation(
        s.mutual_information_real, real_entropy[i], real_entropy[j]);
    report.nmi_synthetic[i][j] = report.nmi_synthetic[j][i] = internal::NormalizedMutualInformation(
        s.mutual_information_synthetic, synthetic_entropy[i], synthetic_entropy[j]);
    pair_sum += s.tvd;
  }
  if (!pairs.empty()) report.mean_pair_tvd = pair_sum / static_cast<double>(pairs.size());
  progress.Report(1.0, "Comparison done");
  return report;
}

}  // namespace deniable
