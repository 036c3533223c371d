// SPDX-License-Identifier: Apache-2.0
// Dense factors over small sets of attributes: the clique algebra of the marginals mode
// (junction tree, belief propagation, Private-PGM estimation, sampling). A factor holds one
// double per cell of the product of its attributes' domains, row-major with the LAST attribute
// varying fastest (the layout of private-pgm's Factor and of numpy's ravel).
//
// Values are log-potentials (belief propagation works in log space, as private-pgm does) or
// plain counts (marginals); the functions say which. Not thread-safe per object; distinct
// factors may be used from distinct threads.
//
// Do NOT use it for factors whose cell count does not fit comfortably in memory: callers cap
// model size (JunctionTree::CellCount, AIM's size filter).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace deniable {

// A set of attributes, as indices into the table's columns, sorted ascending, no duplicates.
using Clique = std::vector<int>;

// The cells of `clique` under `sizes` (sizes[attribute] = domain size). Saturates at 2^62.
std::size_t CellCount(const Clique& clique, const std::vector<std::uint32_t>& sizes);
// a ∪ b, a ∩ b, a \ b, a ⊆ b (all sorted).
Clique Union(const Clique& a, const Clique& b);
Clique Intersection(const Clique& a, const Clique& b);
Clique Difference(const Clique& a, const Clique& b);
bool IsSubset(const Clique& a, const Clique& b);

struct Factor {
  Clique attributes;                 // sorted
  std::vector<std::uint32_t> shape;  // domain size of each attribute, same order
  std::vector<double> values;        // CellCount cells, last attribute fastest

  // A factor over `attributes` with every cell equal to `value`.
  static Factor Filled(const Clique& attributes, const std::vector<std::uint32_t>& sizes,
                       double value);
  std::size_t size() const { return values.size(); }
  double Sum() const;
};

// out.values[i] += in.values[j(i)] where j(i) is i's cell restricted to in's attributes
// (in.attributes ⊆ out.attributes, asserted): a product of potentials in log space.
void AddBroadcast(Factor& out, const Factor& in, double scale = 1.0);
// out.values[i] *= in.values[j(i)] (linear space).
void MultiplyBroadcast(Factor& out, const Factor& in);
// Σ over the attributes of f not in `onto` (onto ⊆ f.attributes): a marginal of counts.
Factor SumOnto(const Factor& f, const Clique& onto);
// log Σ exp over the attributes not in `onto`, stabilised by the factor's maximum (as
// private-pgm's Factor.logsumexp). -inf cells stay -inf.
Factor LogSumExpOnto(const Factor& f, const Clique& onto);
// For every cell i of `full`, the index of its restriction to `sub` (⊆ full.attributes) in a
// factor over `sub`: the precomputed form of the broadcasts above, for hot loops
// (belief propagation and the estimation's loss reuse one map per clique pair).
std::vector<std::uint32_t> CellMap(const Factor& full, const Clique& sub);
// The index of a cell given one code per attribute of the factor (row-major).
std::size_t CellIndex(const Factor& f, const std::vector<std::uint32_t>& codes);

}  // namespace deniable
