// SPDX-License-Identifier: Apache-2.0
#include "engine/model/numeric_bins.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace deniable {
namespace {

// Removes, one at a time, the bins whose leaves weigh nothing by dropping the edge they share
// with a neighbour (the left one when there is one).
void MergeEmptyBins(const std::vector<double>& leaf_edges, const std::vector<double>& weights,
                    std::vector<double>& bin_edges) {
  auto weight_of = [&](double left, double right) {
    double total = 0;
    const auto first = std::lower_bound(leaf_edges.begin(), leaf_edges.end(), left);
    const auto last = std::lower_bound(first, leaf_edges.end(), right);
    for (auto it = first; it != last; ++it) {
      total += weights[static_cast<std::size_t>(it - leaf_edges.begin())];
    }
    return total;
  };
  std::size_t bin = 0;
  while (bin_edges.size() > 2 && bin + 1 < bin_edges.size()) {
    if (weight_of(bin_edges[bin], bin_edges[bin + 1]) > 0) {
      ++bin;
      continue;
    }
    // Drop the edge shared with the left neighbour (or, for the first bin, the right one).
    bin_edges.erase(bin_edges.begin() + static_cast<std::ptrdiff_t>(bin > 0 ? bin : 1));
    if (bin > 0) --bin;
  }
}

}  // namespace

Status SetBinsFromLeaves(const NoisyLeaves& leaves, const NumericBinning& binning,
                         ColumnDomain& domain) {
  const std::size_t count = leaves.counts.size();
  if (count == 0 || leaves.edges.size() != count + 1) {
    return InvalidArgument("expected one noisy count per leaf and leaves + 1 edges");
  }
  for (std::size_t i = 0; i <= count; ++i) {
    if (!std::isfinite(leaves.edges[i]) || (i > 0 && !(leaves.edges[i] > leaves.edges[i - 1]))) {
      return InvalidArgument("leaf edges must be finite and strictly increasing");
    }
  }
  if (!(leaves.count_noise_scale > 0) || binning.max_bins < 1) {
    return InvalidArgument("the noise scale and the number of bins must be positive");
  }
  const double scale = leaves.count_noise_scale;
  auto count_of = [&](std::size_t j) { return static_cast<double>(leaves.counts[j]); };

  // 1. Range: cut the ends that do not clearly hold records.
  const double end_threshold = kEndLeafThreshold * scale;
  std::size_t first = 0, last = count - 1;
  while (first < last && count_of(first) < end_threshold) ++first;
  while (last > first && count_of(last) < end_threshold) --last;
  if (count_of(first) < end_threshold) {  // nothing clears it: the heaviest leaf alone
    first = last = static_cast<std::size_t>(
        std::max_element(leaves.counts.begin(), leaves.counts.end()) - leaves.counts.begin());
  }
  std::vector<double> leaf_edges(leaves.edges.begin() + static_cast<std::ptrdiff_t>(first),
                                 leaves.edges.begin() + static_cast<std::ptrdiff_t>(last) + 2);

  // 2. Leaf weights.
  const double weight_threshold = kLeafWeightThreshold * scale;
  std::vector<double> weights;
  double total = 0;
  for (std::size_t j = first; j <= last; ++j) {
    weights.push_back(count_of(j) >= weight_threshold ? count_of(j) : 0.0);
    total += weights.back();
  }
  if (!(total > 0)) {  // no leaf clearly holds records: uniform over the range
    std::fill(weights.begin(), weights.end(), 1.0);
    total = static_cast<double>(weights.size());
  }

  // 3. Bins.
  ColumnDomain lattice;  // lattice arithmetic only
  lattice.step = leaves.step;
  auto single_value = [&](std::size_t leaf) {
    return leaves.step > 0 && lattice.PointsIn(leaf_edges[leaf], leaf_edges[leaf + 1]) == 1;
  };
  std::vector<double> bin_edges = {leaf_edges.front()};
  std::size_t singles = 0;
  for (std::size_t leaf = 0; leaf < weights.size(); ++leaf) {
    singles += single_value(leaf) && weights[leaf] > 0 ? 1 : 0;
  }
  if (binning.categorical && singles <= static_cast<std::size_t>(kMaxCategoricalNumericBins)) {
    // One bin per weighted single-value leaf; the leaves between them share a bin.
    for (std::size_t leaf = 0; leaf < weights.size(); ++leaf) {
      if (single_value(leaf) && weights[leaf] > 0) {
        if (bin_edges.back() < leaf_edges[leaf]) bin_edges.push_back(leaf_edges[leaf]);
        bin_edges.push_back(leaf_edges[leaf + 1]);
      }
    }
    if (bin_edges.back() < leaf_edges.back()) bin_edges.push_back(leaf_edges.back());
  } else {
    const double share = total / binning.max_bins;
    double accumulated = 0;
    for (std::size_t leaf = 0; leaf < weights.size(); ++leaf) {
      const bool heavy = weights[leaf] >= share / 2;
      if (heavy && accumulated > 0) {
        bin_edges.push_back(leaf_edges[leaf]);
        accumulated = 0;
      }
      accumulated += weights[leaf];
      if ((heavy || accumulated >= share) && leaf + 1 < weights.size()) {
        bin_edges.push_back(leaf_edges[leaf + 1]);
        accumulated = 0;
      }
    }
    if (bin_edges.back() < leaf_edges.back()) bin_edges.push_back(leaf_edges.back());
  }

  // 4. No empty bins.
  MergeEmptyBins(leaf_edges, weights, bin_edges);

  if (Status s = domain.SetBins(std::move(bin_edges), leaves.step); !s) return s;
  return domain.SetLeaves(std::move(leaf_edges), std::move(weights));
}

}  // namespace deniable
