// SPDX-License-Identifier: Apache-2.0
// Adds two-sided geometric (discrete Laplace) noise to integer counts.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: the vector of counts changes by at
//   most `l1_sensitivity` (an integer) in L1 norm — 1 for a histogram, m for m histograms over
//   the same rows.
//   Guarantee: releasing every AddNoise() of one such vector is ε-DP (pure), ε = epsilon.
//   Sampling: exact discrete Laplace with scale l1_sensitivity/ε (SampleDiscreteLaplace).
//   Reference: Ghosh, Roughgarden, Sundararajan 2009; CKS 2020. Proof note:
//   dp/geometric_mechanism.md.
#pragma once

#include <cstdint>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

class GeometricMechanism {
 public:
  static Result<GeometricMechanism> Create(double epsilon, std::int64_t l1_sensitivity);
  std::int64_t AddNoise(std::int64_t count, Rng& rng) const;
  double PrivacyLoss() const { return epsilon_; }
  double scale() const { return scale_; }

 private:
  GeometricMechanism(double epsilon, double scale) : epsilon_(epsilon), scale_(scale) {}
  double epsilon_;
  double scale_;
};

}  // namespace deniable
