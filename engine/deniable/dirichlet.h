// SPDX-License-Identifier: Apache-2.0
// Samplers for the Dirichlet posterior of the plausible-deniability model (§3.4, eq. 11-12):
// a standard normal (Marsaglia's polar method), Gamma(shape, 1) (Marsaglia & Tsang 2000, with
// the U^{1/shape} boost for shape < 1, in log space so that tiny shapes do not underflow) and
// Dirichlet(α) by normalising independent Gammas. All from raw Rng words through UniformUnit
// (never std:: distributions, whose output differs between standard libraries).
//
// Not a privacy mechanism: the Dirichlet is sampled from already-noised counts, so this is
// post-processing; exactness is not needed, only a correct distribution.
#pragma once

#include <span>

#include "engine/core/random.h"

namespace deniable {

// A standard normal N(0, 1).
double SampleStandardNormal(Rng& rng);

// ln X for X ~ Gamma(shape, 1), shape > 0 (finite: tiny shapes give very negative values
// instead of an underflowed 0).
double SampleLogGamma(double shape, Rng& rng);

// X ~ Gamma(shape, 1) (may underflow to 0 for tiny shapes).
double SampleGamma(double shape, Rng& rng);

// p ~ Dirichlet(alpha[0..k)), every alpha > 0; writes k probabilities summing to 1.
void SampleDirichlet(std::span<const double> alpha, std::span<double> p, Rng& rng);

}  // namespace deniable
