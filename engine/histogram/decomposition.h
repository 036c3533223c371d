// SPDX-License-Identifier: Apache-2.0
// A hierarchical decomposition: the fixed, data-independent taxonomy of a domain over which the
// private adaptive histograms run ("Synthetic Data via Differential Privacy", §2: a record is a
// sequence over K that says which part it falls in at each refinement step).
//
// A type D models `Decomposition` when it offers:
//   D::Value, D::Node                      a domain value (copyable, ==; internal::HashValue
//                                          must accept it) and a region of the domain (a node);
//   Node Root()                            the whole (public) domain;
//   uint32 Branching(node)                 the number of children; 0 = an indivisible leaf;
//   Node Child(node, i)                    child i, 0 <= i < Branching(node); the children
//                                          partition their parent exactly;
//   uint32 ChildOf(node, value)            the child holding `value` (value in node);
//   bool Contains(node, value);
//   bool Less(a, b)                        a strict total order on values in which every node's
//                                          values are contiguous and a node's children come in
//                                          index order (so one sort makes every node a range
//                                          and its children are found by binary search);
//   Value Draw(node, rng)                  a value of the region (uniform where the region is
//                                          finite; each decomposition documents its rule);
//                                          post-processing, never reads data;
//   std::string Label(node)                human-readable, for reports and tests;
//   double ThresholdBranching()            the largest branching factor below the root (2
//                                          binary, 4 quadtree, 180 trie): the default
//                                          threshold rule b = c·ln(k)/ε uses it
//                                          (adaptive_histogram.md §4).
// Every one of these must depend only on public facts (bounds, resolution, maximum length),
// never on the data: the privacy proofs treat the taxonomy as fixed in advance.
//
// Implementations: numeric_decomposition.h (numbers on a lattice), calendar_decomposition.h
// (date-times), geo_decomposition.h (latitude/longitude quadtree), string_trie.h (UTF-8
// strings). Proof note on their exactness: decompositions.md.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/validation.h"

namespace deniable {

template <typename D>
concept Decomposition =
    std::copyable<typename D::Value> && std::equality_comparable<typename D::Value> &&
    std::copyable<typename D::Node> &&
    requires(const D& d, const typename D::Node& node, const typename D::Value& value,
             std::uint32_t i, Rng& rng) {
      { d.Root() } -> std::same_as<typename D::Node>;
      { d.Branching(node) } -> std::same_as<std::uint32_t>;
      { d.Child(node, i) } -> std::same_as<typename D::Node>;
      { d.ChildOf(node, value) } -> std::same_as<std::uint32_t>;
      { d.Contains(node, value) } -> std::same_as<bool>;
      { d.Less(value, value) } -> std::same_as<bool>;
      { d.Draw(node, rng) } -> std::same_as<typename D::Value>;
      { d.Label(node) } -> std::same_as<std::string>;
      { d.ThresholdBranching() } -> std::same_as<double>;
    };

namespace internal {
// Maps every x with to_value(x); a non-finite x is kInvalidArgument naming `what` and its index
// (missing values must be filtered by the caller).
template <typename Value, typename ToValue>
Result<std::vector<Value>> MapFinite(std::span<const double> xs, const char* what,
                                     ToValue to_value) {
  std::vector<Value> out;
  out.reserve(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (!std::isfinite(xs[i])) {
      return InvalidArgument(std::string(what) + " " + std::to_string(i) + " is " +
                             FormatDouble(xs[i]) +
                             ": filter missing values before building a histogram");
    }
    out.push_back(to_value(xs[i]));
  }
  return out;
}
}  // namespace internal

}  // namespace deniable
