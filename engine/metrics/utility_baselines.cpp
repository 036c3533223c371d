// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/utility_baselines.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/select_rows.h"
#include "engine/metrics/column_encoding.h"
#include "engine/metrics/compare_inputs.h"

namespace deniable {

double IndependenceTvd(const std::vector<std::uint32_t>& x_codes,
                       const std::vector<std::uint32_t>& y_codes,
                       const std::vector<std::uint64_t>& x_counts,
                       const std::vector<std::uint64_t>& y_counts) {
  const std::size_t n = x_codes.size();
  if (n == 0) return 0;
  // Only observed cells are visited: sum over all cells |p_ab - p_a p_b| equals
  // sum_observed (|p_ab - p_a p_b| - p_a p_b) + 1, since the products sum to 1.
  std::vector<std::uint64_t> keys(n);
  const std::uint64_t y_categories = y_counts.size();
  for (std::size_t r = 0; r < n; ++r) keys[r] = x_codes[r] * y_categories + y_codes[r];
  std::sort(keys.begin(), keys.end());
  const double total = static_cast<double>(n);
  double sum = 1.0;
  for (std::size_t r = 0; r < n;) {
    std::size_t end = r;
    while (end < n && keys[end] == keys[r]) ++end;
    const double joint = static_cast<double>(end - r) / total;
    const double product = static_cast<double>(x_counts[keys[r] / y_categories]) / total *
                           (static_cast<double>(y_counts[keys[r] % y_categories]) / total);
    sum += std::abs(joint - product) - product;
    r = end;
  }
  return std::clamp(sum / 2.0, 0.0, 1.0);
}

Result<UtilityBaselines> ComputeUtilityBaselines(const RawTable& real, const Schema& schema,
                                                 const CompareOptions& options,
                                                 std::uint64_t seed, Progress& progress,
                                                 std::size_t synthetic_rows) {
  if (Status valid = internal::ValidateCompareOptions(options); !valid) return valid.error();
  const auto rows = internal::CheckedRowCount(real, "real");
  if (!rows) return rows.error();
  if (*rows < 2) return FailedPrecondition("the utility floor needs at least 2 real rows");

  // The perfect independent model: the compared columns encoded as CompareTables does.
  std::vector<internal::ComparedColumn> columns;
  for (const RawColumn& column : real.columns) {
    auto sources = internal::FindColumnSources(real, real, schema, column);
    if (!sources) return sources.error();
    if (!sources->exclusion.empty()) continue;
    columns.push_back(internal::EncodeComparedColumn(column, column, *sources->schema,
                                                     options.bins,
                                                     options.max_distinct_for_values));
  }
  if (columns.empty()) return FailedPrecondition("no column to compare in " + real.source);
  UtilityBaselines out;
  double sum = 0;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (progress.IsCancelled()) return Cancelled("utility baselines cancelled");
    for (std::size_t j = i + 1; j < columns.size(); ++j) {
      sum += IndependenceTvd(columns[i].real_codes, columns[j].real_codes, columns[i].real_counts,
                             columns[j].real_counts);
      ++out.pairs;
    }
  }
  if (out.pairs > 0) out.perfect_independent = sum / static_cast<double>(out.pairs);
  progress.Report(0.5, "Perfect independent model");

  // The floor: a seeded random half of the real rows, compared as a synthetic table would be.
  std::vector<std::uint32_t> order(*rows);
  std::iota(order.begin(), order.end(), 0U);
  SeededRng rng(seed);
  Shuffle(std::span<std::uint32_t>(order), rng);
  order.resize(*rows / 2);
  std::sort(order.begin(), order.end());
  const RawTable half = SelectRawRows(real, order);
  NullProgress quiet;
  auto report = CompareTables(real, half, schema, options, quiet);
  if (!report) return report.error();
  out.floor = report->mean_pair_tvd.value_or(0.0);

  // The independent model drawn at the release's size: every column its own random rows.
  if (synthetic_rows > 0) {
    if (progress.IsCancelled()) return Cancelled("utility baselines cancelled");
    SeededRng draw(seed + 1);
    RawTable independent;
    independent.source = "independent model drawn from " + real.source;
    independent.dialect = real.dialect;
    independent.row_line.resize(synthetic_rows);
    std::iota(independent.row_line.begin(), independent.row_line.end(), std::uint64_t{2});
    std::vector<std::uint32_t> picks(synthetic_rows);
    for (const RawColumn& column : real.columns) {
      for (std::uint32_t& pick : picks) pick = static_cast<std::uint32_t>(UniformBelow(draw, *rows));
      independent.columns.push_back(SelectRawColumnRows(column, picks));
    }
    auto drawn = CompareTables(real, independent, schema, options, quiet);
    if (!drawn) return drawn.error();
    out.perfect_independent_at_rows = drawn->mean_pair_tvd.value_or(0.0);
  }
  progress.Report(1.0, "Utility baselines done");
  return out;
}

}  // namespace deniable
