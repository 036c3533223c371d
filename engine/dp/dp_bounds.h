// SPDX-License-Identifier: Apache-2.0
// DP estimates of a numeric column's range, for columns whose bounds the user did not declare
// public. The true min/max are NOT public (they are one record's exact value); releasing them,
// as DataSynthesizer does, breaks its own DP guarantee.
//
// Method (documented with its proof in dp/dp_bounds.md):
//  0. Values are clamped into the public coarse range [coarse_min, coarse_max] (by default
//     ±9e15; integer columns use the integers inside it).
//  1. Coarse range (coarse_fraction·ε, default 0.3ε): a DP histogram over power-of-two magnitude buckets
//     (..., (-4,-2], (-2,-1], (-1,1) as "zero" for integers or (-2^m, 2^m) for reals with m
//     100 binades below the coarse range's top, [1,2), [2,4), ...) with discrete Laplace
//     noise; the outermost buckets whose noisy count — or the noisy sum of a window of up to 4
//     buckets beyond them — clears a threshold for empty buckets give [L, H] (Google DP's
//     ApproxBounds idea, extended to thin tails; thresholds from a Chernoff bound on sums of
//     discrete Laplace noise, so all empty windows together clear with probability <= 0.1%);
//     if nothing clears, the buckets with at least half the largest noisy count are used.
//  2. Refinement, method kThresholdedHistogram (the rest of ε, the default): a discrete
//     Laplace histogram of 32 equal cells over [L, H]; the bounds are the outer edges of the
//     outermost cells — or windows of up to 8 cells beyond them — whose noisy count clears the
//     threshold for empty cells (same rule as stage 1); when none does, [L, H]. Values beyond
//     the cut are the ones a synthesizer clamps into its edge bins.
//  2'. Refinement, method kQuantiles (ε/4 each): DP quantiles at `lower_quantile` and `upper_quantile` (default
//     0.001 and 0.999) inside [L, H] with the exponential mechanism (Smith 2011) over a public
//     grid of <= 2^16 + 1 cells (power-of-two width; width 1 for integers when the range
//     allows), utility −dist(q·n, [#values below the cell, #values up to the cell]) (a cell
//     holding the quantile's value has utility 0; sensitivity 1). The lower estimate is its
//     cell's lower edge, the upper its cell's upper edge (integers: the last integer of it).
//     A quantile closer to the ends than the mechanism can resolve is moved inward: each end
//     keeps at least r_min = (ln #cells + ln 1000)/c ranks (c ≈ ε/8), measured with the noisy n
//     of stage 1, but never past 0.25 / 0.75. Otherwise the many empty cells beyond the data,
//     whose utility is only −(1 − q)·n, would win (e.g. q = 0.999 with n = 20,000 at ε = 0.8
//     puts the upper bound far above the maximum); the records beyond the moved quantile are
//     then the ones a synthesizer clamps into its edge bins.
// Integers come back as integers (lo rounded down, hi rounded up). lo <= hi always.
//
// Privacy guarantee
//   Neighbouring: add/remove one record; each record holds one value of the column.
//   Guarantee: ε-DP in total (pure): coarse_fraction·ε (histogram, geometric mechanism,
//   sensitivity 1) + the rest (second histogram, sensitivity 1, or two exponential-mechanism
//   quantiles with half of it each, sensitivity 1),
//   recorded as accountant entries under `label` on `partition` (all or none).
#pragma once

#include <span>
#include <string>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {

enum class BoundsMethod {
  // Stage 2 = a noisy histogram of kRefineCells equal cells over the coarse range; the bounds
  // are the outermost cells whose noisy count clears a threshold (default: robust at the small
  // per-column ε of a whole-table budget, where quantiles land thousands of ranks off).
  kThresholdedHistogram,
  // Stage 2 = exponential-mechanism quantiles (Smith 2011), as described above.
  kQuantiles,
};

struct BoundsOptions {
  double epsilon = 0.1;
  BoundsMethod method = BoundsMethod::kThresholdedHistogram;
  // Share of epsilon for stage 1 (the coarse magnitude histogram); the rest for stage 2.
  double coarse_fraction = 0.3;
  double coarse_min = -9.0e15;  // public: values outside are clamped first
  double coarse_max = 9.0e15;
  double lower_quantile = 0.001;
  double upper_quantile = 0.999;
  bool integer = false;
};

struct NumericRange {
  double lo = 0;
  double hi = 0;
  // false when no magnitude bucket of stage 1 stood out from the noise (too few values for this
  // ε): the range then comes from noise alone and can be absurd (±1e14 for values in [0, 1]).
  // A function of the DP outputs, so callers may act on it (refuse, ask for public bounds).
  bool reliable = true;
};

// `values` are the column's non-missing values (any order; NaN not allowed, ±inf are clamped).
// Works with zero values too (a DP answer is still returned, from noise only). Spends
// options.epsilon. Checks: epsilon finite > 0; coarse_min < coarse_max, both finite (for
// integers: an integer between them); 0 <= lower_quantile <= upper_quantile <= 1.
Result<NumericRange> EstimateBounds(std::span<const double> values, const BoundsOptions& options,
                                    PrivacyAccountant& accountant, const std::string& label,
                                    const std::string& partition, Rng& rng);

}  // namespace deniable
