// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/exponential_mechanism.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/exact_weighted_choice.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

// Weights are exp(s) with s >= -kMinExponent, all normal doubles.
constexpr double kMinExponent = 700.0;

inline double Weight(double utility, double max_utility, double factor) {
  const double s = factor * (utility - max_utility);
  return std::exp(s >= -kMinExponent ? s : -kMinExponent);  // NaN -> the floor
}

}  // namespace

Result<ExponentialMechanism> ExponentialMechanism::Create(double epsilon, double sensitivity,
                                                          bool monotonic) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(sensitivity, "sensitivity"); !s) {
    return s.error();
  }
  // Range-bounded with R = 2Δ (or Δ when monotonic): c <= (ε − η)/R, rounded down.
  const double divisor = monotonic ? sensitivity : 2.0 * sensitivity;
  if (!std::isfinite(divisor)) {
    return InvalidArgument("sensitivity " + internal::FormatDouble(sensitivity) +
                           " is too large");
  }
  return CreateRangeBounded(epsilon, divisor);
}

Result<ExponentialMechanism> ExponentialMechanism::CreateRangeBounded(double epsilon,
                                                                      double range) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(range, "range"); !s) return s.error();
  // c <= (ε − η) / R, rounded down: the ideal mechanism's loss is <= ε − η (§1, §1b).
  const double usable = std::max(0.0, internal::SubDown(epsilon, kExponentialMechanismSlack));
  return ExponentialMechanism(epsilon, internal::DivDown(usable, range));
}

std::size_t ExponentialMechanism::Select(std::span<const double> utilities, Rng& rng) const {
  assert(!utilities.empty() && "ExponentialMechanism::Select: no candidates");
  double max_utility = -std::numeric_limits<double>::infinity();
  for (double u : utilities) {
    assert(std::isfinite(u) && "ExponentialMechanism::Select: utilities must be finite");
    if (u > max_utility) max_utility = u;
  }
  std::vector<double> weights(utilities.size());
  for (std::size_t i = 0; i < utilities.size(); ++i) {
    weights[i] = Weight(utilities[i], max_utility, factor_);
  }
  return SampleProportional(weights, rng);
}

std::size_t ExponentialMechanism::SelectWithMultiplicity(
    std::span<const double> utilities, std::span<const std::uint64_t> multiplicities,
    Rng& rng) const {
  assert(utilities.size() == multiplicities.size() &&
         "SelectWithMultiplicity: utilities and multiplicities differ in size");
  const std::size_t n = std::min(utilities.size(), multiplicities.size());
  double max_utility = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    assert(std::isfinite(utilities[i]) && "SelectWithMultiplicity: utilities must be finite");
    assert(multiplicities[i] <= (std::uint64_t{1} << 53) &&
           "SelectWithMultiplicity: multiplicity above 2^53");
    if (multiplicities[i] > 0 && utilities[i] > max_utility) max_utility = utilities[i];
  }
  std::vector<double> weights(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (multiplicities[i] == 0) continue;
    weights[i] = static_cast<double>(multiplicities[i]) *
                 Weight(utilities[i], max_utility, factor_);
  }
  return SampleProportional(weights, rng);
}

}  // namespace deniable
