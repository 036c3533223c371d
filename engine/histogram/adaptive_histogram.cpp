// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/adaptive_histogram.h"

#include <cmath>
#include <numbers>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::FormatDouble;

constexpr double kMaxEpsilon = 0x1p40;  // the sampler's minimum scale 2^-40
constexpr double kMaxThreshold = 0x1p52;
constexpr char kReference[] =
    "Synthetic Data via Differential Privacy (adaptive histograms); "
    "histogram/adaptive_histogram.md";

Status CheckEpsilon(double epsilon, const std::string& name) {
  if (Status s = internal::CheckPositiveFinite(epsilon, name); !s) return s;
  if (epsilon > kMaxEpsilon) {
    return InvalidArgument(name + " must be <= 2^40 (got " + FormatDouble(epsilon) + ")");
  }
  return OkStatus();
}

// Scale, ⌈b⌉ and the empty-node offspring mean shared by both algorithms.
Result<AdaptiveParameters> CommonParameters(const AdaptiveOptions& options,
                                            double threshold_branching) {
  if (Status s = CheckEpsilon(options.epsilon, "adaptive histogram epsilon"); !s) {
    return s.error();
  }
  if (!(threshold_branching >= 1 && std::isfinite(threshold_branching))) {
    return InvalidArgument("threshold branching must be finite and >= 1 (got " +
                           FormatDouble(threshold_branching) + ")");
  }
  if (options.max_nodes < 1) return InvalidArgument("max_nodes must be at least 1 (got 0)");
  auto mechanism = GeometricMechanism::Create(options.epsilon, 1);
  if (!mechanism) return mechanism.error();
  AdaptiveParameters p;
  p.scale = mechanism->scale();
  const double k = std::max(2.0, threshold_branching);
  double b = options.threshold;
  if (b == 0) {
    if (Status s = internal::CheckPositiveFinite(options.threshold_scale, "threshold_scale");
        !s) {
      return s.error();
    }
    b = options.threshold_scale * std::log(k) / options.epsilon;
  }
  if (!(b > 0 && b <= kMaxThreshold)) {
    return InvalidArgument("threshold b must be in (0, 2^52] (got " + FormatDouble(b) + ")");
  }
  p.threshold = static_cast<std::int64_t>(std::ceil(b));
  p.empty_offspring_mean = threshold_branching * ContinueProbability(0, p.threshold, p.scale);
  return p;
}

}  // namespace

double ContinueProbability(std::int64_t x, std::int64_t threshold, double scale) {
  // Pr[Z >= k] for the discrete Laplace with α = e^{-1/s}: α^k/(1 + α) for k >= 0 and, by
  // symmetry, 1 − α^{1−k}/(1 + α) for k < 0 (partition_selection.md derives the tail).
  const double alpha = std::exp(-1.0 / scale);
  const double k = static_cast<double>(threshold) - static_cast<double>(x);
  if (k >= 0) return std::exp(-k / scale) / (1 + alpha);
  return 1 - std::exp(-(1 - k) / scale) / (1 + alpha);
}

Result<AdaptiveParameters> ImprovedParameters(const AdaptiveOptions& options,
                                              double threshold_branching) {
  auto p = CommonParameters(options, threshold_branching);
  if (!p) return p;
  if (!(p->empty_offspring_mean < 1)) {
    return InvalidArgument(
        "threshold b = " + std::to_string(p->threshold) + " is too low for epsilon " +
        FormatDouble(options.epsilon) + ": an empty region still continues with probability " +
        FormatDouble(ContinueProbability(0, p->threshold, p->scale)) + " and has " +
        FormatDouble(threshold_branching) +
        " children, so the refinement would not terminate; use b >= ln(children)/epsilon = " +
        FormatDouble(std::log(threshold_branching) / options.epsilon));
  }
  // Thm. 3 needs t >= ⌈b⌉ + s·ln 2 (adaptive_histogram.md §2), evaluated rounding up.
  const double t_min = internal::AddUp(
      static_cast<double>(p->threshold),
      internal::MulUp(p->scale, internal::NextUp(std::numbers::ln2)));
  if (options.discount == 0) {
    p->discount = static_cast<std::int64_t>(std::ceil(t_min));
  } else if (static_cast<double>(options.discount) >= t_min && options.discount <= (1LL << 53)) {
    p->discount = options.discount;
  } else {
    return InvalidArgument("discount t must be at least threshold + ln 2/epsilon = " +
                           FormatDouble(t_min) + " (Theorem 3; got " +
                           std::to_string(options.discount) + ")");
  }
  return p;
}

Result<AdaptiveParameters> BasicParameters(const AdaptiveOptions& options,
                                           double threshold_branching) {
  if (options.max_depth < 1 || options.max_depth > 4096) {
    return InvalidArgument("max_depth (B) must be in [1, 4096] (got " +
                           std::to_string(options.max_depth) + ")");
  }
  return CommonParameters(options, threshold_branching);
}

namespace internal {

std::vector<std::uint32_t> PriorityList(const std::vector<std::uint32_t>& position_of_input,
                                        DiscountFunction function, Rng& rng) {
  // position_of_input lists the sorted positions in input order: the Skip-first priorities.
  std::vector<std::uint32_t> list = position_of_input;
  if (UsesRandomPriorities(function)) Shuffle(std::span<std::uint32_t>(list), rng);
  return list;
}

Status SpendImproved(PrivacyAccountant& accountant, const std::string& label,
                     const std::string& partition, const AdaptiveOptions& options,
                     const AdaptiveParameters& parameters, double& spent) {
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "improved adaptive histogram (discrete Laplace threshold b = " +
                    std::to_string(parameters.threshold) + ", " +
                    DiscountFunctionName(options.discount_function) +
                    " discount t = " + std::to_string(parameters.discount) + ")";
  entry.partition = partition;
  entry.reference = std::string(kReference) + " (Fig. 2, Thm. 3: 2ε)";
  entry.epsilon_each = 2 * options.epsilon;  // exact: doubling a double
  entry.sensitivity = 1;
  spent = entry.epsilon_each;
  return accountant.Spend(entry);
}

Status SpendBasic(PrivacyAccountant& accountant, const std::string& label,
                  const std::string& partition, const AdaptiveOptions& options, double& spent) {
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "basic adaptive histogram (discrete Laplace counts, one per level)";
  entry.partition = partition;
  entry.reference = std::string(kReference) + " (Fig. 1, Cor. 2: ε per level)";
  entry.epsilon_each = options.epsilon;
  entry.sensitivity = 1;
  entry.count = options.max_depth;
  spent = accountant.CostOf(entry).epsilon;
  return accountant.Spend(entry);
}

Status SpendCounts(PrivacyAccountant& accountant, const std::string& label,
                   const std::string& partition, double epsilon) {
  if (Status s = CheckEpsilon(epsilon, "leaf counts epsilon"); !s) return s;
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "discrete Laplace histogram over the adaptive partition";
  entry.partition = partition;
  entry.reference = std::string(kReference) + " (§2.3 remark: second pass)";
  entry.epsilon_each = epsilon;
  entry.sensitivity = 1;
  return accountant.Spend(entry);
}

Status SpendGaussianCounts(PrivacyAccountant& accountant, const std::string& label,
                           const std::string& partition, double rho) {
  if (!(std::isfinite(rho) && rho > 0)) {
    return InvalidArgument("leaf counts rho must be finite and > 0 (got " +
                           std::to_string(rho) + ")");
  }
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "discrete Gaussian histogram over the adaptive partition";
  entry.partition = partition;
  entry.reference = std::string(kReference) +
                    " (§2.3 remark: second pass); CKS 2020 Thm. 4 (ℓ2 sensitivity 1)";
  entry.rho_each = rho;
  entry.sensitivity = 1;
  return accountant.Spend(entry);
}

}  // namespace internal
}  // namespace deniable
