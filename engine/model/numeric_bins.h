// SPDX-License-Identifier: Apache-2.0
// From a private adaptive histogram (engine/histogram) to a numeric column's domain: the model's
// bins and the within-bin detail. Pure post-processing of DP outputs (the leaves and their
// noisy second-pass counts) and public settings: no data is read here.
//
// Rules (all in terms of the noisy counts c_j of the leaves and the count noise scale s = 1/ε2
// of the second pass, both released):
//  1. Range. Leaves at either end whose noisy count is below kEndLeafThreshold·s are cut off:
//     an empty region of the public coarse range (hundreds of magnitude buckets, each a leaf)
//     clears that threshold with probability ½e^-8 ≈ 1.7e-4 per leaf, so the range ends near
//     the data. Values beyond the cut are clamped into the edge bins when encoded.
//  2. Leaf weights. A leaf's weight is its noisy count if that is at least kLeafWeightThreshold·s,
//     else 0: an empty interior region (the gap between capital-gain = 0 and its smallest
//     non-zero values) then draws nothing, while any leaf that clearly holds records keeps its
//     share.
//  3. Bins. Consecutive leaves are merged into at most `max_bins` bins of about equal weight;
//     a leaf holding at least half a bin's share stands alone (a spike such as hours = 40 or
//     capital-gain = 0 becomes its own bin, as a single value). For a categorical column (few
//     distinct values: education-num, a 0/1 flag) every leaf that holds a single value and has
//     weight becomes its own bin, so each frequent value is a code of its own.
//  4. Bins without weight are merged into a neighbour (the model gets no empty codes), except
//     that a domain always keeps at least one bin.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/result.h"
#include "engine/model/domain.h"

namespace deniable {

inline constexpr double kEndLeafThreshold = 8.0;
inline constexpr double kLeafWeightThreshold = 2.0;
// A categorical numeric column keeps one bin per single-value leaf up to this many bins; beyond
// it the equal-weight merge applies.
inline constexpr int kMaxCategoricalNumericBins = 128;

struct NoisyLeaves {
  std::vector<double> edges;         // leaves + 1 increasing values (on the lattice of `step`)
  std::vector<std::int64_t> counts;  // noisy counts, one per leaf (may be negative)
  double step = 0;                   // lattice step (0 = real values)
  double count_noise_scale = 1;      // scale of the discrete Laplace noise on the counts
};

struct NumericBinning {
  int max_bins = 20;
  bool categorical = false;
};

// Sets domain.edges/step/leaves (and lo, hi, bins) from the leaves. Fails (kInvalidArgument)
// only on a malformed input (no leaves, sizes that disagree, edges not increasing).
Status SetBinsFromLeaves(const NoisyLeaves& leaves, const NumericBinning& binning,
                         ColumnDomain& domain);

}  // namespace deniable
