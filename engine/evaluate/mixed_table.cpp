// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/mixed_table.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>
#include <unordered_map>

namespace deniable {
namespace {

double ParseNumber(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0' || !std::isfinite(value)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return value;
}

}  // namespace

void ParallelChunks(std::size_t n, unsigned threads,
                    const std::function<void(std::size_t, std::size_t, unsigned)>& body) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(n, 1)));
  std::vector<std::thread> workers;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(n, t * chunk), end = std::min(n, (t + 1) * chunk);
    workers.emplace_back([&body, begin, end, t] { body(begin, end, t); });
  }
  body(0, std::min(n, chunk), 0);
  for (std::thread& worker : workers) worker.join();
}

MixedMatrix SelectColumns(const MixedMatrix& m, const std::vector<std::size_t>& columns,
                          const std::vector<std::uint32_t>& rows) {
  MixedMatrix out;
  out.columns = columns.size();
  out.rows = rows.empty() ? m.rows : rows.size();
  std::vector<std::size_t> ordered = columns;
  std::stable_partition(ordered.begin(), ordered.end(),
                        [&](std::size_t c) { return m.kinds[c] == MixedKind::kCategorical; });
  for (std::size_t c : ordered) {
    out.kinds.push_back(m.kinds[c]);
    out.categorical += m.kinds[c] == MixedKind::kCategorical ? 1 : 0;
  }
  const std::vector<std::size_t>& columns_in_order = ordered;
  out.values.resize(out.rows * out.columns);
  for (std::size_t r = 0; r < out.rows; ++r) {
    const double* source = m.row(rows.empty() ? r : rows[r]);
    for (std::size_t j = 0; j < columns_in_order.size(); ++j) {
      out.values[r * out.columns + j] = source[columns_in_order[j]];
    }
  }
  return out;
}

int MixedTables::ColumnIndex(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Result<MixedTables> EncodeMixedTables(const RawTable& train, const RawTable& control,
                                      const RawTable& synthetic, const Schema& schema) {
  MixedTables out;
  const RawTable* tables[] = {&train, &control, &synthetic};
  // Columns: categorical first, then numeric (early exit, see the header).
  std::vector<const ColumnSchema*> categorical, numeric;
  for (const ColumnSchema& column : schema.columns) {
    if (!column.is_modelled()) continue;
    const bool is_number = (column.type == DataType::kInteger || column.type == DataType::kFloat) &&
                           !column.categorical;
    (is_number ? numeric : categorical).push_back(&column);
  }
  // Categorical columns by decreasing Gini impurity of the training rows' values.
  std::vector<std::pair<double, const ColumnSchema*>> impurity;
  for (const ColumnSchema* column : categorical) {
    double gini = 1;
    const int index = train.ColumnIndex(column->name);
    if (index >= 0 && train.num_rows() > 0) {
      const RawColumn& raw = train.columns[index];
      const double n = static_cast<double>(train.num_rows());
      for (std::uint64_t count : raw.counts) gini -= (count / n) * (count / n);
      gini -= (raw.missing_count / n) * (raw.missing_count / n);
    }
    impurity.push_back({gini, column});
  }
  std::stable_sort(impurity.begin(), impurity.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < impurity.size(); ++i) categorical[i] = impurity[i].second;
  std::vector<const ColumnSchema*> order = categorical;
  order.insert(order.end(), numeric.begin(), numeric.end());
  if (order.empty()) return InvalidArgument("the real table has no modelled column to compare");
  std::vector<std::array<int, 3>> source_index;
  for (const ColumnSchema* column : order) {
    std::array<int, 3> index{};
    for (int t = 0; t < 3; ++t) {
      index[t] = tables[t]->ColumnIndex(column->name);
      if (index[t] < 0) {
        return InvalidArgument("column '" + column->name + "' of the real table is not in '" +
                               tables[t]->source + "'");
      }
    }
    source_index.push_back(index);
    MixedColumn mixed;
    mixed.name = column->name;
    out.columns.push_back(std::move(mixed));
  }
  for (std::size_t i = categorical.size(); i < order.size(); ++i) {
    out.columns[i].kind = MixedKind::kNumeric;
  }
  const std::size_t m = order.size();
  MixedMatrix* matrices[] = {&out.train, &out.control, &out.synthetic};
  for (int t = 0; t < 3; ++t) {
    matrices[t]->rows = tables[t]->num_rows();
    matrices[t]->columns = m;
    matrices[t]->values.assign(matrices[t]->rows * m, 0.0);
    for (const MixedColumn& column : out.columns) matrices[t]->kinds.push_back(column.kind);
    matrices[t]->categorical = categorical.size();
  }
  for (std::size_t c = 0; c < m; ++c) {
    MixedColumn& column = out.columns[c];
    // Per table: the value of each dictionary entry.
    std::array<std::vector<double>, 3> entry_value;
    if (column.kind == MixedKind::kNumeric) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (int t = 0; t < 3; ++t) {
        const RawColumn& raw = tables[t]->columns[source_index[c][t]];
        for (const std::string& text : raw.dictionary) {
          const double x = ParseNumber(text);
          entry_value[t].push_back(x);
          if (x == x) lo = std::min(lo, x), hi = std::max(hi, x);
        }
      }
      if (!(lo <= hi)) lo = hi = 0;
      column.min = lo;
      column.max = hi;
      const double range = hi > lo ? hi - lo : 1.0;
      for (auto& values : entry_value) {
        for (double& x : values) x = x == x ? (x - lo) / range : x;
      }
    } else {
      std::unordered_map<std::string, double> codes;
      for (int t = 0; t < 3; ++t) {
        const RawColumn& raw = tables[t]->columns[source_index[c][t]];
        for (const std::string& text : raw.dictionary) {
          auto [it, added] = codes.emplace(text, static_cast<double>(column.categories.size()));
          if (added) column.categories.push_back(text);
          entry_value[t].push_back(it->second);
        }
      }
    }
    const double missing = column.kind == MixedKind::kNumeric
                               ? std::numeric_limits<double>::quiet_NaN()
                               : kMissingCategory;
    for (int t = 0; t < 3; ++t) {
      const RawColumn& raw = tables[t]->columns[source_index[c][t]];
      double* values = matrices[t]->values.data();
      for (std::size_t r = 0; r < raw.codes.size(); ++r) {
        const std::uint32_t code = raw.codes[r];
        values[r * m + c] = code == kMissingCode ? missing : entry_value[t][code];
      }
    }
  }
  return out;
}

namespace {

// Queries are searched in blocks: every base row is read once per block of kBlock queries (from
// cache for the others), not once per query: the scan is bound by memory traffic otherwise.
constexpr std::size_t kBlock = 32;

// Calls visit(q, r, d) for every query q in [begin, end) and base row r whose distance d is at
// most bound[q] (bound[q] is read at each row, so visit may lower it), in base order per
// query, blocks of queries at a time. False when cancelled.
template <typename Visit>
bool ScanBlocks(const MixedMatrix& queries, const MixedMatrix& base, std::size_t begin,
                std::size_t end, unsigned thread, std::vector<double>& bound,
                std::atomic<bool>& cancelled, Progress& progress, Visit&& visit) {
  const std::size_t m = queries.columns;
  const std::size_t categorical = queries.categorical;
  for (std::size_t block = begin; block < end; block += kBlock) {
    if (cancelled.load(std::memory_order_relaxed) || progress.IsCancelled()) {
      cancelled = true;
      return false;
    }
    if (thread == 0) {
      progress.Report(static_cast<double>(block - begin) / static_cast<double>(end - begin), "");
    }
    const std::size_t block_end = std::min(end, block + kBlock);
    for (std::size_t r = 0; r < base.rows; ++r) {
      const double* b = base.row(r);
      for (std::size_t q = block; q < block_end; ++q) {
        const double d = MixedDistance(queries.row(q), b, categorical, m, bound[q]);
        if (d <= bound[q]) visit(q, r, d);
      }
    }
  }
  return true;
}

}  // namespace

Result<std::vector<Neighbour>> NearestNeighbours(const MixedMatrix& queries,
                                                 const MixedMatrix& base, unsigned threads,
                                                 Progress& progress) {
  std::vector<Neighbour> out(queries.rows, {std::numeric_limits<double>::infinity(), 0});
  if (base.rows == 0) return out;
  std::vector<double> bound(queries.rows, std::numeric_limits<double>::infinity());
  std::atomic<bool> cancelled{false};
  ParallelChunks(queries.rows, threads, [&](std::size_t begin, std::size_t end, unsigned t) {
    ScanBlocks(queries, base, begin, end, t, bound, cancelled, progress,
               [&](std::size_t q, std::size_t r, double d) {
                 if (d < out[q].distance) {  // ties keep the first (lowest) base row
                   out[q] = {d, static_cast<std::uint32_t>(r)};
                   bound[q] = d;
                 }
               });
  });
  if (cancelled) return Cancelled("cancelled");
  return out;
}

Result<std::vector<NearestSet>> NearestWithTies(const MixedMatrix& queries, const MixedMatrix& base,
                                                std::size_t cap, unsigned threads,
                                                Progress& progress) {
  std::vector<NearestSet> out(queries.rows);
  for (NearestSet& set : out) set.distance = std::numeric_limits<double>::infinity();
  std::vector<double> bound(queries.rows, std::numeric_limits<double>::infinity());
  std::atomic<bool> cancelled{false};
  ParallelChunks(queries.rows, threads, [&](std::size_t begin, std::size_t end, unsigned t) {
    ScanBlocks(queries, base, begin, end, t, bound, cancelled, progress,
               [&](std::size_t q, std::size_t r, double d) {
                 NearestSet& set = out[q];
                 if (d < set.distance) {
                   set.distance = d;
                   set.rows.assign(1, static_cast<std::uint32_t>(r));
                   bound[q] = d;
                 } else if (d == set.distance && set.rows.size() < cap) {
                   set.rows.push_back(static_cast<std::uint32_t>(r));
                 }
               });
  });
  if (cancelled) return Cancelled("cancelled");
  return out;
}

}  // namespace deniable
