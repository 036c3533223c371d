// SPDX-License-Identifier: Apache-2.0
// Exact sampling from a finite distribution given by double weights: index i is returned with
// probability exactly w_i / Σ_j w_j, where the w_i are the doubles' exact values and the sum is
// exact (a 2,300-bit fixed-point accumulator), however different their magnitudes. A
// cumulative-sum inverse CDF in floating point is not exact: a weight below an ulp of the
// running sum gets probability 0 (or 2^-53 times the sum), which breaks the ratio bounds that
// differential privacy needs for unlikely outcomes. Used by the exponential mechanism.
// O(n) time, one pass to sum, one to find the index; O(1) extra memory.
#pragma once

#include <cstddef>
#include <span>

#include "engine/core/random.h"

namespace deniable {

// weights: finite, >= 0, not all zero, at most 2^64 of them. Invalid weights are a
// programming error (asserted); release builds then return weights.size().
std::size_t SampleProportional(std::span<const double> weights, Rng& rng);

}  // namespace deniable
