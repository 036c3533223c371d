// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/laplace_mechanism.h"

#include <cmath>
#include <string>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {

Result<LaplaceMechanism> LaplaceMechanism::Create(double epsilon, double l1_sensitivity) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(l1_sensitivity, "l1_sensitivity"); !s) {
    return s.error();
  }
  if (epsilon < kMinLaplaceEpsilon) {
    return InvalidArgument("epsilon " + internal::FormatDouble(epsilon) +
                           " is below the smallest the Laplace mechanism supports (2^-30)");
  }
  const double base = internal::DivUp(l1_sensitivity, epsilon);
  if (!(base >= kMinLaplaceScale && base <= kMaxLaplaceScale)) {
    return InvalidArgument("Laplace noise scale l1_sensitivity / epsilon = " +
                           internal::FormatDouble(base) + " (l1_sensitivity " +
                           internal::FormatDouble(l1_sensitivity) + ", epsilon " +
                           internal::FormatDouble(epsilon) +
                           ") is outside the supported range [2^-500, 2^500]");
  }
  // b = (Δ + g(b)) / ε rounded up, where g(b) = LaplaceGranularity(b) grows with b. As
  // ε >= 2^-30, g/ε <= 2^-10·b: b grows by < 0.1% per round and g doubles at most once.
  double scale = base;
  for (int round = 0; round < 4; ++round) {
    const double granularity = LaplaceGranularity(scale);
    const double next = internal::DivUp(internal::AddUp(l1_sensitivity, granularity), epsilon);
    if (LaplaceGranularity(next) == granularity) {
      return LaplaceMechanism(next, granularity, l1_sensitivity, epsilon);
    }
    scale = next;
  }
  return InternalError("Laplace noise scale did not converge for epsilon " +
                       internal::FormatDouble(epsilon));
}

double LaplaceMechanism::AddNoise(double value, Rng& rng) const {
  return AddDiscretizedLaplace(value, scale_, rng);
}

}  // namespace deniable
