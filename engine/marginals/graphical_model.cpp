// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/graphical_model.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/core/parallel.h"

namespace deniable {

GraphicalModel::GraphicalModel(JunctionTree tree, double total)
    : tree_(std::move(tree)), total_(total) {
  for (const Clique& c : tree_.cliques()) {
    potentials_.push_back(Factor::Filled(c, tree_.sizes(), 0.0));
  }
  const std::size_t m = tree_.cliques().size();
  up_map_.assign(m, {});
  down_map_.assign(m, {});
  separator_cells_.assign(m, 1);
  for (std::size_t c = 0; c < m; ++c) {
    const int p = tree_.parent(static_cast<int>(c));
    if (p < 0) continue;
    const Clique& separator = tree_.parent_separator(static_cast<int>(c));
    up_map_[c] = CellMap(potentials_[c], separator);
    down_map_[c] = CellMap(potentials_[static_cast<std::size_t>(p)], separator);
    separator_cells_[c] = CellCount(separator, tree_.sizes());
  }
  marginals_ = potentials_;
  Calibrate();
}

void GraphicalModel::Calibrate() {
  // Sum-product in linear space on ψ_c = exp(θ_c − max θ_c) (one exp per cell instead of one
  // per cell and message in log space); messages are normalised to sum 1, so nothing overflows,
  // and a cell whose θ is more than ~745 below its clique's maximum has probability 0 (it would
  // be below e^-745 relative in log space too).
  const std::vector<int>& order = tree_.order();
  const std::size_t m = tree_.cliques().size();
  std::vector<Factor>& belief = marginals_;  // partial, then belief, then marginal
  ForEachClique([&](std::size_t c) {
    const std::vector<double>& theta = potentials_[c].values;
    std::vector<double>& b = belief[c].values;
    b.resize(theta.size());
    double top = -std::numeric_limits<double>::infinity();
    for (double v : theta) top = std::max(top, v);
    if (!std::isfinite(top)) top = 0;
    for (std::size_t i = 0; i < theta.size(); ++i) b[i] = std::exp(theta[i] - top);
  });
  std::vector<std::vector<double>> upward(m);
  for (std::size_t k = order.size(); k-- > 1;) {  // collect: leaves first
    const auto c = static_cast<std::size_t>(order[k]);
    const auto p = static_cast<std::size_t>(tree_.parent(order[k]));
    std::vector<double>& up = upward[c];
    up.assign(separator_cells_[c], 0.0);
    const std::vector<double>& source = belief[c].values;
    const std::vector<std::uint32_t>& map = up_map_[c];
    for (std::size_t i = 0; i < source.size(); ++i) up[map[i]] += source[i];
    double sum = 0;
    for (double v : up) sum += v;
    if (sum > 0) {
      for (double& v : up) v /= sum;
    }
    std::vector<double>& target = belief[p].values;
    const std::vector<std::uint32_t>& down = down_map_[c];
    for (std::size_t i = 0; i < target.size(); ++i) target[i] *= up[down[i]];
  }
  // distribute: the parent's message to c is its belief summed onto the separator divided by
  // c's own upward message (0 where that is 0: the belief is 0 there too).
  std::vector<double> from_parent;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const auto c = static_cast<std::size_t>(order[k]);
    const auto p = static_cast<std::size_t>(tree_.parent(order[k]));
    from_parent.assign(separator_cells_[c], 0.0);
    const std::vector<double>& source = belief[p].values;
    const std::vector<std::uint32_t>& down = down_map_[c];
    for (std::size_t i = 0; i < source.size(); ++i) from_parent[down[i]] += source[i];
    double sum = 0;
    for (std::size_t i = 0; i < from_parent.size(); ++i) {
      from_parent[i] = upward[c][i] > 0 ? from_parent[i] / upward[c][i] : 0.0;
      sum += from_parent[i];
    }
    if (sum > 0) {
      for (double& v : from_parent) v /= sum;
    }
    std::vector<double>& target = belief[c].values;
    const std::vector<std::uint32_t>& map = up_map_[c];
    for (std::size_t i = 0; i < target.size(); ++i) target[i] *= from_parent[map[i]];
  }
  ForEachClique([&](std::size_t c) {
    std::vector<double>& b = belief[c].values;
    double z = 0;
    for (double v : b) z += v;
    const double scale = z > 0 ? total_ / z : 0.0;
    for (double& v : b) v *= scale;
  });
}

void GraphicalModel::ForEachClique(const std::function<void(std::size_t clique)>& body) const {
  const std::size_t m = tree_.cliques().size();
  if (threads_ != 1 && m > 1 && tree_.TotalCells() >= kParallelCells) {
    // The bodies touch only their clique's preallocated slots and do not throw; were a worker
    // to fail anyway, every clique is redone on this thread (each body is idempotent).
    if (ParallelFor(m, threads_, "belief propagation",
                    [&](std::size_t c, std::size_t) { body(c); })) {
      return;
    }
  }
  for (std::size_t c = 0; c < m; ++c) body(c);
}

Factor GraphicalModel::Marginal(const Clique& attributes) const {
  const int home = tree_.Containing(attributes);
  if (home >= 0) return SumOnto(marginals_[static_cast<std::size_t>(home)], attributes);
  // The smallest subtree covering the attributes: the union of paths to the root from one
  // clique per attribute, with its top trimmed down to the first branching or chosen clique.
  const std::size_t m = tree_.cliques().size();
  std::vector<char> chosen(m, 0);
  std::vector<char> in(m, 0);
  for (int a : attributes) {
    const int c = tree_.Containing(Clique{a});
    assert(c >= 0 && "every attribute is in some clique");
    chosen[static_cast<std::size_t>(c)] = 1;
    for (int x = c; x >= 0 && !in[static_cast<std::size_t>(x)]; x = tree_.parent(x)) {
      in[static_cast<std::size_t>(x)] = 1;
    }
  }
  std::vector<std::vector<int>> children(m);
  for (int c : tree_.order()) {
    const int p = tree_.parent(c);
    if (p >= 0 && in[static_cast<std::size_t>(c)])
      children[static_cast<std::size_t>(p)].push_back(c);
  }
  int top = tree_.order().front();
  while (!chosen[static_cast<std::size_t>(top)] &&
         children[static_cast<std::size_t>(top)].size() == 1) {
    top = children[static_cast<std::size_t>(top)].front();
  }
  // The subtree's factors: P(C_top)/total and P(C | S) for the others (P = Π P(C) / Π P(S)).
  std::vector<Factor> factors;
  std::vector<int> stack{top};
  while (!stack.empty()) {
    const int c = stack.back();
    stack.pop_back();
    const auto ci = static_cast<std::size_t>(c);
    Factor f = marginals_[ci];
    if (c == top) {
      for (double& v : f.values) v /= total_;
    } else {
      Factor inverse = SumOnto(marginals_[ci], tree_.parent_separator(c));
      for (double& v : inverse.values) v = v > 0 ? 1.0 / v : 0.0;
      MultiplyBroadcast(f, inverse);
    }
    factors.push_back(std::move(f));
    for (int d : children[ci]) stack.push_back(d);
  }
  // Variable elimination, greedily the variable whose factors' product is smallest.
  Clique others;
  for (const Factor& f : factors) others = Union(others, Difference(f.attributes, attributes));
  while (!others.empty()) {
    int best = -1;
    std::size_t best_cells = 0;
    for (int v : others) {
      Clique scope;
      for (const Factor& f : factors) {
        if (std::binary_search(f.attributes.begin(), f.attributes.end(), v)) {
          scope = Union(scope, f.attributes);
        }
      }
      const std::size_t cells = CellCount(scope, tree_.sizes());
      if (best < 0 || cells < best_cells) {
        best = v;
        best_cells = cells;
      }
    }
    Clique scope;
    std::vector<Factor> keep, join;
    for (Factor& f : factors) {
      if (std::binary_search(f.attributes.begin(), f.attributes.end(), best)) {
        scope = Union(scope, f.attributes);
        join.push_back(std::move(f));
      } else {
        keep.push_back(std::move(f));
      }
    }
    Factor product =
        join.size() == 1 ? std::move(join.front()) : Factor::Filled(scope, tree_.sizes(), 1.0);
    if (join.size() > 1) {
      for (const Factor& f : join) MultiplyBroadcast(product, f);
    }
    keep.push_back(SumOnto(product, Difference(scope, Clique{best})));
    factors = std::move(keep);
    others = Difference(others, Clique{best});
  }
  Factor out = Factor::Filled(attributes, tree_.sizes(), total_);
  for (const Factor& f : factors) MultiplyBroadcast(out, f);
  return out;
}

}  // namespace deniable
