// SPDX-License-Identifier: Apache-2.0
// The privacy accountant: records every spend of a release and composes them.
//
// Neighbouring relation everywhere in Deniable: datasets that differ by adding or removing one
// record (unbounded DP). Row sets ("partitions") form a tree: the root "all" is the whole
// input; a node's children are disjoint random subsets of it (e.g. D_T, D_P, D_S of the
// plausible-deniability split; each record must land in at most one child, decided by its own
// coin, so adding a record changes no other record's child). The total cost of a node is the
// sequential composition of its own entries plus the parallel composition (max ε, max δ) of
// its children's totals:
//     total(node) = Σ_entries(node) ⊕ max_child total(child)
// (parallel composition holds because one record lands in exactly one child).
// An entry may itself be a batch of k identical mechanisms, composed by the better of
// sequential composition (Theorem 2 of the extended plausible-deniability paper, App. A) and
// advanced composition (Theorem 3, with the accountant's slack δ''); advanced is used only
// when its ε is smaller and the δ budget can pay its δ''.
//
// Spend() refuses (ErrorCode::kBudgetExhausted) a spend that would take the total over the
// budget the user set; nothing is recorded then. All arithmetic rounds toward more ε and δ,
// exactly: a sum that is exact in floating point stays exact (0.25 + 0.75 spends exactly 1),
// an inexact one is rounded up (dp/directed_rounding.h). Consequence for callers: split a
// budget with EvenShare()/ShareOf(), which round down, not with ε / m (fl(1/10)·10 > 1).
// zCDP entries (rho_each > 0: Gaussian and exponential mechanisms of the marginals mode) compose
// by adding ρ (Bun & Steinke Lemma 1.7); a node's zCDP entries are converted ONCE, as a block,
// to (ε = ZcdpEpsilon(Σρ, δ_z), δ_z + e^ε·Σ coupling) with the δ_z fixed by SetZcdpDelta (CKS
// 2020 Corollary 13; "coupling": the total-variation terms of approximate-zCDP entries),
// and that cost composes sequentially with the node's (ε, δ) entries. Soundness needs the block
// to run after the (ε, δ) mechanisms (two-step sequential composition), so once a zCDP entry is
// recorded the accountant refuses (ε, δ) entries (kFailedPrecondition).
// Proof note: dp/privacy_accountant.md.
//
// Example:
//   auto accountant = PrivacyAccountant::Create({.epsilon = 1.0, .delta = 1e-6}, 1e-7);
//   accountant->AddPartition("D_T", "all", "structure learning: 21% of rows");
//   LedgerEntry entry{.label = "entropies", .mechanism = "Laplace", .partition = "D_T",
//                     .epsilon_each = 0.01, .count = 210};
//   if (Status s = accountant->Spend(entry); !s) return s.error();
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/core/result.h"

namespace deniable {

struct PrivacyCost {
  double epsilon = 0.0;
  double delta = 0.0;
};

// Theorem 2 (sequential composition): Σε, Σδ.
PrivacyCost SequentialComposition(const std::vector<PrivacyCost>& costs);

// Theorem 3 (advanced composition, Dwork-Roth 3.20) of k mechanisms, each (ε, δ)-DP, with slack
// δ'' > 0: ε' = ε sqrt(2k ln(1/δ'')) + k ε (e^ε − 1), δ' = k δ + δ''.
PrivacyCost AdvancedComposition(double epsilon, double delta, std::size_t k, double delta_slack);

// The better (smaller ε) of sequential and advanced composition for k identical mechanisms.
// Advanced is only used when it gives a smaller ε (its δ'' is then charged).
PrivacyCost BestComposition(double epsilon, double delta, std::size_t k, double delta_slack);

// Theorem 4 (amplification by sampling, Li-Qardaji-Su 2012): a mechanism run on a Poisson
// sample with rate p: ε' = ln(1 + p (e^ε − 1)), δ' = p δ.
// sampling_rate must be in (δ, 1) (Theorem 4's condition); any other rate (1, 0, NaN, ...)
// returns `cost` unchanged, which is always a valid bound.
PrivacyCost AmplifyBySampling(PrivacyCost cost, double sampling_rate);

// The largest x with parts·x <= total exactly (parts >= 1): m spends of EvenShare(ε, m) never
// exceed ε. 0 for parts == 0.
double EvenShare(double total, std::size_t parts);
// The largest x <= total·fraction exactly (fraction in [0, 1]).
double ShareOf(double total, double fraction);

struct LedgerEntry {
  std::string label;        // what was released, e.g. "noisy counts of age | (sex, income)"
  std::string mechanism;    // e.g. "discrete Laplace", "exponential mechanism"
  std::string partition;    // which row set it touched, e.g. "all", "D_T"
  std::string reference;    // paper and equation, e.g. "PD paper eq. (14)"
  double epsilon_each = 0;  // per invocation
  double delta_each = 0;
  double sensitivity = 0;   // of the query, in its own units (documented per mechanism)
  std::size_t count = 1;    // identical invocations composed in this entry
  // zCDP entries: ρ per invocation (> 0; then epsilon_each must be 0). 0 for (ε, δ) entries.
  // A zCDP entry with delta_each > 0 is *approximate* zCDP: on every pair of neighbours its
  // output is within total-variation distance delta_each of a ρ-zCDP mechanism's (the set
  // union's new items, dp/set_union.md); the block's δ then grows by e^ε·Σ delta_each.
  double rho_each = 0;
  PrivacyCost cost;         // the composed cost of this entry (filled by the accountant)
  std::string composition;  // "single", "sequential", "advanced" (filled by the accountant)
};

class PrivacyAccountant {
 public:
  // The budget: epsilon > 0 finite, 0 <= delta < 1; the advanced-composition slack δ'' in
  // [0, 1) (0: never use advanced composition).
  static Result<PrivacyAccountant> Create(PrivacyCost budget, double advanced_delta_slack = 0);

  // Declares a partition (a disjoint random subset of `parent`), e.g. ("D_T", "all",
  // "structure learning: 21% of rows, chosen at random"). The root "all" always exists.
  Status AddPartition(const std::string& name, const std::string& parent,
                      const std::string& description);

  // Records `entry` (entry.cost and entry.composition are computed here). If entry.count > 1
  // the batch is composed with BestComposition using the accountant's slack δ''.
  // Checks (kInvalidArgument, recording nothing): non-empty label, known partition,
  // epsilon_each finite >= 0, delta_each in [0, 1), sensitivity finite >= 0, count >= 1.
  // Refuses with kBudgetExhausted (recording nothing) if the new total would exceed the budget.
  Status Spend(LedgerEntry entry);

  // The δ_z at which zCDP entries are converted, in (0, 1); set once, before the first zCDP
  // entry (kFailedPrecondition otherwise). The pipeline sets it to the δ the (ε, δ) entries
  // left.
  Status SetZcdpDelta(double delta);
  double zcdp_delta() const { return zcdp_delta_; }
  // From now on, a pure ε-DP entry (epsilon_each > 0, delta_each = 0, rho_each = 0) is
  // recorded as a zCDP entry of the block: ρ = ε²/2 per invocation (ε-DP implies
  // ε²/2-zCDP, Bun & Steinke 2016 Prop. 1.4; ZcdpOfPureDp rounds up), its mechanism text
  // naming the ε. Needs SetZcdpDelta first (kFailedPrecondition). An (ε, δ) entry with δ > 0
  // is still refused once the block has begun. Where every step is ε-DP or zCDP (the
  // marginals mode) this is far cheaper than composing the pure steps beside the block: at
  // ε = 1, δ = 1e-9 a pure ε₀ = 0.045 outside the block costs 9% of the block's ρ, inside 0.8%.
  Status FoldPureDpIntoZcdpBlock();
  bool folds_pure_dp() const { return fold_pure_dp_; }
  // Σ ρ of the zCDP entries on `partition` (rounded up).
  double RhoOf(const std::string& partition) const;
  // The largest further ρ on "all" that Spend would still accept (0 if none or no δ_z).
  double RemainingRho() const;

  // The cost a Spend(entry) would record, without recording it ({+inf, 1} if the entry is
  // invalid).
  PrivacyCost CostOf(const LedgerEntry& entry) const;

  PrivacyCost budget() const { return budget_; }
  PrivacyCost Total() const;                     // of the whole release so far
  PrivacyCost TotalOf(const std::string& partition) const;  // {0, 0} if unknown
  PrivacyCost Remaining() const;                 // budget minus Total, rounded down, >= 0

  // "Spend what remains" (issue 12, item 7): the (ε, δ) — and RemainingRhoToSpend() the ρ — to
  // hand to a step that will spend it as many entries of its own (shares, batches, partitions
  // composed in parallel). Remaining() less a relative margin of kSpendMargin, so that the
  // step's own rounding (its shares summed in another order) can never make Spend refuse the
  // last entry. Tested: any split of it into up to 10^6 ShareOf / EvenShare parts fits.
  static constexpr double kSpendMargin = 1e-9;
  PrivacyCost RemainingToSpend() const;
  double RemainingRhoToSpend() const;
  // The one place the margin is applied: what a step may plan to spend of an `amount` of ε, δ
  // or ρ it was given (amount less kSpendMargin, >= 0), so that its shares, summed in its own
  // floating-point order, stay within `amount` (e.g. AIM's rounds, engine/marginals/aim.cpp).
  // RemainingToSpend and RemainingRhoToSpend are Spendable(Remaining()).
  static double Spendable(double amount);

  // A copy whose budget is raised by `extra` (rounded up by kSpendMargin; δ capped below 1),
  // with the same entries: for a step whose data-independent cost is planned before it runs
  // and charged to the release on top of the user's budget (the deniable synthesis).
  Result<PrivacyAccountant> WithBudgetRaisedBy(PrivacyCost extra) const;
  double advanced_delta_slack() const { return slack_; }
  const std::vector<LedgerEntry>& entries() const { return entries_; }

  struct Partition {
    std::string name, parent, description;
  };
  const std::vector<Partition>& partitions() const { return partitions_; }

  // {"budget": {...}, "advanced_delta_slack": x, "total": {...}, "partitions": [...],
  //  "entries": [...]}. FromJson replays every entry through Spend() and fails (kParse, naming
  // the entry) if a recorded cost or composition differs from the recomputed one, or if the
  // entries exceed the budget: a ledger cannot be edited into a smaller total.
  nlohmann::json ToJson() const;
  static Result<PrivacyAccountant> FromJson(const nlohmann::json& json);

 private:
  PrivacyAccountant(PrivacyCost budget, double slack) : budget_(budget), slack_(slack) {
    partitions_.push_back({"all", "", "all rows of the input"});
  }
  PrivacyCost TotalWithExtra(const LedgerEntry* extra, const std::string& node) const;
  bool Fits(PrivacyCost total) const;
  bool KnowsPartition(const std::string& name) const;
  // (ε = ZcdpEpsilon(ρ, δ_z), δ_z + e^ε·coupling); {+inf, 1} without δ_z.
  PrivacyCost ZcdpBlockCost(double rho, double coupling) const;
  // The entry with cost and composition filled in for the current state.
  LedgerEntry Priced(LedgerEntry entry) const;
  // A pure ε-DP entry as its ρ = ε²/2 zCDP entry when FoldPureDpIntoZcdpBlock is on.
  LedgerEntry Folded(LedgerEntry entry) const;

  PrivacyCost budget_;
  double slack_;
  double zcdp_delta_ = 0;
  bool fold_pure_dp_ = false;
  std::vector<Partition> partitions_;
  std::vector<LedgerEntry> entries_;
};

}  // namespace deniable
