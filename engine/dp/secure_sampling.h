// SPDX-License-Identifier: Apache-2.0
// Noise samplers that are exact or floating-point safe. Everything DP in the engine draws its
// noise through these functions (never std:: distributions, never -b*log(u) inversions, which
// leak through the pattern of representable doubles: Mironov, CCS 2012).
#pragma once

#include <cstdint>

#include "engine/core/random.h"

namespace deniable {

// Exact Bernoulli(exp(-numerator/denominator)) with integer arithmetic only (Canonne, Kamath,
// Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithm 1).
bool SampleBernoulliExp(std::uint64_t numerator, std::uint64_t denominator, Rng& rng);

// Exact discrete Laplace: Pr[X = x] ∝ exp(-|x| / scale) for integer x, scale > 0
// (CKS 2020, Algorithm 2; `scale` is converted to an exact rational, a double being one).
std::int64_t SampleDiscreteLaplace(double scale, Rng& rng);

// Discretised Laplace for real values ("Secure Noise Generation", Google DP library): the value
// is rounded to a multiple of a power-of-two granularity g ≈ scale·2^-40 and g·DiscreteLaplace
// (scale/g) is added. Privacy: Laplace with scale `scale` on a query of sensitivity Δ gives
// ε' = (Δ + g)/scale, i.e. a relative loss < 2^-39 — callers use LaplaceMechanism, which
// accounts for it.
double AddDiscretizedLaplace(double value, double scale, Rng& rng);

// The granularity AddDiscretizedLaplace uses for a given scale.
double LaplaceGranularity(double scale);

}  // namespace deniable
