// SPDX-License-Identifier: Apache-2.0
// The parameter advisor of the plausibly deniable mode (issue 3, item 6):
//  * from a privacy target — per released record, or for the whole release over T attempts —
//    it proposes the smallest k (the largest pass rate) with ε0 and t such that Theorem 1
//    (and the failure floor's bound for ⊥) meets it;
//  * it sweeps k × ω and estimates the pass rate of each cell (the paper's Figure 6) from a
//    few thousand candidates per ω setting, using the exact k' of each candidate (cheap: the
//    test costs O(ω) per candidate).
//
// Privacy: the proposals are functions of the target and public settings only. The sweep is
// NOT private: it runs on the real data (a model learned on a scratch accountant, seeds from
// D_S) and is meant for the data owner's eyes only — never write it into a release. Choosing
// parameters after looking at it is a (small) leak outside the formal guarantee, as with any
// tuning on real data; docs/deniable.md says so.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/deniable/deniable_model.h"
#include "engine/deniable/deniable_options.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {

struct ParameterProposal {
  bool feasible = false;
  int k = 0;
  double epsilon0 = 0;
  int t = 0;
  double fail_floor = 0;           // the automatic floor at (k, γ, ε0, t)
  PrivacyCost per_record;          // Theorem 1
  PrivacyCost per_attempt;         // record or ⊥
  std::uint64_t attempts_cap = 0;  // T (release targets only)
  PrivacyCost release;             // T attempts composed (release targets only)
  std::string note;                // why infeasible, or what bounds the proposal
};

// Smallest k such that some ε0 in (0, ε) and t < k give ε0 + ln(1 + γ/t) <= epsilon and
// e^{-ε0 (k - t)} <= delta (ε0 searched on a fine grid). `max_k` (e.g. |D_S|) bounds the
// search; beyond it the proposal is infeasible.
ParameterProposal ProposeForRecordTarget(PrivacyCost target, double gamma, int max_k);

// The same for the whole release: per-attempt (ε_a, δ_a) such that T attempts compose (the
// better of sequential and advanced composition with slack δ''; half of δ goes to δ'') to at
// most the target; then ProposeForRecordTarget(ε_a, δ_a).
ParameterProposal ProposeForReleaseTarget(PrivacyCost target, double gamma, std::uint64_t attempts,
                                          double slack, int max_k);

struct PassRateSweep {
  std::vector<int> ks;
  std::vector<OmegaRange> omegas;
  // pass_rate[o][i]: expected share of candidates passing at ks[i] with omegas[o] (randomised:
  // the mean of Pr{Lap(1/ε0) <= k' - k}; deterministic: share with k' >= k).
  std::vector<std::vector<double>> pass_rate;
  std::vector<std::vector<std::uint32_t>> k_prime;  // per ω setting: the sampled k' values
  std::size_t candidates_per_setting = 0;
};

// Estimates the pass rates from `candidates` candidates per ω setting (gamma, epsilon0 and the
// test type from `options`).
Result<PassRateSweep> SweepPassRates(const EncodedTable& data, const DataSplit& split,
                                     const DeniableModel& model, const DeniableOptions& options,
                                     const std::vector<int>& ks,
                                     const std::vector<OmegaRange>& omegas, std::size_t candidates,
                                     Rng& rng, Progress& progress);

struct AdviceRequest {
  PrivacyCost record_target{1.2, 1e-9};  // per released record
  PrivacyCost release_target{0, 0};      // whole release; epsilon 0 = not asked
  std::vector<int> ks;                   // empty = {10, 25, 50, 75, 100, 150, 200}
  std::vector<OmegaRange> omegas;        // empty = fixed ω from ~m/3 to m, plus ranges
  std::size_t candidates_per_setting = 2000;
};

struct Advice {
  ParameterProposal record;
  ParameterProposal release;  // feasible = false and empty note when not asked
  PassRateSweep sweep;
  std::size_t seeds = 0;  // |D_S| (owner-only information)

  nlohmann::json ToJson() const;
  std::string ToText() const;  // the table of pass rates and the proposals, for the CLI
};

// Splits the data, learns a model on a scratch accountant (its spends are NOT part of any
// release: this is advice for the owner), proposes parameters and sweeps the pass rates.
Result<Advice> Advise(const EncodedTable& data, const DeniableOptions& options,
                      const AdviceRequest& request,
                      std::vector<std::vector<std::uint32_t>> bucket_maps, Rng& rng,
                      Progress& progress);

}  // namespace deniable
