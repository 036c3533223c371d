// SPDX-License-Identifier: Apache-2.0
#include "ui/review/pair_table.h"

#include <algorithm>
#include <cmath>
#include <numeric>

// The metrics module's internal encoder: the only way to get exactly the categories the
// MetricReport was computed over (see the report to the lead: a public ComparePair() in
// engine/metrics would be cleaner).
#include "engine/metrics/column_encoding.h"

namespace deniable::ui {
namespace {

// Category -> displayed index: the kMaxPairCategories - 1 most frequent categories (real plus
// synthetic) keep their display order, every other one goes to one last "(N more)" index.
std::vector<std::uint32_t> displayMap(const internal::ComparedColumn& column,
                                      std::vector<std::string>& labels) {
  const std::uint32_t n = column.categories();
  std::vector<std::uint32_t> map(n);
  if (n <= kMaxPairCategories) {
    std::iota(map.begin(), map.end(), 0u);
    labels = column.labels;
    return map;
  }
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto total = [&](std::uint32_t c) { return column.real_counts[c] + column.synthetic_counts[c]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return total(a) > total(b); });
  std::vector<bool> kept(n, false);
  for (std::size_t i = 0; i + 1 < kMaxPairCategories; ++i) kept[order[i]] = true;
  labels.clear();
  for (std::uint32_t c = 0; c < n; ++c) {
    if (kept[c]) {
      map[c] = static_cast<std::uint32_t>(labels.size());
      labels.push_back(column.labels[c]);
    }
  }
  const auto rest = static_cast<std::uint32_t>(labels.size());
  for (std::uint32_t c = 0; c < n; ++c) {
    if (!kept[c]) map[c] = rest;
  }
  labels.push_back("(" + std::to_string(n - rest) + " more)");
  return map;
}

// 2-way TVD of the joint distributions over all (unmerged) category pairs, by sorting keys.
double jointTvd(const internal::ComparedColumn& x, const internal::ComparedColumn& y) {
  auto keys = [&](const std::vector<std::uint32_t>& xs, const std::vector<std::uint32_t>& ys) {
    std::vector<std::uint64_t> out(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      out[i] = (std::uint64_t{xs[i]} << 32) | ys[i];
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const std::vector<std::uint64_t> a = keys(x.real_codes, y.real_codes);
  const std::vector<std::uint64_t> b = keys(x.synthetic_codes, y.synthetic_codes);
  if (a.empty() || b.empty()) return 0.0;
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  double sum = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const std::uint64_t key = j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    std::uint64_t ca = 0, cb = 0;
    while (i < a.size() && a[i] == key) ++ca, ++i;
    while (j < b.size() && b[j] == key) ++cb, ++j;
    sum += std::fabs(static_cast<double>(ca) / na - static_cast<double>(cb) / nb);
  }
  return sum / 2;
}

Result<internal::ComparedColumn> encode(const RawTable& real, const RawTable& synthetic,
                                        const Schema& schema, const MetricReport& report,
                                        int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= report.columns.size()) {
    return InvalidArgument("no compared attribute number " + std::to_string(index));
  }
  const std::string& name = report.columns[static_cast<std::size_t>(index)].name;
  const int r = real.ColumnIndex(name), s = synthetic.ColumnIndex(name);
  const int c = schema.ColumnIndex(name);
  if (r < 0) return InvalidArgument("attribute '" + name + "' is not in the real table");
  if (s < 0) return InvalidArgument("attribute '" + name + "' is not in the synthetic table");
  if (c < 0) return InvalidArgument("attribute '" + name + "' is not in the schema");
  return internal::EncodeComparedColumn(
      real.columns[static_cast<std::size_t>(r)], synthetic.columns[static_cast<std::size_t>(s)],
      schema.columns[static_cast<std::size_t>(c)], report.bins, report.max_distinct_for_values);
}

}  // namespace

Result<PairTable> ComputePairTable(const RawTable& real, const RawTable& synthetic,
                                   const Schema& schema, const MetricReport& report, int row,
                                   int column) {
  auto x = encode(real, synthetic, schema, report, row);
  if (!x) return x.error();
  auto y = encode(real, synthetic, schema, report, column);
  if (!y) return y.error();
  PairTable table;
  table.row_name = x->name;
  table.column_name = y->name;
  const std::vector<std::uint32_t> xmap = displayMap(*x, table.row_labels);
  const std::vector<std::uint32_t> ymap = displayMap(*y, table.column_labels);
  const std::vector<std::uint64_t> zeros(table.column_labels.size(), 0);
  table.real_counts.assign(table.row_labels.size(), zeros);
  table.synthetic_counts.assign(table.row_labels.size(), zeros);
  for (std::size_t i = 0; i < x->real_codes.size(); ++i) {
    ++table.real_counts[xmap[x->real_codes[i]]][ymap[y->real_codes[i]]];
  }
  for (std::size_t i = 0; i < x->synthetic_codes.size(); ++i) {
    ++table.synthetic_counts[xmap[x->synthetic_codes[i]]][ymap[y->synthetic_codes[i]]];
  }
  table.real_rows = x->real_codes.size();
  table.synthetic_rows = x->synthetic_codes.size();
  table.tvd = jointTvd(*x, *y);
  return table;
}

}  // namespace deniable::ui
