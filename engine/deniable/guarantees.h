// SPDX-License-Identifier: Apache-2.0
// The privacy guarantees of a plausibly deniable release, computed honestly (docs/deniable.md
// has the derivations and a worked example):
//  * per record, Theorem 1 of the PD paper: (ε0 + ln(1 + γ/t), e^{-ε0 (k - t)}) for the best t;
//  * per attempt (record or ⊥), with the failure floor φ: ε_A = max(ε_record, ε_⊥),
//    e^{ε_⊥} = 1 + γ/t + (1 - φ)/(φ (k + 1));
//  * the whole release: T attempts (the cap fixed before the run) composed by the better of
//    sequential and advanced composition — NOT the n released records: stopping at n passes
//    is post-processing of T attempts, while composing over n would under-count;
//  * the model: structure (D_T) and parameters (D_P) in parallel (max), §3.5;
//  * the total: the caller's spends on "all" ⊕ max(D_T, D_P, D_S); and, shown separately, the
//    amplification by the random split (Theorem 4 generalised to a three-way Poisson split).
// All ε are rounded up.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/dp/privacy_accountant.h"

namespace deniable {

// Theorem 1 for one t (1 <= t < k).
PrivacyCost TheoremOneCost(int k, double gamma, double epsilon0, int t);

struct RecordGuarantee {
  int t = 0;
  PrivacyCost cost;
  bool meets_delta = false;  // cost.delta <= the requested δ
};
// The largest t < k with e^{-ε0 (k - t)} <= record_delta (smallest ε at that δ). When no t
// meets it (k too small), t = 1 and meets_delta = false. Requires k >= 2 for any DP at all;
// k = 1 gives t = 0 and an infinite ε.
RecordGuarantee BestRecordGuarantee(int k, double gamma, double epsilon0, double record_delta);

// ε of the ⊥ output of one attempt with failure floor φ (needs |D_S| >= k).
double FailureOutputEpsilon(int k, double gamma, int t, double fail_floor);
// The smallest φ with FailureOutputEpsilon <= ε0 + ln(1 + γ/t) (rounded up).
double AutomaticFailFloor(int k, double gamma, double epsilon0, int t);
// One attempt of Mechanism 1 (record or ⊥): (max(ε_record, ε_⊥), e^{-ε0 (k - t)}).
PrivacyCost AttemptCost(int k, double gamma, double epsilon0, int t, double fail_floor);

// Generalised Theorem 4: parts j with sampling rates f_j (Σ f_j = 1, each row in exactly one
// part, independently) and costs (ε_j, δ_j): e^{ε'} = Σ f_j e^{ε_j},
// δ' = max(Σ f_j δ_j, Σ f_j e^{-ε_j} δ_j / Σ f_j e^{-ε_j}) (docs/deniable.md derives both
// directions; with parts {(ε, δ), (0, 0)} and rates {p, 1-p} this is Theorem 4 exactly).
PrivacyCost AmplifyBySplit(const PrivacyCost* costs, const double* rates, int parts);

// The largest per-invocation ε such that `entry` (count invocations, composed as the
// accountant composes batches) costs at most `budget` in ε. Bisection on CostOf.
double LargestEpsilonEach(const PrivacyAccountant& accountant, LedgerEntry entry, double budget);

// The largest b with a + b <= limit in exact arithmetic (so an accountant that rounds sums
// up still finds a + b <= limit); 0 if a >= limit.
double RemainingAfter(double a, double limit);

struct ReleaseGuarantees {
  bool randomized = true;
  int k = 0;
  double gamma = 0;
  double epsilon0 = 0;
  int omega_min = 0, omega_max = 0;
  double split_structure = 0, split_parameters = 0, split_seeds = 0;

  PrivacyCost structure;        // on D_T (ledger total of the partition)
  PrivacyCost parameters;       // on D_P
  PrivacyCost model;            // max of the two (parallel composition, §3.5)
  PrivacyCost model_amplified;  // Theorem 4 over the split (D_S contributes nothing)

  RecordGuarantee record;  // Theorem 1, best t
  double fail_floor = 0;
  PrivacyCost attempt;                // one attempt, record or ⊥
  std::uint64_t attempts_cap = 0;     // T
  PrivacyCost seed_count;             // the DP lower bound of |D_S| (randomised test)
  PrivacyCost synthesis;              // seed_count ⊕ T attempts on D_S (better of seq. / adv.)
  std::string synthesis_composition;  // "sequential" or "advanced"
  bool synthesis_charged = false;     // recorded in the accountant on "D_S"

  PrivacyCost all_spends;         // what the caller spent on "all" (domains)
  PrivacyCost release;            // all_spends ⊕ max(structure, parameters, synthesis)
  PrivacyCost release_amplified;  // all_spends ⊕ amplified split

  nlohmann::json ToJson() const;
  // Several lines of plain text for the CLI summary and the GUI.
  std::string ToText() const;
};

}  // namespace deniable
