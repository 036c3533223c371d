// SPDX-License-Identifier: Apache-2.0
// DP set union with the Policy Laplace mechanism (Gopi, Gulhane, Kulkarni, Shen, Shokouhi,
// Yekhanin, "Differentially Private Set Union", ICML 2020, §4 / Algorithm "Policy Laplace"):
// which (group, value) items may appear in a release at all, decided jointly for every group
// (column) of a table.
//
// Why not one partition selection per column: every record holds one value in each of m
// columns, so splitting ε over the columns divides each column's ε by m and multiplies the
// count a category needs to survive by m (≈ 3,400 records at ε = 0.1 over 15 columns).
// Policy Laplace gives each record a total weight of 1 to spread over ITS items, poured
// preferentially into items that have not yet reached a cap Γ (ℓ1 "water filling"); frequent
// values fill up early and the rest of their records' weight flows to rare values. The final
// weight histogram has ℓ1 sensitivity 1 because the update is ℓ1-contractive (Gopi et al.,
// §5), whatever the number of columns.
//
// Privacy guarantee
//   Neighbouring: add/remove one record; a record holds at most one item per group and at
//   most `groups` items in all (Δ0 = groups).
//   Mechanism: records in a uniformly random order; each pours weight 1 by water filling into
//   its items below Γ = ρ + α·b; every item with weight > 0 gets Laplace noise of scale
//   b = (1 + 1e-6)/ε (FP-safe: the comparison H + Lap(b) > ρ is drawn as an exact Bernoulli);
//   kept iff noisy weight > ρ, with ρ = max_{1≤t≤Δ0} (1/t + b·ln(1 / (2(1 − (1 − δ)^{1/t})))).
//   Guarantee: (ε, δ)-DP. Proof note: dp/set_union.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {

inline constexpr std::uint32_t kNoItem = 0xFFFFFFFFu;

struct SetUnionInput {
  std::size_t records = 0;
  // values[g][r]: record r's value index in group g (< value_counts[g]) or kNoItem.
  std::vector<std::vector<std::uint32_t>> values;
  std::vector<std::uint32_t> value_counts;  // per group
};

struct SetUnionOptions {
  double epsilon = 0.1;
  double delta = 1e-9;
  // Γ = ρ + α·b: how far above the threshold an item is filled. An item at the cap is dropped
  // with probability ½·e^{−α}; for a table's domain losing "Male" from `sex` is not an option,
  // so the default 14 makes that 4e-7 per item (the paper's vocabularies use 2–5).
  double alpha = 14.0;
  // Rounds: round r spends epsilon·round_fractions[r] (and δ split evenly); items kept by an
  // earlier round are treated as full (they take no more weight), so later rounds pour every
  // record's weight into the values still undecided. Sequential composition across rounds
  // (adaptive: each round's policy depends only on earlier rounds' public output).
  std::vector<double> round_fractions = {1.0};
};

struct SetUnionResult {
  std::vector<std::vector<std::uint32_t>> kept;  // per group: kept value indices, increasing
  double threshold = 0;                          // ρ
  double cap = 0;                                // Γ
};

// ρ for the given parameters (Δ0 = groups).
double SetUnionThreshold(double epsilon, double delta, std::size_t groups);

// Spends (epsilon, delta) once on `partition`.
Result<SetUnionResult> DpSetUnion(const SetUnionInput& input, const SetUnionOptions& options,
                                  PrivacyAccountant& accountant, const std::string& label,
                                  const std::string& partition, Rng& rng, Progress& progress);

// The weight histogram the policy builds for records in the given order (exposed for the
// contractivity property tests; not a private output).
// Items flagged in `full` (per group, per value; may be null) take no weight.
std::vector<std::vector<double>> PolicyLaplaceWeights(
    const SetUnionInput& input, const std::vector<std::uint32_t>& order, double cap,
    const std::vector<std::vector<char>>* full = nullptr);

}  // namespace deniable
