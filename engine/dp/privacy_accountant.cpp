// SPDX-License-Identifier: Apache-2.0
// Composition theorems and the partition-tree ledger (dp/privacy_accountant.md).
#include "engine/dp/privacy_accountant.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/dp/directed_rounding.h"
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
  return OkStatus();
}

}  // namespace

PrivacyCost PrivacyAccountant::TotalWithExtra(const LedgerEntry* extra,
                                              const std::string& node) const {
  std::vector<PrivacyCost> own;
  for (const LedgerEntry& e : entries_) {
    if (e.partition == node) own.push_back(e.cost);
  }
  if (extra != nullptr && extra->partition == node) own.push_back(extra->cost);
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

LedgerEntry PrivacyAccountant::Priced(LedgerEntry entry) const {
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
  return Priced(entry).cost;
}

Status PrivacyAccountant::Spend(LedgerEntry entry) {
  if (Status s = CheckEntry(entry); !s) return s;
  if (!KnowsPartition(entry.partition)) {
    return InvalidArgument("privacy ledger entry '" + entry.label + "': unknown partition '" +
                           entry.partition + "'");
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

}  // namespace deniable
