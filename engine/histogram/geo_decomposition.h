// SPDX-License-Identifier: Apache-2.0
// A quadtree over latitude/longitude pairs (the paper's spatial decomposition, §2, §5.1).
// Coordinates are put on a public lattice: i = round((lat − lat_lo)/resolution) in [0, Ni),
// j = round((lon − lon_lo)/resolution) in [0, Nj) (values outside the public box are clamped
// into it). The quadtree lives on the 2^K × 2^K square of lattice points (K the smallest with
// 2^K >= max(Ni, Nj)); a node at level L is an aligned square of side 2^(K−L) clipped to the
// lattice rectangle, and its children are the quadrants that meet the rectangle (1 to 4 of
// them; a node of one lattice point is a leaf).
//  * Value: the Morton (Z-order) key of (i, j): bits of i and j interleaved, i's bit first in
//    each pair. Every quadtree node is a contiguous range of keys, and its quadrants come in
//    key order (q = 2·i_bit + j_bit), so numeric order of keys is the total order.
//  * Draw: a uniform lattice point of the clipped square.
// Proof note: histogram/decompositions.md §3.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

struct GeoPoint {
  double lat = 0;
  double lon = 0;
};

struct GeoBox {
  double lat_lo = -90, lat_hi = 90, lon_lo = -180, lon_hi = 180;
};

class GeoDecomposition {
 public:
  using Value = std::uint64_t;  // Morton key
  struct Node {
    std::uint64_t key = 0;   // Morton key of the square's first corner (low bits zero)
    std::uint32_t level = 0; // 0 = root; side 2^(K − level)
  };

  // resolution in degrees (> 0, e.g. 1e-5 or 10^-decimals of the columns); the box public.
  // At most 2^32 lattice points per axis.
  static Result<GeoDecomposition> Create(double resolution, const GeoBox& box = {});

  Value ToValue(const GeoPoint& point) const;  // finite input (NaN asserted)
  Result<std::vector<Value>> ToValues(std::span<const GeoPoint> points) const;
  GeoPoint FromValue(Value key) const;  // the lattice point
  double resolution() const { return resolution_; }
  const GeoBox& box() const { return box_; }
  std::uint32_t levels() const { return levels_; }  // K
  // The lattice extent of a node (clipped): first and last lattice coordinates in degrees.
  GeoPoint First(const Node& node) const;
  GeoPoint Last(const Node& node) const;
  double Points(const Node& node) const;  // lattice points in the node

  Node Root() const { return Node{0, 0}; }
  std::uint32_t Branching(const Node& node) const;
  Node Child(const Node& node, std::uint32_t i) const;
  std::uint32_t ChildOf(const Node& node, const Value& value) const;
  bool Contains(const Node& node, const Value& value) const;
  bool Less(const Value& a, const Value& b) const { return a < b; }
  Value Draw(const Node& node, Rng& rng) const;
  std::string Label(const Node& node) const;
  double ThresholdBranching() const { return 4; }

  // Morton interleaving (exposed for tests).
  static std::uint64_t Interleave(std::uint32_t i, std::uint32_t j);
  static void Deinterleave(std::uint64_t key, std::uint32_t& i, std::uint32_t& j);

 private:
  GeoDecomposition() = default;
  // Bit mask of the quadrants (q = 2·i_bit + j_bit) of `node` that meet the lattice rectangle.
  std::uint32_t ValidQuadrants(const Node& node) const;
  double resolution_ = 1e-5;
  GeoBox box_;
  std::uint64_t ni_ = 1, nj_ = 1;  // lattice points per axis
  std::uint32_t levels_ = 0;       // K
};

}  // namespace deniable
