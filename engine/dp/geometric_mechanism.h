// SPDX-License-Identifier: Apache-2.0
// Adds two-sided geometric (discrete Laplace) noise to integer counts.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: the vector of counts changes by at
//   most `l1_sensitivity` (an integer) in L1 norm — 1 for a histogram, m for m histograms over
//   the same rows.
//   Guarantee: releasing every AddNoise() of one such vector is ε-DP (pure), ε = epsilon =
//   PrivacyLoss(): Pr[X = x] ∝ exp(-|x|/b) with b = Δ/ε rounded up, so neighbouring outputs'
//   probabilities differ by at most a factor exp(Δ/b) <= exp(ε).
//   Sampling: exact discrete Laplace with scale b (SampleDiscreteLaplace, CKS 2020 Alg. 2).
//   Reference: Ghosh, Roughgarden, Sundararajan 2009; CKS 2020. Proof note:
//   dp/geometric_mechanism.md.
//
// Example:
//   auto geometric = GeometricMechanism::Create(/*epsilon=*/0.5, /*l1_sensitivity=*/1);
//   for (std::int64_t& c : histogram) c = geometric->AddNoise(c, rng);
#pragma once

#include <cstdint>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

class GeometricMechanism {
 public:
  // epsilon finite and > 0, 1 <= l1_sensitivity <= 2^53, l1_sensitivity/epsilon <= 2^56
  // (kMaxDiscreteLaplaceScale). A scale below 2^-40 (ε > 2^40·Δ) is raised to 2^-40.
  static Result<GeometricMechanism> Create(double epsilon, std::int64_t l1_sensitivity);
  // count + noise, saturating at the int64 range (post-processing of the exact sum).
  std::int64_t AddNoise(std::int64_t count, Rng& rng) const;
  double PrivacyLoss() const { return epsilon_; }
  double scale() const { return scale_; }

 private:
  GeometricMechanism(double epsilon, double scale) : epsilon_(epsilon), scale_(scale) {}
  double epsilon_;
  double scale_;
};

}  // namespace deniable
