// SPDX-License-Identifier: Apache-2.0
// The exponential mechanism (McSherry & Talwar 2007): picks candidate i with probability
// ∝ exp(ε·u_i / (2Δu)) (or exp(ε·u_i / Δu) when every utility moves in the same direction
// between neighbours, `monotonic`).
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: each utility changes by at most
//   `sensitivity` (Δu).
//   Guarantee: one Select() is ε-DP (pure).
//   Sampling: documented in dp/exponential_mechanism.md (Gumbel-max with the floating-point
//   caveats handled, or inverse-CDF on normalised weights with 64-bit uniforms).
//   Reference: Dwork & Roth, Theorem 3.10.
#pragma once

#include <cstddef>
#include <span>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

class ExponentialMechanism {
 public:
  static Result<ExponentialMechanism> Create(double epsilon, double sensitivity,
                                             bool monotonic = false);
  // Index of the chosen candidate; `utilities` must be non-empty and finite.
  std::size_t Select(std::span<const double> utilities, Rng& rng) const;
  double PrivacyLoss() const { return epsilon_; }

 private:
  ExponentialMechanism(double epsilon, double sensitivity, bool monotonic)
      : epsilon_(epsilon), sensitivity_(sensitivity), monotonic_(monotonic) {}
  double epsilon_;
  double sensitivity_;
  bool monotonic_;
};

}  // namespace deniable
