// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/set_union.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::AddUp;
using internal::MulUp;

// Policy Laplace: relative slack on the noise scale covering floating-point error in the
// accumulated weights (each record adds at most 1 in ℓ1; the sum over ≤ 2^32 records is
// accurate to far better than 1e-6 in relative terms).
constexpr double kScaleSlack = 1.0 + 1e-6;
constexpr std::uint32_t kCheckEvery = 1 << 14;

// Policy Gaussian floating-point constants (dp/set_union.md, "Floating point").
constexpr double kUnitRoundoff = 0x1p-53;
constexpr double kMaxRecords = 0x1p32;  // records < 2^32 (validated)
constexpr std::size_t kMaxGroups = std::size_t{1} << 20;
constexpr double kNewItemWeight = 1.0 + 0x1p-30;      // computed weight of a new item
constexpr double kEffectiveWeightError = 0x1p-37;     // κ/σ of the keep decision
constexpr double kKeepSensitivityPerSigma = 0x1p-20;  // 2κ·sqrt(2^32)/σ, times sqrt(Δ0)
constexpr double kMaxGaussianAlpha = 30.0;
constexpr std::uint64_t kForecastSeed = 0x5E7D0F0CA57ULL;

double NoiseScale(double epsilon) { return kScaleSlack / epsilon; }

double SqrtDown(double x) { return internal::NextDown(std::sqrt(x)); }

// Three significant digits, for ledger texts.
std::string Short(double x) {
  char buffer[32];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 3);
  return std::string(buffer, result.ptr);
}

// What one round does: noise is b (Laplace) or σ (Gaussian).
struct RoundPlan {
  double threshold = 0;
  double cap = 0;
  double noise = 0;
};
struct Plan {
  SetUnionMechanism mechanism = SetUnionMechanism::kPolicyGaussian;
  std::vector<RoundPlan> rounds;
  std::vector<double> laplace_epsilons;  // Policy Laplace: per round
  double laplace_delta = 0;              // Policy Laplace: per round
};

Status ValidateInput(const SetUnionInput& input) {
  if (input.values.size() != input.value_counts.size()) {
    return InvalidArgument("set union input: one value count per group is needed");
  }
  if (input.values.size() > kMaxGroups) {
    return InvalidArgument("set union input: at most 2^20 groups are supported (got " +
                           std::to_string(input.values.size()) + ")");
  }
  if (static_cast<double>(input.records) >= kMaxRecords) {
    return InvalidArgument("set union input: at most 2^32 - 1 records are supported (got " +
                           std::to_string(input.records) + ")");
  }
  for (std::size_t g = 0; g < input.values.size(); ++g) {
    if (input.values[g].size() != input.records) {
      return InvalidArgument("set union input: group " + std::to_string(g) +
                             " does not have one entry per record");
    }
    for (std::uint32_t v : input.values[g]) {
      if (v != kNoItem && v >= input.value_counts[g]) {
        return InvalidArgument("set union input: group " + std::to_string(g) + " holds value " +
                               std::to_string(v) + " but has only " +
                               std::to_string(input.value_counts[g]) + " values");
      }
    }
  }
  return OkStatus();
}

Result<Plan> MakePlan(const SetUnionInput& input, const SetUnionOptions& options) {
  const bool zcdp = options.rho > 0;
  if (zcdp && options.mechanism != SetUnionMechanism::kPolicyGaussian) {
    return InvalidArgument("set union rho (zCDP) needs Policy Gaussian");
  }
  if (!(std::isfinite(options.rho) && options.rho >= 0)) {
    return InvalidArgument("set union rho must be finite and >= 0");
  }
  if (Status s = internal::CheckPositiveFinite(zcdp ? options.rho : options.epsilon,
                                               zcdp ? "set union rho" : "set union epsilon");
      !s) {
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
  if (Status s = ValidateInput(input); !s) return s.error();

  Plan plan;
  plan.mechanism = options.mechanism;
  const std::size_t groups = input.values.size();
  if (options.mechanism == SetUnionMechanism::kPolicyGaussian) {
    auto calibration =
        zcdp ? CalibratePolicyGaussianZcdp(options.rho, options.delta, groups,
                                           options.gaussian_alpha, options.round_fractions)
             : CalibratePolicyGaussian(options.epsilon, options.delta, groups,
                                       options.gaussian_alpha, options.round_fractions);
    if (!calibration) return calibration.error();
    for (const PolicyGaussianRound& round : calibration->rounds) {
      plan.rounds.push_back({round.threshold, round.cap, round.sigma});
    }
    return plan;
  }
  const std::size_t rounds = options.round_fractions.size();
  plan.laplace_delta = EvenShare(options.delta, rounds);
  for (double fraction : options.round_fractions) {
    const double epsilon = ShareOf(options.epsilon, fraction);
    plan.laplace_epsilons.push_back(epsilon);
    const double b = NoiseScale(epsilon);
    const double threshold = SetUnionThreshold(epsilon, plan.laplace_delta, groups);
    plan.rounds.push_back({threshold, threshold + options.alpha * b, b});
  }
  return plan;
}

std::vector<std::vector<double>> Weights(SetUnionMechanism mechanism, const SetUnionInput& input,
                                         const std::vector<std::uint32_t>& order, double cap,
                                         const std::vector<std::vector<char>>* full) {
  return mechanism == SetUnionMechanism::kPolicyGaussian
             ? PolicyGaussianWeights(input, order, cap, full)
             : PolicyLaplaceWeights(input, order, cap, full);
}

// Pr[h + Lap(b) > ρ]: ½·exp(−t/b) for t = ρ − h >= 0, 1 − ½·exp(t/b) otherwise.
double LaplaceKeepProbability(double h, const RoundPlan& round) {
  const double t = round.threshold - h;
  return t >= 0 ? 0.5 * std::exp(-t / round.noise) : 1 - 0.5 * std::exp(t / round.noise);
}

double KeepProbability(SetUnionMechanism mechanism, double h, const RoundPlan& round) {
  return mechanism == SetUnionMechanism::kPolicyGaussian
             ? GaussianTail((round.threshold - h) / round.noise)
             : LaplaceKeepProbability(h, round);
}

bool SampleKeep(SetUnionMechanism mechanism, double h, const RoundPlan& round, Rng& rng) {
  if (mechanism == SetUnionMechanism::kPolicyGaussian) {
    return SampleGaussianThresholdKeep(h, round.threshold, round.noise, rng);
  }
  // Keep iff h + Lap(b) > ρ, i.e. Lap(b) > t with t = ρ − h (drawn exactly).
  const double t = round.threshold - h;
  if (t >= 0) return SampleBernoulli(0.5, rng) && SampleBernoulliExp(t / round.noise, rng);
  return !(SampleBernoulli(0.5, rng) && SampleBernoulliExp(-t / round.noise, rng));
}

// One `value` per item: [group][value].
template <typename T>
std::vector<std::vector<T>> PerItem(const SetUnionInput& input, T value) {
  std::vector<std::vector<T>> result(input.values.size());
  for (std::size_t g = 0; g < result.size(); ++g) result[g].assign(input.value_counts[g], value);
  return result;
}

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

namespace {

Status CheckGaussianShape(std::size_t groups, double gaussian_alpha,
                          std::span<const double> round_fractions) {
  if (groups > kMaxGroups) {
    return InvalidArgument("set union: at most 2^20 groups are supported (got " +
                           std::to_string(groups) + ")");
  }
  if (!(gaussian_alpha >= 0 && gaussian_alpha <= kMaxGaussianAlpha)) {
    return InvalidArgument("set union gaussian_alpha must be in [0, 30] (got " +
                           internal::FormatDouble(gaussian_alpha) + ")");
  }
  if (round_fractions.empty() || round_fractions.size() > 8) {
    return InvalidArgument("set union needs between 1 and 8 rounds");
  }
  for (double f : round_fractions) {
    if (!(f > 0 && f <= 1)) return InvalidArgument("set union round fractions must be in (0, 1]");
  }
  return OkStatus();
}

// Per round: σ_r (with the charged floating-point slack), τ_r and Γ_r from σ_1 =
// calibration.base_sigma and the new-item budget calibration.delta_threshold (dp/set_union.md,
// "Mechanism"); `what` names the budget in the error for parameters out of range.
Status CalibrateRounds(PolicyGaussianCalibration& calibration, std::size_t groups,
                       double gaussian_alpha, std::span<const double> round_fractions,
                       const std::string& what) {
  const double max_items_groups = static_cast<double>(std::max<std::size_t>(groups, 1));  // Δ0
  const double base_sigma = calibration.base_sigma;
  // New items: Δ0 per round, each kept with probability <= Q(z) <= δ_T / (rounds·Δ0).
  const double per_item = internal::DivDown(
      EvenShare(calibration.delta_threshold, round_fractions.size()), max_items_groups);
  const double z = GaussianTailInverseUpper(per_item);
  if (!std::isfinite(z)) {
    return InvalidArgument("set union delta is too small for Policy Gaussian");
  }
  const double fraction_sum = std::max(1.0, internal::SumUp(round_fractions));
  const double sqrt_groups = internal::SqrtUp(max_items_groups);
  for (double fraction : round_fractions) {
    // μ_r = (1/σ_1)·sqrt(f_r / F): Σ μ_r² <= 1/σ_1² (μ-GDP composition over the rounds).
    const double sigma_base =
        internal::DivUp(MulUp(base_sigma, internal::SqrtUp(fraction_sum)), SqrtDown(fraction));
    PolicyGaussianRound round;
    double sigma = sigma_base;
    bool converged = false;
    for (int step = 0; step < 100 && !converged; ++step) {
      const double kappa = MulUp(sigma, kEffectiveWeightError);
      round.threshold = AddUp(AddUp(kNewItemWeight, kappa), MulUp(sigma, z));
      round.cap = AddUp(round.threshold, MulUp(gaussian_alpha, sigma));
      // Policy rounding per record step (ℓ2): u·((Γ + 1)·sqrt(Δ0) + Δ0 + 8); twice (D and D′)
      // over at most 2^32 steps.
      const double step_error =
          MulUp(kUnitRoundoff,
                AddUp(MulUp(AddUp(round.cap, 1.0), sqrt_groups), AddUp(max_items_groups, 8.0)));
      const double policy_slack = MulUp(2 * kMaxRecords, step_error);
      // Keep decisions: effective weights within κ of the computed ones, on <= 2^32·Δ0 items.
      const double keep_slack = MulUp(sigma, MulUp(kKeepSensitivityPerSigma, sqrt_groups));
      round.l2_sensitivity = AddUp(1.0, AddUp(policy_slack, keep_slack));
      const double required = MulUp(round.l2_sensitivity, sigma_base);
      if (sigma >= required) {
        converged = true;
      } else {
        sigma = required;
      }
    }
    if (!converged || !(round.l2_sensitivity <= 2.0)) {
      return InvalidArgument("set union " + what + " is too small for Policy Gaussian over " +
                             std::to_string(groups) +
                             " groups (the floating-point slack cannot be bounded)");
    }
    round.sigma = sigma;
    calibration.rounds.push_back(round);
  }
  return OkStatus();
}

// rounds·2^32·Δ0·Q(37.5): the total-variation cost, on one dataset, of deciding keep arguments
// beyond ±37.5 deterministically.
double CutoffCost(std::size_t groups, std::size_t rounds) {
  const double max_items_groups = static_cast<double>(std::max<std::size_t>(groups, 1));
  return MulUp(MulUp(static_cast<double>(rounds), kMaxRecords),
               MulUp(max_items_groups, GaussianTailUpper(kGaussianTailMaxArgument)));
}

}  // namespace

Result<PolicyGaussianCalibration> CalibratePolicyGaussian(double epsilon, double delta,
                                                          std::size_t groups, double gaussian_alpha,
                                                          std::span<const double> round_fractions) {
  if (!(epsilon > 0 && epsilon <= 500)) {
    return InvalidArgument("set union epsilon must be in (0, 500] for Policy Gaussian (got " +
                           internal::FormatDouble(epsilon) + ")");
  }
  if (Status s = internal::CheckOpenUnit(delta, "set union delta"); !s) return s.error();
  if (Status s = CheckGaussianShape(groups, gaussian_alpha, round_fractions); !s) {
    return s.error();
  }

  PolicyGaussianCalibration calibration;
  // δ = δ_g + e^ε·δ_T + FP margin: δ_g = δ/2, δ_T = δ_g·e^{−ε}·(1 − 2^-20).
  calibration.delta_gaussian = EvenShare(delta, 2);
  calibration.delta_threshold = internal::MulDown(
      internal::MulDown(calibration.delta_gaussian, internal::ExpDown(-epsilon)), 1 - 0x1p-20);
  // The margin δ_g − e^ε·δ_T >= δ_g·2^-20 must cover (1 + e^ε) times the total-variation cost
  // of deciding arguments beyond ±37.5 deterministically: rounds·2^32·Δ0·Q(37.5).
  const double cutoff_cost = MulUp(AddUp(1.0, internal::ExpUp(epsilon)),
                                   CutoffCost(groups, round_fractions.size()));
  if (!(cutoff_cost <= internal::MulDown(calibration.delta_gaussian, 0x1p-21)) ||
      !(calibration.delta_threshold > 0)) {
    return InvalidArgument("set union delta = " + internal::FormatDouble(delta) +
                           " is too small for Policy Gaussian");
  }
  auto base_sigma = AnalyticGaussianSigma(epsilon, calibration.delta_gaussian, 1.0);
  if (!base_sigma) return base_sigma.error();
  calibration.base_sigma = *base_sigma;
  if (Status s = CalibrateRounds(calibration, groups, gaussian_alpha, round_fractions,
                                 "epsilon = " + internal::FormatDouble(epsilon));
      !s) {
    return s.error();
  }
  return calibration;
}

Result<PolicyGaussianCalibration> CalibratePolicyGaussianZcdp(
    double rho, double coupling, std::size_t groups, double gaussian_alpha,
    std::span<const double> round_fractions) {
  if (!(rho > 0 && rho <= 1e6)) {
    return InvalidArgument("set union rho must be in (0, 1e6] for Policy Gaussian (got " +
                           internal::FormatDouble(rho) + ")");
  }
  if (Status s = internal::CheckOpenUnit(coupling, "set union delta"); !s) return s.error();
  if (Status s = CheckGaussianShape(groups, gaussian_alpha, round_fractions); !s) {
    return s.error();
  }
  PolicyGaussianCalibration calibration;
  // The coupling τ (dp/set_union.md, "Under zCDP"): new items δ_T plus the deterministic
  // decisions beyond ±37.5 on both datasets, 2·CutoffCost <= τ·2^-20 >= τ − δ_T.
  calibration.delta_gaussian = 0;
  calibration.delta_threshold = internal::MulDown(coupling, 1 - 0x1p-20);
  const double cutoff_cost = MulUp(2.0, CutoffCost(groups, round_fractions.size()));
  if (!(cutoff_cost <= internal::MulDown(coupling, 0x1p-21)) ||
      !(calibration.delta_threshold > 0)) {
    return InvalidArgument("set union delta = " + internal::FormatDouble(coupling) +
                           " is too small for Policy Gaussian");
  }
  // σ_1 >= 1/sqrt(2ρ): μ = 1/σ_1 <= sqrt(2ρ), so μ²/2 <= ρ.
  calibration.base_sigma = internal::DivUp(1.0, SqrtDown(internal::MulDown(2.0, rho)));
  if (Status s = CalibrateRounds(calibration, groups, gaussian_alpha, round_fractions,
                                 "rho = " + internal::FormatDouble(rho));
      !s) {
    return s.error();
  }
  return calibration;
}

std::vector<std::vector<double>> PolicyLaplaceWeights(const SetUnionInput& input,
                                                      const std::vector<std::uint32_t>& order,
                                                      double cap,
                                                      const std::vector<std::vector<char>>* full) {
  const std::size_t groups = input.values.size();
  std::vector<std::vector<double>> weights = PerItem(input, 0.0);
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

std::vector<std::vector<double>> PolicyGaussianWeights(const SetUnionInput& input,
                                                       const std::vector<std::uint32_t>& order,
                                                       double cap,
                                                       const std::vector<std::vector<char>>* full) {
  const std::size_t groups = input.values.size();
  std::vector<std::vector<double>> weights = PerItem(input, 0.0);
  struct Open {
    double* weight;
    double gap;
  };
  std::vector<Open> open;
  open.reserve(groups);
  for (std::uint32_t record : order) {
    open.clear();
    double sum_of_squares = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      const std::uint32_t v = input.values[g][record];
      if (v == kNoItem || (full != nullptr && (*full)[g][v])) continue;
      double& weight = weights[g][v];
      const double gap = cap - weight;  // weights stay in [0, Γ]: exact when weight >= Γ/2
      if (!(gap > 0)) continue;
      open.push_back({&weight, gap});
      sum_of_squares += gap * gap;
    }
    if (open.empty()) continue;
    // z = g·min(1, 1/‖g‖₂): the projection of the gaps onto the unit ℓ2 ball, so the new gaps
    // g − z are the proximal map of ‖·‖₂ (block soft thresholding) of the old ones.
    const double norm = std::sqrt(sum_of_squares);
    for (const Open& item : open) {
      const double z = norm > 1 ? item.gap / norm : item.gap;
      *item.weight = std::min(*item.weight + z, cap);
    }
  }
  return weights;
}

bool SampleGaussianThresholdKeep(double weight, double threshold, double sigma, Rng& rng) {
  // Pr[weight + N(0, σ²) > τ] = Q((τ − weight)/σ). The smaller of the keep and drop
  // probabilities is computed (no 1 − p anywhere) and drawn exactly.
  const double gap = threshold - weight;
  if (gap >= 0) {
    const double x = gap / sigma;
    if (!(x <= kGaussianTailMaxArgument)) return false;
    return SampleBernoulli(GaussianTail(x), rng);
  }
  const double x = -gap / sigma;
  if (!(x <= kGaussianTailMaxArgument)) return true;
  return !SampleBernoulli(GaussianTail(x), rng);
}

Result<SetUnionResult> DpSetUnion(const SetUnionInput& input, const SetUnionOptions& options,
                                  PrivacyAccountant& accountant, const std::string& label,
                                  const std::string& partition, Rng& rng, Progress& progress) {
  auto plan = MakePlan(input, options);
  if (!plan) return plan.error();
  const std::size_t groups = input.values.size();
  const std::size_t rounds = plan->rounds.size();
  const bool gaussian = plan->mechanism == SetUnionMechanism::kPolicyGaussian;

  // Every spend is recorded before anything is computed, so a refusal leaves no trace.
  {
    PrivacyAccountant trial = accountant;
    if (gaussian) {
      std::string sigmas;
      std::string thresholds;
      std::string caps;
      for (const RoundPlan& round : plan->rounds) {
        const std::string separator = sigmas.empty() ? "" : " / ";
        sigmas += separator + Short(round.noise);
        thresholds += separator + Short(round.threshold);
        caps += separator + Short(round.cap);
      }
      LedgerEntry entry;
      entry.label = label;
      entry.mechanism = "DP set union (Policy Gaussian, ℓ2 descent; σ = " + sigmas +
                        ", τ = " + thresholds + ", Γ = " + caps +
                        (rounds > 1 ? ", " + std::to_string(rounds) + " rounds" : "") +
                        (options.rho > 0 ? "), zCDP + new-item coupling δ"
                                         : "), analytic Gaussian + threshold δ");
      entry.partition = partition;
      entry.reference =
          options.rho > 0
              ? "Gopi et al., ICML 2020 (Policy Gaussian); Dong, Roth & Su 2022, Thm. 2.10 "
                "(μ-GDP implies μ²/2-zCDP); dp/set_union.md (Under zCDP)"
              : "Gopi et al., ICML 2020 (Policy Gaussian); Balle & Wang, ICML 2018, Thm. 8; "
                "dp/set_union.md";
      if (options.rho > 0) {
        entry.rho_each = options.rho;    // approximate zCDP (privacy_accountant.h)
        entry.delta_each = options.delta;  // its total-variation coupling
      } else {
        entry.epsilon_each = options.epsilon;
        entry.delta_each = options.delta;
      }
      entry.sensitivity = 1;  // ℓ2
      if (Status s = trial.Spend(entry); !s) return s.error();
    } else {
      for (std::size_t r = 0; r < rounds; ++r) {
        LedgerEntry entry;
        entry.label = label + (rounds > 1 ? " (round " + std::to_string(r + 1) + ")" : "");
        entry.mechanism = "DP set union (Policy Laplace, water filling, threshold)";
        entry.partition = partition;
        entry.reference = "Gopi et al., ICML 2020; dp/set_union.md";
        entry.epsilon_each = plan->laplace_epsilons[r];
        entry.delta_each = plan->laplace_delta;
        entry.sensitivity = 1;
        if (Status s = trial.Spend(entry); !s) return s.error();
      }
    }
    accountant = std::move(trial);
  }

  SetUnionResult result;
  result.kept.resize(groups);
  std::vector<std::vector<char>> full = PerItem(input, char{0});
  std::vector<std::uint32_t> order(input.records);
  std::uint32_t since_check = 0;
  for (std::size_t r = 0; r < rounds; ++r) {
    const RoundPlan& round = plan->rounds[r];
    if (r + 1 == rounds) {
      result.threshold = round.threshold;
      result.cap = round.cap;
      result.sigma = gaussian ? round.noise : 0;
    }
    // A fresh uniformly random processing order (data-independent).
    std::iota(order.begin(), order.end(), 0u);
    Shuffle(std::span<std::uint32_t>(order), rng);
    if (progress.IsCancelled()) return Cancelled("cancelled while selecting categories");
    progress.Report(static_cast<double>(r) / static_cast<double>(rounds),
                    "Selecting categories (DP set union)");
    const std::vector<std::vector<double>> weights =
        Weights(plan->mechanism, input, order, round.cap, &full);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
        if (++since_check == kCheckEvery) {
          since_check = 0;
          if (progress.IsCancelled()) return Cancelled("cancelled while selecting categories");
        }
        const double h = weights[g][v];
        if (full[g][v] || !(h > 0)) continue;  // decided already, or held by no record
        if (SampleKeep(plan->mechanism, h, round, rng)) full[g][v] = 1;
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

Result<SetUnionForecast> ForecastSetUnion(const SetUnionInput& input,
                                          const SetUnionOptions& options,
                                          const Progress* progress) {
  auto plan = MakePlan(input, options);
  if (!plan) return plan.error();
  const std::size_t groups = input.values.size();
  SetUnionForecast forecast;
  forecast.counts = PerItem(input, std::uint64_t{0});
  forecast.keep_probability = PerItem(input, 0.0);
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::uint32_t v : input.values[g]) {
      if (v != kNoItem) ++forecast.counts[g][v];
    }
  }
  // Probability of having been kept by the rounds so far (accumulated as p += (1 − p)·p_r, so a
  // tiny probability is not lost to 1 − (1 − p)).
  std::vector<std::vector<double>> kept = PerItem(input, 0.0);
  std::vector<std::vector<char>> full = PerItem(input, char{0});
  std::vector<std::uint32_t> order(input.records);
  for (std::size_t r = 0; r < plan->rounds.size(); ++r) {
    const RoundPlan& round = plan->rounds[r];
    std::vector<std::vector<double>> probability_sum = PerItem(input, 0.0);
    for (int k = 0; k < kForecastOrders; ++k) {
      if (progress != nullptr && progress->IsCancelled()) return Cancelled("forecast cancelled");
      SeededRng order_rng(kForecastSeed + 64 * r + static_cast<std::uint64_t>(k));
      std::iota(order.begin(), order.end(), 0u);
      Shuffle(std::span<std::uint32_t>(order), order_rng);
      const auto weights = Weights(plan->mechanism, input, order, round.cap, &full);
      for (std::size_t g = 0; g < groups; ++g) {
        for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
          const double h = weights[g][v];
          if (full[g][v] || !(h > 0)) continue;
          probability_sum[g][v] += KeepProbability(plan->mechanism, h, round);
        }
      }
    }
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
        if (full[g][v]) continue;
        kept[g][v] += (1.0 - kept[g][v]) * (probability_sum[g][v] / kForecastOrders);
        if (kept[g][v] >= 0.5) full[g][v] = 1;
      }
    }
    if (r + 1 == plan->rounds.size()) {
      forecast.threshold = round.threshold;
      forecast.cap = round.cap;
      forecast.sigma = plan->mechanism == SetUnionMechanism::kPolicyGaussian ? round.noise : 0;
    }
  }
  for (std::size_t g = 0; g < groups; ++g) {
    SetUnionGroupForecast summary;
    std::uint64_t largest_dropped = 0;
    bool any_dropped = false;
    for (std::uint32_t v = 0; v < input.value_counts[g]; ++v) {
      const std::uint64_t count = forecast.counts[g][v];
      if (count == 0) continue;
      const double p = kept[g][v];
      forecast.keep_probability[g][v] = p;
      ++summary.values;
      if (p >= 0.5) {
        ++summary.likely_kept;
      } else {
        any_dropped = true;
        largest_dropped = std::max(largest_dropped, count);
      }
    }
    summary.merge_below = any_dropped ? largest_dropped + 1 : 0;
    if (summary.values == 0) {
      summary.summary = "no values";
    } else if (!any_dropped) {
      summary.summary = "every value is likely kept";
    } else {
      summary.summary = "values with fewer than about " + std::to_string(summary.merge_below) +
                        " rows merge into Other";
    }
    forecast.groups.push_back(std::move(summary));
  }
  return forecast;
}

}  // namespace deniable
