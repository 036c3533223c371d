// SPDX-License-Identifier: Apache-2.0
// The three tables of an evaluation (training rows, control rows, synthetic rows) encoded into
// one row-major matrix each, over the same columns, with a Gower-style mixed distance
// (Gower 1971; as Anonymeter's, Giomi et al. PETS 2023 §4):
//   d(a, b) = Σ_numeric |a_i − b_i| / range_i  +  Σ_categorical [a_i ≠ b_i]
// Numeric columns are normalised to [0, 1] by the range over all three tables; a missing value
// is a category of its own (two missing cells match; missing against a value costs 1).
// Integer and Float columns that are not categorical are numeric; everything else (categories,
// strings, datetimes) is compared by its text.
//
// Nearest-neighbour search is exhaustive (exact), multithreaded over the query rows, with an
// early exit: the partial sum stops as soon as it exceeds the best distance so far. Columns are
// laid out categorical first (a mismatch costs a whole 1, so the partial sum grows fastest),
// the categorical ones by decreasing chance that two random training rows differ (Gini
// impurity 1 − Σ p²), so that most rows leave after the first column.
// Results do not depend on the number of threads (each query is searched by one thread; ties
// go to the lowest base row).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

enum class MixedKind { kNumeric, kCategorical };

struct MixedColumn {
  std::string name;
  MixedKind kind = MixedKind::kCategorical;
  double min = 0, max = 0;              // numeric: the range used to normalise
  std::vector<std::string> categories;  // categorical: code → text
};

inline constexpr double kMissingCategory = -1.0;

struct MixedMatrix {
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::vector<MixedKind> kinds;  // per column of this matrix: categorical ones first
  std::size_t categorical = 0;   // how many leading columns are categorical
  // Row-major. Numeric: (x − min)/range in [0, 1], NaN when missing. Categorical: the code as a
  // double, kMissingCategory when missing.
  std::vector<double> values;
  const double* row(std::size_t r) const { return values.data() + r * columns; }
};

// A copy of `m` restricted to `columns` (the categorical ones first, otherwise in the order
// given) and, when `rows` is not empty, to those rows.
MixedMatrix SelectColumns(const MixedMatrix& m, const std::vector<std::size_t>& columns,
                          const std::vector<std::uint32_t>& rows = {});

struct MixedTables {
  std::vector<MixedColumn> columns;  // categorical columns first, then numeric
  MixedMatrix train, control, synthetic;
  int ColumnIndex(const std::string& name) const;  // -1 when absent
};

// The schema's modelled columns (not identifiers, not ignored), each of which must be in all
// three tables (kInvalidArgument naming the table's source and the column otherwise).
Result<MixedTables> EncodeMixedTables(const RawTable& train, const RawTable& control,
                                      const RawTable& synthetic, const Schema& schema);

// d(a, b) over m columns of which the first `categorical` are categorical, stopping early once
// it exceeds `bound` (it then returns some value > bound).
inline double MixedDistance(const double* a, const double* b, std::size_t categorical,
                            std::size_t m, double bound) {
  double d = 0;
  for (std::size_t i = 0; i < categorical; ++i) {
    d += a[i] != b[i] ? 1.0 : 0.0;
    if (d > bound) return d;
  }
  for (std::size_t i = categorical; i < m; ++i) {
    const double x = a[i], y = b[i];
    if (x != x || y != y) {  // NaN: missing
      d += (x != x && y != y) ? 0.0 : 1.0;
    } else {
      d += x > y ? x - y : y - x;
    }
    if (d > bound) return d;
  }
  return d;
}

struct Neighbour {
  double distance = 0;
  std::uint32_t index = 0;  // the first base row at that distance
};

// For each query row, its nearest base row. kCancelled when `progress` is cancelled.
Result<std::vector<Neighbour>> NearestNeighbours(const MixedMatrix& queries,
                                                 const MixedMatrix& base, unsigned threads,
                                                 Progress& progress);

// For each query row, every base row at the smallest distance (in base order, at most `cap` of
// them), in one pass: a row at the best distance so far passes the early exit (it stops only
// strictly above the bound), so ties are collected as they come and dropped when a nearer row
// appears.
struct NearestSet {
  double distance = 0;
  std::vector<std::uint32_t> rows;
};
Result<std::vector<NearestSet>> NearestWithTies(const MixedMatrix& queries, const MixedMatrix& base,
                                                std::size_t cap, unsigned threads,
                                                Progress& progress);

// Runs body(begin, end) over [0, n) split into `threads` contiguous chunks in parallel
// (threads 0 = hardware concurrency); chunk 0 runs on the calling thread.
void ParallelChunks(std::size_t n, unsigned threads,
                    const std::function<void(std::size_t, std::size_t, unsigned)>& body);

}  // namespace deniable
