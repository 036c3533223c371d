// SPDX-License-Identifier: Apache-2.0
// Noise samplers that are exact or floating-point safe. Everything DP in the engine draws its
// noise through these functions (never std:: distributions, never -b*log(u) inversions, which
// leak through the pattern of representable doubles: Mironov, CCS 2012).
//
// "Exact" below means: given perfectly uniform 64-bit words from the Rng, the output has
// exactly the stated distribution. A double is an exact dyadic rational m·2^e, so a
// parameter given as a double is used exactly (no rounding) through integer arithmetic on
// Uint128. Pseudocode and proofs: dp/secure_sampling.md.
//
// Speed (bench/dp_bench.cpp, SecureRng, one core): see the figures in secure_sampling.md.
#pragma once

#include <cstdint>

#include "engine/core/int128.h"
#include "engine/core/random.h"

namespace deniable {

// Exact Bernoulli(exp(-numerator/denominator)), integer arithmetic only (Canonne, Kamath,
// Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithm 1).
// denominator > 0 (0 is a programming error: asserted; release builds return false).
bool SampleBernoulliExp(std::uint64_t numerator, std::uint64_t denominator, Rng& rng);

// The same for a 128-bit rational (a separate name: integer literals would make an overload
// ambiguous): 0 < denominator < 2^127 (asserted; release builds return
// false otherwise). Used by the discrete Gaussian (discrete_gaussian_mechanism.h), whose
// acceptance exponent is a ratio of ~120-bit integers.
bool SampleBernoulliExpWide(Uint128 numerator, Uint128 denominator, Rng& rng);

// Exact Bernoulli(exp(-x)) for a double x >= 0, using x's exact value (CKS Algorithm 1 on
// the dyadic rational x; exp(-x) = exp(-x/2)^2 splits x >= 2^62 so no integer overflows).
// x = +inf gives false. NaN or x < 0 is a programming error (asserted; release builds
// return false for NaN and true for x < 0).
bool SampleBernoulliExp(double x, Rng& rng);

// Exact Bernoulli(p) for a double p in [0, 1] (compares random bits with p's binary
// expansion; one 64-bit word in expectation). p outside [0, 1] is clamped; NaN gives false.
bool SampleBernoulli(double p, Rng& rng);

// Exactly Pr[L <= j] for L ~ Laplace(0, 1/epsilon0), i.e.
//   1 - exp(-j·ε0)/2  for j >= 0,      exp(j·ε0)/2  for j < 0,
// with j·ε0 computed exactly (a 117-bit integer times a power of two). This is the pass
// probability of the plausible-deniability paper's randomised privacy test (Privacy Test 2:
// release when k' >= k + Lap(1/ε0), i.e. with probability Pr[Lap(1/ε0) <= k' - k]).
// epsilon0 must be finite and > 0 (asserted; release builds treat anything else as +inf,
// i.e. a deterministic test j >= 0).
bool SampleLaplaceCdfAtInteger(std::int64_t j, double epsilon0, Rng& rng);

// The range of scales SampleDiscreteLaplace supports (callers validate; mechanisms' Create
// does). Outside it the scale is clamped into it and NaN becomes the maximum.
inline constexpr double kMinDiscreteLaplaceScale = 0x1p-40;
inline constexpr double kMaxDiscreteLaplaceScale = 0x1p56;

// Exact discrete Laplace: Pr[X = x] ∝ exp(-|x| / scale) for integer x, scale > 0
// (CKS 2020, Algorithm 2, with scale = t / 2^k taken exactly from the double). A result
// beyond the int64 range (probability < exp(-2^62/scale) <= 2^-90 at the maximum scale)
// saturates.
std::int64_t SampleDiscreteLaplace(double scale, Rng& rng);

// Discretised Laplace for real values ("Secure Noise Generation", Google DP library): the
// value is rounded to a multiple of the power-of-two granularity g = LaplaceGranularity(scale)
// and g·DiscreteLaplace(scale/g) is added, in exact 128-bit integer arithmetic; the result is
// converted to a double (a function of the noisy multiple of g alone: post-processing).
// Privacy: on a query of sensitivity Δ the rounded values differ by at most Δ + g, so the
// release is ((Δ + g)/scale)-DP; LaplaceMechanism chooses the scale so that this is <= ε.
// `value` must be finite (asserted; release builds map NaN to 0); |value| is clamped at
// 2^100·g (about 2^60·scale).
double AddDiscretizedLaplace(double value, double scale, Rng& rng);

// The granularity AddDiscretizedLaplace uses: the smallest power of two >= scale·2^-40, so
// scale/g lies in [2^39, 2^40]. scale must be a positive normal double.
double LaplaceGranularity(double scale);

}  // namespace deniable
