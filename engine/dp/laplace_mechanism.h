// SPDX-License-Identifier: Apache-2.0
// Adds Laplace noise to a real-valued query answer (e.g. an entropy, eq. (8) of the
// plausible-deniability paper).
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: the query changes by at most
//   `l1_sensitivity` (Δ).
//   Guarantee: each AddNoise() call is PrivacyLoss()-DP (pure, δ = 0) and PrivacyLoss() is
//   exactly the `epsilon` asked for: the noise scale b is rounded up so that the
//   discretisation's extra (AddDiscretizedLaplace releases (Δ + g)/b-DP, g = granularity)
//   is covered, b >= (Δ + g)/ε. The relative increase of b over Δ/ε is g/Δ ≈ 2^-40/ε.
//   Sampling: AddDiscretizedLaplace (dp/secure_sampling.h; exact discrete Laplace underneath,
//   floating-point safe).
//   Reference: Dwork & Roth, Theorem 3.6; Google DP "Secure Noise Generation". Proof note:
//   dp/laplace_mechanism.md.
// Do NOT use it for counts: use GeometricMechanism (integer in, integer out).
//
// Example:
//   auto laplace = LaplaceMechanism::Create(/*epsilon=*/0.1, /*l1_sensitivity=*/2.0);
//   if (!laplace) return laplace.error();
//   double noisy = laplace->AddNoise(entropy, rng);   // spend laplace->PrivacyLoss()
#pragma once

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

// Noise scales LaplaceMechanism supports (l1_sensitivity / epsilon must fall inside).
inline constexpr double kMinLaplaceScale = 0x1p-500;
inline constexpr double kMaxLaplaceScale = 0x1p500;
// Below it the granularity g ≈ 2^-40·b would cost more than ε itself (loss (Δ + g)/b).
inline constexpr double kMinLaplaceEpsilon = 0x1p-30;

class LaplaceMechanism {
 public:
  // epsilon and l1_sensitivity finite and > 0, epsilon >= kMinLaplaceEpsilon,
  // l1_sensitivity/epsilon inside
  // [kMinLaplaceScale, kMaxLaplaceScale].
  static Result<LaplaceMechanism> Create(double epsilon, double l1_sensitivity);
  // `value` must be finite (see AddDiscretizedLaplace).
  double AddNoise(double value, Rng& rng) const;
  double PrivacyLoss() const { return privacy_loss_; }
  double scale() const { return scale_; }
  double granularity() const { return granularity_; }
  double l1_sensitivity() const { return l1_sensitivity_; }

 private:
  LaplaceMechanism(double scale, double granularity, double sensitivity, double loss)
      : scale_(scale), granularity_(granularity), l1_sensitivity_(sensitivity),
        privacy_loss_(loss) {}
  double scale_;
  double granularity_;
  double l1_sensitivity_;
  double privacy_loss_;
};

}  // namespace deniable
