// SPDX-License-Identifier: Apache-2.0
// The exponential mechanism (McSherry & Talwar 2007): picks candidate i with probability
// ∝ exp(ε·u_i / (2Δu)) (or exp(ε·u_i / Δu) when every utility moves in the same direction
// between neighbours, `monotonic`; or exp(ε·u_i / R) when, for every pair of neighbours, the
// changes of all the utilities lie in one common interval of width R, `CreateRangeBounded`).
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Caller-verified: each utility changes by at most
//   `sensitivity` (Δu) (and, if `monotonic`, all in the same direction).
//   Guarantee: one Select() is ε-DP (pure), ε = PrivacyLoss() = epsilon, floating point
//   included.
//   Sampling (dp/exponential_mechanism.md): log-domain weights shifted by the maximum,
//   s_i = c·(u_i − u_max) with c = (ε − η)/(2Δu), clamped at s_i >= −700 (that is the exact
//   exponential mechanism on the utility max(u_i, u_max − 700/c), which has the same
//   sensitivity, so the clamp costs no privacy and shifts at most n·e^-700 of probability),
//   weights exp(s_i) in [e^-700, 1], and an exact draw proportional to the weights as doubles
//   (SampleProportional, exact big-integer sums). exp() and the subtraction/multiplication
//   perturb each weight by a relative factor e^{±θ}, θ <= 1.6e-13; that can move the privacy
//   loss by at most 4θ < η = 2^-40, which c already leaves out. O(#candidates).
//   Reference: Dwork & Roth, Theorem 3.10.
// Do NOT use it on utilities whose sensitivity you have not bounded; do not pass NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

// The share of ε kept aside for floating-point error in Select (see above).
inline constexpr double kExponentialMechanismSlack = 0x1p-40;

class ExponentialMechanism {
 public:
  // epsilon and sensitivity finite and > 0.
  static Result<ExponentialMechanism> Create(double epsilon, double sensitivity,
                                             bool monotonic = false);
  // Range-bounded utilities (dp/exponential_mechanism.md §1b). Caller-verified: for every pair
  // of neighbours D, D' there is an a with u_i(D') − u_i(D) ∈ [a, a + range] for EVERY i (a
  // constant candidate moves by 0, so a must lie in [−range, 0]). Then c = (ε − η)/range, and
  // one Select is ε-DP. `monotonic` is the case range = Δ; an arbitrary utility of sensitivity
  // Δ is range-bounded with range 2Δ (Create's default). A tighter range is a real gain only
  // when the changes are lopsided: the dependency score moves in [−1, 1 − λ0] on adding a
  // record (model/dependencies.h), range 2 − λ0 = 1.1 rather than 2.
  // Reference: McSherry & Talwar 2007 (their proof bounds the ratio by the spread of the
  // changes); Dong, Durfee & Rogers 2020 ("range-bounded" mechanisms), Durfee & Rogers 2019.
  static Result<ExponentialMechanism> CreateRangeBounded(double epsilon, double range);
  // Index of the chosen candidate; `utilities` must be non-empty and finite (asserted;
  // release builds give a NaN utility the lowest weight).
  std::size_t Select(std::span<const double> utilities, Rng& rng) const;

  // The exponential mechanism over a multiset: candidate i stands for multiplicities[i]
  // candidates that share utilities[i] (e.g. the grid cells of one interval between sorted
  // values, Smith 2011); returns i with probability ∝ multiplicities[i]·exp(c·u_i). Same
  // guarantee as Select over the expanded list. Sizes equal, multiplicities <= 2^53, at
  // least one > 0 (asserted); entries with multiplicity 0 are never chosen.
  std::size_t SelectWithMultiplicity(std::span<const double> utilities,
                                     std::span<const std::uint64_t> multiplicities,
                                     Rng& rng) const;

  double PrivacyLoss() const { return epsilon_; }
  // c: the factor applied to utilities in the exponent.
  double exponent_factor() const { return factor_; }

 private:
  ExponentialMechanism(double epsilon, double factor) : epsilon_(epsilon), factor_(factor) {}
  double epsilon_;
  double factor_;
};

}  // namespace deniable
