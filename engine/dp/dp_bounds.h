// SPDX-License-Identifier: Apache-2.0
// DP estimates of a numeric column's range, for columns whose bounds the user did not declare
// public. The true min/max are NOT public (they are one record's exact value); releasing them,
// as DataSynthesizer does, breaks its own DP guarantee.
//
// Method (documented with its proof in dp/dp_bounds.md):
//  1. Coarse range: inside the public coarse range [coarse_min, coarse_max] (by default the
//     whole range of doubles, or 1900..2100 for datetimes), a DP histogram over
//     power-of-two magnitude buckets (..., [-2,-1), [-1,-0.5)... [0.5,1), [1,2), [2,4) ...) with
//     discrete Laplace noise; the outermost buckets whose noisy count clears a threshold give a
//     coarse range (Google DP's ApproxBounds idea).
//  2. Refinement: DP quantiles at `lower_quantile` and `upper_quantile` (default 0.001 and
//     0.999) inside the coarse range with the exponential mechanism over the intervals between
//     sorted values (Smith 2011), each with its share of ε.
// Integers come back as integers (lo rounded down, hi rounded up).
//
// Privacy guarantee
//   Neighbouring: add/remove one record; each record holds one value of the column.
//   Guarantee: ε-DP in total (pure), split as documented; every part is recorded in the
//   accountant under `label` on `partition`.
#pragma once

#include <span>
#include <string>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {

struct BoundsOptions {
  double epsilon = 0.1;
  double coarse_min = -9.0e15;  // public: values outside are clamped first
  double coarse_max = 9.0e15;
  double lower_quantile = 0.001;
  double upper_quantile = 0.999;
  bool integer = false;
};

struct NumericRange {
  double lo = 0;
  double hi = 0;
};

// `values` are the column's non-missing values (any order; NaN not allowed). Works with zero
// values too (a DP answer is still returned, from noise only). Spends options.epsilon.
Result<NumericRange> EstimateBounds(std::span<const double> values, const BoundsOptions& options,
                                    PrivacyAccountant& accountant, const std::string& label,
                                    const std::string& partition, Rng& rng);

}  // namespace deniable
