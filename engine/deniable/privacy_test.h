// SPDX-License-Identifier: Apache-2.0
// The decision of the plausible-deniability privacy test for one candidate, given its count k'
// of plausible seeds (plausibility.h), and the failure floor of an attempt.
//
// Privacy guarantee (Mechanism 1 with this test; proofs in docs/deniable.md)
//   Neighbouring: add/remove one record of D_S; the model is fixed (learned on D_T, D_P).
//   Randomised test (Privacy Test 2): release iff k' >= k + Lap(1/ε0), i.e. with probability
//     exactly Pr[Lap(1/ε0) <= k' - k] (SampleLaplaceCdfAtInteger, dp/secure_sampling.h).
//     A released record is (ε0 + ln(1 + γ/t), e^{-ε0 (k - t)})-DP for every 1 <= t < k
//     (Theorem 1, PD paper App. C), assuming |D_S| >= k.
//   Failure floor: with probability φ (exact Bernoulli, SampleBernoulli) an attempt outputs ⊥
//     before looking at the data. Theorem 1 covers released records only; with the floor the
//     ⊥ output is ln(1 + γ/t + (1 - φ)/(φ (k + 1)))-DP as well (docs/deniable.md, "Why a
//     failure floor"), so one attempt — record or ⊥ — is DP and attempts compose.
//   Deterministic test (Privacy Test 1): release iff k' >= k. (k, γ)-plausible deniability
//     only: NOT differentially private (whether a candidate passes depends on k' exactly).
//   Reference: PD paper §2 (Privacy Tests 1, 2; Theorem 1).
#pragma once

#include <cstdint>

#include "engine/core/random.h"
#include "engine/dp/secure_sampling.h"

namespace deniable {

class PrivacyTest {
 public:
  // Randomised (Privacy Test 2) with threshold noise Lap(1/epsilon0) and failure floor φ.
  static PrivacyTest Randomized(int k, double epsilon0, double fail_floor) {
    return PrivacyTest(k, epsilon0, fail_floor, false);
  }
  // Deterministic (Privacy Test 1): no noise, no floor.
  static PrivacyTest Deterministic(int k) { return PrivacyTest(k, 0, 0, true); }

  // An attempt first draws the floor: true = output ⊥ without generating a candidate.
  bool FloorFails(Rng& rng) const { return !deterministic_ && SampleBernoulli(fail_floor_, rng); }
  // true = release the candidate.
  bool Passes(std::uint32_t k_prime, Rng& rng) const {
    if (deterministic_) return k_prime >= static_cast<std::uint32_t>(k_);
    return SampleLaplaceCdfAtInteger(static_cast<std::int64_t>(k_prime) - k_, epsilon0_, rng);
  }

  int k() const { return k_; }
  double epsilon0() const { return epsilon0_; }
  double fail_floor() const { return fail_floor_; }
  bool deterministic() const { return deterministic_; }

 private:
  PrivacyTest(int k, double epsilon0, double fail_floor, bool deterministic)
      : k_(k), epsilon0_(epsilon0), fail_floor_(fail_floor), deterministic_(deterministic) {}
  int k_;
  double epsilon0_;
  double fail_floor_;
  bool deterministic_;
};

}  // namespace deniable
