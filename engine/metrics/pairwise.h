// SPDX-License-Identifier: Apache-2.0
// Internal to engine/metrics: distances and information measures on encoded columns
// (column_encoding.h). Not API: use CompareTables.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/metrics/column_encoding.h"

namespace deniable::internal {

// Total variation distance between two histograms over the same categories:
// (1/2) sum_c |a[c] / a_total - b[c] / b_total|, in [0, 1]. Totals must be positive.
double TotalVariationDistance(const std::vector<std::uint64_t>& a, std::uint64_t a_total,
                              const std::vector<std::uint64_t>& b, std::uint64_t b_total);

// Shannon entropy in nats of a histogram with `total` > 0 observations.
double Entropy(const std::vector<std::uint64_t>& counts, std::uint64_t total);

// I(X; Y) / ((H(X) + H(Y)) / 2), clamped to [0, 1]; 0 when H(X) = H(Y) = 0.
double NormalizedMutualInformation(double mutual_information, double entropy_x, double entropy_y);

// For one pair of compared columns: the 2-way TVD between the real and synthetic joint
// distributions and the mutual information (nats) of each.
struct PairStatistics {
  double tvd = 0;
  double mutual_information_real = 0;
  double mutual_information_synthetic = 0;
};

// Computes PairStatistics with one pass over each table's rows. Holds scratch buffers, so one
// instance per thread, reused across pairs. Joint tables of up to kMaxDenseCells cells are
// counted densely; larger ones (high-cardinality string columns) by sorting pair keys.
class PairCounter {
 public:
  static constexpr std::uint64_t kMaxDenseCells = std::uint64_t{1} << 21;

  PairStatistics Compute(const ComparedColumn& x, const ComparedColumn& y);

 private:
  PairStatistics ComputeDense(const ComparedColumn& x, const ComparedColumn& y);
  PairStatistics ComputeSorted(const ComparedColumn& x, const ComparedColumn& y);

  std::vector<std::uint32_t> real_cells_;
  std::vector<std::uint32_t> synthetic_cells_;
  std::vector<std::uint64_t> real_keys_;
  std::vector<std::uint64_t> synthetic_keys_;
};

}  // namespace deniable::internal
