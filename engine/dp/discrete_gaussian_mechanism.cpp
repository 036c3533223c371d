// SPDX-License-Identifier: Apache-2.0
// Exact discrete Gaussian (dp/discrete_gaussian_mechanism.md).
#include "engine/dp/discrete_gaussian_mechanism.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "engine/core/int128.h"
#include "engine/dp/directed_rounding.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {

std::int64_t SampleDiscreteGaussian(double sigma_squared, Rng& rng) {
  if (std::isnan(sigma_squared)) sigma_squared = kMaxDiscreteGaussianSigmaSquared;
  sigma_squared =
      std::clamp(sigma_squared, kMinDiscreteGaussianSigmaSquared, kMaxDiscreteGaussianSigmaSquared);
  // σ² = n·2^e exactly, n odd (n < 2^53).
  int exponent = 0;
  const double fraction = std::frexp(sigma_squared, &exponent);
  std::uint64_t n = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const int zeros = std::countr_zero(n);
  n >>= zeros;
  const int e = exponent - 53 + zeros;
  // Any integer t >= 1 gives the right distribution; t = ⌊σ⌋ + 1 makes acceptance likely.
  const auto t = static_cast<std::uint64_t>(std::floor(std::sqrt(sigma_squared))) + 1;
  const int a = e < 0 ? -e : 0;  // c = |Y|·t·2^a − n·2^b, γ = c²/D (see the proof note)
  const int b = e > 0 ? e : 0;
  const Uint128 denominator = ((static_cast<Uint128>(n) * t * t) << (e < 0 ? -e : e)) << 1;
  const Int128 center = static_cast<Int128>(static_cast<Uint128>(n) << b);
  constexpr Uint128 kCLimit = static_cast<Uint128>(1) << 63;
  for (;;) {
    const std::int64_t y = SampleDiscreteLaplace(static_cast<double>(t), rng);
    const std::uint64_t magnitude =
        y >= 0 ? static_cast<std::uint64_t>(y) : std::uint64_t{0} - static_cast<std::uint64_t>(y);
    const Uint128 left = static_cast<Uint128>(magnitude) * t;  // < 2^92
    // |c| >= 2^63 means γ >= 2^126 / D > 2^9: acceptance below e^-512, treated as rejection.
    if (a > 0 && (left >> (126 - a)) != 0) continue;
    const Int128 c = static_cast<Int128>(left << a) - center;
    const Uint128 c_abs = c >= 0 ? static_cast<Uint128>(c) : static_cast<Uint128>(-c);
    if (c_abs >= kCLimit) continue;
    if (SampleBernoulliExpWide(c_abs * c_abs, denominator, rng)) return y;
  }
}

Result<DiscreteGaussianMechanism> DiscreteGaussianMechanism::Create(double rho,
                                                                    double l2_sensitivity) {
  if (Status s = internal::CheckPositiveFinite(rho, "rho"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(l2_sensitivity, "l2_sensitivity"); !s) {
    return s.error();
  }
  const double sigma_squared =
      internal::DivUp(internal::MulUp(l2_sensitivity, l2_sensitivity), 2.0 * rho);
  if (!(sigma_squared >= kMinDiscreteGaussianSigmaSquared &&
        sigma_squared <= kMaxDiscreteGaussianSigmaSquared)) {
    return InvalidArgument("discrete Gaussian variance l2_sensitivity^2 / (2 rho) = " +
                           internal::FormatDouble(sigma_squared) + " (rho " +
                           internal::FormatDouble(rho) + ", l2_sensitivity " +
                           internal::FormatDouble(l2_sensitivity) +
                           ") is outside the supported range [2^-8, 2^56]");
  }
  return DiscreteGaussianMechanism(rho, l2_sensitivity, sigma_squared);
}

std::int64_t DiscreteGaussianMechanism::AddNoise(std::int64_t count, Rng& rng) const {
  const Int128 noisy = static_cast<Int128>(count) + SampleDiscreteGaussian(sigma_squared_, rng);
  constexpr Int128 kLow = std::numeric_limits<std::int64_t>::min();
  constexpr Int128 kHigh = std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(std::clamp(noisy, kLow, kHigh));
}

Result<double> DiscreteGaussianMechanism::EpsilonFor(double delta) const {
  return ZcdpEpsilon(rho_, delta);
}

}  // namespace deniable
