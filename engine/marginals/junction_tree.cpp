// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/junction_tree.h"

#include <algorithm>
#include <bit>
#include <cstdint>
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

// Greedy min-fill elimination over the graph whose edges join the attributes of each clique
// (ties: fewest cells in the new clique, then lowest index), and the maximal cliques of the
// triangulated graph (a formed clique contained in another is dropped; duplicates once).
// Adjacency rows are bitsets: a vertex's fill is C(k, 2) minus the edges among its k
// neighbours, Σ_u |N(u) ∩ N(v)| / 2 over u in N(v), each a popcount. AIM's size filter runs
// this for every candidate in every round (HypotheticalModelCells).
std::vector<Clique> Triangulate(const std::vector<Clique>& cliques,
                                const std::vector<std::uint32_t>& sizes,
                                std::vector<int>* elimination) {
  const std::size_t n = sizes.size();
  const std::size_t words = (n + 63) / 64;
  std::vector<std::uint64_t> adjacent(n * words, 0);
  std::vector<std::uint64_t> alive(words, 0);
  for (std::size_t v = 0; v < n; ++v) alive[v / 64] |= std::uint64_t{1} << (v % 64);
  const auto row = [&](std::size_t v) { return adjacent.data() + v * words; };
  const auto connect = [&](const Clique& c) {
    for (int a : c) {
      for (int b : c) {
        if (a != b) {
          row(static_cast<std::size_t>(a))[static_cast<std::size_t>(b) / 64] |=
              std::uint64_t{1} << (static_cast<std::size_t>(b) % 64);
        }
      }
    }
  };
  for (const Clique& c : cliques) connect(c);
  std::vector<std::uint64_t> neighbours(words);
  // {v} ∪ its alive neighbours, ascending.
  const auto clique_of = [&](std::size_t v, Clique& out) {
    out.clear();
    for (std::size_t w = 0; w < words; ++w) neighbours[w] = row(v)[w] & alive[w];
    neighbours[v / 64] |= std::uint64_t{1} << (v % 64);
    for (std::size_t w = 0; w < words; ++w) {
      for (std::uint64_t bits = neighbours[w]; bits != 0; bits &= bits - 1) {
        out.push_back(static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
      }
    }
    neighbours[v / 64] &= ~(std::uint64_t{1} << (v % 64));
  };
  std::vector<Clique> formed;
  Clique candidate;
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t best = n;
    std::size_t best_fill = 0;
    std::size_t best_cells = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (!((alive[v / 64] >> (v % 64)) & 1)) continue;
      clique_of(v, candidate);  // also leaves N(v) in `neighbours`
      const std::size_t k = candidate.size() - 1;
      std::size_t twice_edges = 0;
      for (int u : candidate) {
        if (static_cast<std::size_t>(u) == v) continue;
        const std::uint64_t* r = row(static_cast<std::size_t>(u));
        for (std::size_t w = 0; w < words; ++w) {
          twice_edges += static_cast<std::size_t>(std::popcount(r[w] & neighbours[w]));
        }
      }
      const std::size_t fill = (k == 0 ? 0 : k * (k - 1) / 2) - twice_edges / 2;
      if (best != n && fill > best_fill) continue;
      const std::size_t cells = CellCount(candidate, sizes);
      if (best == n || fill < best_fill || (fill == best_fill && cells < best_cells)) {
        best = v;
        best_fill = fill;
        best_cells = cells;
      }
    }
    Clique c;
    clique_of(best, c);
    connect(c);
    alive[best / 64] &= ~(std::uint64_t{1} << (best % 64));
    if (elimination != nullptr) elimination->push_back(static_cast<int>(best));
    formed.push_back(std::move(c));
  }
  std::vector<Clique> maximal_cliques;
  for (std::size_t i = 0; i < formed.size(); ++i) {
    bool maximal = true;
    for (std::size_t j = 0; j < formed.size() && maximal; ++j) {
      if (i == j) continue;
      if (IsSubset(formed[i], formed[j]) && (formed[i] != formed[j] || j < i)) maximal = false;
    }
    if (maximal) maximal_cliques.push_back(formed[i]);
  }
  return maximal_cliques;
}

}  // namespace

JunctionTree JunctionTree::Build(const std::vector<Clique>& cliques,
                                 const std::vector<std::uint32_t>& sizes) {
  JunctionTree tree;
  tree.sizes_ = sizes;
  tree.cliques_ = Triangulate(cliques, sizes, &tree.elimination_);
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
  // Build's cliques without its spanning tree and order: only their cells are asked for.
  std::size_t total = 0;
  for (const Clique& c : Triangulate(cliques, sizes, nullptr)) total += CellCount(c, sizes);
  return total;
}

}  // namespace deniable
