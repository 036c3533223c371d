// SPDX-License-Identifier: Apache-2.0
// A geo pair's domain (schema/geo_pairs.h, ColumnDomain::geo): from the leaves of a private
// quadtree over (lat, lon) (histogram/column_histograms.h LearnGeoHistogram) to the model's
// codes ("regions") and the within-region detail (the cells and their weights); then encoding a
// point into a region and drawing a point from one. Pure post-processing of DP outputs (the
// leaves and their noisy second-pass counts) and public settings: no data is read here.
//
// Rules (in terms of the noisy counts c_j of the cells and the count noise scale s of the second
// pass, both released), the 2-D counterpart of model/numeric_bins.h:
//  1. Empty regions. Over the globe (no fully declared public box) nearly all of the quadtree is
//     empty, and every empty leaf carries a noisy count: at ε = 1 on a city's stops, a few dozen
//     empty quadrants of the planet, whose positive noise would put a few percent of the
//     synthetic points in the ocean. The cells come in groups: the quadtree nodes at the first
//     level whose side is at most kGeoGroupDegrees (a public constant: 1° ≈ 111 km, a city and
//     its surroundings), a leaf above that level being a group of its own. As for numeric
//     columns (magnitude buckets), a group's noisy sum over its k cells is compared with the tail
//     of a sum of k Laplace noises (LaplaceSumThreshold): groups above the p = kSeedFalsePositive
//     threshold are seeds, groups above the p = kExtendFalsePositive threshold are candidates;
//     the kept groups are the connected components (groups whose lattice rectangles touch, sides
//     or corners) of candidates that hold a seed or clear the seed threshold jointly (a thin
//     cluster spread over a few groups). That is hysteresis in 2-D: a thin real fringe next to
//     the data is kept; an empty group far from it only with probability about 1e-5 (as a seed),
//     an empty neighbour with probability <= 5%. With no kept group, the heaviest group alone.
//     Cells outside the kept groups weigh 0: they still have codes (the regions below cover
//     the box, so every real point encodes), but decoding never draws them.
//     Inside a fully declared public box nothing is cut (as numeric columns with public bounds).
//  2. Cell weights: the noisy count clamped at 0, except that a group of one cell (a quadrant
//     the adaptive stage never split) weighs 0 below kLoneLeafScales noise scales.
//  3. Regions: consecutive cells in Morton order merged into at most `max_regions` runs of about
//     equal weight (a run of the Z-curve is a union of a few quadtree squares: mostly compact);
//     a cell holding at least half a region's share stands alone (a hot spot, a depot, becomes
//     its own code). The model's cardinality is the number of regions: PrivBayes's noise grows
//     with it, so a pair costs as many codes as one numeric column, not their product.
//  4. Regions without weight join a neighbour (the model gets no empty codes); beyond
//     `max_regions` (heavy cells alone can make up to twice as many runs), the lightest
//     neighbouring pair of regions merges until there are max_regions.
// Privacy: everything above reads only the histogram's released outputs (leaves and noisy
// counts) and public constants: post-processing, no ε.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/histogram/geo_decomposition.h"
#include "engine/model/domain.h"

namespace deniable {

inline constexpr double kGeoGroupDegrees = 1.0;
// The lattice of a pair whose columns give none (Floats written in shortest form): 10^-6° is
// about 0.1 m, finer than any positioning; coarsened like any lattice to fit the box.
inline constexpr double kGeoDefaultResolution = 1e-6;

struct NoisyGeoCells {
  std::vector<GeoDecomposition::Node> nodes;  // the quadtree's leaves, Morton order
  std::vector<std::int64_t> counts;           // noisy counts, one per leaf (may be negative)
  double count_noise_scale = 1;               // scale of the discrete Laplace noise
  bool gaussian = false;  // discrete Gaussian noise of σ = count_noise_scale (numeric_bins.h)
  bool cut_empty = true;                      // rule 1 (false inside a declared box)
};

struct GeoBinning {
  int max_regions = 20;
  double group_degrees = kGeoGroupDegrees;
};

// The cells (weights, regions) of rules 1-4; `longitude` is left for the caller to set. Fails
// (kInvalidArgument) only on a malformed input (sizes that disagree, leaves that do not
// partition the box, a non-positive scale or region count).
Result<GeoCells> GeoCellsFromNoisy(const GeoDecomposition& decomposition,
                                   const NoisyGeoCells& noisy, const GeoBinning& binning);

// A public layout without data: the quadtree nodes at the deepest level with at most
// `max_regions` nodes, each weighted by its lattice points (uniform over the box), each a
// region. For a declared box and no domain budget.
GeoCells UniformGeoCells(const GeoDecomposition& decomposition, int max_regions);

// The lattice of a pair: the finer of the columns' lattices (model/domains.h LatticeStepOf;
// kGeoDefaultResolution when neither has one), coarsened by factors of ten until the box has at
// most 2^32 lattice points per axis (the globe at 8 decimals: 1e-7°).
double GeoResolutionOf(double latitude_step, double longitude_step, const GeoBox& box);

// Structural checks of a geo layout (the decomposition can be built, the cells partition the
// box in Morton order, weights finite and >= 0, regions non-empty runs covering every cell);
// an empty string when valid. Used on descriptions read from files.
std::string ValidateGeoCells(const GeoCells& cells);

// The lattice extent of region `region`'s weighted cells (of all its cells when none weighs
// anything): false when the layout's box or region index is unusable.
bool GeoRegionExtent(const GeoCells& cells, std::uint32_t region, GeoPoint& first, GeoPoint& last);

// Encoding and decoding with a validated layout; `cells` must outlive the codec.
class GeoCodec {
 public:
  static Result<GeoCodec> Create(const GeoCells& cells);
  // The region holding the point (clamped into the box; finite coordinates).
  std::uint32_t RegionOf(const GeoPoint& point) const;
  // A cell of the region by weight, then a uniform lattice point of the cell.
  GeoPoint Draw(std::uint32_t region, Rng& rng) const;

 private:
  GeoCodec(const GeoCells& cells, GeoDecomposition decomposition);
  const GeoCells* cells_;
  GeoDecomposition decomposition_;
  std::vector<double> cumulative_;  // per cell: running weight within its region
};

}  // namespace deniable
