// SPDX-License-Identifier: Apache-2.0
// Adds Laplace noise to a real-valued query answer (e.g. an entropy, eq. (8) of the
// plausible-deniability paper).
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: the query changes by at most
//   `l1_sensitivity`.
//   Guarantee: each AddNoise() call is PrivacyLoss()-DP (pure, δ = 0), where PrivacyLoss()
//   includes the discretisation's extra (Δ + g)/scale (dp/secure_sampling.h).
//   Sampling: AddDiscretizedLaplace (floating-point safe).
//   Reference: Dwork & Roth, Theorem 3.6. Proof note: dp/laplace_mechanism.md.
// Do NOT use it for counts: use GeometricMechanism (integer in, integer out).
#pragma once

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

class LaplaceMechanism {
 public:
  static Result<LaplaceMechanism> Create(double epsilon, double l1_sensitivity);
  double AddNoise(double value, Rng& rng) const;
  double PrivacyLoss() const { return privacy_loss_; }
  double scale() const { return scale_; }
  double l1_sensitivity() const { return l1_sensitivity_; }

 private:
  LaplaceMechanism(double scale, double sensitivity, double loss)
      : scale_(scale), l1_sensitivity_(sensitivity), privacy_loss_(loss) {}
  double scale_;
  double l1_sensitivity_;
  double privacy_loss_;
};

}  // namespace deniable
