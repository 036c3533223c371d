// SPDX-License-Identifier: Apache-2.0
// Exact samplers (dp/secure_sampling.md has the pseudocode and the proofs).
#include "engine/dp/secure_sampling.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

#include "engine/core/int128.h"

namespace deniable {
namespace {

constexpr Uint128 kOne128 = 1;

// Bernoulli(1/k) for k >= 1.
inline bool BernoulliOneOver(std::uint64_t k, Rng& rng) {
  return k == 1 || UniformBelow(rng, k) == 0;
}

// Word `index` (0 = most significant) of the binary expansion of frac / 2^shift: the bits of
// weight 2^-(64·index + 1) ... 2^-(64·index + 64).
inline std::uint64_t ExpansionWord(Uint128 frac, int shift, int index) {
  const int t = 64 * (index + 1) - shift;  // frac·2^t, taken mod 2^64
  if (t >= 64) return 0;
  if (t >= 0) return static_cast<std::uint64_t>(frac) << t;
  if (-t >= 128) return 0;
  return static_cast<std::uint64_t>(frac >> (-t));
}

// Exact Bernoulli(frac / 2^shift) for 0 <= frac < 2^shift: a uniform U in [0, 1) is compared
// with p word by word, most significant first; U < p exactly when the first differing word of
// U is smaller. One word in expectation (the next is needed with probability 2^-64).
bool BernoulliDyadic(Uint128 frac, int shift, Rng& rng) {
  if (frac == 0) return false;
  for (int index = 0; 64 * index < shift; ++index) {
    const std::uint64_t word = ExpansionWord(frac, shift, index);
    const std::uint64_t u = rng();
    if (u != word) return u < word;
  }
  return false;  // U's words equal p's and p has no more bits: U >= p
}

// CKS 2020 Algorithm 1, case γ in [0, 1]: K = first k >= 1 with Bernoulli(γ/k) = 0 has
// Pr[K > k] = γ^k / k!, so Pr[K odd] = Σ_j (-γ)^j / j! = exp(-γ). Bernoulli(γ/k) is drawn as
// Bernoulli(γ) AND Bernoulli(1/k), independent, so no product can overflow.
template <typename BernoulliGamma>
bool BernoulliExpOfFraction(BernoulliGamma&& bernoulli_gamma, Rng& rng) {
  std::uint64_t k = 1;
  while (bernoulli_gamma() && BernoulliOneOver(k, rng)) ++k;
  return (k & 1) == 1;
}

// Exact Bernoulli(exp(-1)).
bool BernoulliExpMinusOne(Rng& rng) {
  return BernoulliExpOfFraction([] { return true; }, rng);
}

// exp(-(whole + fraction)) = exp(-1)^whole · exp(-fraction) (CKS Algorithm 1, case γ > 1).
template <typename BernoulliGamma>
bool BernoulliExpOfSum(std::uint64_t whole, BernoulliGamma&& bernoulli_fraction, Rng& rng) {
  for (std::uint64_t i = 0; i < whole; ++i) {
    if (!BernoulliExpMinusOne(rng)) return false;
  }
  return BernoulliExpOfFraction(bernoulli_fraction, rng);
}

// Exact Bernoulli(exp(-n / 2^s)) for any integer s (s < 0 means n·2^|s|).
bool BernoulliExpDyadic(Uint128 n, int s, Rng& rng) {
  if (n == 0) return true;
  // Keep the integer part below 2^62 (and s >= 0): exp(-x) = exp(-x/2)·exp(-x/2), and x/2 is
  // exact (s + 1). The recursion ends at depth <= 1100; each level stops at its first false.
  if (s < 0 || (s < 128 && (n >> s) >= (kOne128 << 62))) {
    return BernoulliExpDyadic(n, s + 1, rng) && BernoulliExpDyadic(n, s + 1, rng);
  }
  const std::uint64_t whole = s >= 128 ? 0 : static_cast<std::uint64_t>(n >> s);
  const Uint128 frac = s >= 128 ? n : (n & ((kOne128 << s) - 1));
  return BernoulliExpOfSum(whole, [&] { return BernoulliDyadic(frac, s, rng); }, rng);
}

// Exact Bernoulli(numerator / denominator) for numerator < denominator < 2^127: the binary
// digits of the fraction come from long division and are compared with uniform random bits,
// most significant first (as BernoulliDyadic does word by word); two bits in expectation.
bool BernoulliRational(Uint128 numerator, Uint128 denominator, Rng& rng) {
  std::uint64_t word = 0;
  int bits_left = 0;
  for (;;) {
    if (numerator == 0) return false;  // the expansion ended: U >= p
    numerator <<= 1;                   // < 2^128: numerator < denominator < 2^127
    const bool digit = numerator >= denominator;
    if (digit) numerator -= denominator;
    if (bits_left == 0) {
      word = rng();
      bits_left = 64;
    }
    const bool random_bit = (word >> 63) != 0;
    word <<= 1;
    --bits_left;
    if (random_bit != digit) return digit;  // U's bit 0 where p's is 1: U < p
  }
}

// x = mantissa · 2^-shift exactly, mantissa < 2^53, for a finite x > 0.
struct Dyadic {
  std::uint64_t mantissa;
  int shift;
};
Dyadic ToDyadic(double x) {
  int exponent = 0;
  const double fraction = std::frexp(x, &exponent);  // x = fraction·2^exponent, [0.5, 1)
  return Dyadic{static_cast<std::uint64_t>(std::ldexp(fraction, 53)), 53 - exponent};
}

}  // namespace

bool SampleBernoulliExp(std::uint64_t numerator, std::uint64_t denominator, Rng& rng) {
  if (denominator == 0) {
    assert(false && "SampleBernoulliExp: denominator must be positive");
    return false;
  }
  const std::uint64_t rest = numerator % denominator;
  if (rest == 0) return BernoulliExpOfSum(numerator / denominator, [] { return false; }, rng);
  return BernoulliExpOfSum(
      numerator / denominator, [&] { return UniformBelow(rng, denominator) < rest; }, rng);
}

bool SampleBernoulliExpWide(Uint128 numerator, Uint128 denominator, Rng& rng) {
  if (denominator == 0 || (denominator >> 127) != 0) {
    assert(false && "SampleBernoulliExpWide: denominator must be in (0, 2^127)");
    return false;
  }
  const Uint128 whole = numerator / denominator;
  const Uint128 rest = numerator % denominator;
  // exp(−whole)·exp(−rest/denominator), CKS Algorithm 1; stops at the first false draw.
  for (Uint128 i = 0; i < whole; ++i) {
    if (!BernoulliExpMinusOne(rng)) return false;
  }
  if (rest == 0) return true;
  return BernoulliExpOfFraction([&] { return BernoulliRational(rest, denominator, rng); }, rng);
}

bool SampleBernoulliExp(double x, Rng& rng) {
  if (std::isnan(x)) {
    assert(false && "SampleBernoulliExp: x is NaN");
    return false;
  }
  if (x <= 0) {
    assert(x == 0 && "SampleBernoulliExp: x must be >= 0");
    return true;
  }
  if (std::isinf(x)) return false;
  const Dyadic d = ToDyadic(x);
  return BernoulliExpDyadic(d.mantissa, d.shift, rng);
}

bool SampleBernoulli(double p, Rng& rng) {
  if (!(p > 0)) return false;
  if (p >= 1) return true;
  const Dyadic d = ToDyadic(p);
  return BernoulliDyadic(d.mantissa, d.shift, rng);
}

bool SampleLaplaceCdfAtInteger(std::int64_t j, double epsilon0, Rng& rng) {
  if (!(epsilon0 > 0) || std::isinf(epsilon0)) {
    assert(false && "SampleLaplaceCdfAtInteger: epsilon0 must be finite and positive");
    return j >= 0;
  }
  // Pr[L <= j] = 1 - B/2 (j >= 0) or B/2 (j < 0), B = exp(-|j|·ε0): a fair coin, then B.
  const bool heads = (rng() >> 63) != 0;
  if (!heads) return j >= 0;
  const std::uint64_t magnitude = j >= 0 ? static_cast<std::uint64_t>(j)
                                         : std::uint64_t{0} - static_cast<std::uint64_t>(j);
  const Dyadic e = ToDyadic(epsilon0);
  const bool b = BernoulliExpDyadic(static_cast<Uint128>(magnitude) * e.mantissa, e.shift, rng);
  return j >= 0 ? !b : b;
}

std::int64_t SampleDiscreteLaplace(double scale, Rng& rng) {
  if (std::isnan(scale)) scale = kMaxDiscreteLaplaceScale;
  scale = std::clamp(scale, kMinDiscreteLaplaceScale, kMaxDiscreteLaplaceScale);
  // scale = t / 2^k exactly, t odd (or a power of two times the odd mantissa when scale is
  // a large power of two multiple), t < 2^57, k < 94.
  int exponent = 0;
  const double fraction = std::frexp(scale, &exponent);
  std::uint64_t mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  int power = exponent - 53 + std::countr_zero(mantissa);
  mantissa >>= std::countr_zero(mantissa);
  const std::uint64_t t = power >= 0 ? mantissa << power : mantissa;
  const int k = power >= 0 ? 0 : -power;

  // CKS 2020 Algorithm 2: X = U + t·V is geometric with Pr[X = x] ∝ exp(-x/t); Y = ⌊X/2^k⌋
  // is geometric with ratio exp(-2^k/t) = exp(-1/scale); a random sign, rejecting -0.
  for (;;) {
    const std::uint64_t u = t == 1 ? 0 : UniformBelow(rng, t);
    if (u != 0 && !SampleBernoulliExp(u, t, rng)) continue;
    std::uint64_t v = 0;
    while (BernoulliExpMinusOne(rng)) ++v;
    const Uint128 x = static_cast<Uint128>(u) + static_cast<Uint128>(t) * v;
    const Uint128 y = x >> k;
    const bool negative = (rng() >> 63) != 0;
    if (negative && y == 0) continue;
    constexpr auto kMax = static_cast<Uint128>(std::numeric_limits<std::int64_t>::max());
    const auto magnitude = static_cast<std::int64_t>(std::min(y, kMax));
    return negative ? -magnitude : magnitude;
  }
}

double LaplaceGranularity(double scale) {
  int exponent = 0;
  const double fraction = std::frexp(scale, &exponent);
  return std::ldexp(1.0, fraction == 0.5 ? exponent - 41 : exponent - 40);
}

double AddDiscretizedLaplace(double value, double scale, Rng& rng) {
  const double granularity = LaplaceGranularity(scale);
  if (std::isnan(value)) {
    assert(false && "AddDiscretizedLaplace: value is NaN");
    value = 0;
  }
  const double limit = std::ldexp(granularity, 100);
  value = std::clamp(value, -limit, limit);
  // value/g is exact (g is a power of two); rounding to the nearest multiple moves the value by
  // at most g/2, so neighbouring values stay within Δ + g of each other.
  const auto units = static_cast<Int128>(std::nearbyint(value / granularity));
  const Int128 noisy = units + SampleDiscreteLaplace(scale / granularity, rng);
  // Int128 -> double is correctly rounded, and ×g is exact: a function of `noisy` alone.
  return static_cast<double>(noisy) * granularity;
}

}  // namespace deniable
