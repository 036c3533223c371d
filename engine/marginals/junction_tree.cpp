// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/junction_tree.h"

#include <algorithm>
#include <numeric>
#include <queue>

namespace deniable {
namespace {

// Disjoint sets with path halving (Kruskal).
class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  std::size_t Find(std::size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  bool Unite(std::size_t a, std::size_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return false;
    parent_[b] = a;
    return true;
  }

 private:
  std::vector<std::size_t> parent_;
};

}  // namespace

JunctionTree JunctionTree::Build(const std::vector<Clique>& cliques,
                                 const std::vector<std::uint32_t>& sizes) {
  JunctionTree tree;
  tree.sizes_ = sizes;
  const std::size_t n = sizes.size();
  std::vector<std::vector<char>> adjacent(n, std::vector<char>(n, 0));
  for (const Clique& c : cliques) {
    for (int a : c) {
      for (int b : c) {
        if (a != b) adjacent[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = 1;
      }
    }
  }
  // Greedy min-fill elimination (ties: fewest cells in the new clique, then lowest index).
  std::vector<char> eliminated(n, 0);
  std::vector<Clique> formed;
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t best = n;
    std::size_t best_fill = 0;
    std::size_t best_cells = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (eliminated[v]) continue;
      std::vector<std::size_t> neighbours;
      for (std::size_t u = 0; u < n; ++u) {
        if (!eliminated[u] && adjacent[v][u]) neighbours.push_back(u);
      }
      std::size_t fill = 0;
      for (std::size_t i = 0; i < neighbours.size(); ++i) {
        for (std::size_t j = i + 1; j < neighbours.size(); ++j) {
          if (!adjacent[neighbours[i]][neighbours[j]]) ++fill;
        }
      }
      Clique c{static_cast<int>(v)};
      for (std::size_t u : neighbours) c.push_back(static_cast<int>(u));
      std::sort(c.begin(), c.end());
      const std::size_t cells = CellCount(c, sizes);
      if (best == n || fill < best_fill || (fill == best_fill && cells < best_cells)) {
        best = v;
        best_fill = fill;
        best_cells = cells;
      }
    }
    Clique c{static_cast<int>(best)};
    for (std::size_t u = 0; u < n; ++u) {
      if (!eliminated[u] && adjacent[best][u]) c.push_back(static_cast<int>(u));
    }
    std::sort(c.begin(), c.end());
    for (int a : c) {
      for (int b : c) {
        if (a != b) adjacent[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = 1;
      }
    }
    eliminated[best] = 1;
    tree.elimination_.push_back(static_cast<int>(best));
    formed.push_back(std::move(c));
  }
  // Maximal cliques (a formed clique contained in another is dropped; duplicates once).
  for (std::size_t i = 0; i < formed.size(); ++i) {
    bool maximal = true;
    for (std::size_t j = 0; j < formed.size() && maximal; ++j) {
      if (i == j) continue;
      if (IsSubset(formed[i], formed[j]) && (formed[i] != formed[j] || j < i)) maximal = false;
    }
    if (maximal) tree.cliques_.push_back(formed[i]);
  }
  // Maximum spanning tree on |shared attributes| (Kruskal; ties by index, deterministic).
  struct Candidate {
    std::size_t weight, a, b;
  };
  std::vector<Candidate> candidates;
  const std::size_t m = tree.cliques_.size();
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t b = a + 1; b < m; ++b) {
      candidates.push_back({Intersection(tree.cliques_[a], tree.cliques_[b]).size(), a, b});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.weight > y.weight; });
  DisjointSets sets(m);
  std::vector<std::vector<int>> neighbours(m);
  for (const Candidate& c : candidates) {
    if (!sets.Unite(c.a, c.b)) continue;
    tree.edges_.push_back({static_cast<int>(c.a), static_cast<int>(c.b),
                           Intersection(tree.cliques_[c.a], tree.cliques_[c.b])});
    neighbours[c.a].push_back(static_cast<int>(c.b));
    neighbours[c.b].push_back(static_cast<int>(c.a));
  }
  // Breadth-first order from clique 0.
  tree.parent_.assign(m, -1);
  tree.parent_separator_.assign(m, Clique{});
  std::vector<char> seen(m, 0);
  std::queue<int> queue;
  if (m > 0) {
    queue.push(0);
    seen[0] = 1;
  }
  while (!queue.empty()) {
    const int c = queue.front();
    queue.pop();
    tree.order_.push_back(c);
    for (int d : neighbours[static_cast<std::size_t>(c)]) {
      if (seen[static_cast<std::size_t>(d)]) continue;
      seen[static_cast<std::size_t>(d)] = 1;
      tree.parent_[static_cast<std::size_t>(d)] = c;
      tree.parent_separator_[static_cast<std::size_t>(d)] = Intersection(
          tree.cliques_[static_cast<std::size_t>(c)], tree.cliques_[static_cast<std::size_t>(d)]);
      queue.push(d);
    }
  }
  return tree;
}

int JunctionTree::Containing(const Clique& c) const {
  int best = -1;
  std::size_t best_cells = 0;
  for (std::size_t i = 0; i < cliques_.size(); ++i) {
    if (!IsSubset(c, cliques_[i])) continue;
    const std::size_t cells = CellCount(cliques_[i], sizes_);
    if (best < 0 || cells < best_cells) {
      best = static_cast<int>(i);
      best_cells = cells;
    }
  }
  return best;
}

std::size_t JunctionTree::TotalCells() const {
  std::size_t total = 0;
  for (const Clique& c : cliques_) total += CellCount(c, sizes_);
  return total;
}

std::size_t HypotheticalModelCells(const std::vector<Clique>& cliques,
                                   const std::vector<std::uint32_t>& sizes) {
  return JunctionTree::Build(cliques, sizes).TotalCells();
}

}  // namespace deniable
