// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/pairwise.h"

#include <algorithm>
#include <cmath>

namespace deniable::internal {
namespace {

double CountLogCount(std::uint64_t count) {
  if (count == 0) return 0;
  const double c = static_cast<double>(count);
  return c * std::log(c);
}

// H = log n - (1/n) sum_c c log c, for a histogram with sum_c c log c = `sum_c_log_c`.
double EntropyFromSum(double sum_c_log_c, std::uint64_t total) {
  const double n = static_cast<double>(total);
  return std::max(0.0, std::log(n) - sum_c_log_c / n);
}

// Accumulates, cell by cell of a joint table, what PairStatistics needs.
class CellAccumulator {
 public:
  CellAccumulator(std::uint64_t real_total, std::uint64_t synthetic_total)
      : real_total_(real_total),
        synthetic_total_(synthetic_total),
        real_scale_(1.0 / static_cast<double>(real_total)),
        synthetic_scale_(1.0 / static_cast<double>(synthetic_total)) {}

  void Add(std::uint64_t real_count, std::uint64_t synthetic_count) {
    l1_ += std::abs(static_cast<double>(real_count) * real_scale_ -
                    static_cast<double>(synthetic_count) * synthetic_scale_);
    real_c_log_c_ += CountLogCount(real_count);
    synthetic_c_log_c_ += CountLogCount(synthetic_count);
  }

  // I(X; Y) = H(X) + H(Y) - H(X, Y), clamped at 0 against rounding.
  PairStatistics Finish(const ComparedColumn& x, const ComparedColumn& y) const {
    PairStatistics stats;
    stats.tvd = std::min(1.0, 0.5 * l1_);
    stats.mutual_information_real =
        std::max(0.0, Entropy(x.real_counts, real_total_) + Entropy(y.real_counts, real_total_) -
                          EntropyFromSum(real_c_log_c_, real_total_));
    stats.mutual_information_synthetic =
        std::max(0.0, Entropy(x.synthetic_counts, synthetic_total_) +
                          Entropy(y.synthetic_counts, synthetic_total_) -
                          EntropyFromSum(synthetic_c_log_c_, synthetic_total_));
    return stats;
  }

 private:
  std::uint64_t real_total_;
  std::uint64_t synthetic_total_;
  double real_scale_;
  double synthetic_scale_;
  double l1_ = 0;
  double real_c_log_c_ = 0;
  double synthetic_c_log_c_ = 0;
};

// Counts joint cells over the rows. Small tables are counted in kLanes interleaved copies (rows
// 4r, 4r+1, ... go to different copies), then folded: consecutive increments of one cell (a
// skewed column such as capital-gain, mostly 0) would otherwise wait on each other through
// memory. `cells` must hold kLanes * cell_count zeros when lanes are used.
constexpr std::size_t kLanes = 4;
constexpr std::size_t kMaxLanedCells = std::size_t{1} << 14;  // 4 x 64 KiB: stays in L2

void CountCells(const std::vector<std::uint32_t>& x_codes,
                const std::vector<std::uint32_t>& y_codes, std::uint32_t y_categories,
                std::size_t cell_count, std::vector<std::uint32_t>& cells) {
  const std::size_t rows = x_codes.size();
  const std::uint32_t* x = x_codes.data();
  const std::uint32_t* y = y_codes.data();
  std::uint32_t* out = cells.data();
  auto cell = [&](std::size_t row) { return std::size_t{x[row]} * y_categories + y[row]; };
  std::size_t row = 0;
  if (cell_count <= kMaxLanedCells) {
    std::uint32_t* lane1 = out + cell_count;
    std::uint32_t* lane2 = lane1 + cell_count;
    std::uint32_t* lane3 = lane2 + cell_count;
    for (; row + kLanes <= rows; row += kLanes) {
      ++out[cell(row)];
      ++lane1[cell(row + 1)];
      ++lane2[cell(row + 2)];
      ++lane3[cell(row + 3)];
    }
    for (std::size_t c = 0; c < cell_count; ++c) out[c] += lane1[c] + lane2[c] + lane3[c];
  }
  for (; row < rows; ++row) ++out[cell(row)];
}

void SortedKeys(const std::vector<std::uint32_t>& x_codes,
                const std::vector<std::uint32_t>& y_codes, std::uint32_t y_categories,
                std::vector<std::uint64_t>& keys) {
  keys.resize(x_codes.size());
  for (std::size_t row = 0; row < x_codes.size(); ++row) {
    keys[row] = std::uint64_t{x_codes[row]} * y_categories + y_codes[row];
  }
  std::sort(keys.begin(), keys.end());
}

// Length of the run of `key` starting at keys[at]; advances `at` past it.
std::uint64_t TakeRun(const std::vector<std::uint64_t>& keys, std::size_t& at, std::uint64_t key) {
  const std::size_t begin = at;
  while (at < keys.size() && keys[at] == key) ++at;
  return at - begin;
}

}  // namespace

double TotalVariationDistance(const std::vector<std::uint64_t>& a, std::uint64_t a_total,
                              const std::vector<std::uint64_t>& b, std::uint64_t b_total) {
  double l1 = 0;
  const double a_scale = 1.0 / static_cast<double>(a_total);
  const double b_scale = 1.0 / static_cast<double>(b_total);
  for (std::size_t c = 0; c < std::max(a.size(), b.size()); ++c) {
    const double pa = c < a.size() ? static_cast<double>(a[c]) * a_scale : 0.0;
    const double pb = c < b.size() ? static_cast<double>(b[c]) * b_scale : 0.0;
    l1 += std::abs(pa - pb);
  }
  return std::min(1.0, 0.5 * l1);
}

double Entropy(const std::vector<std::uint64_t>& counts, std::uint64_t total) {
  double sum = 0;
  for (std::uint64_t c : counts) sum += CountLogCount(c);
  return EntropyFromSum(sum, total);
}

double NormalizedMutualInformation(double mutual_information, double entropy_x, double entropy_y) {
  const double mean_entropy = 0.5 * (entropy_x + entropy_y);
  if (!(mean_entropy > 0)) return 0;
  return std::clamp(mutual_information / mean_entropy, 0.0, 1.0);
}

PairStatistics PairCounter::Compute(const ComparedColumn& x, const ComparedColumn& y) {
  const std::uint64_t cells = std::uint64_t{x.categories()} * y.categories();
  // Dense counting touches every cell once more after the row passes, so it only pays when
  // the table is not much larger than the data.
  const std::uint64_t rows = x.real_codes.size() + x.synthetic_codes.size();
  if (cells <= kMaxDenseCells && cells <= 4 * rows + 4096) return ComputeDense(x, y);
  return ComputeSorted(x, y);
}

PairStatistics PairCounter::ComputeDense(const ComparedColumn& x, const ComparedColumn& y) {
  const std::size_t cells = std::size_t{x.categories()} * y.categories();
  const std::size_t allocated = cells <= kMaxLanedCells ? kLanes * cells : cells;
  real_cells_.assign(allocated, 0);
  synthetic_cells_.assign(allocated, 0);
  CountCells(x.real_codes, y.real_codes, y.categories(), cells, real_cells_);
  CountCells(x.synthetic_codes, y.synthetic_codes, y.categories(), cells, synthetic_cells_);
  CellAccumulator accumulator(x.real_codes.size(), x.synthetic_codes.size());
  for (std::size_t cell = 0; cell < cells; ++cell) {
    accumulator.Add(real_cells_[cell], synthetic_cells_[cell]);
  }
  return accumulator.Finish(x, y);
}

PairStatistics PairCounter::ComputeSorted(const ComparedColumn& x, const ComparedColumn& y) {
  SortedKeys(x.real_codes, y.real_codes, y.categories(), real_keys_);
  SortedKeys(x.synthetic_codes, y.synthetic_codes, y.categories(), synthetic_keys_);
  CellAccumulator accumulator(x.real_codes.size(), x.synthetic_codes.size());
  std::size_t r = 0;
  std::size_t s = 0;
  while (r < real_keys_.size() || s < synthetic_keys_.size()) {
    std::uint64_t key;
    if (r == real_keys_.size()) {
      key = synthetic_keys_[s];
    } else if (s == synthetic_keys_.size()) {
      key = real_keys_[r];
    } else {
      key = std::min(real_keys_[r], synthetic_keys_[s]);
    }
    const std::uint64_t real_count = TakeRun(real_keys_, r, key);
    const std::uint64_t synthetic_count = TakeRun(synthetic_keys_, s, key);
    accumulator.Add(real_count, synthetic_count);
  }
  return accumulator.Finish(x, y);
}

}  // namespace deniable::internal
