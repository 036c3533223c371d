// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/geometric_mechanism.h"

#include <algorithm>
#include <limits>
#include <string>

#include "engine/core/int128.h"
#include "engine/dp/directed_rounding.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {

Result<GeometricMechanism> GeometricMechanism::Create(double epsilon,
                                                      std::int64_t l1_sensitivity) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s.error();
  constexpr std::int64_t kMaxSensitivity = std::int64_t{1} << 53;
  if (l1_sensitivity < 1 || l1_sensitivity > kMaxSensitivity) {
    return InvalidArgument("l1_sensitivity must be an integer in [1, 2^53] (got " +
                           std::to_string(l1_sensitivity) + ")");
  }
  const double scale = internal::DivUp(static_cast<double>(l1_sensitivity), epsilon);
  if (scale > kMaxDiscreteLaplaceScale) {
    return InvalidArgument("geometric noise scale l1_sensitivity / epsilon = " +
                           internal::FormatDouble(scale) + " (epsilon " +
                           internal::FormatDouble(epsilon) +
                           ") exceeds the supported maximum 2^56: epsilon is too small");
  }
  return GeometricMechanism(epsilon, std::max(scale, kMinDiscreteLaplaceScale));
}

std::int64_t GeometricMechanism::AddNoise(std::int64_t count, Rng& rng) const {
  const Int128 noisy = static_cast<Int128>(count) + SampleDiscreteLaplace(scale_, rng);
  constexpr Int128 kLow = std::numeric_limits<std::int64_t>::min();
  constexpr Int128 kHigh = std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(std::clamp(noisy, kLow, kHigh));
}

}  // namespace deniable
