// SPDX-License-Identifier: Apache-2.0
// Private adaptive histograms over any hierarchical decomposition ("Synthetic Data via
// Differential Privacy", §2.3 Fig. 1 and §3 Fig. 2): refine the regions whose noisy count clears
// a threshold, so dense subpopulations are resolved finely and sparse ones stay coarse; then
// count the resulting leaves once more (the "second pass" of §2.3's remark).
//
// Privacy guarantee (neighbouring: add/remove one record; every record holds one value, so every
// count below has sensitivity 1; noise: exact discrete Laplace of scale s = 1/ε rounded up,
// dp/geometric_mechanism.h)
//   LearnImprovedPartition  Fig. 2 / Thm. 3: 2ε-DP for the partition (the leaves), whatever the
//                           depth, because each continuing node discounts t >= ⌈b⌉ + s·ln 2
//                           records (checked) and no leaf count is released. Spends 2ε.
//   LearnBasicPartition     Fig. 1 / Cor. 2: ε per level of noisy counts, B = max_depth levels:
//                           ε·B-DP for the partition and the leaves' decision counts. Spends ε·B.
//   NoisyLeafCounts         a static histogram over a fixed partition (parallel composition over
//                           disjoint leaves, Dwork et al. 2006): ε-DP. Spends ε.
// The spend is recorded in the accountant before any noise is drawn (a refused spend draws
// nothing). The public node cap (max_nodes) truncates the tree in breadth-first order, which is
// a function of the untruncated run's output (post-processing). Proofs, including why Thm. 3
// carries over to the discrete Laplace: histogram/adaptive_histogram.md.
//
// Example:
//   auto decomposition = NumericDecomposition::Create({.lo = 0.0, .hi = 100.0});
//   auto values = decomposition->ToValues(column);           // Result<std::vector<Int128>>
//   auto partition = LearnImprovedPartition(*decomposition, std::span<const Int128>(*values),
//                                           {.epsilon = 0.25}, accountant, "bins of age", "all",
//                                           rng, progress);      // spends 0.5
//   auto counts = NoisyLeafCounts(*decomposition, std::span<const NumericDecomposition::Node>(
//                                     partition->leaves),
//                                 std::span<const Int128>(*values), 0.5, accountant,
//                                 "counts of age bins", "all", rng, progress);  // spends 0.5
// Column-level entry points (numbers, date-times, coordinates, strings): column_histograms.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/histogram/decomposition.h"
#include "engine/histogram/discount.h"

namespace deniable {

struct AdaptiveOptions {
  // ε of each noisy count. LearnImprovedPartition spends 2ε in total (Thm. 3); the basic
  // algorithm spends ε per level, ε·max_depth in total (Cor. 2).
  double epsilon = 0.25;
  // b: a node continues when its noisy count is >= b (integer counts: used as ⌈b⌉ >= 1).
  // 0 = the default rule b = threshold_scale · ln(max(2, k)) / ε, k = ThresholdBranching():
  // the paper's remark on divergence (adaptive_histogram.md §4).
  double threshold = 0;
  double threshold_scale = 1.0;
  // t (improved only): records discounted by every continuing node. 0 = the least allowed,
  // ⌈⌈b⌉ + s·ln 2⌉ with s = 1/ε rounded up (Thm. 3); a larger t is allowed, a smaller one is
  // refused.
  std::int64_t discount = 0;
  DiscountFunction discount_function = DiscountFunction::kProportional;
  // B (basic only): nodes at depths 0..B-1 are counted; a node at depth B is a leaf.
  std::uint32_t max_depth = 20;
  // Public cap on the nodes of the output tree; refinement stops in breadth-first order once
  // a node's children would not fit (AdaptivePartition::truncated).
  std::size_t max_nodes = std::size_t{1} << 20;
};

// A basic leaf's count when the leaf was not measured (at depth max_depth).
inline constexpr std::int64_t kNotMeasured = std::numeric_limits<std::int64_t>::min();

template <typename Node>
struct AdaptivePartition {
  std::vector<Node> leaves;            // in value order; they partition the root exactly
  std::vector<std::uint32_t> depths;   // per leaf (root = 0)
  // Basic only: each leaf's noisy decision count (ε-DP, part of Cor. 2's output), or
  // kNotMeasured. Empty for the improved algorithm, which releases no count.
  std::vector<std::int64_t> leaf_counts;
  std::size_t nodes = 0;        // nodes of the output tree
  bool truncated = false;       // max_nodes stopped the refinement
  std::int64_t threshold = 0;   // ⌈b⌉ as used
  std::int64_t discount = 0;    // t as used (improved)
  double epsilon_spent = 0;     // recorded in the ledger
};

// Fig. 2 with a record-level discount (discount.h). values: the column mapped into the
// decomposition (every value in its root; at most 2^32 - 2 values). Errors: invalid options
// (kInvalidArgument), a value outside the root (kInvalidArgument, naming its index), budget
// (kBudgetExhausted), cancellation (kCancelled).
template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> LearnImprovedPartition(
    const D& decomposition, std::span<const typename D::Value> values,
    const AdaptiveOptions& options, PrivacyAccountant& accountant, const std::string& label,
    const std::string& partition, Rng& rng, Progress& progress);

// Fig. 1, at most options.max_depth levels of counts.
template <Decomposition D>
Result<AdaptivePartition<typename D::Node>> LearnBasicPartition(
    const D& decomposition, std::span<const typename D::Value> values,
    const AdaptiveOptions& options, PrivacyAccountant& accountant, const std::string& label,
    const std::string& partition, Rng& rng, Progress& progress);

// The second pass: a noisy count (exact discrete Laplace, scale 1/ε rounded up) of every leaf.
// `leaves` must partition the root in value order (as the functions above return them); a value
// outside them is kInvalidArgument. Counts may be negative (unbiased); clamp for synthesis.
template <Decomposition D>
Result<std::vector<std::int64_t>> NoisyLeafCounts(
    const D& decomposition, std::span<const typename D::Node> leaves,
    std::span<const typename D::Value> values, double epsilon, PrivacyAccountant& accountant,
    const std::string& label, const std::string& partition, Rng& rng, Progress& progress);

// The parameters a run would use (validation included), for reports and tests.
struct AdaptiveParameters {
  double scale = 0;             // discrete Laplace scale s >= 1/ε
  std::int64_t threshold = 0;   // ⌈b⌉
  std::int64_t discount = 0;    // t (improved)
  // Mean number of continuing children of an empty node with ThresholdBranching() children,
  // k·Pr[Z >= ⌈b⌉]: < 1 is required (the empty subtrees are then finite, §4 of the note).
  double empty_offspring_mean = 0;
};
Result<AdaptiveParameters> ImprovedParameters(const AdaptiveOptions& options,
                                              double threshold_branching);
Result<AdaptiveParameters> BasicParameters(const AdaptiveOptions& options,
                                           double threshold_branching);

// Pr[x + Z >= threshold] for Z ~ discrete Laplace(scale): p(x) of eq. (2), for tests.
double ContinueProbability(std::int64_t x, std::int64_t threshold, double scale);

}  // namespace deniable

#include "engine/histogram/adaptive_histogram_impl.h"  // IWYU pragma: export
