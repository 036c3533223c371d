// SPDX-License-Identifier: Apache-2.0
// Gaussian and zCDP accounting with certified rounding (dp/gaussian_accounting.md).
#include "engine/dp/gaussian_accounting.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::AddDown;
using internal::AddUp;
using internal::DivDown;
using internal::DivUp;
using internal::MulDown;
using internal::MulUp;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kInvSqrt2 = 0.70710678118654752440;  // fl(1/√2), relative error < 2^-53
// Above this ε the curve is evaluated at 500 (δ(ε) decreases in ε, so that is an upper bound)
// and e^ε stays finite.
constexpr double kMaxEpsilon = 500.0;
constexpr int kBisectionSteps = 200;

// Midpoint bisection on [lo, hi] keeping `ok(hi)` true and `ok(lo)` false; returns hi. Stops
// when no double lies strictly between the ends. The result is safe whatever the shape of
// `ok`: it is a point where ok was checked.
template <typename Ok>
double BisectToSafeEnd(double lo, double hi, Ok&& ok) {
  for (int step = 0; step < kBisectionSteps; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (ok(mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

// An upper bound of log δ(α) in CKS Corollary 13 with α = 1 + β:
//   (α − 1)(αρ − ε) − ln(α − 1) + α·ln(1 − 1/α),   ln(1 − 1/α) = −log1p(1/β).
double ZcdpLogDeltaUpper(double rho, double epsilon, double beta) {
  const double alpha_hi = AddUp(1.0, beta);
  const double alpha_lo = AddDown(1.0, beta);
  const double excess = AddUp(MulUp(alpha_hi, rho), -epsilon);  // >= αρ − ε
  const double first = MulUp(beta, excess);                     // β > 0
  const double second = -internal::LogDown(beta);
  const double third = -MulDown(alpha_lo, internal::Log1pDown(DivDown(1.0, beta)));
  const double sum = AddUp(AddUp(first, second), third);
  return std::isnan(sum) ? kInfinity : sum;
}

}  // namespace

double GaussianTail(double x) { return 0.5 * std::erfc(x * kInvSqrt2); }

double GaussianTailUpper(double x) {
  if (std::isnan(x)) return 1.0;
  if (x < -kGaussianTailMaxArgument) return 1.0;
  if (x > kGaussianTailMaxArgument) return GaussianTailUpper(kGaussianTailMaxArgument);
  return std::min(1.0, MulUp(GaussianTail(x), 1.0 + kGaussianTailRelativeError));
}

double GaussianTailLower(double x) {
  if (std::isnan(x)) return 0.0;
  if (x > kGaussianTailMaxArgument) return 0.0;
  if (x < -kGaussianTailMaxArgument) return GaussianTailLower(-kGaussianTailMaxArgument);
  return MulDown(GaussianTail(x), 1.0 - kGaussianTailRelativeError);
}

double GaussianTailInverseUpper(double p) {
  if (std::isnan(p)) return p;
  if (p >= 1) return -kInfinity;
  if (!(GaussianTailUpper(kGaussianTailMaxArgument) <= p)) return kInfinity;
  return BisectToSafeEnd(-kGaussianTailMaxArgument, kGaussianTailMaxArgument,
                         [p](double z) { return GaussianTailUpper(z) <= p; });
}

double AnalyticGaussianDelta(double epsilon, double sigma, double l2_sensitivity) {
  if (!(epsilon >= 0) || !(sigma > 0 && std::isfinite(sigma)) ||
      !(l2_sensitivity > 0 && std::isfinite(l2_sensitivity))) {
    return 1.0;
  }
  epsilon = std::min(epsilon, kMaxEpsilon);
  // r = Δ/σ and s = εσ/Δ as intervals; δ = Q(s − r/2) − e^ε·Q(s + r/2). Q decreases, so the
  // first term is bounded above at the smallest argument, the second below at the largest.
  const double half_r_hi = 0.5 * DivUp(l2_sensitivity, sigma);
  const double s_lo = DivDown(MulDown(epsilon, sigma), l2_sensitivity);
  const double s_hi = DivUp(MulUp(epsilon, sigma), l2_sensitivity);
  const double first = GaussianTailUpper(AddDown(s_lo, -half_r_hi));
  const double second =
      MulDown(internal::ExpDown(epsilon), GaussianTailLower(AddUp(s_hi, half_r_hi)));
  return std::clamp(AddUp(first, -second), 0.0, 1.0);
}

Result<double> AnalyticGaussianSigma(double epsilon, double delta, double l2_sensitivity) {
  if (!(epsilon >= 0 && epsilon <= kMaxEpsilon)) {
    return InvalidArgument("Gaussian mechanism epsilon must be in [0, 500] (got " +
                           internal::FormatDouble(epsilon) + ")");
  }
  if (Status s = internal::CheckOpenUnit(delta, "Gaussian mechanism delta"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(l2_sensitivity, "Gaussian mechanism l2_sensitivity");
      !s) {
    return s.error();
  }
  const auto ok = [&](double sigma) {
    return AnalyticGaussianDelta(epsilon, sigma, l2_sensitivity) <= delta;
  };
  double hi = l2_sensitivity;
  while (!ok(hi)) {
    hi *= 2;
    if (!(hi < l2_sensitivity * 0x1p80)) {
      return InvalidArgument(
          "no Gaussian noise scale reaches delta = " + internal::FormatDouble(delta) +
          " at epsilon = " + internal::FormatDouble(epsilon));
    }
  }
  double lo = hi / 2;
  while (ok(lo)) {
    hi = lo;
    lo /= 2;
    if (!(lo > l2_sensitivity * 0x1p-80)) return hi;
  }
  return BisectToSafeEnd(lo, hi, ok);
}

Result<double> AnalyticGaussianEpsilon(double sigma, double delta, double l2_sensitivity) {
  if (Status s = internal::CheckPositiveFinite(sigma, "Gaussian mechanism sigma"); !s) {
    return s.error();
  }
  if (Status s = internal::CheckOpenUnit(delta, "Gaussian mechanism delta"); !s) return s.error();
  if (Status s = internal::CheckPositiveFinite(l2_sensitivity, "Gaussian mechanism l2_sensitivity");
      !s) {
    return s.error();
  }
  const auto ok = [&](double epsilon) {
    return AnalyticGaussianDelta(epsilon, sigma, l2_sensitivity) <= delta;
  };
  if (ok(0.0)) return 0.0;
  double hi = 1.0;
  while (!ok(hi)) {
    hi *= 2;
    if (hi > kMaxEpsilon) {
      return InvalidArgument(
          "Gaussian noise sigma = " + internal::FormatDouble(sigma) + " for sensitivity " +
          internal::FormatDouble(l2_sensitivity) +
          " gives epsilon above 500 at delta = " + internal::FormatDouble(delta));
    }
  }
  return BisectToSafeEnd(0.0, hi, ok);
}

double ComposeGdp(std::span<const double> mus) {
  std::vector<double> squares;
  squares.reserve(mus.size());
  for (double mu : mus) squares.push_back(MulUp(mu, mu));
  return internal::SqrtUp(internal::SumUp(squares));
}

double ZcdpOfGaussian(double sigma, double l2_sensitivity) {
  return DivUp(MulUp(l2_sensitivity, l2_sensitivity), 2.0 * MulDown(sigma, sigma));
}

double ZcdpOfPureDp(double epsilon) { return 0.5 * MulUp(epsilon, epsilon); }

double ComposeZcdp(std::span<const double> rhos) { return internal::SumUp(rhos); }

double ZcdpDelta(double rho, double epsilon) {
  return internal::ZcdpDeltaSearch(rho, epsilon, false);
}

namespace internal {

double ZcdpDeltaSearch(double rho, double epsilon, bool full_scan) {
  if (!(rho >= 0 && std::isfinite(rho)) || !(epsilon >= 0 && std::isfinite(epsilon))) return 1.0;
  if (rho == 0) return 0.0;  // identical distributions
  // Coarse grid over β = α − 1 = 2^u, u in [−40, 60], then golden-section refinement around
  // the best grid point (the first grid point with the smallest value). Any β gives a valid
  // bound; the search only makes it small.
  const auto log_delta = [&](double u) { return ZcdpLogDeltaUpper(rho, epsilon, std::exp2(u)); };
  constexpr double kLow = -40;
  constexpr double kHigh = 60;
  constexpr int kGrid = 400;
  constexpr double kStep = (kHigh - kLow) / kGrid;
  const auto grid = [&](int i) { return log_delta(kLow + kStep * i); };
  int best_i = 0;
  double best = grid(0);
  if (full_scan) {
    for (int i = 1; i <= kGrid; ++i) {
      const double value = grid(i);
      if (value < best) {
        best = value;
        best_i = i;
      }
    }
  } else {
    // The same grid point found by descent from the minimiser of the bound's leading term
    // (α − 1)(αρ − ε), β = (ε − ρ)/(2ρ): on the grid the bound falls, then rises (−ln β
    // dominates for small β, β·(αρ − ε) for large), so walking down from any start reaches the
    // first grid point of the smallest value, in a few evaluations instead of 401 (the
    // accountant converts ρ to ε inside bisections: this was 18% of an Adult run).
    // gaussian_accounting_test compares it with the full scan over a sweep of (ρ, ε).
    const double beta0 = (epsilon - rho) / (2 * rho);
    int i = 0;
    if (beta0 > 0 && std::isfinite(beta0)) {
      i = static_cast<int>(
          std::clamp(std::round((std::log2(beta0) - kLow) / kStep), 0.0, double{kGrid}));
    }
    double value = grid(i);
    bool moved_left = false;
    while (i > 0) {
      const double left = grid(i - 1);
      if (!(left <= value)) break;
      --i;
      value = left;
      moved_left = true;
    }
    while (!moved_left && i < kGrid) {
      const double right = grid(i + 1);
      if (!(right < value)) break;
      ++i;
      value = right;
    }
    best_i = i;
    best = value;
  }
  const double best_u = kLow + kStep * best_i;
  double a = best_u - kStep;
  double b = best_u + kStep;
  const double golden = 0.6180339887498949;
  double c = b - golden * (b - a);
  double d = a + golden * (b - a);
  double fc = log_delta(c);
  double fd = log_delta(d);
  for (int i = 0; i < 60; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - golden * (b - a);
      fc = log_delta(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + golden * (b - a);
      fd = log_delta(d);
    }
  }
  best = std::min({best, fc, fd});
  return std::min(1.0, ExpUp(best));
}

}  // namespace internal

Result<double> ZcdpEpsilon(double rho, double delta) {
  if (!(rho >= 0 && std::isfinite(rho))) {
    return InvalidArgument("zCDP rho must be finite and >= 0 (got " + internal::FormatDouble(rho) +
                           ")");
  }
  if (Status s = internal::CheckOpenUnit(delta, "zCDP delta"); !s) return s.error();
  const auto ok = [&](double epsilon) { return ZcdpDelta(rho, epsilon) <= delta; };
  if (ok(0.0)) return 0.0;
  double hi = 1.0;
  while (!ok(hi)) {
    hi *= 2;
    if (hi > 1e6) {
      return InvalidArgument(
          "zCDP rho = " + internal::FormatDouble(rho) +
          " gives no epsilon below 1e6 at delta = " + internal::FormatDouble(delta));
    }
  }
  return BisectToSafeEnd(0.0, hi, ok);
}

Result<double> ZcdpRhoFor(double epsilon, double delta) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "zCDP target epsilon"); !s) {
    return s.error();
  }
  if (Status s = internal::CheckOpenUnit(delta, "zCDP delta"); !s) return s.error();
  const auto ok = [&](double rho) { return ZcdpDelta(rho, epsilon) <= delta; };
  // Bracket by doubling, then bisect keeping the end where ok() was checked true.
  double lo = 0.0;
  double hi = epsilon;
  while (ok(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6) return lo;
  }
  for (int step = 0; step < 200; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (ok(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace deniable
