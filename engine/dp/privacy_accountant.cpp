// SPDX-License-Identifier: Apache-2.0
// Composition theorems and the partition-tree ledger (dp/privacy_accountant.md).
#include "engine/dp/privacy_accountant.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <limits>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::AddUp;
using internal::FormatDouble;
using internal::MulUp;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// k as a double; exact up to 2^53, rounded up beyond (a batch that large is not realistic).
double CountUp(std::size_t k) {
  const auto d = static_cast<double>(k);
  return static_cast<std::size_t>(d) < k ? internal::NextUp(d) : d;
}

PrivacyCost Sequential(double epsilon, double delta, std::size_t k) {
  const double kd = CountUp(k);
  return PrivacyCost{MulUp(kd, epsilon), std::min(1.0, MulUp(kd, delta))};
}

std::string Describe(PrivacyCost cost) {
  return "ε = " + FormatDouble(cost.epsilon) + ", δ = " + FormatDouble(cost.delta);
}

}  // namespace

PrivacyCost SequentialComposition(const std::vector<PrivacyCost>& costs) {
  std::vector<double> epsilons;
  std::vector<double> deltas;
  epsilons.reserve(costs.size());
  deltas.reserve(costs.size());
  for (const PrivacyCost& c : costs) {
    epsilons.push_back(c.epsilon);
    deltas.push_back(c.delta);
  }
  return PrivacyCost{internal::SumUp(epsilons), internal::SumUp(deltas)};
}

PrivacyCost AdvancedComposition(double epsilon, double delta, std::size_t k, double delta_slack) {
  if (k == 0) return PrivacyCost{};
  if (!(delta_slack > 0 && delta_slack < 1)) return PrivacyCost{kInfinity, 1.0};
  // ε' = ε·sqrt(2k·ln(1/δ'')) + k·ε·(e^ε − 1), δ' = k·δ + δ'', every step rounded up.
  const double kd = CountUp(k);
  const double log_inverse_slack = -internal::LogDown(delta_slack);
  const double root = internal::SqrtUp(MulUp(MulUp(2.0, kd), log_inverse_slack));
  const double epsilon_total =
      AddUp(MulUp(epsilon, root), MulUp(MulUp(kd, epsilon), internal::Expm1Up(epsilon)));
  return PrivacyCost{epsilon_total, AddUp(MulUp(kd, delta), delta_slack)};
}

PrivacyCost BestComposition(double epsilon, double delta, std::size_t k, double delta_slack) {
  const PrivacyCost sequential = Sequential(epsilon, delta, k);
  if (k <= 1 || !(delta_slack > 0)) return sequential;
  const PrivacyCost advanced = AdvancedComposition(epsilon, delta, k, delta_slack);
  return advanced.epsilon < sequential.epsilon ? advanced : sequential;
}

PrivacyCost AmplifyBySampling(PrivacyCost cost, double sampling_rate) {
  if (!(sampling_rate > 0 && sampling_rate < 1 && sampling_rate > cost.delta)) return cost;
  // ε' = ln(1 + p(e^ε − 1)), δ' = p·δ (Theorem 4), rounded up; never above the input.
  const double epsilon =
      internal::Log1pUp(MulUp(sampling_rate, internal::Expm1Up(cost.epsilon)));
  return PrivacyCost{std::min(epsilon, cost.epsilon),
                     std::min(MulUp(sampling_rate, cost.delta), cost.delta)};
}

double EvenShare(double total, std::size_t parts) {
  if (parts == 0) return 0.0;
  const auto n = static_cast<double>(parts);
  double share = total / n;
  // fma gives the sign of n·share − total exactly.
  while (share > 0 && std::fma(n, share, -total) > 0) share = internal::NextDown(share);
  return share;
}

double ShareOf(double total, double fraction) { return internal::MulDown(total, fraction); }

Result<PrivacyAccountant> PrivacyAccountant::Create(PrivacyCost budget,
                                                    double advanced_delta_slack) {
  if (Status s = internal::CheckPositiveFinite(budget.epsilon, "privacy budget epsilon"); !s) {
    return s.error();
  }
  if (!(budget.delta >= 0 && budget.delta < 1)) {
    return InvalidArgument("privacy budget delta must be in [0, 1) (got " +
                           FormatDouble(budget.delta) + ")");
  }
  if (!(advanced_delta_slack >= 0 && advanced_delta_slack < 1)) {
    return InvalidArgument("advanced composition slack delta'' must be in [0, 1) (got " +
                           FormatDouble(advanced_delta_slack) + ")");
  }
  return PrivacyAccountant(budget, advanced_delta_slack);
}

bool PrivacyAccountant::KnowsPartition(const std::string& name) const {
  return std::any_of(partitions_.begin(), partitions_.end(),
                     [&](const Partition& p) { return p.name == name; });
}

Status PrivacyAccountant::AddPartition(const std::string& name, const std::string& parent,
                                       const std::string& description) {
  if (name.empty()) return InvalidArgument("partition name must not be empty");
  if (KnowsPartition(name)) return InvalidArgument("partition '" + name + "' already exists");
  if (!KnowsPartition(parent)) {
    return InvalidArgument("parent partition '" + parent + "' of '" + name + "' is unknown");
  }
  partitions_.push_back({name, parent, description});
  return OkStatus();
}

namespace {

Status CheckEntry(const LedgerEntry& e) {
  const std::string what = "privacy ledger entry '" + e.label + "': ";
  if (e.label.empty()) return InvalidArgument("privacy ledger entry needs a label");
  if (!(std::isfinite(e.epsilon_each) && e.epsilon_each >= 0)) {
    return InvalidArgument(what + "epsilon_each must be finite and >= 0 (got " +
                           FormatDouble(e.epsilon_each) + ")");
  }
  if (!(e.delta_each >= 0 && e.delta_each < 1)) {
    return InvalidArgument(what + "delta_each must be in [0, 1) (got " +
                           FormatDouble(e.delta_each) + ")");
  }
  if (!(std::isfinite(e.sensitivity) && e.sensitivity >= 0)) {
    return InvalidArgument(what + "sensitivity must be finite and >= 0 (got " +
                           FormatDouble(e.sensitivity) + ")");
  }
  if (e.count < 1) return InvalidArgument(what + "count must be >= 1 (got 0)");
  if (!(std::isfinite(e.rho_each) && e.rho_each >= 0)) {
    return InvalidArgument(what + "rho_each must be finite and >= 0 (got " +
                           FormatDouble(e.rho_each) + ")");
  }
  if (e.rho_each > 0 && e.epsilon_each != 0) {
    return InvalidArgument(what + "a zCDP entry (rho_each > 0) has epsilon_each = 0 (its "
                           "delta_each, if any, is a total-variation term)");
  }
  return OkStatus();
}

}  // namespace

PrivacyCost PrivacyAccountant::TotalWithExtra(const LedgerEntry* extra,
                                              const std::string& node) const {
  std::vector<PrivacyCost> own;
  std::vector<double> rhos;
  double coupling = 0;  // Σ total-variation terms of approximate-zCDP entries
  auto take = [&](const LedgerEntry& e) {
    if (e.partition != node) return;
    if (e.rho_each > 0) {
      rhos.push_back(MulUp(CountUp(e.count), e.rho_each));
      coupling = AddUp(coupling, MulUp(CountUp(e.count), e.delta_each));
    } else {
      own.push_back(e.cost);
    }
  };
  for (const LedgerEntry& e : entries_) take(e);
  if (extra != nullptr) take(*extra);
  if (!rhos.empty()) own.push_back(ZcdpBlockCost(ComposeZcdp(rhos), coupling));
  PrivacyCost children;
  for (const Partition& p : partitions_) {
    if (p.parent != node || p.name == node) continue;
    const PrivacyCost child = TotalWithExtra(extra, p.name);
    children.epsilon = std::max(children.epsilon, child.epsilon);
    children.delta = std::max(children.delta, child.delta);
  }
  const PrivacyCost sum = SequentialComposition(own);
  return PrivacyCost{AddUp(sum.epsilon, children.epsilon), AddUp(sum.delta, children.delta)};
}

bool PrivacyAccountant::Fits(PrivacyCost total) const {
  return total.epsilon <= budget_.epsilon && total.delta <= budget_.delta;
}

PrivacyCost PrivacyAccountant::ZcdpBlockCost(double rho, double coupling) const {
  if (!(zcdp_delta_ > 0)) return PrivacyCost{kInfinity, 1.0};
  auto epsilon = ZcdpEpsilon(rho, zcdp_delta_);
  if (!epsilon) return PrivacyCost{kInfinity, 1.0};
  // δ = δ_z + e^ε·Σ coupling (privacy_accountant.md, "Approximate zCDP entries").
  const double delta =
      coupling > 0 ? AddUp(zcdp_delta_, MulUp(internal::ExpUp(*epsilon), coupling)) : zcdp_delta_;
  return PrivacyCost{*epsilon, std::min(delta, 1.0)};
}

Status PrivacyAccountant::SetZcdpDelta(double delta) {
  if (!(delta > 0 && delta < 1)) {
    return InvalidArgument("zCDP conversion delta must be in (0, 1) (got " + FormatDouble(delta) +
                           ")");
  }
  for (const LedgerEntry& e : entries_) {
    if (e.rho_each > 0) {
      return FailedPrecondition("the zCDP conversion delta is fixed once zCDP entries exist");
    }
  }
  zcdp_delta_ = delta;
  return OkStatus();
}

Status PrivacyAccountant::FoldPureDpIntoZcdpBlock() {
  if (!(zcdp_delta_ > 0)) {
    return FailedPrecondition("pure epsilon-DP entries can join the zCDP block only once its "
                              "conversion delta is set (SetZcdpDelta)");
  }
  fold_pure_dp_ = true;
  return OkStatus();
}

LedgerEntry PrivacyAccountant::Folded(LedgerEntry entry) const {
  if (!fold_pure_dp_ || entry.rho_each > 0 || !(entry.epsilon_each > 0) ||
      entry.delta_each != 0) {
    return entry;
  }
  // The label rounds ε to 4 significant digits for reading; the entry's ρ is exact.
  char epsilon[32];
  std::snprintf(epsilon, sizeof epsilon, "%.4g", entry.epsilon_each);
  entry.mechanism += std::string(" (ε ≈ ") + epsilon +
                     "-DP, in the zCDP block as ρ = ε²/2: Bun & Steinke 2016, Prop. 1.4)";
  entry.rho_each = ZcdpOfPureDp(entry.epsilon_each);
  entry.epsilon_each = 0;
  return entry;
}

double PrivacyAccountant::RhoOf(const std::string& partition) const {
  std::vector<double> rhos;
  for (const LedgerEntry& e : entries_) {
    if (e.partition == partition && e.rho_each > 0) {
      rhos.push_back(MulUp(CountUp(e.count), e.rho_each));
    }
  }
  return ComposeZcdp(rhos);
}

double PrivacyAccountant::RemainingRho() const {
  if (!(zcdp_delta_ > 0)) return 0.0;
  LedgerEntry probe;
  probe.label = "probe";
  probe.partition = "all";
  const auto fits = [&](double rho) {
    probe.rho_each = rho;
    return Fits(TotalWithExtra(&probe, "all"));
  };
  double lo = 0.0;
  double hi = budget_.epsilon;
  while (fits(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6) return lo;
  }
  for (int step = 0; step < 100; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

LedgerEntry PrivacyAccountant::Priced(LedgerEntry entry) const {
  if (entry.rho_each > 0) {
    entry.cost = ZcdpBlockCost(MulUp(CountUp(entry.count), entry.rho_each),
                               MulUp(CountUp(entry.count), entry.delta_each));
    entry.composition = "zcdp";
    return entry;
  }
  if (entry.count == 1) {
    entry.cost = PrivacyCost{entry.epsilon_each, entry.delta_each};
    entry.composition = "single";
    return entry;
  }
  entry.cost = Sequential(entry.epsilon_each, entry.delta_each, entry.count);
  entry.composition = "sequential";
  if (!(slack_ > 0)) return entry;
  LedgerEntry advanced = entry;
  advanced.cost = AdvancedComposition(entry.epsilon_each, entry.delta_each, entry.count, slack_);
  advanced.composition = "advanced";
  if (!(advanced.cost.epsilon < entry.cost.epsilon)) return entry;
  // Advanced saves ε but charges δ''; use it unless only sequential fits the budget.
  if (Fits(TotalWithExtra(&advanced, "all")) || !Fits(TotalWithExtra(&entry, "all"))) {
    return advanced;
  }
  return entry;
}

PrivacyCost PrivacyAccountant::CostOf(const LedgerEntry& entry) const {
  if (!CheckEntry(entry) || !KnowsPartition(entry.partition)) return PrivacyCost{kInfinity, 1.0};
  return Priced(Folded(entry)).cost;
}

Status PrivacyAccountant::Spend(LedgerEntry entry) {
  if (Status s = CheckEntry(entry); !s) return s;
  if (!KnowsPartition(entry.partition)) {
    return InvalidArgument("privacy ledger entry '" + entry.label + "': unknown partition '" +
                           entry.partition + "'");
  }
  entry = Folded(std::move(entry));
  const bool any_zcdp = std::any_of(entries_.begin(), entries_.end(),
                                    [](const LedgerEntry& e) { return e.rho_each > 0; });
  if (entry.rho_each > 0 && !(zcdp_delta_ > 0)) {
    return FailedPrecondition("privacy ledger entry '" + entry.label +
                              "': zCDP entries need SetZcdpDelta first");
  }
  if (entry.rho_each == 0 && any_zcdp) {
    return FailedPrecondition("privacy ledger entry '" + entry.label +
                              "': (epsilon, delta) entries cannot follow zCDP entries (the zCDP "
                              "block is converted as the last step of the composition)");
  }
  LedgerEntry priced = Priced(std::move(entry));
  const PrivacyCost total = TotalWithExtra(&priced, "all");
  if (!Fits(total)) {
    std::string message = "spending " + Describe(priced.cost) + " on '" + priced.label +
                          "' (rows: " + priced.partition + ") would bring the release to " +
                          Describe(total) + ", over the budget " + Describe(budget_);
    if (total.epsilon <= budget_.epsilon * (1 + 1e-9) && total.delta <= budget_.delta) {
      message += " (over by a rounding error: split budgets with EvenShare()/ShareOf())";
    }
    return Error{ErrorCode::kBudgetExhausted, message};
  }
  entries_.push_back(std::move(priced));
  return OkStatus();
}

PrivacyCost PrivacyAccountant::TotalOf(const std::string& partition) const {
  if (!KnowsPartition(partition)) return PrivacyCost{};
  return TotalWithExtra(nullptr, partition);
}

PrivacyCost PrivacyAccountant::Total() const { return TotalOf("all"); }

PrivacyCost PrivacyAccountant::Remaining() const {
  const PrivacyCost total = Total();
  return PrivacyCost{std::max(0.0, internal::SubDown(budget_.epsilon, total.epsilon)),
                     std::max(0.0, internal::SubDown(budget_.delta, total.delta))};
}

double PrivacyAccountant::Spendable(double amount) {
  return std::max(0.0, amount * (1 - kSpendMargin));
}

PrivacyCost PrivacyAccountant::RemainingToSpend() const {
  const PrivacyCost left = Remaining();
  return PrivacyCost{Spendable(left.epsilon), Spendable(left.delta)};
}

double PrivacyAccountant::RemainingRhoToSpend() const { return Spendable(RemainingRho()); }

Result<PrivacyAccountant> PrivacyAccountant::WithBudgetRaisedBy(PrivacyCost extra) const {
  if (!(std::isfinite(extra.epsilon) && extra.epsilon >= 0 && extra.delta >= 0 &&
        extra.delta < 1)) {
    return InvalidArgument("a budget can only be raised by a finite epsilon >= 0 and a delta in "
                           "[0, 1) (got epsilon " + FormatDouble(extra.epsilon) + ", delta " +
                           FormatDouble(extra.delta) + ")");
  }
  PrivacyAccountant raised = *this;
  raised.budget_.epsilon =
      internal::AddUp(budget_.epsilon, internal::AddUp(extra.epsilon, extra.epsilon * kSpendMargin));
  raised.budget_.delta = std::min(
      std::nextafter(1.0, 0.0),
      internal::AddUp(budget_.delta, internal::AddUp(extra.delta, extra.delta * kSpendMargin)));
  return raised;
}

}  // namespace deniable
