// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/graphical_model.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

namespace deniable {

GraphicalModel::GraphicalModel(JunctionTree tree, double total)
    : tree_(std::move(tree)), total_(total) {
  for (const Clique& c : tree_.cliques()) {
    potentials_.push_back(Factor::Filled(c, tree_.sizes(), 0.0));
  }
  Calibrate();
}

void GraphicalModel::Calibrate() {
  const std::vector<int>& order = tree_.order();
  const std::size_t m = tree_.cliques().size();
  // upward[c]: message from c to its parent; partial[c]: θ_c + Σ messages from children.
  std::vector<Factor> partial = potentials_;
  std::vector<Factor> upward(m);
  for (std::size_t k = order.size(); k-- > 1;) {  // collect: leaves first
    const int c = order[k];
    upward[static_cast<std::size_t>(c)] =
        LogSumExpOnto(partial[static_cast<std::size_t>(c)], tree_.parent_separator(c));
    AddBroadcast(partial[static_cast<std::size_t>(tree_.parent(c))],
                 upward[static_cast<std::size_t>(c)]);
  }
  // distribute: belief(c) = partial(c) + message from the parent, where the parent's message
  // to c is its belief minus c's own upward message, summed onto the separator (finite
  // potentials give finite messages, so the subtraction is safe).
  std::vector<Factor>& belief = partial;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const int c = order[k];
    const auto p = static_cast<std::size_t>(tree_.parent(c));
    Factor from_parent = LogSumExpOnto(belief[p], tree_.parent_separator(c));
    const Factor& mine = upward[static_cast<std::size_t>(c)];
    for (std::size_t i = 0; i < from_parent.values.size(); ++i) {
      from_parent.values[i] -= mine.values[i];
    }
    AddBroadcast(belief[static_cast<std::size_t>(c)], from_parent);
  }
  marginals_.assign(m, Factor{});
  for (std::size_t c = 0; c < m; ++c) {
    Factor& b = belief[c];
    double top = -std::numeric_limits<double>::infinity();
    for (double v : b.values) top = std::max(top, v);
    double z = 0;
    for (double& v : b.values) {
      v = std::exp(v - top);
      z += v;
    }
    const double scale = z > 0 ? total_ / z : 0.0;
    for (double& v : b.values) v *= scale;
    marginals_[c] = std::move(b);
  }
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
    if (p >= 0 && in[static_cast<std::size_t>(c)]) children[static_cast<std::size_t>(p)].push_back(c);
  }
  int top = tree_.order().front();
  while (!chosen[static_cast<std::size_t>(top)] && children[static_cast<std::size_t>(top)].size() == 1) {
    top = children[static_cast<std::size_t>(top)].front();
  }
  // message(c): Σ over C_c's attributes outside (query ∪ separator to the parent) of
  // P(C_c | S_c) · Π messages of the children (for the root: P(C_root) / total).
  std::function<Factor(int)> message = [&](int c) -> Factor {
    const auto ci = static_cast<std::size_t>(c);
    const bool is_top = c == top;
    const Clique& separator = is_top ? Clique{} : tree_.parent_separator(c);
    Clique needed = Union(attributes, separator);
    for (int d : children[ci]) needed = Union(needed, tree_.parent_separator(d));
    Factor local = SumOnto(marginals_[ci], Intersection(tree_.cliques()[ci], needed));
    if (is_top) {
      for (double& v : local.values) v /= total_;
    } else {
      Factor inverse = SumOnto(marginals_[ci], separator);
      for (double& v : inverse.values) v = v > 0 ? 1.0 / v : 0.0;
      MultiplyBroadcast(local, inverse);
    }
    std::vector<Factor> incoming;
    Clique scope = local.attributes;
    for (int d : children[ci]) {
      incoming.push_back(message(d));
      scope = Union(scope, incoming.back().attributes);
    }
    Factor product = Factor::Filled(scope, tree_.sizes(), 1.0);
    MultiplyBroadcast(product, local);
    for (const Factor& f : incoming) MultiplyBroadcast(product, f);
    return SumOnto(product, Intersection(scope, Union(attributes, separator)));
  };
  Factor out = message(top);
  for (double& v : out.values) v *= total_;
  return out;
}

}  // namespace deniable
