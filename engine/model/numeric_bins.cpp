// SPDX-License-Identifier: Apache-2.0
#include "engine/model/numeric_bins.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/dp/gaussian_accounting.h"

namespace deniable {
namespace {

// Removes, one at a time, the bins that weigh at most `light` (and are not `kept`) by dropping
// the edge they share with a neighbour (the left one when there is one).
template <typename Kept>
void MergeLightBins(const std::vector<double>& leaf_edges, const std::vector<double>& weights,
                    double light, Kept kept, std::vector<double>& bin_edges) {
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
    if (weight_of(bin_edges[bin], bin_edges[bin + 1]) > light ||
        kept(bin_edges[bin], bin_edges[bin + 1])) {
      ++bin;
      continue;
    }
    // Drop the edge shared with the left neighbour (or, for the first bin, the right one).
    bin_edges.erase(bin_edges.begin() + static_cast<std::ptrdiff_t>(bin > 0 ? bin : 1));
    if (bin > 0) --bin;
  }
}

}  // namespace

void ShrinkWithinBins(const std::vector<double>& leaf_edges, const std::vector<double>& bin_edges,
                      const ColumnDomain& lattice, double scale, std::vector<double>& weights,
                      bool gaussian, const std::vector<std::int64_t>& groups) {
  if (!(scale > 0) || weights.empty()) return;
  // A (discrete) Laplace count's, about; a discrete Gaussian's is at most σ² (CKS 2020).
  const double noise_variance = (gaussian ? 1 : 2) * scale * scale;
  auto length = [&](std::size_t leaf) {
    const double left = leaf_edges[leaf], right = leaf_edges[leaf + 1];
    return lattice.step > 0 ? lattice.PointsIn(left, right) : right - left;
  };
  // James–Stein over the leaves [begin, end) toward their even spread by length.
  auto shrink = [&](std::size_t begin, std::size_t end) {
    double total = 0, span = 0;
    for (std::size_t j = begin; j < end; ++j) {
      total += weights[j];
      span += length(j);
    }
    const std::size_t k = end - begin;
    if (k < 3 || !(total > 0) || !(span > 0)) return;  // James–Stein needs k - 1 >= 2
    double deviation = 0;
    for (std::size_t j = begin; j < end; ++j) {
      const double even = total * length(j) / span;
      deviation += (weights[j] - even) * (weights[j] - even);
    }
    if (!(deviation > 0)) return;
    const double keep =
        std::max(0.0, 1.0 - static_cast<double>(k - 1) * noise_variance / deviation);
    for (std::size_t j = begin; j < end; ++j) {
      const double even = total * length(j) / span;
      weights[j] = even + keep * (weights[j] - even);
    }
  };
  const bool grouped = groups.size() == weights.size();
  std::size_t leaf = 0;
  for (std::size_t bin = 0; bin + 1 < bin_edges.size(); ++bin) {
    std::size_t begin = leaf;
    while (leaf < weights.size() && leaf_edges[leaf] < bin_edges[bin + 1]) {
      ++leaf;
      // A bin that spans magnitude groups shrinks within each group only: an even spread by
      // length across octaves would put half the bin's records in its top octave.
      if (grouped && leaf < weights.size() && leaf_edges[leaf] < bin_edges[bin + 1] &&
          groups[leaf] != groups[leaf - 1]) {
        shrink(begin, leaf);
        begin = leaf;
      }
    }
    shrink(begin, leaf);
  }
}

double LaplaceSumThreshold(std::size_t k, double scale, double p) {
  // For λ in (0, 1/scale): P[S >= T] <= exp(−λT − k·ln(1 − λ²scale²)). The smallest T with a λ
  // making that <= p: T(λ) = (ln(1/p) − k·ln(1 − λ²scale²)) / λ, minimised over a grid of λ
  // (the bound holds at every λ, so the grid's minimum is a valid threshold).
  const double kk = static_cast<double>(k);
  double best = HUGE_VAL;
  for (int i = 1; i < 200; ++i) {
    const double u = i / 200.0;  // λ·scale
    const double t = (std::log(1 / p) - kk * std::log1p(-u * u)) / (u / scale);
    best = std::min(best, t);
  }
  return best;
}

double NoiseSumThreshold(bool gaussian, std::size_t k, double scale, double p) {
  if (!gaussian) return LaplaceSumThreshold(k, scale, p);
  // Chernoff for the Gaussian, exp(−T²/(2kσ²)) <= p, as loose as the Laplace bound's (the
  // rules' p were measured with it: p = 0.5 must not take half the empty groups).
  return scale * std::sqrt(2 * static_cast<double>(k) * std::log(1 / p));
}

double NoiseThreshold(bool gaussian, double scale, double laplace_scales) {
  if (!gaussian) return laplace_scales * scale;
  return scale * GaussianTailInverseUpper(0.5 * std::exp(-laplace_scales));
}

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

  // A group's estimate of its records and, under Gaussian noise, that estimate's variance:
  // its leaves' noisy sum (variance leaves·σ²), combined by inverse variance with the group's
  // own noisy count when it was measured. Empty without groups (public bounds).
  struct Group {
    std::size_t first, last;
    double sum;
    double variance = 0;
  };
  std::vector<Group> groups;
  if (!leaves.groups.empty() && leaves.groups.size() != count) {
    return InvalidArgument("expected one group per leaf");
  }
  for (std::size_t j = 0; j < leaves.groups.size(); ++j) {
    if (j == 0 || leaves.groups[j] != leaves.groups[j - 1]) groups.push_back({j, j, 0.0});
    groups.back().last = j;
    groups.back().sum += count_of(j);
    groups.back().variance += scale * scale;
  }
  const bool measured = leaves.gaussian && !leaves.group_counts.empty() && !groups.empty();
  if (measured) {
    if (leaves.group_counts.size() != groups.size() || !(leaves.group_noise_scale > 0)) {
      return InvalidArgument("expected one noisy count per group and a positive noise scale");
    }
    const double group_variance = leaves.group_noise_scale * leaves.group_noise_scale;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const CountEstimate combined =
          CombineByInverseVariance({groups[g].sum, groups[g].variance},
                                   {static_cast<double>(leaves.group_counts[g]), group_variance});
      groups[g].sum = combined.value;
      groups[g].variance = combined.variance;
    }
  }

  // 1. Range: the groups that clearly hold records (all leaves under public bounds).
  std::size_t first = 0, last = count - 1;
  if (!groups.empty()) {
    auto above = [&](const Group& g, double p) {
      if (measured) return g.sum >= NoiseSumThreshold(true, 1, std::sqrt(g.variance), p);
      return g.sum >= NoiseSumThreshold(leaves.gaussian, g.last - g.first + 1, scale, p);
    };
    // Seeds: single groups above the seed threshold; then windows of 2..kSeedWindow consecutive
    // groups, none of them a seed, whose joint sum clears the seed threshold for all their
    // leaves (a thin cluster spread over a few magnitudes, such as capital-gain's non-zero
    // values, clears it jointly where no single bucket does). A window's end groups below the
    // extension threshold are not counted (they would only be noise riding on the cluster).
    std::size_t g_first = groups.size(), g_last = 0;
    std::vector<bool> seed(groups.size(), false);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!above(groups[g], kSeedFalsePositive)) continue;
      seed[g] = true;
      g_first = std::min(g_first, g);
      g_last = g;
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      Group window = groups[g];
      for (std::size_t end = g; end < groups.size() && end < g + kSeedWindow && !seed[end];
           ++end) {
        if (seed[g]) break;
        if (end > g) {
          window.last = groups[end].last;
          window.sum += groups[end].sum;
          window.variance += groups[end].variance;
        }
        if (end == g || !above(window, kSeedFalsePositive)) continue;
        std::size_t lo = g, hi = end;
        while (lo < hi && !above(groups[lo], kRangeExtendFalsePositive)) ++lo;
        while (hi > lo && !above(groups[hi], kRangeExtendFalsePositive)) --hi;
        g_first = std::min(g_first, lo);
        g_last = std::max(g_last, hi);
      }
    }
    if (g_first == groups.size()) {  // no seed: the heaviest group, extended as a seed is
      g_first = g_last = static_cast<std::size_t>(
          std::max_element(groups.begin(), groups.end(),
                           [](const Group& a, const Group& b) { return a.sum < b.sum; }) -
          groups.begin());
    }
    // Rule 1's extension, one group at a time. A narrow group (at most kNarrowTailFraction of
    // the range kept so far: the next magnitude toward 0) is taken on a positive noisy sum, an
    // exact test at p < 1/2; any other on the Chernoff test at kRangeExtendFalsePositive.
    auto width = [&](std::size_t a, std::size_t b) {
      return leaves.edges[groups[b].last + 1] - leaves.edges[groups[a].first];
    };
    auto extends = [&](std::size_t g) {
      if (groups[g].sum > 0 && width(g, g) <= kNarrowTailFraction * width(g_first, g_last)) {
        return true;
      }
      return above(groups[g], kRangeExtendFalsePositive);
    };
    while (g_first > 0 && extends(g_first - 1)) --g_first;
    while (g_last + 1 < groups.size() && extends(g_last + 1)) ++g_last;
    first = groups[g_first].first;
    last = groups[g_last].last;
  }
  // 1b. The range's end leaves: inside a coarse range, leaves at either end whose noisy count
  //     is below kEdgeTrimScales noise scales are cut off (unless none in the range clears it).
  if (!leaves.groups.empty()) {
    const double edge_threshold = NoiseThreshold(leaves.gaussian, scale, kEdgeTrimScales);
    bool any_clear = false;
    for (std::size_t j = first; j <= last && !any_clear; ++j) {
      any_clear = count_of(j) >= edge_threshold;
    }
    if (any_clear) {
      // A run of trimmed leaves stops once it jointly holds edge_threshold: a thin real tail
      // (leaves of a few dozen records each) loses at most its last leaf or two.
      double trimmed = 0;
      while (count_of(first) < edge_threshold && trimmed + count_of(first) < edge_threshold) {
        trimmed += std::max(count_of(first), 0.0);
        ++first;
      }
      trimmed = 0;
      while (count_of(last) < edge_threshold && trimmed + count_of(last) < edge_threshold) {
        trimmed += std::max(count_of(last), 0.0);
        --last;
      }
    }
  }
  std::vector<double> leaf_edges(leaves.edges.begin() + static_cast<std::ptrdiff_t>(first),
                                 leaves.edges.begin() + static_cast<std::ptrdiff_t>(last) + 2);

  // 2. Leaf weights. A group the adaptive stage left whole (one leaf: a magnitude bucket
  //    holding too little to split) weighs 0 unless its count clears kLoneLeafScales noise
  //    scales: the empty magnitudes between a spike and a cluster (capital-gain 1..113) then
  //    draw nothing instead of the positive part of their noise.
  auto lone = [&](std::size_t j) {
    if (leaves.groups.empty()) return false;
    const bool alone_left = j == 0 || leaves.groups[j - 1] != leaves.groups[j];
    const bool alone_right = j + 1 == count || leaves.groups[j + 1] != leaves.groups[j];
    return alone_left && alone_right;
  };
  const double lone_threshold = NoiseThreshold(leaves.gaussian, scale, kLoneLeafScales);
  std::vector<double> weights;
  double total = 0;
  for (std::size_t j = first; j <= last; ++j) {
    const bool noise_only = lone(j) && count_of(j) < lone_threshold;
    weights.push_back(noise_only ? 0.0 : std::max(count_of(j), 0.0));
    total += weights.back();
  }
  if (measured) {
    // 2b. A group inside the range whose own count was measured: its leaves' clamped weights
    //     are rescaled to the group's combined estimate (clamped at 0), which has no clamping
    //     bias; a lone leaf weighs that estimate when it clears kLoneLeafScales of its σ.
    total = 0;
    for (const Group& g : groups) {
      if (g.first < first || g.last > last) continue;
      double sum = 0;
      for (std::size_t j = g.first; j <= g.last; ++j) sum += weights[j - first];
      const bool clear = g.sum >= NoiseThreshold(true, std::sqrt(g.variance), kLoneLeafScales);
      const double target = clear ? g.sum : 0.0;
      if (g.first == g.last) {
        weights[g.first - first] = target;
      } else if (sum > 0) {
        for (std::size_t j = g.first; j <= g.last; ++j) weights[j - first] *= target / sum;
      }
    }
    for (const double w : weights) total += w;
  }
  if (!(total > 0)) {  // no leaf holds records: uniform over the range
    std::fill(weights.begin(), weights.end(), 1.0);
    total = static_cast<double>(weights.size());
  }

  // 3. Bins.
  ColumnDomain lattice;  // lattice arithmetic only
  lattice.step = leaves.step;
  // A single-value leaf that clearly holds records (kSingleValueThreshold noise scales).
  const double single_threshold = NoiseThreshold(leaves.gaussian, scale, kSingleValueThreshold);
  auto single_value = [&](std::size_t leaf) {
    return leaves.step > 0 && lattice.PointsIn(leaf_edges[leaf], leaf_edges[leaf + 1]) == 1 &&
           weights[leaf] >= single_threshold;
  };
  std::vector<double> bin_edges = {leaf_edges.front()};
  std::size_t singles = 0;
  for (std::size_t leaf = 0; leaf < weights.size(); ++leaf) {
    singles += single_value(leaf) ? 1 : 0;
  }
  if (binning.categorical && singles <= static_cast<std::size_t>(kMaxCategoricalNumericBins)) {
    // One bin per weighted single-value leaf; the leaves between them share a bin.
    for (std::size_t leaf = 0; leaf < weights.size(); ++leaf) {
      if (single_value(leaf)) {
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

  // 4. No empty bins; in a categorical column, the bins between single values that hold little
  //    (noise, rare values) join a neighbour.
  const double light = binning.categorical ? total / (2.0 * binning.max_bins) : 0.0;
  MergeLightBins(leaf_edges, weights, light,
                 [&](double left, double right) {
                   if (!binning.categorical || leaves.step <= 0 ||
                       lattice.PointsIn(left, right) != 1) {
                     return false;
                   }
                   const auto leaf = static_cast<std::size_t>(
                       std::lower_bound(leaf_edges.begin(), leaf_edges.end(), left) -
                       leaf_edges.begin());
                   return single_value(leaf);
                 },
                 bin_edges);

  // 4b. Within each bin, the leaves' weights shrink toward the bin's even spread (rule 6);
  //     with measured group counts, within each magnitude group of the bin.
  std::vector<std::int64_t> leaf_groups;
  if (measured) {
    leaf_groups.assign(leaves.groups.begin() + static_cast<std::ptrdiff_t>(first),
                       leaves.groups.begin() + static_cast<std::ptrdiff_t>(last) + 1);
  }
  ShrinkWithinBins(leaf_edges, bin_edges, lattice, scale, weights, leaves.gaussian, leaf_groups);

  // 5. At most kMaxLeaves leaves in all (a 1.5M-row column can have 100,000): within each bin,
  //    consecutive leaves merge into groups of about equal weight, a heavy leaf staying alone.
  if (weights.size() > kMaxLeaves) {
    const std::size_t per_bin = std::max<std::size_t>(1, kMaxLeaves / (bin_edges.size() - 1));
    std::vector<double> merged_edges = {leaf_edges.front()};
    std::vector<double> merged_weights;
    std::size_t leaf = 0;
    for (std::size_t bin = 0; bin + 1 < bin_edges.size(); ++bin) {
      std::size_t end = leaf;
      double bin_weight = 0;
      while (end < weights.size() && leaf_edges[end] < bin_edges[bin + 1]) bin_weight += weights[end++];
      const double target = bin_weight / static_cast<double>(per_bin);
      double accumulated = 0;
      for (; leaf < end; ++leaf) {
        const bool heavy = weights[leaf] >= target;
        if (heavy && accumulated > 0) {
          merged_edges.push_back(leaf_edges[leaf]);
          merged_weights.push_back(accumulated);
          accumulated = 0;
        }
        accumulated += weights[leaf];
        if ((heavy || accumulated >= target) && leaf + 1 < end) {
          merged_edges.push_back(leaf_edges[leaf + 1]);
          merged_weights.push_back(accumulated);
          accumulated = 0;
        }
      }
      merged_edges.push_back(bin_edges[bin + 1]);
      merged_weights.push_back(accumulated);
    }
    leaf_edges = std::move(merged_edges);
    weights = std::move(merged_weights);
  }

  // The second pass per bin, raw (before rules 2, 5, 6): the sum of its leaves' noisy counts,
  // variance leaves × the count's (discrete Gaussian: σ²; discrete Laplace: 2·scale²). The edge
  // bins also receive the values clamped from beyond the range, which their leaves did not
  // count: they are left unmeasured (variance 0).
  std::vector<double> bin_counts(bin_edges.size() - 1, 0.0);
  std::vector<double> bin_variances(bin_edges.size() - 1, 0.0);
  {
    const double leaf_variance = (leaves.gaussian ? 1.0 : 2.0) * scale * scale;
    std::size_t bin = 0;
    for (std::size_t j = first; j <= last; ++j) {
      while (bin + 1 < bin_counts.size() && leaves.edges[j] >= bin_edges[bin + 1]) ++bin;
      bin_counts[bin] += count_of(j);
      bin_variances[bin] += leaf_variance;
    }
    if (!leaves.groups.empty()) {
      bin_variances.front() = 0;
      bin_variances.back() = 0;
    }
  }
  if (Status s = domain.SetBins(std::move(bin_edges), leaves.step); !s) return s;
  domain.bin_noisy_counts = std::move(bin_counts);
  domain.bin_noise_variances = std::move(bin_variances);
  return domain.SetLeaves(std::move(leaf_edges), std::move(weights));
}

}  // namespace deniable
