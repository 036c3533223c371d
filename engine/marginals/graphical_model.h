// SPDX-License-Identifier: Apache-2.0
// A discrete graphical model on a junction tree: log-potentials per maximal clique, exact
// sum-product belief propagation (two passes over the tree, on exp(θ − max θ) with normalised
// messages), and the calibrated
// clique marginals scaled to the model's total (counts, as private-pgm's CliqueVector of
// marginals). Any marginal, inside a clique or across cliques, can then be queried exactly.
//
// This is the model Private-PGM fits (estimation.h) and the sampler draws from (sampling.h).
// Potentials are over the junction tree's maximal cliques (private-pgm's GraphicalModel keeps
// them there too). Do not use it for models whose cliques do not fit in memory: check
// JunctionTree::TotalCells first (AIM's size filter does).
//
// Example:
//   GraphicalModel model(JunctionTree::Build({{0, 1}, {1, 2}}, {2, 3, 4}), /*total=*/1000);
//   model.potentials()[0].values[5] = 1.0;    // log-potential of one cell
//   model.Calibrate();
//   Factor joint02 = model.Marginal({0, 2});  // counts, summing to 1000
#pragma once

#include <functional>
#include <vector>

#include "engine/marginals/factor.h"
#include "engine/marginals/junction_tree.h"

namespace deniable {

// Models with at least this many cells run their per-clique loops on several threads
// (GraphicalModel::set_threads): measured on the raw adult.csv's ~280k-cell models.
inline constexpr std::size_t kParallelCells = std::size_t{1} << 15;

class GraphicalModel {
 public:
  GraphicalModel() = default;
  // Zero log-potentials (the uniform distribution), calibrated.
  GraphicalModel(JunctionTree tree, double total);

  const JunctionTree& tree() const { return tree_; }
  double total() const { return total_; }
  void set_total(double total) { total_ = total; }
  std::vector<Factor>& potentials() { return potentials_; }
  const std::vector<Factor>& potentials() const { return potentials_; }

  // Sum-product belief propagation from the current potentials (Koller & Friedman Alg. 10.2,
  // in log space, normalised by the root's log-partition): fills marginals().
  void Calibrate();
  // Workers for the per-clique loops of Calibrate (the exp of every cell, the normalisation)
  // and of the estimation's loss (1 = the calling thread only; 0 = all cores). The result does
  // not depend on it: each clique's work writes its own slots. Models under kParallelCells
  // cells stay on one thread (a thread start costs more than their loops).
  void set_threads(std::size_t threads) { threads_ = threads; }
  std::size_t threads() const { return threads_; }
  // Runs body(c) for every clique c, on threads() workers when the model is large enough.
  void ForEachClique(const std::function<void(std::size_t clique)>& body) const;
  // Per maximal clique of tree(), counts summing to total() (after Calibrate()).
  const std::vector<Factor>& marginals() const { return marginals_; }

  // The marginal of `attributes` (sorted), as counts summing to total(): a sum of one clique's
  // marginal when a clique contains them, otherwise variable elimination over the smallest
  // subtree that covers them, with the factorisation P = Π P(C) / Π P(S) of a calibrated tree.
  Factor Marginal(const Clique& attributes) const;

 private:
  JunctionTree tree_;
  double total_ = 1;
  std::size_t threads_ = 1;
  std::vector<Factor> potentials_;
  std::vector<Factor> marginals_;
  // Per clique c (not the root): c's cells -> its parent separator's cells, and the parent's
  // cells -> the same separator's cells; and the separator's cell count.
  std::vector<std::vector<std::uint32_t>> up_map_;
  std::vector<std::vector<std::uint32_t>> down_map_;
  std::vector<std::size_t> separator_cells_;
};

}  // namespace deniable
