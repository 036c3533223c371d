// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/numeric_decomposition.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/dp/validation.h"
#include "engine/histogram/decomposition.h"

namespace deniable {
namespace {

using internal::FormatDouble;

constexpr double kMaxCoordinate = 0x1p110;  // |coordinates| stay far inside Int128
constexpr int kMaxDecimals = 15;
constexpr std::int64_t kMaxGridStep = std::int64_t{1} << 40;

constexpr Int128 kInt128Max = static_cast<Int128>(~static_cast<Uint128>(0) >> 1);
constexpr Int128 kInt128Min = -kInt128Max - 1;

Int128 Pow2(int j) { return static_cast<Int128>(1) << j; }

int BitWidth(Int128 m) {
  int bits = 0;
  while (m > 0) {
    m >>= 1;
    ++bits;
  }
  return bits;
}

Status CheckSpec(const NumericDomainSpec& spec) {
  if (spec.lo.has_value() != spec.hi.has_value()) {
    return InvalidArgument("numeric domain: give both public bounds lo and hi, or neither");
  }
  if (spec.lo && !(std::isfinite(*spec.lo) && std::isfinite(*spec.hi) && *spec.lo <= *spec.hi)) {
    return InvalidArgument("numeric domain: public bounds must be finite with lo <= hi (got [" +
                           FormatDouble(*spec.lo) + ", " + FormatDouble(*spec.hi) + "])");
  }
  if (Status s = internal::CheckPositiveFinite(spec.coarse_limit, "coarse_limit"); !s) return s;
  switch (spec.lattice) {
    case LatticeKind::kDecimal:
      if (spec.decimals < 0 || spec.decimals > kMaxDecimals) {
        return InvalidArgument("numeric domain: decimals must be in [0, 15] (got " +
                               std::to_string(spec.decimals) + ")");
      }
      break;
    case LatticeKind::kFloorGrid:
      if (spec.grid_step < 1 || spec.grid_step > kMaxGridStep) {
        return InvalidArgument("numeric domain: grid_step must be in [1, 2^40] (got " +
                               std::to_string(spec.grid_step) + ")");
      }
      break;
    case LatticeKind::kContinuous:
      if (spec.resolution_bits < 1 || spec.resolution_bits > 52) {
        return InvalidArgument("numeric domain: resolution_bits must be in [1, 52] (got " +
                               std::to_string(spec.resolution_bits) + ")");
      }
      if (spec.min_exponent < -300 || spec.min_exponent > 300) {
        return InvalidArgument("numeric domain: min_exponent must be in [-300, 300] (got " +
                               std::to_string(spec.min_exponent) + ")");
      }
      break;
  }
  return OkStatus();
}

}  // namespace

Uint128 UniformBelow128(Rng& rng, Uint128 n) {
  assert(n >= 1 && "UniformBelow128: empty range");
  constexpr Uint128 kWord = static_cast<Uint128>(1) << 64;
  if (n < kWord) return UniformBelow(rng, static_cast<std::uint64_t>(n));
  if (n == kWord) return rng();
  int bits = 0;
  for (Uint128 m = n - 1; m > 0; m >>= 1) ++bits;
  const Uint128 mask = bits == 128 ? ~static_cast<Uint128>(0) : (static_cast<Uint128>(1) << bits) - 1;
  for (;;) {  // accepts with probability > 1/2
    const Uint128 high = rng();
    const Uint128 v = ((high << 64) | rng()) & mask;
    if (v < n) return v;
  }
}

Result<NumericDecomposition> NumericDecomposition::Create(const NumericDomainSpec& spec) {
  if (Status s = CheckSpec(spec); !s) return s.error();
  NumericDecomposition d;
  d.spec_ = spec;
  const double extreme = spec.lo ? std::max(std::fabs(*spec.lo), std::fabs(*spec.hi))
                                 : spec.coarse_limit;
  const int r = spec.resolution_bits;
  switch (spec.lattice) {
    case LatticeKind::kDecimal:
      for (int i = 0; i < spec.decimals; ++i) d.scale_ *= 10;  // exact up to 10^22
      d.step_ = 1 / d.scale_;
      if (extreme * d.scale_ > kMaxCoordinate) {
        return InvalidArgument("numeric domain: " + FormatDouble(extreme) + " with " +
                               std::to_string(spec.decimals) + " decimals is out of range");
      }
      break;
    case LatticeKind::kFloorGrid:
      d.step_ = static_cast<double>(spec.grid_step);
      if (extreme > 0x1p62) {
        return InvalidArgument("numeric domain: bounds beyond 2^62 on a grid (got " +
                               FormatDouble(extreme) + ")");
      }
      break;
    case LatticeKind::kContinuous: {
      if (spec.lo) {
        const double width = *spec.hi - *spec.lo;
        const double reference = width > 0 ? width : std::max(std::fabs(*spec.lo), 1.0);
        d.exponent_ = std::ilogb(reference) - r;
      } else {
        d.exponent_ = spec.min_exponent - r;
      }
      d.step_ = std::ldexp(1.0, d.exponent_);
      if (std::ldexp(extreme, -d.exponent_) > kMaxCoordinate) {
        return InvalidArgument("numeric domain: the range " + FormatDouble(extreme) +
                               " is too wide for resolution_bits " + std::to_string(r) +
                               " and min_exponent " + std::to_string(spec.min_exponent));
      }
      break;
    }
  }
  if (spec.lo) {
    d.min_value_ = kInt128Min;  // no clamping while mapping the bounds
    d.max_value_ = kInt128Max;
    d.min_value_ = d.ToValue(*spec.lo);
    d.max_value_ = d.ToValue(*spec.hi);
    d.root_ = Node{d.min_value_, d.max_value_ - d.min_value_ + 1, 1, false};
    return d;
  }
  if (spec.lattice != LatticeKind::kContinuous) {
    // Buckets −[2^j, 2^(j+1)), {0}, [2^j, 2^(j+1)) of coordinates, j < J, |m| <= 2^J − 1.
    d.min_value_ = kInt128Min;
    d.max_value_ = kInt128Max;
    const int j_count = BitWidth(d.ToValue(spec.coarse_limit));
    for (int j = j_count - 1; j >= 0; --j) d.buckets_.push_back({1 - Pow2(j + 1), Pow2(j), 1});
    d.buckets_.push_back({0, 1, 1});
    for (int j = 0; j < j_count; ++j) d.buckets_.push_back({Pow2(j), Pow2(j), 1});
    d.max_value_ = Pow2(j_count) - 1;
    d.min_value_ = -d.max_value_;
  } else {
    // Zero bucket [−2^r, 2^r) (|x| < 2^min_exponent, one leaf); bucket j holds 2^(r+j)
    // coordinates and stops at width 2^j: 2^-r of its magnitude.
    const int ceil_log2 = std::ilogb(spec.coarse_limit) +
                          (std::ldexp(1.0, std::ilogb(spec.coarse_limit)) < spec.coarse_limit);
    const int j_count = std::max(0, ceil_log2 - spec.min_exponent);
    for (int j = j_count - 1; j >= 0; --j) {
      d.buckets_.push_back({-Pow2(r + j + 1), Pow2(r + j), Pow2(j)});
    }
    d.buckets_.push_back({-Pow2(r), Pow2(r + 1), Pow2(r + 1)});
    for (int j = 0; j < j_count; ++j) d.buckets_.push_back({Pow2(r + j), Pow2(r + j), Pow2(j)});
    d.max_value_ = Pow2(r + j_count) - 1;
    d.min_value_ = -Pow2(r + j_count);
  }
  d.root_ = Node{d.min_value_, d.max_value_ - d.min_value_ + 1, 1, true};
  return d;
}

NumericDecomposition::Value NumericDecomposition::ToValue(double x) const {
  assert(!std::isnan(x) && "NumericDecomposition::ToValue: NaN");
  if (std::isnan(x)) return 0;
  double c = 0;
  switch (spec_.lattice) {
    case LatticeKind::kDecimal: c = std::nearbyint(x * scale_); break;
    case LatticeKind::kFloorGrid: {
      if (std::fabs(x) < 0x1p62) {
        const auto a = static_cast<std::int64_t>(std::floor(x));
        std::int64_t q = a / spec_.grid_step;
        if (a % spec_.grid_step != 0 && a < 0) --q;
        return std::clamp(static_cast<Int128>(q), min_value_, max_value_);
      }
      c = x;  // beyond any valid root: clamped below
      break;
    }
    case LatticeKind::kContinuous: c = std::floor(std::ldexp(x, -exponent_)); break;
  }
  if (!(std::fabs(c) < 0x1p120)) return c < 0 ? min_value_ : max_value_;
  return std::clamp(static_cast<Int128>(c), min_value_, max_value_);
}

Result<std::vector<NumericDecomposition::Value>> NumericDecomposition::ToValues(
    std::span<const double> xs) const {
  return internal::MapFinite<Value>(xs, "value", [this](double x) { return ToValue(x); });
}

double NumericDecomposition::FromValue(Value m) const {
  const auto x = static_cast<double>(m);
  switch (spec_.lattice) {
    case LatticeKind::kDecimal: return x / scale_;
    case LatticeKind::kFloorGrid: return x * step_;
    case LatticeKind::kContinuous: return std::ldexp(x, exponent_);
  }
  return x;
}

double NumericDecomposition::DrawReal(const Node& node, Rng& rng) const {
  const Value m = Draw(node, rng);
  if (!continuous()) return FromValue(m);
  return std::ldexp(static_cast<double>(m) + UniformUnit(rng), exponent_);
}

std::uint32_t NumericDecomposition::Branching(const Node& node) const {
  if (node.buckets) return static_cast<std::uint32_t>(buckets_.size());
  return node.width > node.min_width ? 2u : 0u;
}

NumericDecomposition::Node NumericDecomposition::Child(const Node& node, std::uint32_t i) const {
  if (node.buckets) return buckets_[i];
  const Int128 half = node.width / 2;
  if (i == 0) return Node{node.lo, half, node.min_width, false};
  return Node{node.lo + half, node.width - half, node.min_width, false};
}

std::uint32_t NumericDecomposition::ChildOf(const Node& node, const Value& value) const {
  if (node.buckets) {
    const auto it = std::upper_bound(buckets_.begin(), buckets_.end(), value,
                                     [](const Value& v, const Node& b) { return v < b.lo; });
    return static_cast<std::uint32_t>(it - buckets_.begin()) - 1;
  }
  return value < node.lo + node.width / 2 ? 0u : 1u;
}

bool NumericDecomposition::Contains(const Node& node, const Value& value) const {
  return value >= node.lo && value - node.lo < node.width;
}

NumericDecomposition::Value NumericDecomposition::Draw(const Node& node, Rng& rng) const {
  return node.lo + static_cast<Int128>(UniformBelow128(rng, static_cast<Uint128>(node.width)));
}

std::string NumericDecomposition::Label(const Node& node) const {
  if (continuous()) {
    return "[" + FormatDouble(FromValue(node.lo)) + ", " +
           FormatDouble(FromValue(node.lo + node.width)) + ")";
  }
  return "[" + FormatDouble(FromValue(node.lo)) + ", " +
         FormatDouble(FromValue(node.lo + node.width - 1)) + "]";
}

}  // namespace deniable
