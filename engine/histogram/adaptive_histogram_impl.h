// SPDX-License-Identifier: Apache-2.0
// Template bodies of adaptive_histogram.h and direct_synthesis.h (not API: include those).
//
// How a run works: the values are grouped and sorted once (sorted_column.h), so every node is a
// contiguous range of distinct values and of sorted positions, and its children are found by
// binary search over the distinct values. A node's ALIVE records (those no ancestor discounted) are kept as a list of
// sorted positions in increasing priority; the tree is built breadth first, one level's lists
// side by side in one buffer, and a continuing node's survivors are distributed to its children
// by a stable counting sort, so every child's list stays in priority order. Cost: one sort plus
// O(records alive at each level) per level.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/dp/geometric_mechanism.h"
#include "engine/histogram/sorted_column.h"

namespace deniable::internal {

inline constexpr std::size_t kCheckEvery = 1024;

// The initial alive list: all sorted positions in increasing priority.
std::vector<std::uint32_t> PriorityList(const std::vector<std::uint32_t>& position_of_input,
                                        DiscountFunction function, Rng& rng);

// Records the spend of an adaptive run / a static histogram (kBudgetExhausted when refused).
Status SpendImproved(PrivacyAccountant& accountant, const std::string& label,
                     const std::string& partition, const AdaptiveOptions& options,
                     const AdaptiveParameters& parameters, double& spent);
Status SpendBasic(PrivacyAccountant& accountant, const std::string& label,
                  const std::string& partition, const AdaptiveOptions& options, double& spent);
Status SpendCounts(PrivacyAccountant& accountant, const std::string& label,
                   const std::string& partition, double epsilon);
// The second pass with discrete Gaussian noise: a ρ-zCDP entry (needs the zCDP δ set).
Status SpendGaussianCounts(PrivacyAccountant& accountant, const std::string& label,
                           const std::string& partition, double rho);

template <typename Node>
struct TreeEntry {
  Node node;
  std::uint32_t first_child = 0;
  std::uint32_t children = 0;
  std::uint32_t depth = 0;
  std::int64_t noisy = kNotMeasured;
};

// The breadth-first run shared by Fig. 1 (improved == false: no discount, depth limit) and
// Fig. 2 (improved == true). The mechanism's scale is parameters.scale.
template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> RunAdaptive(
    const D& d, const SortedColumn<typename D::Value>& column, bool improved,
    const AdaptiveOptions& options, const AdaptiveParameters& parameters, Rng& rng,
    Progress& progress) {
  using Node = typename D::Node;
  struct Pending {
    std::uint32_t tree_index, begin, end;  // alive list in `cur`
    std::uint32_t lo, hi;                  // distinct values
  };
  auto mechanism = GeometricMechanism::Create(options.epsilon, 1);
  if (!mechanism) return mechanism.error();
  const std::uint32_t n = column.size();
  const std::span<const typename D::Value> distinct(column.distinct);
  const auto m = static_cast<std::uint32_t>(distinct.size());
  std::vector<std::uint32_t> cur = PriorityList(column.position_of_input,
                                                options.discount_function, rng);
  std::vector<std::uint32_t> next(n);
  std::vector<TreeEntry<Node>> tree;
  tree.push_back({d.Root(), 0, 0, 0, kNotMeasured});
  std::vector<Pending> frontier{{0, 0, n, 0, m}};
  std::vector<Pending> next_frontier;
  std::vector<std::uint32_t> bounds, positions, child_of, counts, cursor;
  std::vector<std::uint8_t> removed;
  AdaptivePartition<Node> result;
  std::size_t visited = 0;
  while (!frontier.empty()) {
    next_frontier.clear();
    std::uint32_t out = 0;
    std::uint64_t alive = 0;
    for (const Pending& p : frontier) {
      if (++visited % kCheckEvery == 0 && progress.IsCancelled()) {
        return Cancelled("adaptive histogram cancelled");
      }
      if (result.truncated) continue;  // the cap was reached: every remaining node is a leaf
      const Node node = tree[p.tree_index].node;
      const std::uint32_t depth = tree[p.tree_index].depth;
      const std::uint32_t k = d.Branching(node);
      const std::uint32_t count = p.end - p.begin;
      bool split = false;
      if (improved) {
        split = k > 0 && mechanism->AddNoise(count, rng) >= parameters.threshold;
      } else if (depth < options.max_depth) {
        const std::int64_t noisy = mechanism->AddNoise(count, rng);
        tree[p.tree_index].noisy = noisy;
        split = k > 0 && noisy >= parameters.threshold;
      }
      if (!split) continue;
      if (tree.size() + k > options.max_nodes) {
        result.truncated = true;
        continue;
      }
      ChildBounds(d, node, k, distinct, p.lo, p.hi, bounds);
      positions.resize(k + 1);
      for (std::uint32_t c = 0; c <= k; ++c) positions[c] = column.offset[bounds[c]];
      const std::span<const std::uint32_t> population(cur.data() + p.begin, count);
      child_of.resize(count);
      for (std::uint32_t i = 0; i < count; ++i) child_of[i] = ChildIndex(positions, population[i]);
      if (improved) {
        MarkDiscounted(options.discount_function, static_cast<std::uint64_t>(parameters.discount),
                       child_of, k, removed);
      } else {
        removed.assign(count, 0);
      }
      counts.assign(k + 1, 0);
      for (std::uint32_t i = 0; i < count; ++i) counts[child_of[i] + 1] += removed[i] ? 0 : 1;
      counts[0] = out;
      for (std::uint32_t c = 1; c <= k; ++c) counts[c] += counts[c - 1];  // starts in `next`
      const auto first_child = static_cast<std::uint32_t>(tree.size());
      for (std::uint32_t c = 0; c < k; ++c) {
        tree.push_back({d.Child(node, c), 0, 0, depth + 1, kNotMeasured});
        const std::uint32_t start = counts[c];
        const std::uint32_t stop = counts[c + 1];
        next_frontier.push_back({first_child + c, start, stop, bounds[c], bounds[c + 1]});
        alive += stop - start;
      }
      out = counts[k];
      cursor.assign(counts.begin(), counts.end() - 1);
      for (std::uint32_t i = 0; i < count; ++i) {
        if (!removed[i]) next[cursor[child_of[i]]++] = population[i];
      }
      tree[p.tree_index].first_child = first_child;
      tree[p.tree_index].children = k;
    }
    std::swap(cur, next);
    std::swap(frontier, next_frontier);
    progress.Report(n == 0 ? 1.0 : 1.0 - static_cast<double>(alive) / n,
                    "Refining the adaptive histogram");
  }
  // Leaves in value order: depth first, children in index order.
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const TreeEntry<Node>& e = tree[stack.back()];
    stack.pop_back();
    if (e.children == 0) {
      result.leaves.push_back(e.node);
      result.depths.push_back(e.depth);
      if (!improved) result.leaf_counts.push_back(e.noisy);
      continue;
    }
    for (std::uint32_t c = e.children; c-- > 0;) stack.push_back(e.first_child + c);
  }
  result.nodes = tree.size();
  result.threshold = parameters.threshold;
  result.discount = improved ? parameters.discount : 0;
  return result;
}

// The second pass's noise on a sorted column, without recording a spend (the caller did).
template <Decomposition D, typename Mechanism>
Result<std::vector<std::int64_t>> NoisyCountsOf(const D& d,
                                                std::span<const typename D::Node> leaves,
                                                const SortedColumn<typename D::Value>& column,
                                                const Mechanism& mechanism, Rng& rng) {
  auto counts = CountLeaves(d, leaves, column);
  if (!counts) return counts.error();
  std::vector<std::int64_t> noisy(counts->size());
  for (std::size_t i = 0; i < noisy.size(); ++i) {
    noisy[i] = mechanism.AddNoise(static_cast<std::int64_t>((*counts)[i]), rng);
  }
  return noisy;
}

}  // namespace deniable::internal

namespace deniable {

namespace internal {
// Validation, spend, then the run: shared by Fig. 1 and Fig. 2.
template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> LearnPartition(
    const D& decomposition, std::span<const typename D::Value> values, bool improved,
    const AdaptiveOptions& options, PrivacyAccountant& accountant, const std::string& label,
    const std::string& partition, Rng& rng, Progress& progress) {
  auto parameters = improved ? ImprovedParameters(options, decomposition.ThresholdBranching())
                             : BasicParameters(options, decomposition.ThresholdBranching());
  if (!parameters) return parameters.error();
  auto column = SortColumn(decomposition, values);
  if (!column) return column.error();
  double spent = 0;
  Status spend = improved ? SpendImproved(accountant, label, partition, options, *parameters, spent)
                          : SpendBasic(accountant, label, partition, options, spent);
  if (!spend) return spend.error();
  auto result = RunAdaptive(decomposition, *column, improved, options, *parameters, rng, progress);
  if (result) result->epsilon_spent = spent;
  return result;
}
}  // namespace internal

template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> LearnImprovedPartition(
    const D& decomposition, std::span<const typename D::Value> values,
    const AdaptiveOptions& options, PrivacyAccountant& accountant, const std::string& label,
    const std::string& partition, Rng& rng, Progress& progress) {
  return internal::LearnPartition(decomposition, values, true, options, accountant, label,
                                  partition, rng, progress);
}

template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> LearnBasicPartition(
    const D& decomposition, std::span<const typename D::Value> values,
    const AdaptiveOptions& options, PrivacyAccountant& accountant, const std::string& label,
    const std::string& partition, Rng& rng, Progress& progress) {
  return internal::LearnPartition(decomposition, values, false, options, accountant, label,
                                  partition, rng, progress);
}

template <Decomposition D>
Result<std::vector<std::int64_t>> NoisyLeafCounts(
    const D& decomposition, std::span<const typename D::Node> leaves,
    std::span<const typename D::Value> values, double epsilon, PrivacyAccountant& accountant,
    const std::string& label, const std::string& partition, Rng& rng, Progress& progress) {
  auto mechanism = GeometricMechanism::Create(epsilon, 1);
  if (!mechanism) return mechanism.error();
  auto column = internal::SortColumn(decomposition, values);
  if (!column) return column.error();
  if (progress.IsCancelled()) return Cancelled("leaf counts cancelled");
  // Checked before the spend: leaves that do not partition the domain draw and spend nothing.
  if (auto counts = internal::CountLeaves(decomposition, leaves, *column); !counts) {
    return counts.error();
  }
  if (Status s = internal::SpendCounts(accountant, label, partition, epsilon); !s) {
    return s.error();
  }
  return internal::NoisyCountsOf(decomposition, leaves, *column, *mechanism, rng);
}

}  // namespace deniable
