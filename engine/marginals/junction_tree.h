// SPDX-License-Identifier: Apache-2.0
// The junction tree of a set of cliques: the graph with an edge between any two attributes that
// share a clique, triangulated by greedy min-fill elimination (ties: the smaller new clique),
// its maximal cliques, and a maximum-weight spanning tree over them (weight = the number of
// shared attributes; for the maximal cliques of a chordal graph that tree has the running
// intersection property: Koller & Friedman, Probabilistic Graphical Models, Thm. 10.4).
// Components are joined by empty separators, so there is always one tree.
//
// What private-pgm's JunctionTree (mbi/junction_tree.py) does with networkx, on small dense
// sets. Every attribute of `sizes` is in some clique (uncovered ones get singletons).
//
// Example:
//   auto tree = JunctionTree::Build({{0, 1}, {1, 2}, {0, 2}}, {2, 3, 4});  // one clique {0,1,2}
//   int home = tree.Containing({1, 2});                                   // 0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/marginals/factor.h"

namespace deniable {

class JunctionTree {
 public:
  struct Edge {
    int a = 0;
    int b = 0;
    Clique separator;
  };

  static JunctionTree Build(const std::vector<Clique>& cliques,
                            const std::vector<std::uint32_t>& sizes);

  const std::vector<Clique>& cliques() const { return cliques_; }
  const std::vector<Edge>& edges() const { return edges_; }
  const std::vector<std::uint32_t>& sizes() const { return sizes_; }
  // The attributes in the order min-fill eliminated them.
  const std::vector<int>& elimination_order() const { return elimination_; }
  // Cliques in breadth-first order from clique 0; parent(order()[0]) == -1.
  const std::vector<int>& order() const { return order_; }
  int parent(int clique) const { return parent_[static_cast<std::size_t>(clique)]; }
  // The separator between `clique` and its parent (empty for the root).
  const Clique& parent_separator(int clique) const {
    return parent_separator_[static_cast<std::size_t>(clique)];
  }
  // The smallest clique containing `c`, or -1.
  int Containing(const Clique& c) const;
  // Σ cells of the maximal cliques: the model size (private-pgm GraphicalModel.size).
  std::size_t TotalCells() const;

 private:
  std::vector<std::uint32_t> sizes_;
  std::vector<Clique> cliques_;
  std::vector<Edge> edges_;
  std::vector<int> elimination_;
  std::vector<int> order_;
  std::vector<int> parent_;
  std::vector<Clique> parent_separator_;
};

// Model size in cells of the junction tree of `cliques` (AIM's hypothetical_model_size, in
// cells rather than megabytes: MB = cells · 8 / 2^20): Build's cliques, without its spanning
// tree. AIM's size filter calls it for every candidate in every round, so the triangulation
// keeps its adjacency as bitsets (test BitsetTriangulationMatchesThePlainOne: the same order
// and cliques as the plain O(n⁴) form; 5,000 × 30 table at ε = 3: 43.8 → 21.4 s, one thread).
std::size_t HypotheticalModelCells(const std::vector<Clique>& cliques,
                                   const std::vector<std::uint32_t>& sizes);

}  // namespace deniable
