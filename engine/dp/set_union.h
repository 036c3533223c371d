// SPDX-License-Identifier: Apache-2.0
// DP set union (Gopi, Gulhane, Kulkarni, Shen, Shokouhi, Yekhanin, "Differentially Private Set
// Union", ICML 2020, §4–5): which (group, value) items may appear in a release at all, decided
// jointly for every group (column) of a table.
//
// Why not one partition selection per column: every record holds one value in each of m
// columns, so splitting ε over the columns divides each column's ε by m and multiplies the
// count a category needs to survive by m (≈ 3,400 records at ε = 0.1 over 15 columns). A
// "policy" lets each record pour a bounded weight into ITS items, preferentially into items
// that have not yet reached a cap Γ; frequent values fill up early and the rest of their
// records' weight flows to rare values. Two policies:
//
//   Policy Gaussian (default; the paper's ℓ2 policy): a record's step is bounded in ℓ2 norm,
//   z = gaps scaled to ℓ2 norm 1, so each of its m items gets about 1/√m (not 1/m) of weight;
//   the weight histogram has ℓ2 sensitivity 1 (the step is the proximal map of ‖·‖₂, firmly
//   nonexpansive) and Gaussian noise is calibrated to it. On wide tables the noise needed
//   grows with √(columns) instead of the number of columns.
//   Policy Laplace (the paper's ℓ1 water filling): ℓ1 sensitivity 1, Laplace noise.
//
// Privacy guarantee
//   Neighbouring: add/remove one record; a record holds at most one item per group and at
//   most `groups` items in all (Δ0 = groups).
//   Policy Gaussian: records in a uniformly random order; each adds z = min(1, 1/‖g‖₂)·g to its
//   items' weights, g_u = Γ − H[u] (items already at Γ, or kept by an earlier round, excluded);
//   then every item with H > 0 is kept iff H + N(0, σ²) > τ (drawn as an exact Bernoulli of
//   Q((τ − H)/σ); nothing else is output). σ from the analytic Gaussian curve (Balle & Wang
//   2018, Thm. 8) for (ε, δ/2) at the ℓ2 sensitivity 1 plus a charged floating-point slack;
//   τ = 1 + Q^{-1}(δ/(2e^ε·Δ0·rounds))·σ (+ slack); Γ = τ + α·σ.
//   Policy Laplace: each record pours weight 1 by ℓ1 water filling into its items below
//   Γ = ρ + α·b; Laplace noise of scale b = (1 + 1e-6)/ε (FP-safe: exact Bernoulli);
//   kept iff noisy weight > ρ, ρ = max_{1≤t≤Δ0} (1/t + b·ln(1 / (2(1 − (1 − δ)^{1/t})))).
//   Guarantee: (ε, δ)-DP for the kept sets (one ledger entry for Policy Gaussian, one per
//   round for Policy Laplace). Proof note: dp/set_union.md.
#pragma once

#include <cstdint>
#include <span>
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

enum class SetUnionMechanism {
  kPolicyLaplace,   // ℓ1 water filling + Laplace threshold
  kPolicyGaussian,  // ℓ2 descent + Gaussian threshold
};

struct SetUnionOptions {
  double epsilon = 0.1;
  double delta = 1e-9;
  // > 0: zCDP accounting (Policy Gaussian only; the marginals mode, whose model is zCDP too):
  // σ_1 = 1/sqrt(2ρ) instead of the analytic Gaussian for ε, `epsilon` is ignored, and `delta`
  // is the total-variation coupling τ of an approximate-zCDP ledger entry (new items and the
  // floating-point cutoff; the accountant charges e^ε·τ). dp/set_union.md, "Under zCDP".
  double rho = 0;
  SetUnionMechanism mechanism = SetUnionMechanism::kPolicyGaussian;
  // Policy Laplace: Γ = ρ + α·b: how far above the threshold an item is filled. An item at the
  // cap is dropped with probability ½·e^{−α}; for a table's domain losing "Male" from `sex` is
  // not an option, so the default 14 makes that 4e-7 per item (the paper's vocabularies use
  // 2–5).
  double alpha = 14.0;
  // Policy Gaussian: Γ = τ + gaussian_alpha·σ. An item at the cap is dropped with probability
  // Q(gaussian_alpha): 1e-9 at the default 6 (2.9e-7 at 5, Policy Laplace's is 4e-7); the
  // higher cap costs rare values almost nothing (dp/set_union.md, "Choosing α"). In [0, 30].
  double gaussian_alpha = 6.0;
  // Rounds: items kept by an earlier round are treated as full (they take no more weight), so
  // later rounds pour every record's weight into the values still undecided (adaptive: each
  // round's policy depends only on earlier rounds' public output). Policy Laplace: round r
  // spends epsilon·round_fractions[r] and δ/rounds (sequential composition). Policy Gaussian:
  // round r gets μ_r = μ·sqrt(round_fractions[r]) of the analytic-Gaussian μ for (ε, δ/2)
  // (μ-GDP composition) and the threshold δ is split evenly.
  std::vector<double> round_fractions = {1.0};
};

struct SetUnionResult {
  std::vector<std::vector<std::uint32_t>> kept;  // per group: kept value indices, increasing
  double threshold = 0;                          // ρ (Laplace) or τ (Gaussian), last round
  double cap = 0;                                // Γ, last round
  double sigma = 0;  // Gaussian noise σ of the last round (0 for Laplace)
};

// The parameters of one Policy Gaussian round (derived from public values only).
struct PolicyGaussianRound {
  double sigma = 0;           // noise standard deviation
  double threshold = 0;       // τ
  double cap = 0;             // Γ = τ + gaussian_alpha·σ
  double l2_sensitivity = 0;  // 1 + the charged floating-point slack (σ is calibrated to it)
};
struct PolicyGaussianCalibration {
  std::vector<PolicyGaussianRound> rounds;
  double base_sigma = 0;       // σ for sensitivity 1 and all of ε in one round, (ε, δ/2)
  double delta_gaussian = 0;   // δ_g = δ/2: the analytic Gaussian part
  double delta_threshold = 0;  // δ_T, all rounds: new items; δ_g + e^ε·δ_T + FP terms <= δ
};

// σ, τ, Γ of every round for (epsilon, delta) over `groups` groups (Δ0) and the round split
// (fractions of ε in the ρ = μ²/2 sense: round r gets μ·sqrt(f_r)). Fails for parameters
// outside the supported range (groups > 2^20, α outside [0, 30], ε or δ so small that the
// floating-point slack cannot be bounded). dp/set_union.md derives every term.
Result<PolicyGaussianCalibration> CalibratePolicyGaussian(double epsilon, double delta,
                                                          std::size_t groups, double gaussian_alpha,
                                                          std::span<const double> round_fractions);

// The same under zCDP: σ_1 = 1/sqrt(2ρ) (rounded up; μ-GDP with μ <= sqrt(2ρ), hence ρ-zCDP),
// and the new items plus the ±37.5 cutoff within total variation `coupling` (δ_T =
// coupling·(1 − 2^-20)); delta_gaussian is 0.
Result<PolicyGaussianCalibration> CalibratePolicyGaussianZcdp(
    double rho, double coupling, std::size_t groups, double gaussian_alpha,
    std::span<const double> round_fractions);

// ρ for the given parameters (Δ0 = groups).
double SetUnionThreshold(double epsilon, double delta, std::size_t groups);

// Spends (epsilon, delta) once on `partition` (Policy Gaussian: one ledger entry whose
// mechanism text names σ, τ and Γ; Policy Laplace: one entry per round). At most 2^32 − 1
// records and 2^20 groups.
Result<SetUnionResult> DpSetUnion(const SetUnionInput& input, const SetUnionOptions& options,
                                  PrivacyAccountant& accountant, const std::string& label,
                                  const std::string& partition, Rng& rng, Progress& progress);

// The weight histogram the policy builds for records in the given order (exposed for the
// contractivity property tests; not a private output).
// Items flagged in `full` (per group, per value; may be null) take no weight.
std::vector<std::vector<double>> PolicyLaplaceWeights(
    const SetUnionInput& input, const std::vector<std::uint32_t>& order, double cap,
    const std::vector<std::vector<char>>* full = nullptr);

// The same for the ℓ2 policy: each record in `order` adds z = min(1, 1/‖g‖₂)·g to its open
// items (g_u = cap − H[u] > 0), weights clamped at `cap` (exposed for the ℓ2-contractivity
// property tests; not a private output).
std::vector<std::vector<double>> PolicyGaussianWeights(
    const SetUnionInput& input, const std::vector<std::uint32_t>& order, double cap,
    const std::vector<std::vector<char>>* full = nullptr);

// The keep decision of Policy Gaussian for one item of weight `weight`: true with probability
// Q((threshold − weight)/sigma) = Pr[weight + N(0, σ²) > threshold], drawn as an exact
// Bernoulli of that probability computed in double precision without cancellation (for
// weight > threshold the drop event is drawn, with probability Q((weight − threshold)/sigma));
// arguments beyond ±37.5 are decided deterministically. sigma > 0.
bool SampleGaussianThresholdKeep(double weight, double threshold, double sigma, Rng& rng);

// Owner-only forecast (NOT a release: it reads the real counts and spends nothing): the
// probability that each (group, value) is kept by DpSetUnion with these options, and per
// group the count below which values are likely merged into "Other".
struct SetUnionGroupForecast {
  // 1 + the largest count among the group's values kept with probability < ½ (0 when every
  // value is kept with probability >= ½): every value holding at least `merge_below` records
  // is kept with probability >= ½.
  std::uint64_t merge_below = 0;
  std::uint64_t values = 0;       // values held by at least one record
  std::uint64_t likely_kept = 0;  // of them, kept with probability >= ½
  std::string summary;            // e.g. "values with fewer than about 120 rows merge into Other"
};
struct SetUnionForecast {
  std::vector<std::vector<double>> keep_probability;  // [group][value]
  std::vector<std::vector<std::uint64_t>> counts;     // [group][value]: records holding it
  std::vector<SetUnionGroupForecast> groups;
  double threshold = 0;  // as in SetUnionResult (last round)
  double cap = 0;
  double sigma = 0;
};
// The policy is run on kForecastOrders fixed-seed random orders and the keep probabilities
// (Q((τ − H)/σ), or the Laplace tail) are averaged over them. With several rounds an item is
// treated as full in later rounds once its probability of having been kept reaches ½ (an
// approximation; one round is exact up to the order average). Same validation as DpSetUnion.
inline constexpr int kForecastOrders = 4;
// `progress` (optional) is polled once per order: a cancel returns kCancelled.
Result<SetUnionForecast> ForecastSetUnion(const SetUnionInput& input,
                                          const SetUnionOptions& options,
                                          const Progress* progress = nullptr);

}  // namespace deniable
