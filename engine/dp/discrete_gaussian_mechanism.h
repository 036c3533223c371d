// SPDX-License-Identifier: Apache-2.0
// Adds discrete Gaussian noise to integer counts, sampled exactly.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: the vector of integer counts changes
//   by at most `l2_sensitivity` in ℓ2 norm (1 for one histogram, sqrt(m) for m histograms over
//   the same rows, each record in one cell of each).
//   Mechanism: count_i + Z_i, Z_i iid discrete Gaussian N_Z(0, σ²), Pr[Z = z] ∝ exp(−z²/(2σ²))
//   on the integers, σ² = Δ2²/(2ρ) rounded up.
//   Guarantee: ρ-zCDP for the whole vector (Canonne, Kamath, Steinke, "The Discrete Gaussian
//   for Differential Privacy", NeurIPS 2020, Theorem 4 and its multivariate form),
//   hence (ε, δ)-DP for every δ with ε = EpsilonFor(δ) (CKS Corollary 13, gaussian_accounting.h).
//   Sampling: CKS Algorithm 3 (discrete Laplace proposal, exact Bernoulli(exp(−γ)) acceptance)
//   in exact integer arithmetic on the double σ² (a dyadic rational): no floating point touches
//   the noise. Proof note: dp/discrete_gaussian_mechanism.md.
//
// Example:
//   auto gaussian = DiscreteGaussianMechanism::Create(/*rho=*/0.05, /*l2_sensitivity=*/1.0);
//   for (std::int64_t& c : histogram) c = gaussian->AddNoise(c, rng);
//   // ledger: gaussian->EpsilonFor(delta) with that delta
#pragma once

#include <cstdint>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

// The variances SampleDiscreteGaussian supports exactly (the integers of the exact arithmetic
// stay below 2^127 there). Callers validate; DiscreteGaussianMechanism::Create does.
inline constexpr double kMinDiscreteGaussianSigmaSquared = 0x1p-8;
inline constexpr double kMaxDiscreteGaussianSigmaSquared = 0x1p56;

// One draw of N_Z(0, σ²): Pr[Z = z] = exp(−z²/(2σ²)) / Σ_y exp(−y²/(2σ²)), using the exact value
// of the double sigma_squared (clamped into the supported range; NaN becomes the maximum).
// Exact except for proposals whose acceptance probability is below e^-512, which are rejected
// (total-variation error < 2^-700 per draw; CKS Algorithm 3, dp/discrete_gaussian_mechanism.md).
std::int64_t SampleDiscreteGaussian(double sigma_squared, Rng& rng);

class DiscreteGaussianMechanism {
 public:
  // rho finite > 0, l2_sensitivity finite > 0, and σ² = Δ2²/(2ρ) (rounded up) within
  // [2^-8, 2^56].
  static Result<DiscreteGaussianMechanism> Create(double rho, double l2_sensitivity);
  // count + noise, saturating at the int64 range (post-processing of the exact sum).
  std::int64_t AddNoise(std::int64_t count, Rng& rng) const;
  // The zCDP guarantee of releasing AddNoise of every count of one vector.
  double rho() const { return rho_; }
  double l2_sensitivity() const { return l2_sensitivity_; }
  // The variance parameter used (>= l2_sensitivity²/(2·rho)).
  double sigma_squared() const { return sigma_squared_; }
  // ε of the (ε, δ)-DP guarantee at this δ (CKS Corollary 13), rounded up; δ in (0, 1).
  Result<double> EpsilonFor(double delta) const;

 private:
  DiscreteGaussianMechanism(double rho, double l2_sensitivity, double sigma_squared)
      : rho_(rho), l2_sensitivity_(l2_sensitivity), sigma_squared_(sigma_squared) {}
  double rho_;
  double l2_sensitivity_;
  double sigma_squared_;
};

}  // namespace deniable
