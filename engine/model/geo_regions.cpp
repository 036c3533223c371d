// SPDX-License-Identifier: Apache-2.0
#include "engine/model/geo_regions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "engine/model/numeric_bins.h"

namespace deniable {
namespace {

using Node = GeoDecomposition::Node;

// Side of a level's squares in lattice points: 2^(K - level).
std::uint64_t SideAt(const GeoDecomposition& d, std::uint32_t level) {
  return std::uint64_t{1} << (d.levels() - level);
}

// Whether `nodes` are, in order, exactly the leaves of a subdivision of the root (each node
// split into the quadrants that meet the box, as GeoDecomposition::Child makes them).
bool PartitionsRoot(const GeoDecomposition& d, const std::vector<std::uint64_t>& keys,
                    const std::vector<std::uint32_t>& levels) {
  std::vector<Node> stack{d.Root()};
  std::size_t next = 0;
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    if (next == keys.size()) return false;
    if (levels[next] == node.level && keys[next] == node.key) {
      ++next;
      continue;
    }
    // The next cell must lie strictly inside this node.
    const std::uint32_t shift = 2 * (d.levels() - node.level);
    const bool inside = levels[next] > node.level &&
                        (shift >= 64 || (keys[next] >> shift) == (node.key >> shift));
    if (!inside || d.Branching(node) == 0) return false;
    for (std::uint32_t c = d.Branching(node); c-- > 0;) stack.push_back(d.Child(node, c));
  }
  return next == keys.size();
}

// A group of consecutive cells (rule 1) and its lattice rectangle.
struct Group {
  std::size_t first = 0, last = 0;  // cells
  double sum = 0;                   // noisy counts
  std::uint64_t anchor = 0;         // Morton key of the group's square
  std::uint64_t i0 = 0, j0 = 0, side = 1;
  bool grid = false;                // an ancestor at the group level (else one shallow leaf)
};

bool Touch(const Group& a, const Group& b) {
  return a.i0 <= b.i0 + b.side && b.i0 <= a.i0 + a.side && a.j0 <= b.j0 + b.side &&
         b.j0 <= a.j0 + a.side;
}

std::size_t Find(std::vector<std::size_t>& parent, std::size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Rules 1-2 per cell: whether it lies in a kept group, and whether it may weigh anything (not
// a lone cell below kLoneLeafScales noise scales).
struct KeptCells {
  std::vector<bool> in_kept_group;
  std::vector<bool> weighted;
};

KeptCells FindKeptCells(const GeoDecomposition& d, const NoisyGeoCells& noisy,
                        double group_degrees) {
  const std::size_t count = noisy.nodes.size();
  if (!noisy.cut_empty) return {std::vector<bool>(count, true), std::vector<bool>(count, true)};
  const double scale = noisy.count_noise_scale;
  std::uint32_t group_level = d.levels();
  for (std::uint32_t level = 0; level <= d.levels(); ++level) {
    if (static_cast<double>(SideAt(d, level)) * d.resolution() <= group_degrees) {
      group_level = level;
      break;
    }
  }
  std::vector<Group> groups;
  for (std::size_t c = 0; c < count; ++c) {
    const Node& node = noisy.nodes[c];
    const bool grid = node.level >= group_level;
    const std::uint32_t level = grid ? group_level : node.level;
    const std::uint32_t shift = 2 * (d.levels() - level);
    const std::uint64_t anchor = shift >= 64 ? 0 : (node.key >> shift) << shift;
    if (groups.empty() || !grid || !groups.back().grid || anchor != groups.back().anchor) {
      Group g;
      g.first = c;
      g.anchor = anchor;
      g.grid = grid;
      std::uint32_t i = 0, j = 0;
      GeoDecomposition::Deinterleave(anchor, i, j);
      g.i0 = i;
      g.j0 = j;
      g.side = SideAt(d, level);
      groups.push_back(g);
    }
    groups.back().last = c;
    groups.back().sum += static_cast<double>(noisy.counts[c]);
  }
  auto above = [&](const Group& g, double p) {
    return g.sum >= NoiseSumThreshold(noisy.gaussian, g.last - g.first + 1, scale, p);
  };
  // Candidates and their components (union-find). Grid groups find their neighbours in a map of
  // group squares; the few shallow leaves are compared with every candidate.
  std::vector<std::size_t> parent(groups.size());
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  std::vector<bool> candidate(groups.size()), seed(groups.size());
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> grid_index;
  std::vector<std::size_t> candidates;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    candidate[g] = above(groups[g], kExtendFalsePositive);
    seed[g] = candidate[g] && above(groups[g], kSeedFalsePositive);
    if (!candidate[g]) continue;
    candidates.push_back(g);
    if (groups[g].grid) {
      grid_index[{groups[g].i0 / groups[g].side, groups[g].j0 / groups[g].side}] = g;
    }
  }
  auto unite = [&](std::size_t a, std::size_t b) { parent[Find(parent, a)] = Find(parent, b); };
  for (std::size_t g : candidates) {
    const Group& group = groups[g];
    if (group.grid) {
      const std::uint64_t gi = group.i0 / group.side, gj = group.j0 / group.side;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          if ((di < 0 && gi == 0) || (dj < 0 && gj == 0)) continue;
          const auto it = grid_index.find(
              {static_cast<std::uint64_t>(static_cast<std::int64_t>(gi) + di),
               static_cast<std::uint64_t>(static_cast<std::int64_t>(gj) + dj)});
          if (it != grid_index.end()) unite(g, it->second);
        }
      }
    } else {
      for (std::size_t other : candidates) {
        if (other != g && Touch(group, groups[other])) unite(g, other);
      }
    }
  }
  // Components that hold a seed or clear the seed threshold jointly.
  struct Component {
    double sum = 0;
    std::size_t cells = 0;
    bool seed = false;
  };
  std::map<std::size_t, Component> components;
  for (std::size_t g : candidates) {
    Component& component = components[Find(parent, g)];
    component.sum += groups[g].sum;
    component.cells += groups[g].last - groups[g].first + 1;
    component.seed = component.seed || seed[g];
  }
  std::vector<bool> kept_group(groups.size(), false);
  bool any = false;
  for (std::size_t g : candidates) {
    const Component& component = components[Find(parent, g)];
    if (component.seed ||
        component.sum >= NoiseSumThreshold(noisy.gaussian, component.cells, scale,
                                           kSeedFalsePositive)) {
      kept_group[g] = true;
      any = true;
    }
  }
  if (!any) {  // the heaviest group alone
    const auto heaviest = std::max_element(
        groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.sum < b.sum; });
    kept_group[static_cast<std::size_t>(heaviest - groups.begin())] = true;
  }
  KeptCells kept{std::vector<bool>(count, false), std::vector<bool>(count, false)};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!kept_group[g]) continue;
    // Rule 2's lone cells: a group of one cell weighs 0 below kLoneLeafScales noise scales.
    const bool lone = groups[g].first == groups[g].last;
    for (std::size_t c = groups[g].first; c <= groups[g].last; ++c) {
      kept.in_kept_group[c] = true;
      kept.weighted[c] = !lone || static_cast<double>(noisy.counts[c]) >=
                                      NoiseThreshold(noisy.gaussian, scale, kLoneLeafScales);
    }
  }
  return kept;
}

}  // namespace

Result<GeoCells> GeoCellsFromNoisy(const GeoDecomposition& decomposition,
                                   const NoisyGeoCells& noisy, const GeoBinning& binning) {
  const std::size_t count = noisy.nodes.size();
  if (count == 0 || noisy.counts.size() != count) {
    return InvalidArgument("expected one noisy count per quadtree cell");
  }
  if (!(noisy.count_noise_scale > 0) || binning.max_regions < 1) {
    return InvalidArgument("the noise scale and the number of regions must be positive");
  }
  GeoCells cells;
  cells.resolution = decomposition.resolution();
  cells.box = decomposition.box();
  for (const Node& node : noisy.nodes) {
    cells.keys.push_back(node.key);
    cells.levels.push_back(node.level);
  }
  if (!PartitionsRoot(decomposition, cells.keys, cells.levels)) {
    return InvalidArgument("the quadtree cells do not partition the box in Morton order");
  }

  // Rules 1-2: weights.
  const KeptCells kept = FindKeptCells(decomposition, noisy, binning.group_degrees);
  double total = 0;
  for (std::size_t c = 0; c < count; ++c) {
    cells.weights.push_back(
        kept.weighted[c] ? std::max(static_cast<double>(noisy.counts[c]), 0.0) : 0.0);
    total += cells.weights.back();
  }
  if (!(total > 0)) {  // nothing clearly holds records: uniform over the kept groups
    for (std::size_t c = 0; c < count; ++c) {
      cells.weights[c] = kept.in_kept_group[c] ? decomposition.Points(noisy.nodes[c]) : 0.0;
      total += cells.weights[c];
    }
  }

  // Rule 3: runs of about equal weight; a heavy cell stands alone.
  const double share = total / binning.max_regions;
  std::vector<std::uint32_t> starts = {0};
  double accumulated = 0;
  for (std::size_t c = 0; c < count; ++c) {
    const bool heavy = cells.weights[c] >= share / 2;
    if (heavy && accumulated > 0) {
      starts.push_back(static_cast<std::uint32_t>(c));
      accumulated = 0;
    }
    accumulated += cells.weights[c];
    if ((heavy || accumulated >= share) && c + 1 < count) {
      starts.push_back(static_cast<std::uint32_t>(c + 1));
      accumulated = 0;
    }
  }
  starts.push_back(static_cast<std::uint32_t>(count));

  // Rule 4: a region without weight joins its left neighbour (the first one its right one).
  auto weight_of = [&](std::size_t r) {
    double w = 0;
    for (std::uint32_t c = starts[r]; c < starts[r + 1]; ++c) w += cells.weights[c];
    return w;
  };
  for (std::size_t r = 0; starts.size() > 2 && r + 1 < starts.size();) {
    if (weight_of(r) > 0) {
      ++r;
      continue;
    }
    starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(r > 0 ? r : 1));
    if (r > 0) --r;
  }
  // Heavy cells standing alone can close a region at half a share: at most 2·max_regions runs.
  // Down to max_regions, the lightest neighbouring pair merges (the first on a tie).
  while (starts.size() - 1 > static_cast<std::size_t>(binning.max_regions)) {
    std::size_t lightest = 0;
    double best = HUGE_VAL;
    for (std::size_t r = 0; r + 2 < starts.size(); ++r) {
      const double pair = weight_of(r) + weight_of(r + 1);
      if (pair < best) {
        best = pair;
        lightest = r;
      }
    }
    starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(lightest) + 1);
  }
  cells.region_starts = std::move(starts);
  return cells;
}

GeoCells UniformGeoCells(const GeoDecomposition& decomposition, int max_regions) {
  // The deepest level with at most max_regions nodes (Morton order: depth-first in child order).
  std::vector<Node> level_nodes = {decomposition.Root()};
  while (true) {
    std::vector<Node> next;
    for (const Node& node : level_nodes) {
      const std::uint32_t branching = decomposition.Branching(node);
      if (branching == 0) {
        next.clear();
        break;
      }
      for (std::uint32_t c = 0; c < branching; ++c) next.push_back(decomposition.Child(node, c));
    }
    if (next.empty() || next.size() > static_cast<std::size_t>(std::max(max_regions, 1))) break;
    level_nodes = std::move(next);
  }
  GeoCells cells;
  cells.resolution = decomposition.resolution();
  cells.box = decomposition.box();
  for (std::size_t c = 0; c < level_nodes.size(); ++c) {
    cells.keys.push_back(level_nodes[c].key);
    cells.levels.push_back(level_nodes[c].level);
    cells.weights.push_back(decomposition.Points(level_nodes[c]));
    cells.region_starts.push_back(static_cast<std::uint32_t>(c));
  }
  cells.region_starts.push_back(static_cast<std::uint32_t>(level_nodes.size()));
  return cells;
}

double GeoResolutionOf(double latitude_step, double longitude_step, const GeoBox& box) {
  double resolution = kGeoDefaultResolution;
  if (latitude_step > 0 && longitude_step > 0) {
    resolution = std::min(latitude_step, longitude_step);
  } else if (latitude_step > 0 || longitude_step > 0) {
    resolution = std::max(latitude_step, longitude_step);
  }
  const double span = std::max(box.lat_hi - box.lat_lo, box.lon_hi - box.lon_lo);
  while (std::round(span / resolution) + 1 > 0x1p32) resolution *= 10;
  return resolution;
}

std::string ValidateGeoCells(const GeoCells& cells) {
  auto decomposition = GeoDecomposition::Create(cells.resolution, cells.box);
  if (!decomposition) return decomposition.error().message;
  const std::size_t count = cells.keys.size();
  if (count == 0 || cells.levels.size() != count || cells.weights.size() != count) {
    return "expected at least one cell, with one level and one weight each";
  }
  for (double w : cells.weights) {
    if (!(w >= 0) || !std::isfinite(w)) return "cell weights must be finite and >= 0";
  }
  for (std::uint32_t level : cells.levels) {
    if (level > decomposition->levels()) return "a cell's level is deeper than the quadtree";
  }
  if (!PartitionsRoot(*decomposition, cells.keys, cells.levels)) {
    return "the cells do not partition the box in Morton order";
  }
  const auto& starts = cells.region_starts;
  if (starts.size() < 2 || starts.size() > 65'001 || starts.front() != 0 ||
      starts.back() != count) {
    return "regions must start at cell 0 and end at the last cell (between 1 and 65,000 regions)";
  }
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    if (!(starts[r] < starts[r + 1])) return "every region must hold at least one cell";
  }
  return "";
}

Result<GeoCodec> GeoCodec::Create(const GeoCells& cells) {
  if (std::string problem = ValidateGeoCells(cells); !problem.empty()) {
    return InvalidArgument("geo cells: " + problem);
  }
  auto decomposition = GeoDecomposition::Create(cells.resolution, cells.box);
  if (!decomposition) return decomposition.error();
  return GeoCodec(cells, std::move(decomposition.value()));
}

GeoCodec::GeoCodec(const GeoCells& cells, GeoDecomposition decomposition)
    : cells_(&cells), decomposition_(std::move(decomposition)) {
  cumulative_.assign(cells.cells(), 0.0);
  for (std::size_t r = 0; r < cells.regions(); ++r) {
    double running = 0;
    for (std::uint32_t c = cells.region_starts[r]; c < cells.region_starts[r + 1]; ++c) {
      running += cells.weights[c];
      cumulative_[c] = running;
    }
  }
}

std::uint32_t GeoCodec::RegionOf(const GeoPoint& point) const {
  const std::uint64_t key = decomposition_.ToValue(point);
  const auto& keys = cells_->keys;
  const auto after = std::upper_bound(keys.begin(), keys.end(), key);
  const auto cell = static_cast<std::uint32_t>(after == keys.begin() ? 0 : after - keys.begin() - 1);
  const auto& starts = cells_->region_starts;
  return static_cast<std::uint32_t>(std::upper_bound(starts.begin(), starts.end(), cell) -
                                    starts.begin() - 1);
}

GeoPoint GeoCodec::Draw(std::uint32_t region, Rng& rng) const {
  const std::uint32_t first = cells_->region_starts[region];
  const std::uint32_t last = cells_->region_starts[region + 1];
  std::size_t cell = first;
  if (cumulative_[last - 1] > 0) {
    const double target = UniformUnit(rng) * cumulative_[last - 1];
    cell = static_cast<std::size_t>(
        std::upper_bound(cumulative_.begin() + first, cumulative_.begin() + last, target) -
        cumulative_.begin());
    cell = std::min<std::size_t>(cell, last - 1);
  } else {
    cell = first + UniformBelow(rng, last - first);
  }
  const Node node{cells_->keys[cell], cells_->levels[cell]};
  return decomposition_.FromValue(decomposition_.Draw(node, rng));
}

bool GeoRegionExtent(const GeoCells& cells, std::uint32_t region, GeoPoint& first,
                     GeoPoint& last) {
  auto decomposition = GeoDecomposition::Create(cells.resolution, cells.box);
  if (!decomposition || region >= cells.regions()) return false;
  const std::uint32_t begin = cells.region_starts[region];
  const std::uint32_t end = std::min<std::uint32_t>(cells.region_starts[region + 1],
                                                    static_cast<std::uint32_t>(cells.cells()));
  bool weighted = false;
  for (std::uint32_t c = begin; c < end; ++c) weighted = weighted || cells.weights[c] > 0;
  bool any = false;
  for (std::uint32_t c = begin; c < end; ++c) {
    if (weighted && !(cells.weights[c] > 0)) continue;
    const Node node{cells.keys[c], cells.levels[c]};
    const GeoPoint a = decomposition->First(node), b = decomposition->Last(node);
    if (!any) {
      first = a;
      last = b;
      any = true;
    } else {
      first.lat = std::min(first.lat, a.lat);
      first.lon = std::min(first.lon, a.lon);
      last.lat = std::max(last.lat, b.lat);
      last.lon = std::max(last.lon, b.lon);
    }
  }
  return any;
}

}  // namespace deniable
