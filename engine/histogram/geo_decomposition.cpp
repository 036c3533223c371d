// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/geo_decomposition.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>

#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::FormatDouble;

// Spreads the 32 bits of x to the even bit positions of a 64-bit word.
std::uint64_t Spread(std::uint32_t x) {
  std::uint64_t v = x;
  v = (v | (v << 16)) & 0x0000FFFF0000FFFFULL;
  v = (v | (v << 8)) & 0x00FF00FF00FF00FFULL;
  v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FULL;
  v = (v | (v << 2)) & 0x3333333333333333ULL;
  v = (v | (v << 1)) & 0x5555555555555555ULL;
  return v;
}

std::uint32_t Compact(std::uint64_t v) {
  v &= 0x5555555555555555ULL;
  v = (v | (v >> 1)) & 0x3333333333333333ULL;
  v = (v | (v >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
  v = (v | (v >> 4)) & 0x00FF00FF00FF00FFULL;
  v = (v | (v >> 8)) & 0x0000FFFF0000FFFFULL;
  v = (v | (v >> 16)) & 0x00000000FFFFFFFFULL;
  return static_cast<std::uint32_t>(v);
}

// Lattice points along one axis of [lo, hi] at `resolution`.
Result<std::uint64_t> AxisPoints(double lo, double hi, double resolution, const char* name) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo <= hi)) {
    return InvalidArgument(std::string("geo box: ") + name + " bounds must be finite with lo <= hi"
                           " (got [" + FormatDouble(lo) + ", " + FormatDouble(hi) + "])");
  }
  const double points = std::round((hi - lo) / resolution) + 1;
  if (!(points <= 0x1p32)) {
    return InvalidArgument(std::string("geo box: ") + name + " range / resolution exceeds 2^32 "
                           "lattice points (resolution " + FormatDouble(resolution) + ")");
  }
  return static_cast<std::uint64_t>(points);
}

std::uint64_t LatticeIndex(double x, double lo, double resolution, std::uint64_t points) {
  const double index = std::round((x - lo) / resolution);
  if (!(index > 0)) return 0;  // also NaN in release builds
  if (index >= static_cast<double>(points - 1)) return points - 1;
  return static_cast<std::uint64_t>(index);
}

}  // namespace

std::uint64_t GeoDecomposition::Interleave(std::uint32_t i, std::uint32_t j) {
  return (Spread(i) << 1) | Spread(j);
}

void GeoDecomposition::Deinterleave(std::uint64_t key, std::uint32_t& i, std::uint32_t& j) {
  i = Compact(key >> 1);
  j = Compact(key);
}

Result<GeoDecomposition> GeoDecomposition::Create(double resolution, const GeoBox& box) {
  if (Status s = internal::CheckPositiveFinite(resolution, "geo resolution"); !s) {
    return s.error();
  }
  auto ni = AxisPoints(box.lat_lo, box.lat_hi, resolution, "latitude");
  if (!ni) return ni.error();
  auto nj = AxisPoints(box.lon_lo, box.lon_hi, resolution, "longitude");
  if (!nj) return nj.error();
  GeoDecomposition d;
  d.resolution_ = resolution;
  d.box_ = box;
  d.ni_ = *ni;
  d.nj_ = *nj;
  d.levels_ = static_cast<std::uint32_t>(std::bit_width(std::max(d.ni_, d.nj_) - 1));
  return d;
}

GeoDecomposition::Value GeoDecomposition::ToValue(const GeoPoint& point) const {
  assert(!std::isnan(point.lat) && !std::isnan(point.lon) && "GeoDecomposition: NaN");
  const auto i = static_cast<std::uint32_t>(LatticeIndex(point.lat, box_.lat_lo, resolution_, ni_));
  const auto j = static_cast<std::uint32_t>(LatticeIndex(point.lon, box_.lon_lo, resolution_, nj_));
  return Interleave(i, j);
}

Result<std::vector<GeoDecomposition::Value>> GeoDecomposition::ToValues(
    std::span<const GeoPoint> points) const {
  std::vector<Value> out;
  out.reserve(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!std::isfinite(points[k].lat) || !std::isfinite(points[k].lon)) {
      return InvalidArgument("point " + std::to_string(k) + " is not finite (" +
                             FormatDouble(points[k].lat) + ", " + FormatDouble(points[k].lon) +
                             "): filter missing values before building a histogram");
    }
    out.push_back(ToValue(points[k]));
  }
  return out;
}

GeoPoint GeoDecomposition::FromValue(Value key) const {
  std::uint32_t i = 0, j = 0;
  Deinterleave(key, i, j);
  return GeoPoint{box_.lat_lo + i * resolution_, box_.lon_lo + j * resolution_};
}

std::uint32_t GeoDecomposition::ValidQuadrants(const Node& node) const {
  std::uint32_t i0 = 0, j0 = 0;
  Deinterleave(node.key, i0, j0);
  const std::uint64_t half = std::uint64_t{1} << (levels_ - node.level - 1);
  std::uint32_t mask = 0;
  for (std::uint32_t q = 0; q < 4; ++q) {
    const std::uint64_t i = i0 + ((q >> 1) ? half : 0);
    const std::uint64_t j = j0 + ((q & 1) ? half : 0);
    if (i < ni_ && j < nj_) mask |= 1u << q;
  }
  return mask;
}

std::uint32_t GeoDecomposition::Branching(const Node& node) const {
  if (node.level >= levels_) return 0;
  return static_cast<std::uint32_t>(std::popcount(ValidQuadrants(node)));
}

GeoDecomposition::Node GeoDecomposition::Child(const Node& node, std::uint32_t i) const {
  std::uint32_t mask = ValidQuadrants(node);
  for (std::uint32_t skip = 0; skip < i; ++skip) mask &= mask - 1;  // drop the i lowest
  const auto q = static_cast<std::uint64_t>(std::countr_zero(mask));
  const std::uint32_t shift = 2 * (levels_ - node.level - 1);
  return Node{node.key | (q << shift), node.level + 1};
}

std::uint32_t GeoDecomposition::ChildOf(const Node& node, const Value& value) const {
  const std::uint32_t shift = 2 * (levels_ - node.level - 1);
  const auto q = static_cast<std::uint32_t>((value >> shift) & 3);
  return static_cast<std::uint32_t>(std::popcount(ValidQuadrants(node) & ((1u << q) - 1)));
}

bool GeoDecomposition::Contains(const Node& node, const Value& value) const {
  std::uint32_t i = 0, j = 0;
  Deinterleave(value, i, j);
  if (i >= ni_ || j >= nj_) return false;
  const std::uint32_t shift = 2 * (levels_ - node.level);
  return shift >= 64 || (value >> shift) == (node.key >> shift);
}

GeoDecomposition::Value GeoDecomposition::Draw(const Node& node, Rng& rng) const {
  std::uint32_t i0 = 0, j0 = 0;
  Deinterleave(node.key, i0, j0);
  const std::uint64_t side = std::uint64_t{1} << (levels_ - node.level);
  const std::uint64_t di = UniformBelow(rng, std::min(side, ni_ - i0));
  const std::uint64_t dj = UniformBelow(rng, std::min(side, nj_ - j0));
  return Interleave(static_cast<std::uint32_t>(i0 + di), static_cast<std::uint32_t>(j0 + dj));
}

GeoPoint GeoDecomposition::First(const Node& node) const { return FromValue(node.key); }

GeoPoint GeoDecomposition::Last(const Node& node) const {
  std::uint32_t i0 = 0, j0 = 0;
  Deinterleave(node.key, i0, j0);
  const std::uint64_t side = std::uint64_t{1} << (levels_ - node.level);
  const std::uint64_t i = std::min<std::uint64_t>(i0 + side, ni_) - 1;
  const std::uint64_t j = std::min<std::uint64_t>(j0 + side, nj_) - 1;
  return GeoPoint{box_.lat_lo + static_cast<double>(i) * resolution_,
                  box_.lon_lo + static_cast<double>(j) * resolution_};
}

double GeoDecomposition::Points(const Node& node) const {
  std::uint32_t i0 = 0, j0 = 0;
  Deinterleave(node.key, i0, j0);
  const std::uint64_t side = std::uint64_t{1} << (levels_ - node.level);
  return static_cast<double>(std::min(side, ni_ - i0)) *
         static_cast<double>(std::min(side, nj_ - j0));
}

std::string GeoDecomposition::Label(const Node& node) const {
  const GeoPoint first = First(node);
  const GeoPoint last = Last(node);
  return "lat [" + FormatDouble(first.lat) + ", " + FormatDouble(last.lat) + "] x lon [" +
         FormatDouble(first.lon) + ", " + FormatDouble(last.lon) + "]";
}

}  // namespace deniable
