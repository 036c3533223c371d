// SPDX-License-Identifier: Apache-2.0
// From a private adaptive histogram (engine/histogram) to a numeric column's domain: the model's
// bins and the within-bin detail. Pure post-processing of DP outputs (the leaves and their
// noisy second-pass counts) and public settings: no data is read here.
//
// Rules (all in terms of the noisy counts c_j of the leaves and the count noise scale s = 1/ε2
// of the second pass, both released; a threshold written as "k noise scales" is the count an
// empty leaf's Laplace noise passes with probability ½e^{-k}, and under the marginals mode's
// Gaussian pass (NoisyLeaves::gaussian, σ = s) the count with that same probability,
// NoiseThreshold; sums use NoiseSumThreshold):
//  1. Range. With public bounds the range is the bounds. Inside a public coarse range the
//     leaves come in groups (the first level of the decomposition: power-of-two magnitude
//     buckets, calendar decades), most of them empty. A group's noisy sum (k leaves) is
//     compared with the tail of a sum of k Laplace noises (a Chernoff bound,
//     LaplaceSumThreshold): groups above the p = kSeedFalsePositive threshold seed the range,
//     and so do windows of up to kSeedWindow consecutive non-seed groups above it jointly (a
//     thin cluster spread over a few magnitudes; the window's ends below the lower threshold
//     left out);
//     the range then grows outward, group by group, while the next group clears the lower
//     p = kRangeExtendFalsePositive threshold, or, for a group at most kNarrowTailFraction of
//     the range so far, has a positive noisy sum (hysteresis: a real tail next to the data is
//     kept, an empty magnitude far away almost never is: each further empty group is taken with
//     probability at most p, so the range passes k empty groups with probability <= p^k). With
//     no seed, the heaviest group, extended the same way: on a small table a dense group split
//     into many leaves has a noisy sum within its noise (σ·√leaves), so no group may seed, and
//     the heaviest alone clamped the rest of the data into it (GermanCredit's 1,000 rows: ages
//     32–75, 55% of them, written as 23–29; measured in docs/utility.md, stop 26). When the
//     groups' own noisy counts were measured (NoisyLeaves::group_counts, the marginals mode),
//     a group's sum is the inverse-variance combination of its leaves' sum and that count, and
//     every test above uses the combination's σ (at most σ_g, however many leaves the group
//     has). Then, at either end of the range, leaves whose noisy
//     count is below kEdgeTrimScales noise scales are cut off while the cut leaves jointly
//     stay below it (an empty leaf at the edge of a split group — ages [96, 128) next to
//     [80, 96) — would otherwise draw the positive part of its noise, half a scale on average,
//     and write ages of 127; a thin real tail loses at most a leaf or two, clamped, not lost).
//     Values beyond the range are clamped into the edge bins when encoded.
//  2. Leaf weights. A leaf's weight is its noisy count clamped at 0 (unbiased for the leaves
//     that hold records), except that a group left whole by the adaptive stage (one leaf: a
//     magnitude bucket with too little to split) weighs 0 below kLoneLeafScales noise scales,
//     so the empty magnitudes between capital-gain = 0 and its smallest non-zero values draw
//     nothing. With measured group counts, every group inside the range (split or not) weighs
//     its combined estimate, 0 below kLoneLeafScales of the combination's σ, its leaves
//     rescaled to it: an empty magnitude that the partition's noise split into several leaves
//     no longer draws the positive parts of their noise, and the clamping bias of a real
//     group's near-empty leaves goes.
//  3. Bins. Consecutive leaves are merged into at most `max_bins` bins of about equal weight;
//     a leaf holding at least half a bin's share stands alone (a spike such as hours = 40 or
//     capital-gain = 0 becomes its own bin, as a single value). For a categorical column (few
//     distinct values: education-num, a 0/1 flag) every leaf that holds a single value and
//     clearly holds records (kSingleValueThreshold) becomes its own bin, so each frequent value
//     is a code of its own.
//  4. Bins without weight are merged into a neighbour (the model gets no empty codes), except
//     that a domain always keeps at least one bin; in a categorical column, so are the bins
//     between its single values that hold less than half a bin's share (noise, rare values).
//  5. At most kMaxLeaves leaves: within each bin, consecutive leaves merge into groups of about
//     equal weight (a heavy leaf stays alone).
//  6. (Applied before 5.) Within each bin of k >= 3 leaves, the weights shrink toward the bin's
//     even spread e_j = C·len_j/L (C the bin's weight, len_j a leaf's lattice points or width,
//     L the bin's): w_j ← e_j + λ(c_j − e_j), λ = max(0, 1 − (k − 1)·2s²/Σ(c_j − e_j)²) — the
//     James–Stein estimator with the counts' known noise variance 2s² (positive-part; Efron &
//     Morris 1973). A leaf's count has noise of about 45 records at ε₂ = 0.022 where a leaf
//     holds 60–130: the values drawn inside a bin then followed the noise (Adult's fnlwgt: a
//     1-way TVD of 0.13 over 256 quantile bins). A real shape within the bin (a tail, a spike,
//     capital-gain's empty stretch) deviates far more than the noise and keeps λ near 1; a flat
//     stretch of noise gets λ near 0. A bin that spans several magnitude groups shrinks within
//     each group separately (with measured group counts): an even spread by length across
//     octaves would put half a bin's records in its top octave (the demo's capital-loss: 176
//     of its 367 records drawn in [1, 1024), where 6 real ones are). Post-processing of the
//     released counts: no privacy cost.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/result.h"
#include "engine/model/domain.h"

namespace deniable {

inline constexpr double kSeedFalsePositive = 1e-5;
inline constexpr std::size_t kSeedWindow = 4;
inline constexpr double kLoneLeafScales = 5.0;
// Rule 1's end trim: an empty end leaf survives with probability ½e^-2 ≈ 6.8%; a real tail
// leaf below it (fewer than 2/ε₂ records) is clamped into the new edge leaf, not lost.
inline constexpr double kEdgeTrimScales = 2.0;
// Most leaves a domain keeps (rule 5): the description file stays small on million-row columns.
inline constexpr std::size_t kMaxLeaves = 4096;
inline constexpr double kExtendFalsePositive = 0.05;  // geo regions (geo_regions.h)
// The numeric range's extension test (rule 1). Lenient on purpose, because the two errors are
// not alike: an empty group taken in adds a few leaves whose clamped noise draws a little
// phantom mass (rule 2), but a real group left out is clamped into the edge bin whole. A
// dense group is split into many leaves, so the noise of its sum grows with √leaves and a
// strict test cuts exactly the heavy tails: at p = 0.05, flchain's lambda lost its values
// above 2.048 (1,450 of 7,874 rows, noisy sum 457 over 26 leaves against a threshold of 814).
// Measured (correlated, ε = 1, 4 seeds, mean 2-way TVD) for p = 0.05 / 0.2 / 0.4 / 0.6 / 0.8:
// flchain 0.118 / 0.117 / 0.110 / 0.110 / 0.110, compas_reduced 0.096 / 0.093 / 0.090 /
// 0.090 / 0.093, adult 0.0614 / 0.0611 / 0.0609 / 0.0609 / 0.0609; mplsstops and adult_missing
// unchanged. Whole suite: docs/utility.md.
inline constexpr double kRangeExtendFalsePositive = 0.5;
// Rule 1's extension into a narrow group: one at most this fraction of the range kept so far
// (in practice the next magnitude toward 0, [128, 256) beside [256, 5632)) is taken when its
// noisy sum is positive. The Chernoff bound above is loose near p = 1/2: it asks 1.9 noise
// scales of a one-leaf group and 2.5 of a two-leaf one, where a symmetric noise's sum exceeds
// 0 with probability below 1/2 (an integer noise: P[S > 0] = (1 − P[S = 0])/2; the marginals
// mode's combined estimate is a weighted sum of symmetric noises), so an empty group is still
// taken with probability at most 1/2 and k of them at most 2^-k. A narrow phantom group costs
// little: its values lie within an eighth of the range beside the data, and its leaves face
// the end trim and rule 2. A real thin tail is kept: flchain's futime has 252 of 7,874 rows
// below 256 days over eight magnitude groups (88 in [128, 256)); it was cut at 256 and its
// values drawn across the edge bin [256, 1792). Measured wider (docs/utility.md, stop 31):
// with this test for groups as wide as the range, mplsstops' date (one year of records) took
// phantom years 1974–2034 whose split leaves drew weight and COMPAS dob took 1997–2024
// (2-way TVD +24% on that seed); at 1/8 no cell of the suite got worse.
inline constexpr double kNarrowTailFraction = 1.0 / 8;
// A categorical column's single value gets a bin of its own when its leaf's noisy count reaches
// this many noise scales (an empty one does with probability ½e^-3 ≈ 2.5%).
inline constexpr double kSingleValueThreshold = 3.0;

// Rule 6 on `weights` (one per leaf of `leaf_edges`, bins `bin_edges` whose edges are leaf
// edges), with the counts' noise scale `scale` (a discrete Laplace's, variance 2·scale²; or,
// `gaussian`, a discrete Gaussian's σ, variance σ²) and the domain's lattice for lengths.
// `groups` (one per leaf, or empty): each bin shrinks within each run of equal groups.
void ShrinkWithinBins(const std::vector<double>& leaf_edges, const std::vector<double>& bin_edges,
                      const ColumnDomain& lattice, double scale, std::vector<double>& weights,
                      bool gaussian = false, const std::vector<std::int64_t>& groups = {});

// The threshold T with P[S >= T] <= p for S the sum of k independent Laplace(scale) noises
// (Chernoff: min over λ of exp(−λT)·(1 − λ²scale²)^−k), k >= 1, p in (0, 1).
double LaplaceSumThreshold(std::size_t k, double scale, double p);
// The same for the sum of k Gaussian noises of standard deviation σ = scale (`gaussian`):
// the Chernoff bound σ·√(2k·ln(1/p)), as loose as the Laplace one, so that each rule's p
// means what it was measured to mean (for σ >= 1 the discrete Gaussian's variance is within
// a hair of σ², CKS 2020 §2; these are utility rules, not privacy bounds); else
// LaplaceSumThreshold.
double NoiseSumThreshold(bool gaussian, std::size_t k, double scale, double p);
// A rule's threshold written in Laplace scales, k·scale: the count an empty cell's Laplace
// noise passes with probability ½e^{-k}. Under Gaussian noise (`gaussian`, σ = scale) the
// count with the same false-positive rate, σ·Q^{-1}(½e^{-k}) (k = 3: 1.96σ rather than 3σ;
// k = 5: 2.71σ): every rule keeps its error rate whichever noise the counts carry.
double NoiseThreshold(bool gaussian, double scale, double laplace_scales);
// A categorical numeric column keeps one bin per single-value leaf up to this many bins; beyond
// it the equal-weight merge applies.
inline constexpr int kMaxCategoricalNumericBins = 128;

struct NoisyLeaves {
  std::vector<double> edges;         // leaves + 1 increasing values (on the lattice of `step`)
  std::vector<std::int64_t> counts;  // noisy counts, one per leaf (may be negative)
  // Per leaf, its group in a public coarse range (non-decreasing); empty when the range is
  // public bounds (nothing is cut then).
  std::vector<std::int64_t> groups;
  double step = 0;                   // lattice step (0 = real values)
  double count_noise_scale = 1;      // scale of the discrete Laplace noise on the counts
  // The counts carry discrete Gaussian noise of σ = count_noise_scale instead (the marginals
  // mode's second pass, inside its zCDP block); every threshold above follows
  // (NoiseThreshold, NoiseSumThreshold).
  bool gaussian = false;
  // With `gaussian` and `groups`: per group (in value order, one per distinct run of `groups`),
  // a direct noisy count of the group's records, discrete Gaussian of σ = group_noise_scale
  // (NoisyGaussianHistogram). Rule 1 then weighs each group by the inverse-variance combination
  // of this count and its leaves' sum. Empty: not measured.
  std::vector<std::int64_t> group_counts;
  double group_noise_scale = 0;
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
