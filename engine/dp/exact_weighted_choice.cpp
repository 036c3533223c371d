// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/exact_weighted_choice.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <climits>
#include <cmath>
#include <cstdint>

#include "engine/core/int128.h"

namespace deniable {
namespace {

// A positive double is m·2^b with m < 2^53 and b in [-1126, 971]; with the smallest b of the
// input as bit 0, a weight occupies bits [b - b_min, b - b_min + 53) <= 2150, and up to 2^64
// of them sum below bit 2214: 35 words.
constexpr int kWords = 36;
using Fixed = std::array<std::uint64_t, kWords>;

struct Parts {
  std::uint64_t mantissa;
  int exponent;  // value = mantissa · 2^exponent
};

Parts Split(double w) {
  int e = 0;
  const double fraction = std::frexp(w, &e);
  return Parts{static_cast<std::uint64_t>(std::ldexp(fraction, 53)), e - 53};
}

void AddWord(Fixed& acc, int index, std::uint64_t x) {
  while (x != 0 && index < kWords) {
    const std::uint64_t s = acc[index] + x;
    x = s < x ? 1 : 0;
    acc[index] = s;
    ++index;
  }
}

// acc += mantissa · 2^bit.
void AddShifted(Fixed& acc, std::uint64_t mantissa, int bit) {
  const Uint128 v = static_cast<Uint128>(mantissa) << (bit % 64);
  AddWord(acc, bit / 64, static_cast<std::uint64_t>(v));
  AddWord(acc, bit / 64 + 1, static_cast<std::uint64_t>(v >> 64));
}

// a < b, comparing words top..0 (higher words are zero in both).
bool Less(const Fixed& a, const Fixed& b, int top) {
  for (int i = top; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

// Uniform integer in [0, total): random words from the top, rejected lexicographically as soon
// as they exceed `total` (the top word is masked to total's bit length, so each attempt
// succeeds with probability >= 1/2).
Fixed UniformBelow(const Fixed& total, int top, Rng& rng) {
  const int bits = 64 - std::countl_zero(total[top]);
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  Fixed u{};
  for (;;) {
    bool less = false;
    bool greater = false;
    for (int i = top; i >= 0; --i) {
      u[i] = rng();
      if (i == top) u[i] &= mask;
      if (!less && !greater) {
        less = u[i] < total[i];
        greater = u[i] > total[i];
      }
      if (greater) break;
    }
    if (less) return u;
  }
}

}  // namespace

std::size_t SampleProportional(std::span<const double> weights, Rng& rng) {
  int min_exponent = INT_MAX;
  for (double w : weights) {
    if (!(w >= 0 && std::isfinite(w))) {
      assert(false && "SampleProportional: weights must be finite and >= 0");
      return weights.size();
    }
    if (w > 0) min_exponent = std::min(min_exponent, Split(w).exponent);
  }
  if (min_exponent == INT_MAX) {
    assert(false && "SampleProportional: all weights are zero");
    return weights.size();
  }
  Fixed total{};
  for (double w : weights) {
    if (w == 0) continue;
    const Parts p = Split(w);
    AddShifted(total, p.mantissa, p.exponent - min_exponent);
  }
  int top = kWords - 1;
  while (total[top] == 0) --top;
  const Fixed target = UniformBelow(total, top, rng);
  // The first index whose prefix sum exceeds the target: interval [P_{i-1}, P_i) has exactly
  // w_i of the total's integer points.
  Fixed prefix{};
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] == 0) continue;
    const Parts p = Split(weights[i]);
    AddShifted(prefix, p.mantissa, p.exponent - min_exponent);
    if (Less(target, prefix, top)) return i;
  }
  assert(false && "SampleProportional: prefix sums never passed the target");
  return weights.size();
}

}  // namespace deniable
