// SPDX-License-Identifier: Apache-2.0
// The decomposition of a numeric domain (Integer, Float, date-times on a grid): values live on a
// lattice of exact integer coordinates m (value = m × step), so no floating-point drift enters
// the splits, and nodes are intervals [lo, lo + width) of coordinates.
//
//  * Lattice (public, from the column's type and format):
//      kDecimal     step 10^-decimals (Integer: decimals = 0); a value is rounded to the nearest
//                   lattice point;
//      kFloorGrid   step = an integer grid_step (date-times: 60 s, 86400 s); values floored;
//      kContinuous  dyadic cells of width 2^e; leaves stop at 2^-resolution_bits of their
//                   magnitude bucket (no bounds) or of the range (bounds).
//  * Root (public):
//      bounds [lo, hi]  binary splits of the coordinates from ⌈lo⌉ to ⌊hi⌋ (midpoint, the left
//                       half gets the smaller half);
//      no bounds        the coarse range |x| < coarse_limit (the project: 9e15) whose first level
//                       is sign × power-of-two magnitude: ..., −[2^j, 2^(j+1)), ..., {0},
//                       [1, 2), [2, 4), ..., [2^j, 2^(j+1)) in coordinates (a wide level, e.g.
//                       107-way for integers), then binary splits inside a bucket.
//    Values outside the root are clamped into it (the root is public, so clamping is a
//    data-independent map). A node of one lattice point (width 1) is an indivisible leaf:
//    "integers stop at width 1", so a spike such as capital-gain = 0 can be its own leaf.
//  * Order: numeric order of coordinates; every node is an interval, children left to right.
//  * Draw: a uniform coordinate of the node (continuous: DrawReal adds a uniform offset inside
//    the cell).
// Proof note: histogram/decompositions.md §1.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/core/int128.h"
#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

enum class LatticeKind { kDecimal, kFloorGrid, kContinuous };

struct NumericDomainSpec {
  LatticeKind lattice = LatticeKind::kDecimal;
  int decimals = 0;              // kDecimal: 0..15
  std::int64_t grid_step = 1;    // kFloorGrid: 1..2^40
  int resolution_bits = 20;      // kContinuous: 1..52
  int min_exponent = -32;        // kContinuous without bounds: |x| < 2^min_exponent is the zero
                                 // bucket (one leaf); -300..300
  std::optional<double> lo = std::nullopt;  // public bounds (both or neither), lo <= hi
  std::optional<double> hi = std::nullopt;
  double coarse_limit = 9.0e15;  // without bounds: the public coarse range |x| < coarse_limit
};

class NumericDecomposition {
 public:
  using Value = Int128;  // lattice coordinate
  struct Node {
    Int128 lo = 0;          // first coordinate
    Int128 width = 0;       // number of coordinates
    Int128 min_width = 1;   // a node this narrow (or narrower) is indivisible
    bool buckets = false;   // the unbounded root, whose children are the magnitude buckets
  };

  static Result<NumericDecomposition> Create(const NumericDomainSpec& spec);

  // The lattice coordinate of a finite x, clamped into the root (±inf clamp to the ends; NaN
  // is a programming error: asserted, 0 in release builds).
  Value ToValue(double x) const;
  // Every value mapped; a non-finite value is kInvalidArgument naming its index.
  Result<std::vector<Value>> ToValues(std::span<const double> xs) const;
  double FromValue(Value m) const;  // m × step (continuous: the left end of cell m)
  double step() const { return step_; }
  bool continuous() const { return spec_.lattice == LatticeKind::kContinuous; }
  const NumericDomainSpec& spec() const { return spec_; }
  // A uniform real in the node's cells (continuous), or FromValue(Draw(node)).
  double DrawReal(const Node& node, Rng& rng) const;

  Node Root() const { return root_; }
  std::uint32_t Branching(const Node& node) const;
  Node Child(const Node& node, std::uint32_t i) const;
  std::uint32_t ChildOf(const Node& node, const Value& value) const;
  bool Contains(const Node& node, const Value& value) const;
  bool Less(const Value& a, const Value& b) const { return a < b; }
  Value Draw(const Node& node, Rng& rng) const;
  std::string Label(const Node& node) const;
  double ThresholdBranching() const { return 2; }

 private:
  NumericDecomposition() = default;
  NumericDomainSpec spec_;
  double step_ = 1;
  double scale_ = 1;      // kDecimal: 10^decimals
  int exponent_ = 0;      // kContinuous: step = 2^exponent
  Int128 min_value_ = 0;  // the root's coordinates
  Int128 max_value_ = 0;
  Node root_;
  std::vector<Node> buckets_;  // unbounded root's children, in order
};

// A uniform integer in [0, n), n >= 1, for 128-bit ranges (rejection sampling on whole words).
Uint128 UniformBelow128(Rng& rng, Uint128 n);

}  // namespace deniable
