// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/consistency.h"

#include <algorithm>
#include <set>
#include <utility>

namespace deniable {
namespace {

constexpr double kMajority = 0.5;  // μ(f(a) | a) a forced code needs

}  // namespace

std::vector<ConsistentPair> FindConsistentPairs(const GraphicalModel& model, double min_lambda,
                                                const std::vector<bool>& ordered) {
  std::vector<ConsistentPair> pairs;
  std::set<std::pair<int, int>> seen;
  for (const Factor& mu : model.marginals()) {
    for (std::size_t i = 0; i < mu.attributes.size(); ++i) {
      for (std::size_t j = 0; j < mu.attributes.size(); ++j) {
        const int a = mu.attributes[i], b = mu.attributes[j];
        if (i == j || mu.shape[i] < 2 || mu.shape[j] < 2 || !seen.insert({a, b}).second) {
          continue;
        }
        const Factor joint = SumOnto(mu, {std::min(a, b), std::max(a, b)});
        const std::uint32_t na = mu.shape[i], nb = mu.shape[j];
        auto cell = [&](std::uint32_t x, std::uint32_t y) {
          return a < b ? joint.values[x * nb + y] : joint.values[y * na + x];
        };
        double total = 0, s = 0;
        std::vector<double> of_b(nb, 0.0);
        ConsistentPair pair{a, b, 0, std::vector<std::uint32_t>(na, 0),
                            std::vector<bool>(na, false)};
        const bool ordered_parent =
            static_cast<std::size_t>(a) < ordered.size() && ordered[static_cast<std::size_t>(a)];
        for (std::uint32_t x = 0; x < na; ++x) {
          double best = -1, second = 0, of_a = 0;
          for (std::uint32_t y = 0; y < nb; ++y) {
            const double v = cell(x, y);
            of_a += v;
            of_b[y] += v;
            if (v > best) {
              second = std::max(second, best);
              best = v;
              pair.mapping[x] = y;
            } else {
              second = std::max(second, v);
            }
          }
          total += of_a;
          s += best;
          pair.forced[x] = best > kMajority * of_a &&
                           !(ordered_parent && second >= kStraddleShare * of_a);
        }
        const double m = *std::max_element(of_b.begin(), of_b.end());
        if (!(total - m > 1e-9 * total)) continue;  // B (nearly) constant: nothing to decide
        pair.lambda = (s - m) / (total - m);
        if (pair.lambda >= min_lambda) pairs.push_back(std::move(pair));
      }
    }
  }
  // Accept the strongest first: one parent per child, no cycle.
  std::stable_sort(pairs.begin(), pairs.end(), [](const ConsistentPair& x, const ConsistentPair& y) {
    return x.lambda > y.lambda;
  });
  std::vector<int> parent_of(model.tree().sizes().size(), -1);
  std::vector<ConsistentPair> accepted;
  for (ConsistentPair& p : pairs) {
    if (parent_of[static_cast<std::size_t>(p.child)] >= 0) continue;
    bool cycle = false;
    for (int up = p.parent; up >= 0 && !cycle; up = parent_of[static_cast<std::size_t>(up)]) {
      cycle = up == p.child;
    }
    if (cycle) continue;
    parent_of[static_cast<std::size_t>(p.child)] = p.parent;
    accepted.push_back(std::move(p));
  }
  // Parents first: by the depth of the parent in the forest of accepted pairs.
  auto depth = [&](int attribute) {
    int d = 0;
    for (int up = parent_of[static_cast<std::size_t>(attribute)]; up >= 0;
         up = parent_of[static_cast<std::size_t>(up)]) {
      ++d;
    }
    return d;
  };
  std::stable_sort(accepted.begin(), accepted.end(),
                   [&](const ConsistentPair& x, const ConsistentPair& y) {
                     return depth(x.parent) < depth(y.parent);
                   });
  return accepted;
}

void ApplyConsistentPairs(const std::vector<ConsistentPair>& pairs, EncodedTable& rows) {
  for (const ConsistentPair& p : pairs) {
    const auto a = static_cast<std::size_t>(p.parent);
    const auto b = static_cast<std::size_t>(p.child);
    if (a >= rows.columns.size() || b >= rows.columns.size()) continue;
    const std::vector<Code>& parent = rows.columns[a];
    std::vector<Code>& child = rows.columns[b];
    for (std::size_t r = 0; r < rows.rows && r < parent.size() && r < child.size(); ++r) {
      const std::size_t x = parent[r];
      if (x < p.mapping.size() && p.forced[x]) child[r] = static_cast<Code>(p.mapping[x]);
    }
  }
}

}  // namespace deniable
