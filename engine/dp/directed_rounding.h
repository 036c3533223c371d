// SPDX-License-Identifier: Apache-2.0
// Floating-point arithmetic rounded in a chosen direction, for privacy accounting: a privacy
// loss is always rounded up (more ε), a noise scale up (more noise), a budget share down.
//
// The basic operations are exact-error tricks (Knuth's TwoSum, FMA residuals), so they round
// up only when the round-to-nearest result was actually below the exact value: 0.5 + 0.5 stays
// exactly 1, and a budget that is split exactly is spent exactly. Transcendental functions
// (exp, log, log1p, expm1) are within 1 ulp in glibc; we step 2 ulps in the safe direction.
// Not API: used by engine/dp only.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace deniable::internal {

inline double NextUp(double x, int steps = 1) {
  for (int i = 0; i < steps; ++i) x = std::nextafter(x, std::numeric_limits<double>::infinity());
  return x;
}
inline double NextDown(double x, int steps = 1) {
  for (int i = 0; i < steps; ++i) x = std::nextafter(x, -std::numeric_limits<double>::infinity());
  return x;
}

// The rounding error of a + b: a + b == s + err exactly (TwoSum; no overflow assumed).
inline double SumError(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

// Smallest double >= a + b (exact sum).
inline double AddUp(double a, double b) {
  const double s = a + b;
  return SumError(a, b, s) > 0 ? NextUp(s) : s;
}
// Largest double <= a + b.
inline double AddDown(double a, double b) {
  const double s = a + b;
  return SumError(a, b, s) < 0 ? NextDown(s) : s;
}
inline double SubDown(double a, double b) { return AddDown(a, -b); }

// Smallest double >= a * b (the FMA residual is exact barring underflow).
inline double MulUp(double a, double b) {
  const double p = a * b;
  return std::fma(a, b, -p) > 0 ? NextUp(p) : p;
}
inline double MulDown(double a, double b) {
  const double p = a * b;
  return std::fma(a, b, -p) < 0 ? NextDown(p) : p;
}

// Smallest double >= a / b, for b > 0 (a - q*b is exactly representable).
inline double DivUp(double a, double b) {
  const double q = a / b;
  return std::fma(-q, b, a) > 0 ? NextUp(q) : q;
}
// Largest double <= a / b, for b > 0.
inline double DivDown(double a, double b) {
  const double q = a / b;
  return std::fma(-q, b, a) < 0 ? NextDown(q) : q;
}

// A double >= the exact sum of `values`: TwoSum keeps the running rounding errors, which are
// themselves accumulated rounding up, so hi + lo never falls below the exact partial sum.
inline double SumUp(std::span<const double> values) {
  double hi = 0.0;
  double lo = 0.0;
  for (double x : values) {
    const double s = hi + x;
    lo = AddUp(lo, SumError(hi, x, s));
    hi = s;
  }
  return AddUp(hi, lo);
}

// Upper / lower bounds of libm functions that are accurate to < 1 ulp (2 ulps of margin).
inline double ExpUp(double x) { return NextUp(std::exp(x), 2); }
inline double ExpDown(double x) { return std::max(0.0, NextDown(std::exp(x), 2)); }
inline double Expm1Up(double x) { return NextUp(std::expm1(x), 2); }
inline double LogUp(double x) { return NextUp(std::log(x), 2); }
inline double LogDown(double x) { return NextDown(std::log(x), 2); }
inline double Log1pUp(double x) { return NextUp(std::log1p(x), 2); }
inline double Log1pDown(double x) { return NextDown(std::log1p(x), 2); }
inline double SqrtUp(double x) { return NextUp(std::sqrt(x)); }  // sqrt is correctly rounded

}  // namespace deniable::internal
