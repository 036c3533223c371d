// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/set_union.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/dp/privacy_accountant.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

// Relative slack on the noise scale covering floating-point error in the accumulated weights
// (each record adds at most 1 in ℓ1; the sum over ≤ 2^32 records is accurate to far better
// than 1e-6 in relative terms).
constexpr double kScaleSlack = 1.0 + 1e-6;
constexpr std::uint32_t kCheckEvery = 1 << 14;

double NoiseScale(double epsilon) { return kScaleSlack / epsilon; }

}  // namespace

double SetUnionThreshold(double epsilon, double delta, std::size_t groups) {
  const double b = NoiseScale(epsilon);
  double rho = 0;
  for (std::size_t t = 1; t <= std::max<std::size_t>(groups, 1); ++t) {
    // 1 − (1 − δ)^{1/t}, computed without cancellation: −expm1(log1p(−δ)/t).
    const double tail = -std::expm1(std::log1p(-delta) / static_cast<double>(t));
    rho = std::max(rho, 1.0 / static_cast<double>(t) + b * std::log(1.0 / (2.0 * tail)));
  }
  // Conservative: nudged up for the rounding of the terms above.
  return rho * (1 + 1e-12) + 1e-9;
}

std::vector<std::vector<double>> PolicyLaplaceWeights(
    const SetUnionInput& input, const std::vector<std::uint32_t>& order, double cap,
    const std::vector<std::vector<char>>* full) {
  const std::size_t groups = input.values.size();
  std::vector<std::vector<double>> weights(groups);
  for (std::size_t g = 0; g < groups; ++g) weights[g].assign(input.value_counts[g], 0.0);
  struct Gap {
    double gap;
    std::uint32_t group;
    std::uint32_t value;
  };
  std::vector<Gap> gaps;
  gaps.reserve(groups);
  for (std::uint32_t record : order) {
    gaps.clear();
    for (std::size_t g = 0; g < groups; ++g) {
      const std::uint32_t v = input.values[g][record];
      if (v == kNoItem || (full != nullptr && (*full)[g][v])) continue;
      const double gap = cap - weights[g][v];
      if (gap > 0) gaps.push_back({gap, static_cast<std::uint32_t>(g), v});
    }
    if (gaps.empty()) continue;
    // ℓ1 water filling with budget 1: raise all open items together; an item leaves when its
    // gap is filled (smallest gaps first).
    std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.gap < b.gap; });
    double budget = 1.0;
    double raised = 0;  // how much every still-open item has been raised so far
    for (std::size_t i = 0; i < gaps.size(); ++i) {
      const double open = static_cast<double>(gaps.size() - i);
      const double step = gaps[i].gap - raised;  // to fill item i, every open item rises by step
      if (step * open <= budget) {
        budget -= step * open;
        raised = gaps[i].gap;
        weights[gaps[i].group][gaps[i].value] += gaps[i].gap;  // filled to the cap
      } else {
        const double level = raised + budget / open;
        for (std::size_t j = i; j < gaps.size(); ++j) {
          weights[gaps[j].group][gaps[j].value] += level;
        }
        budget = 0;
        break;
      }
    }
  }
  return weights;
}

Result<SetUnionResult> DpSetUnion(const SetUnionInput& input, const SetUnionOptions& options,
                                  PrivacyAccountant& accountant, const std::string& label,
                                  const std::string& partition, Rng& rng, Progress& progress) {
  if (Status s = internal::CheckPositiveFinite(options.epsilon, "set union epsilon"); !s) {
    return s.error();
  }
  if (Status s = internal::CheckOpenUnit(options.delta, "set union delta"); !s) return s.error();
  if (!(options.alpha >= 0 && std::isfinite(options.alpha))) {
    return InvalidArgument("set union alpha must be finite and >= 0");
  }
  if (options.round_fractions.empty() || options.round_fractions.size() > 8) {
    return InvalidArgument("set union needs between 1 and 8 rounds");
  }
  double fraction_sum = 0;
  for (double f : options.round_fractions) {
    if (!(f > 0 && f <= 1)) return InvalidArgument("set union round fractions must be in (0, 1]");
    fraction_sum += f;
  }
  if (fraction_sum > 1 + 1e-12) {
    return InvalidArgument("set union round fractions must add up to at most 1");
  }
  if (input.values.size() != input.value_counts.size()) {
    return InvalidArgument("set union input: one value count per group is needed");
  }
  for (std::size_t g = 0; g < input.values.size(); ++g) {
    if (input.values[g].size() != input.records) {
      return InvalidArgument("set union input: group " + std::to_string(g) +
                             " does not have one entry per record");
    }
  }
  const std::size_t groups = input.values.size();
  const std::size_t rounds = options.round_fractions.size();
  const double delta_each = EvenShare(options.delta, rounds);

  // Every round's spend is recorded before anything is computed, so a refusal leaves no trace.
  std::vector<double> epsilons;
  for (double fraction : options.round_fractions) epsilons.push_back(ShareOf(options.epsilon, fraction));
  {
    PrivacyAccountant trial = accountant;
    for (std::size_t r = 0; r < rounds; ++r) {
      LedgerEntry entry;
      entry.label = label + (rounds > 1 ? " (round " + std::to_string(r + 1) + ")" : "");
      entry.mechanism = "DP set union (Policy Laplace, water filling, threshold)";
      entry.partition = partition;
      entry.reference = "Gopi et al., ICML 2020; dp/set_union.md";
      entry.epsilon_each = epsilons[r];
      entry.delta_each = delta_each;
      entry.sensitivity = 1;
      if (Status s = trial.Spend(entry); !s) return s.error();
    }
    accountant = std::move(trial);
  }

  SetUnionResult result;
  result.kept.resize(groups);
  std::vector<std::vector<char>> full(groups);
  for (std::size_t g = 0; g < groups; ++g) full[g].assign(input.value_counts[g], 0);
  std::vector<std::uint32_t> order(input.records);
  std::uint32_t since_check = 0;
  for (std::size_t r = 0; r < rounds; ++r) {
    const double b = NoiseScale(epsilons[r]);
    const double threshold = SetUnionThreshold(epsilons[r], delta_each, groups);
    const double cap = threshold + options.alpha * b;
    if (r + 1 == rounds) {
      result.threshold = threshold;
      result.cap = cap;
    }
    // A fresh uniformly random processing order (data-independent).
    std::iota(order.begin(), order.end(), 0u);
    Shuffle(std::span<std::uint32_t>(order), rng);
    if (progress.IsCancelled()) return Cancelled("cancelled while selecting categories");
    progress.Report(static_cast<double>(r) / rounds, "Selecting categories (DP set union)");
    const std::vector<std::vector<double>> weights = PolicyLaplaceWeights(input, order, cap, &full);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
        if (++since_check == kCheckEvery) {
          since_check = 0;
          if (progress.IsCancelled()) return Cancelled("cancelled while selecting categories");
        }
        const double h = weights[g][v];
        if (full[g][v] || !(h > 0)) continue;  // decided already, or held by no record
        // Keep iff h + Lap(b) > ρ, i.e. Lap(b) > t with t = ρ − h:
        //   Pr = ½·exp(−t/b) for t >= 0,   1 − ½·exp(t/b) for t < 0 (drawn exactly).
        const double t = threshold - h;
        bool keep;
        if (t >= 0) {
          keep = SampleBernoulli(0.5, rng) && SampleBernoulliExp(t / b, rng);
        } else {
          keep = !(SampleBernoulli(0.5, rng) && SampleBernoulliExp(-t / b, rng));
        }
        if (keep) full[g][v] = 1;
      }
    }
  }
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
      if (full[g][v]) result.kept[g].push_back(v);
    }
  }
  progress.Report(1.0, "Selecting categories (DP set union)");
  return result;
}

}  // namespace deniable
