// SPDX-License-Identifier: Apache-2.0
// DP bounds: coarse power-of-two histogram, then exponential-mechanism quantiles on a grid
// (dp/dp_bounds.md).
#include "engine/dp/dp_bounds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "engine/dp/exponential_mechanism.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

constexpr int kBinadesBelowTop = 100;        // real columns: |v| < 2^(top - 100) is "zero"
constexpr double kFalseClearProbability = 1e-3;  // any empty bucket clearing T, in total
constexpr int kGridCellsLog2 = 16;
// Quantiles are kept at least r_min = (ln N + ln 1000)/c ranks from the ends (N grid cells, c
// the exponential mechanism's factor): then the empty cells beyond the data, whose utility is
// only −r_min, weigh at most 1/1000 of the cell holding the target. Never moved past 0.25/0.75.
constexpr double kEdgeOdds = 1000.0;
constexpr double kMaxInwardQuantile = 0.25;
constexpr std::uint64_t kRefineCells = 32;

// The smallest T with Pr[S >= T] <= probability for S the sum of k independent discrete
// Laplace(scale) variables (k empty buckets), by the Chernoff bound
//   Pr[S >= T] <= min_{0 < t < 1/scale} M(t)^k e^{-tT},  M(t) = (1-α)^2 / ((1-αe^t)(1-αe^-t)),
// with α = e^{-1/scale} (M is the moment generating function of one such variable).
double ComputeSumClearThreshold(std::size_t k, double scale, double probability);

// SumClearThreshold depends on public parameters only and costs ~3 ms (a bisection over a
// golden-section search); EstimateBounds asks for the same few values on every call, so they
// are memoized (process-wide, under a mutex; a pure function, so results are unchanged).
double SumClearThreshold(std::size_t k, double scale, double probability) {
  static std::mutex mutex;
  static std::map<std::tuple<std::size_t, double, double>, double> cache;
  const auto key = std::make_tuple(k, scale, probability);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const double threshold = ComputeSumClearThreshold(k, scale, probability);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() < 4096) cache.emplace(key, threshold);
  return threshold;
}

double ComputeSumClearThreshold(std::size_t k, double scale, double probability) {
  const double alpha = std::exp(-1.0 / scale);
  const double log_one_minus_alpha = std::log1p(-alpha);
  auto log_bound = [&](double t, double threshold) {
    const double log_m = 2 * log_one_minus_alpha - std::log1p(-alpha * std::exp(t)) -
                         std::log1p(-alpha * std::exp(-t));
    return static_cast<double>(k) * log_m - t * threshold;
  };
  auto min_over_t = [&](double threshold) {
    // log_bound is convex in t on (0, 1/scale): golden-section search.
    double a = 0, b = (1.0 / scale) * (1 - 1e-9);
    const double g = 0.6180339887498949;
    for (int i = 0; i < 200; ++i) {
      const double c = b - g * (b - a), d = a + g * (b - a);
      if (log_bound(c, threshold) < log_bound(d, threshold)) b = d; else a = c;
    }
    return log_bound((a + b) / 2, threshold);
  };
  const double target = std::log(probability);
  double low = 0, high = scale * (std::log(1 / probability) + 1) * (2 + std::sqrt(static_cast<double>(k))) + static_cast<double>(k) * scale;
  while (min_over_t(high) > target) high *= 2;
  for (int i = 0; i < 100; ++i) {
    const double mid = (low + high) / 2;
    if (min_over_t(mid) <= target) high = mid; else low = mid;
  }
  return std::ceil(high);
}

// The outermost positions of `noisy` (in order) holding mass. First the core: the outermost
// buckets whose own noisy count clears the threshold for one empty bucket. Then the tails:
// windows of 2, 4, ... up to `max_window` consecutive buckets lying entirely beyond the core
// whose noisy sum clears the threshold for that many EMPTY buckets extend it to their outer
// edge — a thin tail spread over a few buckets is found although no single bucket stands out
// (the range may then reach up to max_window − 1 empty buckets too far; decoding draws values
// from the within-bin histogram, so an empty stretch stays empty). Every window of empty buckets
// clears with probability <= kFalseClearProbability / (number of windows tested), union bound.
// Without a core, the largest-window sums alone are used. Returns false when nothing clears.
// Post-processing of the noisy counts only.
bool OuterPositions(const std::vector<std::int64_t>& noisy, double scale,
                    std::size_t max_window, std::size_t& first, std::size_t& last) {
  const std::size_t size = noisy.size();
  if (size == 0) return false;
  std::size_t events = 0;
  for (std::size_t w = 1; w <= max_window && w <= size; w *= 2) events += size - w + 1;
  const double probability = kFalseClearProbability / static_cast<double>(events);
  std::vector<double> prefix(size + 1, 0);
  for (std::size_t j = 0; j < size; ++j) prefix[j + 1] = prefix[j] + static_cast<double>(noisy[j]);
  auto window_sum = [&](std::size_t j, std::size_t w) { return prefix[j + w] - prefix[j]; };
  bool found = false;
  const double single = SumClearThreshold(1, scale, probability);
  for (std::size_t j = 0; j < size; ++j) {
    if (window_sum(j, 1) < single) continue;
    if (!found) first = j;
    last = j;
    found = true;
  }
  for (std::size_t w = 2; w <= max_window && w <= size; w *= 2) {
    const double threshold = SumClearThreshold(w, scale, probability);
    for (std::size_t j = 0; j + w <= size; ++j) {
      const bool beyond = !found || j + w - 1 < first || j > last;
      if (!beyond || window_sum(j, w) < threshold) continue;
      if (!found) {
        first = j;
        last = j + w - 1;
        found = true;
      } else {
        first = std::min(first, j);
        last = std::max(last, j + w - 1);
      }
    }
  }
  return found;
}

// Power-of-two magnitude buckets in increasing value order: index span-1-k holds
// (-2^(e+1), -2^e], index span is (-2^min_e, 2^min_e), index span+1+k holds [2^e, 2^(e+1)),
// with e = min_e + k, k in [0, span).
class MagnitudeBuckets {
 public:
  MagnitudeBuckets(int min_e, int max_e) : min_e_(min_e), span_(max_e - min_e + 1) {}
  std::size_t size() const { return 2 * static_cast<std::size_t>(span_) + 1; }
  std::size_t Index(double v) const {
    const double magnitude = std::fabs(v);
    if (magnitude < std::ldexp(1.0, min_e_)) return Zero();
    const int k = std::min(std::ilogb(magnitude), min_e_ + span_ - 1) - min_e_;
    return v > 0 ? Zero() + 1 + static_cast<std::size_t>(k)
                 : Zero() - 1 - static_cast<std::size_t>(k);
  }
  double Lower(std::size_t index) const {
    if (index == Zero()) return -std::ldexp(1.0, min_e_);
    if (index > Zero()) return std::ldexp(1.0, min_e_ + static_cast<int>(index - Zero() - 1));
    return -std::ldexp(1.0, min_e_ + static_cast<int>(Zero() - 1 - index) + 1);
  }
  double Upper(std::size_t index) const {
    if (index == Zero()) return std::ldexp(1.0, min_e_);
    if (index > Zero()) return std::ldexp(1.0, min_e_ + static_cast<int>(index - Zero() - 1) + 1);
    return -std::ldexp(1.0, min_e_ + static_cast<int>(Zero() - 1 - index));
  }

 private:
  std::size_t Zero() const { return static_cast<std::size_t>(span_); }
  int min_e_;
  int span_;
};

MagnitudeBuckets BucketsFor(double coarse_min, double coarse_max, bool integer) {
  const double top = std::max(std::fabs(coarse_min), std::fabs(coarse_max));
  const int max_e = top >= 1 || !integer ? std::ilogb(top) : 0;
  if (integer) return MagnitudeBuckets(0, std::max(max_e, 0));
  // Subnormal coarse ranges (top below 2^-1022) keep at least one binade.
  return MagnitudeBuckets(std::min(max_e, std::max(max_e - kBinadesBelowTop, -1074)), max_e);
}

struct Range {
  double lo;
  double hi;
  double noisy_total = 0;  // Σ of the noisy bucket counts: a DP estimate of n
  bool found = true;       // some magnitude bucket cleared the empty-bucket threshold
};

// Stage 1: the coarse range from a noisy magnitude histogram (post-processing of the
// geometric mechanism's output only).
Range CoarseRange(std::span<const double> clamped, const BoundsOptions& options,
                  const GeometricMechanism& geometric, Rng& rng) {
  const MagnitudeBuckets buckets =
      BucketsFor(options.coarse_min, options.coarse_max, options.integer);
  std::vector<std::int64_t> noisy(buckets.size(), 0);
  for (double v : clamped) ++noisy[buckets.Index(v)];
  double noisy_total = 0;
  for (std::int64_t& c : noisy) {
    c = geometric.AddNoise(c, rng);
    noisy_total += static_cast<double>(c);
  }

  // Only buckets meeting the public coarse range take part.
  std::vector<std::size_t> usable;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    if (buckets.Upper(i) >= options.coarse_min && buckets.Lower(i) <= options.coarse_max) {
      usable.push_back(i);
    }
  }
  // The outermost buckets holding mass (prefix / suffix sums, see OuterPositions); if none
  // clears, the buckets with at least half the largest noisy count.
  std::vector<std::int64_t> usable_counts;
  for (std::size_t i : usable) usable_counts.push_back(noisy[i]);
  std::size_t first_position = 0, last_position = 0;
  std::size_t first = usable.back();
  std::size_t last = usable.front();
  const bool found = OuterPositions(usable_counts, geometric.scale(), /*max_window=*/4,
                                    first_position, last_position);
  if (found) {
    // One bucket of margin on each side (post-processing): a tail bucket just below the
    // threshold is left to stage 2, whose finer, better-funded histogram decides.
    // Never across zero: data that are all >= 0 must not get negative bounds.
    first = usable[first_position];
    last = usable[last_position];
    if (options.method == BoundsMethod::kThresholdedHistogram) {
      if (first_position > 0) {
        const std::size_t below = usable[first_position - 1];
        if (!(buckets.Upper(below) <= 0 && buckets.Upper(first) > 0)) first = below;
      }
      if (last_position + 1 < usable.size()) {
        const std::size_t above = usable[last_position + 1];
        if (!(buckets.Lower(above) >= 0 && buckets.Lower(last) < 0)) last = above;
      }
    }
  } else {
    std::int64_t largest = INT64_MIN;
    for (std::size_t i : usable) largest = std::max(largest, noisy[i]);
    const std::int64_t cut = largest > 0 ? largest - largest / 2 : largest;
    for (std::size_t i : usable) {
      if (noisy[i] < cut) continue;
      first = std::min(first, i);
      last = std::max(last, i);
    }
  }
  double lo = buckets.Lower(first);
  double hi = buckets.Upper(last);
  if (options.integer) {
    // The integers a bucket holds: (-1, 1) holds only 0, [2^e, 2^(e+1)) ends at 2^(e+1) - 1,
    // (-2^(e+1), -2^e] starts at -2^(e+1) + 1.
    lo = lo < 0 ? lo + 1 : lo;
    hi = hi > 0 ? hi - 1 : hi;
  }
  return Range{std::max(options.coarse_min, lo), std::min(options.coarse_max, hi), noisy_total,
               found};
}

// A public grid over [lo, hi]: cells [lo + j·width, lo + (j+1)·width), j < cells.
struct Grid {
  double lo;
  double width;
  std::uint64_t cells;
  std::uint64_t Cell(double v) const {
    const double j = std::floor((v - lo) / width);
    if (!(j > 0)) return 0;
    return std::min(static_cast<std::uint64_t>(std::min(j, 0x1p62)), cells - 1);
  }
};

Grid GridOver(Range range, bool integer) {
  // long double: hi − lo of an extreme range overflows a double (see RefineByHistogram).
  const long double extent = static_cast<long double>(range.hi) - range.lo;
  double width = extent > 0 ? std::ldexp(1.0, std::ilogb(extent) + 1 - kGridCellsLog2) : 1.0;
  width = std::max(width, std::numeric_limits<double>::denorm_min());
  if (integer) width = std::max(width, 1.0);
  const auto cells = static_cast<std::uint64_t>(std::floor(extent / width)) + 1;
  return Grid{range.lo, width, cells};
}

// Stage 2: Smith's exponential-mechanism quantile over the grid cells. `cells` are the sorted
// grid cells of the values; returns the chosen cell.
std::uint64_t QuantileCell(const std::vector<std::uint64_t>& cells, const Grid& grid,
                           double quantile, const ExponentialMechanism& mechanism, Rng& rng) {
  const double target = quantile * static_cast<double>(cells.size());
  std::vector<double> utilities;
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> starts;
  auto add = [&](std::uint64_t start, std::uint64_t size, double below, double up_to) {
    if (size == 0) return;
    // −dist(target, [below, up_to]): 0 when the cell can hold the q-quantile.
    utilities.push_back(-std::max({0.0, below - target, target - up_to}));
    sizes.push_back(size);
    starts.push_back(start);
  };
  std::uint64_t next = 0;  // first cell not yet covered
  std::size_t i = 0;
  while (i < cells.size()) {
    const std::uint64_t cell = cells[i];
    std::size_t j = i;
    while (j < cells.size() && cells[j] == cell) ++j;
    const auto below = static_cast<double>(i);
    add(next, cell - next, below, below);                         // the empty gap before
    add(cell, 1, below, static_cast<double>(j));                  // the occupied cell
    next = cell + 1;
    i = j;
  }
  const auto n = static_cast<double>(cells.size());
  add(next, grid.cells - next, n, n);
  const std::size_t chosen = mechanism.SelectWithMultiplicity(utilities, sizes, rng);
  return starts[chosen] + (sizes[chosen] == 1 ? 0 : UniformBelow(rng, sizes[chosen]));
}

// Stage 2 (kThresholdedHistogram): noisy counts of kRefineCells equal cells over the coarse
// range; the outermost cells clearing the empty-cell threshold give the bounds.
NumericRange RefineByHistogram(std::span<const double> clamped, const Range& coarse,
                               bool integer, const GeometricMechanism& geometric, Rng& rng) {
  // In long double: hi − lo of an extreme coarse range (±1.7e308) overflows a double (found by
  // the UBSan run of this test: inf converted to an integer); x86's 80-bit format does not.
  const long double extent = static_cast<long double>(coarse.hi) - coarse.lo;
  std::uint64_t cells = kRefineCells;
  if (integer && extent + 1 < static_cast<long double>(cells)) {
    cells = static_cast<std::uint64_t>(extent) + 1;
  }
  if (!(extent > 0) || cells <= 1) return NumericRange{coarse.lo, coarse.hi};
  // Integer columns: cells split [lo, hi + 1) so each integer lies in exactly one cell.
  const long double span = integer ? extent + 1 : extent;
  const long double width_long = span / static_cast<long double>(cells);
  auto cell_of = [&](double v) -> std::uint64_t {
    const long double j = std::floor((static_cast<long double>(v) - coarse.lo) / width_long);
    if (!(j > 0)) return 0;
    if (!(j < static_cast<long double>(cells - 1))) return cells - 1;
    return static_cast<std::uint64_t>(j);
  };
  std::vector<std::int64_t> noisy(cells, 0);
  for (double v : clamped) ++noisy[cell_of(std::clamp(v, coarse.lo, coarse.hi))];
  for (std::int64_t& c : noisy) c = geometric.AddNoise(c, rng);
  std::size_t first_cell = 0, last_cell = 0;
  if (!OuterPositions(noisy, geometric.scale(), /*max_window=*/8, first_cell, last_cell)) {
    return NumericRange{coarse.lo, coarse.hi};
  }
  const std::uint64_t first = first_cell, last = last_cell;
  NumericRange range;
  range.lo = static_cast<double>(coarse.lo + static_cast<long double>(first) * width_long);
  range.hi = last + 1 == cells
                 ? coarse.hi
                 : static_cast<double>(coarse.lo + static_cast<long double>(last + 1) * width_long);
  if (integer) {
    range.lo = std::floor(range.lo);
    range.hi = std::min(coarse.hi, std::ceil(range.hi) - 1);
    if (range.hi < range.lo) range.hi = range.lo;
  }
  return range;
}

Status CheckOptions(std::span<const double> values, const BoundsOptions& o) {
  if (Status s = internal::CheckPositiveFinite(o.epsilon, "bounds epsilon"); !s) return s;
  if (!(std::isfinite(o.coarse_min) && std::isfinite(o.coarse_max) &&
        o.coarse_min < o.coarse_max && std::isfinite(o.coarse_max - o.coarse_min))) {
    return InvalidArgument("bounds coarse range must be finite with coarse_min < coarse_max "
                           "and a finite width (got [" + internal::FormatDouble(o.coarse_min) +
                           ", " + internal::FormatDouble(o.coarse_max) + "])");
  }
  if (o.integer && std::ceil(o.coarse_min) > std::floor(o.coarse_max)) {
    return InvalidArgument("bounds coarse range [" + internal::FormatDouble(o.coarse_min) +
                           ", " + internal::FormatDouble(o.coarse_max) +
                           "] holds no integer");
  }
  if (!(o.lower_quantile >= 0 && o.lower_quantile <= o.upper_quantile &&
        o.upper_quantile <= 1)) {
    return InvalidArgument("bounds quantiles must satisfy 0 <= lower <= upper <= 1 (got " +
                           internal::FormatDouble(o.lower_quantile) + " and " +
                           internal::FormatDouble(o.upper_quantile) + ")");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) {
      return InvalidArgument("bounds: value " + std::to_string(i) + " is NaN");
    }
  }
  return OkStatus();
}

LedgerEntry BoundsEntry(const std::string& label, const std::string& what,
                        const std::string& mechanism, const std::string& partition,
                        double epsilon) {
  LedgerEntry entry;
  entry.label = label + ": " + what;
  entry.mechanism = mechanism;
  entry.partition = partition;
  entry.reference = "dp/dp_bounds.md; Smith 2011 (quantiles)";
  entry.epsilon_each = epsilon;
  entry.sensitivity = 1;
  return entry;
}

}  // namespace

Result<NumericRange> EstimateBounds(std::span<const double> values, const BoundsOptions& input,
                                    PrivacyAccountant& accountant, const std::string& label,
                                    const std::string& partition, Rng& rng) {
  if (Status s = CheckOptions(values, input); !s) return s.error();
  BoundsOptions options = input;
  if (options.integer) {
    options.coarse_min = std::ceil(options.coarse_min);
    options.coarse_max = std::floor(options.coarse_max);
  }
  const double epsilon_coarse = ShareOf(options.epsilon, options.coarse_fraction);
  const double epsilon_quantile = ShareOf(options.epsilon - epsilon_coarse, 0.5);
  const double refine_epsilon = ShareOf(options.epsilon, 1.0 - options.coarse_fraction);
  auto geometric = GeometricMechanism::Create(epsilon_coarse, 1);
  if (!geometric) return geometric.error();
  auto quantile_mechanism = ExponentialMechanism::Create(epsilon_quantile, 1.0);
  if (!quantile_mechanism) return quantile_mechanism.error();
  const bool by_histogram = options.method == BoundsMethod::kThresholdedHistogram;

  // All spends or none: try them on a copy first.
  std::vector<LedgerEntry> entries = {
      BoundsEntry(label, "coarse range (power-of-two magnitude histogram)",
                  "discrete Laplace histogram + threshold", partition, epsilon_coarse)};
  if (by_histogram) {
    entries.push_back(BoundsEntry(label, "range (histogram of 32 cells, thresholded)",
                                  "discrete Laplace histogram + threshold", partition,
                                  refine_epsilon));
  } else {
    entries.push_back(BoundsEntry(label, "lower quantile " + internal::FormatDouble(options.lower_quantile),
                                  "exponential mechanism (quantile)", partition, epsilon_quantile));
    entries.push_back(BoundsEntry(label, "upper quantile " + internal::FormatDouble(options.upper_quantile),
                                  "exponential mechanism (quantile)", partition, epsilon_quantile));
  }
  PrivacyAccountant trial = accountant;
  for (const LedgerEntry& entry : entries) {
    if (Status s = trial.Spend(entry); !s) return s.error();
  }
  accountant = std::move(trial);

  std::vector<double> clamped(values.begin(), values.end());
  for (double& v : clamped) v = std::clamp(v, options.coarse_min, options.coarse_max);
  const Range coarse = CoarseRange(clamped, options, *geometric, rng);
  if (by_histogram) {
    auto refine = GeometricMechanism::Create(refine_epsilon, 1);
    if (!refine) return refine.error();
    NumericRange range = RefineByHistogram(clamped, coarse, options.integer, *refine, rng);
    range.reliable = coarse.found;
    return range;
  }

  const Grid grid = GridOver(coarse, options.integer);
  std::sort(clamped.begin(), clamped.end());
  std::vector<std::uint64_t> cells(clamped.size());
  for (std::size_t i = 0; i < clamped.size(); ++i) {
    cells[i] = grid.Cell(std::clamp(clamped[i], coarse.lo, coarse.hi));
  }
  // Public given stage 1: how far from the ends the exponential mechanism can resolve.
  const double n_estimate = std::max(1.0, coarse.noisy_total);
  const double r_min = (std::log(static_cast<double>(grid.cells)) + std::log(kEdgeOdds)) /
                       quantile_mechanism->exponent_factor();  // +inf if the factor is 0
  const double inward = std::min(r_min / n_estimate, kMaxInwardQuantile);
  const double lower_quantile = std::max(options.lower_quantile, inward);
  const double upper_quantile = std::min(options.upper_quantile, 1 - inward);
  const std::uint64_t lower_cell =
      QuantileCell(cells, grid, lower_quantile, *quantile_mechanism, rng);
  const std::uint64_t upper_cell =
      QuantileCell(cells, grid, upper_quantile, *quantile_mechanism, rng);

  const double last_offset = options.integer ? grid.width - 1 : grid.width;
  NumericRange range;
  range.lo = std::min(grid.lo + static_cast<double>(lower_cell) * grid.width, coarse.hi);
  range.hi = std::min(grid.lo + static_cast<double>(upper_cell) * grid.width + last_offset,
                      coarse.hi);
  if (range.lo > range.hi) std::swap(range.lo, range.hi);
  if (options.integer) {
    range.lo = std::floor(range.lo);
    range.hi = std::ceil(range.hi);
  }
  range.reliable = coarse.found;
  return range;
}

}  // namespace deniable
