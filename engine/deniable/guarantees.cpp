// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/guarantees.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace deniable {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double Up(double x) { return std::isfinite(x) ? std::nextafter(x, kInfinity) : x; }

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string CostText(const PrivacyCost& cost) {
  if (!std::isfinite(cost.epsilon)) return "ε = ∞ (no DP guarantee)";
  return "ε = " + Format("%.4g", cost.epsilon) + ", δ = " + Format("%.3g", cost.delta);
}

nlohmann::json CostJson(const PrivacyCost& cost) {
  nlohmann::json j;
  j["epsilon"] = std::isfinite(cost.epsilon) ? nlohmann::json(cost.epsilon) : nlohmann::json("inf");
  j["delta"] = cost.delta;
  return j;
}

}  // namespace

PrivacyCost TheoremOneCost(int k, double gamma, double epsilon0, int t) {
  if (t < 1 || t >= k) return PrivacyCost{kInfinity, 1.0};
  const double epsilon = Up(Up(epsilon0) + Up(std::log1p(gamma / t)));
  const double delta = Up(std::exp(-epsilon0 * (k - t)));
  return PrivacyCost{epsilon, std::min(delta, 1.0)};
}

RecordGuarantee BestRecordGuarantee(int k, double gamma, double epsilon0, double record_delta) {
  RecordGuarantee best;
  if (k < 2) {
    best.cost = PrivacyCost{kInfinity, 1.0};
    return best;
  }
  for (int t = k - 1; t >= 1; --t) {  // ε decreases with t, δ increases: the largest t that fits
    const PrivacyCost cost = TheoremOneCost(k, gamma, epsilon0, t);
    if (cost.delta <= record_delta) return RecordGuarantee{t, cost, true};
  }
  return RecordGuarantee{1, TheoremOneCost(k, gamma, epsilon0, 1), false};
}

double FailureOutputEpsilon(int k, double gamma, int t, double fail_floor) {
  if (t < 1 || !(fail_floor > 0)) return kInfinity;
  const double extra = (1.0 - fail_floor) / (fail_floor * (k + 1.0));
  return Up(std::log1p(Up(gamma / t + extra)));
}

double AutomaticFailFloor(int k, double gamma, double epsilon0, int t) {
  if (t < 1) return 0.5;
  // (1 - φ)/(φ (k + 1)) <= (e^{ε0} - 1)(1 + γ/t)  <=>  φ >= 1 / (1 + (k + 1)(e^{ε0} - 1)(1 + γ/t))
  const double room = (k + 1.0) * std::expm1(epsilon0) * (1.0 + gamma / t);
  return std::min(0.5, Up(Up(1.0 / (1.0 + room))));
}

PrivacyCost AttemptCost(int k, double gamma, double epsilon0, int t, double fail_floor) {
  PrivacyCost record = TheoremOneCost(k, gamma, epsilon0, t);
  record.epsilon = std::max(record.epsilon, FailureOutputEpsilon(k, gamma, t, fail_floor));
  return record;
}

PrivacyCost AmplifyBySplit(const PrivacyCost* costs, const double* rates, int parts) {
  double largest = 0, smallest = kInfinity;
  for (int j = 0; j < parts; ++j) {
    if (!std::isfinite(costs[j].epsilon)) return PrivacyCost{kInfinity, 1.0};
    largest = std::max(largest, costs[j].epsilon);
    smallest = std::min(smallest, costs[j].epsilon);
  }
  // ε' = ln Σ f_j e^{ε_j} (shifted by the largest ε_j: no overflow).
  // Adding a record: δ = Σ f_j δ_j. Removing one: P(S) <= C·P'(S) + Σ w_j δ_j with
  // w_j = C f_j e^{-ε_j}, C = 1/Σ f_j e^{-ε_j} <= e^{ε'} (Jensen): a weighted mean of the δ_j.
  double growth = 0, delta_add = 0, weight = 0, weighted_delta = 0;
  for (int j = 0; j < parts; ++j) {
    growth += rates[j] * std::exp(costs[j].epsilon - largest);
    delta_add += rates[j] * costs[j].delta;
    const double w = rates[j] * std::exp(smallest - costs[j].epsilon);
    weight += w;
    weighted_delta += w * costs[j].delta;
  }
  const double epsilon = Up(largest + Up(std::log(Up(growth))));
  const double delta_remove = weight > 0 ? Up(weighted_delta / weight) : 0.0;
  return PrivacyCost{std::max(epsilon, 0.0), std::min(1.0, Up(std::max(delta_add, delta_remove)))};
}

double LargestEpsilonEach(const PrivacyAccountant& accountant, LedgerEntry entry, double budget) {
  double low = 0, high = budget;
  entry.epsilon_each = high;
  if (accountant.CostOf(entry).epsilon <= budget) return high;
  for (int i = 0; i < 200 && high - low > 1e-15 * high; ++i) {
    const double middle = 0.5 * (low + high);
    entry.epsilon_each = middle;
    (accountant.CostOf(entry).epsilon <= budget ? low : high) = middle;
  }
  return low;
}

double RemainingAfter(double a, double limit) {
  double b = limit - a;
  auto exceeds = [&](double x) {
    // Two-sum: s + e == a + x exactly.
    const double s = a + x;
    const double bb = s - a;
    const double e = (a - (s - bb)) + (x - bb);
    return s > limit || (s == limit && e > 0);
  };
  while (b > 0 && exceeds(b)) b = std::nextafter(b, 0.0);
  return std::max(b, 0.0);
}

nlohmann::json ReleaseGuarantees::ToJson() const {
  nlohmann::json j;
  j["test"] = randomized ? "randomized (Privacy Test 2)" : "deterministic (Privacy Test 1)";
  j["k"] = k;
  j["gamma"] = gamma;
  if (randomized) j["epsilon0"] = epsilon0;
  j["omega"] = {{"min", omega_min}, {"max", omega_max}};
  j["split"] = {
      {"structure", split_structure}, {"parameters", split_parameters}, {"seeds", split_seeds}};
  j["model"] = {{"structure", CostJson(structure)},
                {"parameters", CostJson(parameters)},
                {"combined", CostJson(model)},
                {"amplified_by_split", CostJson(model_amplified)}};
  j["plausible_deniability"] = {{"k", k}, {"gamma", gamma}};
  if (randomized) {
    j["per_record"] = {{"t", record.t},
                       {"epsilon", record.cost.epsilon},
                       {"delta", record.cost.delta},
                       {"meets_record_delta", record.meets_delta}};
    j["per_attempt"] = CostJson(attempt);
    j["fail_floor"] = fail_floor;
  } else {
    j["per_record"] = "none: the deterministic test is not differentially private";
  }
  j["attempts_cap"] = attempts_cap;
  j["seed_count_check"] = CostJson(seed_count);
  j["synthesis"] = CostJson(synthesis);
  j["synthesis_composition"] = synthesis_composition;
  j["synthesis_charged_to_budget"] = synthesis_charged;
  j["all_rows_spends"] = CostJson(all_spends);
  j["release"] = CostJson(release);
  j["release_amplified_by_split"] = CostJson(release_amplified);
  return j;
}

std::string ReleaseGuarantees::ToText() const {
  std::string text;
  text += randomized
              ? "Plausible deniability: every released record passed a randomised test, its "
                "plausible seeds (within a factor gamma = " + Format("%g", gamma) +
                    ") against a noisy threshold k + Lap(1/" + Format("%g", epsilon0) +
                    ") with k = " + std::to_string(k) + ": most records have at least k, a "
                    "record may have fewer\n"
              : "Plausible deniability: every released record has at least k = " +
                    std::to_string(k) + " plausible seeds within a factor gamma = " +
                    Format("%g", gamma) + " (deterministic test)\n";
  if (!randomized) {
    text += "Differential privacy of the records: NONE (the deterministic test is not DP)\n";
  } else {
    text += "Per released record (Theorem 1, t = " + std::to_string(record.t) +
            "): " + CostText(record.cost) +
            (record.meets_delta ? "" : "  [above the requested delta]") + "\n";
    text += "Per attempt (record or nothing, failure floor " + Format("%.3g", fail_floor) +
            "): " + CostText(attempt) + "\n";
    text += "Whole synthesis: a DP check that |D_S| >= k (" + CostText(seed_count) + ") and T = " +
            std::to_string(attempts_cap) + " attempts, " + synthesis_composition +
            " composition: " + CostText(synthesis) +
            (synthesis_charged ? "" : "  [NOT charged to the budget: per-record guarantee only]") +
            "\n";
  }
  text += "Model: structure on D_T " + CostText(structure) + "; parameters on D_P " +
          CostText(parameters) + "; together (disjoint rows) " + CostText(model) + "\n";
  text += "Spent on all rows before the split (domains): " + CostText(all_spends) + "\n";
  text += "Whole release (all rows, parallel over D_T, D_P, D_S): " + CostText(release) + "\n";
  text +=
      "  with amplification by the random split (Theorem 4): " + CostText(release_amplified) + "\n";
  return text;
}

}  // namespace deniable
