// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/closeness.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <unordered_map>

#include "engine/core/random.h"

namespace deniable {
namespace {

std::string RowKey(const MixedMatrix& m, std::size_t r) {
  return std::string(reinterpret_cast<const char*>(m.row(r)), m.columns * sizeof(double));
}

// Copies of `real`'s rows among the synthetic rows: (copies, copies of unique rows, distinct
// real rows copied).
void Count(const MixedMatrix& real, const MixedMatrix& synthetic, std::uint64_t& copies,
           std::uint64_t& unique_copies, std::uint64_t& rows_copied) {
  struct Entry {
    std::uint64_t count = 0;
    bool copied = false;
  };
  std::unordered_map<std::string, Entry> rows;
  rows.reserve(real.rows);
  for (std::size_t r = 0; r < real.rows; ++r) ++rows[RowKey(real, r)].count;
  copies = unique_copies = rows_copied = 0;
  for (std::size_t r = 0; r < synthetic.rows; ++r) {
    auto it = rows.find(RowKey(synthetic, r));
    if (it == rows.end()) continue;
    ++copies;
    if (it->second.count == 1) ++unique_copies;
    if (!it->second.copied) {
      it->second.copied = true;
      rows_copied += it->second.count;
    }
  }
}

std::vector<std::uint32_t> Sample(std::size_t n, std::size_t count, Rng& rng) {
  std::vector<std::uint32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0u);
  count = std::min(count, n);
  for (std::size_t i = 0; i < count; ++i) std::swap(rows[i], rows[i + UniformBelow(rng, n - i)]);
  rows.resize(count);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

CopyCounts CountCopies(const MixedTables& tables) {
  CopyCounts c;
  c.synthetic_rows = tables.synthetic.rows;
  Count(tables.train, tables.synthetic, c.copies_of_train, c.copies_of_unique_train,
        c.train_rows_copied);
  Count(tables.control, tables.synthetic, c.copies_of_control, c.copies_of_unique_control,
        c.control_rows_copied);
  return c;
}

DistanceSummary Summarise(std::vector<double> d) {
  DistanceSummary s;
  if (d.empty()) return s;
  std::sort(d.begin(), d.end());
  // Nearest-rank quantiles: the value at index ⌈q·n⌉ − 1.
  const auto at = [&](double q) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(d.size())));
    return d[std::max<std::size_t>(rank, 1) - 1];
  };
  s.mean = std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(d.size());
  s.p05 = at(0.05);
  s.median = at(0.5);
  s.zero_share =
      static_cast<double>(std::count(d.begin(), d.end(), 0.0)) / static_cast<double>(d.size());
  return s;
}

Result<DcrReport> DistanceToClosestRecord(const MixedTables& tables, const DcrOptions& options,
                                          Progress& progress) {
  SeededRng rng(options.seed + 3);
  DcrReport out;
  out.reference_rows = std::min(tables.train.rows, tables.control.rows);
  if (tables.synthetic.rows == 0 || out.reference_rows == 0 || options.max_rows == 0) {
    return InvalidArgument("DCR needs at least one synthetic, training and control row");
  }
  const std::vector<std::uint32_t> synthetic_rows =
      Sample(tables.synthetic.rows, options.max_rows, rng);
  out.synthetic_rows = synthetic_rows.size();
  std::vector<std::size_t> all(tables.columns.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const MixedMatrix queries = SelectColumns(tables.synthetic, all, synthetic_rows);
  const MixedMatrix train =
      SelectColumns(tables.train, all, Sample(tables.train.rows, out.reference_rows, rng));
  const MixedMatrix control =
      SelectColumns(tables.control, all, Sample(tables.control.rows, out.reference_rows, rng));
  SubProgress p_train(progress, 0, 0.25), p_control(progress, 0.25, 0.5), p_all(progress, 0.5, 1);
  auto to_train = NearestNeighbours(queries, train, options.threads, p_train);
  if (!to_train) return to_train.error();
  auto to_control = NearestNeighbours(queries, control, options.threads, p_control);
  if (!to_control) return to_control.error();
  std::vector<double> all_distances;
  if (out.reference_rows == tables.train.rows) {
    for (const Neighbour& n : to_train.value()) all_distances.push_back(n.distance);
  } else {
    auto to_all = NearestNeighbours(queries, tables.train, options.threads, p_all);
    if (!to_all) return to_all.error();
    for (const Neighbour& n : to_all.value()) all_distances.push_back(n.distance);
  }
  out.to_train_all = Summarise(std::move(all_distances));
  std::vector<double> dt, dc;
  double closer = 0;
  for (std::size_t i = 0; i < queries.rows; ++i) {
    dt.push_back(to_train.value()[i].distance);
    dc.push_back(to_control.value()[i].distance);
    closer += dt.back() < dc.back() ? 1.0 : dt.back() == dc.back() ? 0.5 : 0.0;
  }
  out.to_train = Summarise(std::move(dt));
  out.to_control = Summarise(std::move(dc));
  out.closer_to_train = EstimateRate(closer, queries.rows, options.confidence);
  return out;
}

}  // namespace deniable
