// SPDX-License-Identifier: Apache-2.0
// Direct data synthesis ("Synthetic Data via Differential Privacy", §4, Figs. 3-4): a count of
// records to synthesize is committed to the root and split among the children with noisy
// subcounts, recursively, until a node holds at most one record, the depth limit is reached or
// the node is indivisible. Macroscopic counts stay accurate: the total is exact and a node's
// error is its own measurement error plus a share of its parent's (§4).
//
// Privacy guarantee
//   Neighbouring: add/remove one record (one value per record).
//   Mechanism: at every expanded node, the count of each child plus discrete Laplace noise of
//   scale s = 1/ε' rounded up, ε' = EvenShare(ε, max_depth) <= ε/max_depth (R = max_depth/ε of
//   §4). Which nodes are expanded is a function of earlier noisy counts (post-processing).
//   Sensitivity: the children of all nodes expanded at one depth are disjoint, so one record
//   changes one count per depth by 1 (parallel composition within a level), and there are at
//   most max_depth depths (sequential composition over levels): ε-DP in total, spent as
//   max_depth entries of ε' (recorded before any noise is drawn).
//   The total to allocate is the caller's: a public number or one the caller paid for (e.g. a
//   noisy n); it is not accounted here.
//   Sampling: GeometricMechanism (exact). Center() and the draws are post-processing.
//   Proof note: histogram/direct_synthesis.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/histogram/adaptive_histogram.h"
#include "engine/histogram/decomposition.h"

namespace deniable {

struct DirectSynthesisOptions {
  double epsilon = 1.0;           // in total, ε/max_depth per level
  std::uint32_t max_depth = 20;   // maxdepth of Fig. 3 (the paper's experiments use 20)
};

template <typename Node>
struct SynthesisCell {
  Node node;
  std::int64_t count = 0;   // records allocated to the node (>= 1)
  std::uint32_t depth = 0;
};

template <typename Node>
struct DirectSynthesis {
  std::vector<SynthesisCell<Node>> cells;  // in value order; counts sum to the total exactly
  std::size_t expanded = 0;                // nodes whose children were measured
  double epsilon_spent = 0;
};

// Fig. 4 exactly: clamps every subcount at 0, then moves them one unit at a time in round-robin
// order (starting at index `start`, cyclically), up when their sum is below `count`, down (never
// below 0) when above, until the sum equals `count`. Computed in closed form (O(k log)), with
// the same result as the loop. count >= 0, subcounts non-empty, start < subcounts.size().
void Center(std::int64_t count, std::span<std::int64_t> subcounts, std::size_t start);

// Fig. 3. values: mapped into the decomposition; total in [0, 2^62]. The round-robin start of
// each Center() is drawn uniformly (Fig. 4's code draws it at random).
template <Decomposition D>
Result<DirectSynthesis<typename D::Node>> SynthesizeDirect(
    const D& decomposition, std::span<const typename D::Value> values, std::int64_t total,
    const DirectSynthesisOptions& options, PrivacyAccountant& accountant,
    const std::string& label, const std::string& partition, Rng& rng, Progress& progress);

// Post-processing: `count` values drawn with decomposition.Draw() in every cell, cell by cell.
template <Decomposition D>
std::vector<typename D::Value> DrawCells(const D& decomposition,
                                         std::span<const SynthesisCell<typename D::Node>> cells,
                                         Rng& rng) {
  std::vector<typename D::Value> out;
  for (const auto& cell : cells) {
    for (std::int64_t i = 0; i < cell.count; ++i) out.push_back(decomposition.Draw(cell.node, rng));
  }
  return out;
}

namespace internal {
Result<double> SpendDirect(PrivacyAccountant& accountant, const std::string& label,
                           const std::string& partition, const DirectSynthesisOptions& options,
                           std::int64_t total);
}  // namespace internal

template <Decomposition D>
Result<DirectSynthesis<typename D::Node>> SynthesizeDirect(
    const D& decomposition, std::span<const typename D::Value> values, std::int64_t total,
    const DirectSynthesisOptions& options, PrivacyAccountant& accountant,
    const std::string& label, const std::string& partition, Rng& rng, Progress& progress) {
  using Node = typename D::Node;
  auto column = internal::SortColumn(decomposition, values);
  if (!column) return column.error();
  auto epsilon_level = internal::SpendDirect(accountant, label, partition, options, total);
  if (!epsilon_level) return epsilon_level.error();
  auto mechanism = GeometricMechanism::Create(*epsilon_level, 1);
  if (!mechanism) return mechanism.error();
  const std::span<const typename D::Value> distinct(column->distinct);
  struct Pending {
    Node node;
    std::uint32_t lo, hi, depth;  // distinct values [lo, hi)
    std::int64_t count;
  };
  DirectSynthesis<Node> result;
  result.epsilon_spent = options.epsilon;
  std::vector<Pending> stack;
  stack.push_back({decomposition.Root(), 0, static_cast<std::uint32_t>(distinct.size()), 0, total});
  std::vector<std::uint32_t> bounds;
  std::vector<std::int64_t> subcounts;
  std::int64_t placed = 0;
  while (!stack.empty()) {
    Pending p = std::move(stack.back());
    stack.pop_back();
    if (p.count <= 0) continue;
    const std::uint32_t k = decomposition.Branching(p.node);
    if (p.count == 1 || p.depth >= options.max_depth || k == 0) {
      placed += p.count;
      result.cells.push_back({std::move(p.node), p.count, p.depth});
      continue;
    }
    if (++result.expanded % internal::kCheckEvery == 0) {
      if (progress.IsCancelled()) return Cancelled("direct synthesis cancelled");
      progress.Report(static_cast<double>(placed) / static_cast<double>(total),
                      "Allocating synthetic records");
    }
    internal::ChildBounds(decomposition, p.node, k, distinct, p.lo, p.hi, bounds);
    subcounts.resize(k);
    for (std::uint32_t c = 0; c < k; ++c) {
      subcounts[c] = mechanism->AddNoise(column->Records(bounds[c], bounds[c + 1]), rng);
    }
    Center(p.count, subcounts, static_cast<std::size_t>(UniformBelow(rng, k)));
    for (std::uint32_t c = k; c-- > 0;) {
      if (subcounts[c] > 0) {
        stack.push_back({decomposition.Child(p.node, c), bounds[c], bounds[c + 1], p.depth + 1,
                         subcounts[c]});
      }
    }
  }
  return result;
}

}  // namespace deniable
