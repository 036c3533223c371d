// SPDX-License-Identifier: Apache-2.0
// Post-processing of a geo pair's quadtree (model/geo_regions.h) on a hand-made 8 × 8 lattice,
// with exact expectations: which groups are cut, the weights, the regions, encoding and
// decoding, and the checks a description's layout goes through.
#include "engine/model/geo_regions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/random.h"
#include "engine/model/numeric_bins.h"

namespace deniable {
namespace {

using Node = GeoDecomposition::Node;

// Points (i, j) = (lat, lon) in 0..7, one degree apart: K = 3 levels, squares of side 8, 4, 2,
// 1 at levels 0..3.
GeoDecomposition Lattice() { return GeoDecomposition::Create(1.0, GeoBox{0, 7, 0, 7}).value(); }

// The root split into its quadrants q0..q3 (level 1), q0 into q00..q03 (level 2), q00 into its
// four points (level 3). Morton order: q000 q001 q002 q003 q01 q02 q03 q1 q2 q3.
std::vector<Node> TenCells(const GeoDecomposition& d) {
  const Node root = d.Root();
  const Node q0 = d.Child(root, 0);
  const Node q00 = d.Child(q0, 0);
  std::vector<Node> cells;
  for (std::uint32_t c = 0; c < 4; ++c) cells.push_back(d.Child(q00, c));
  for (std::uint32_t c = 1; c < 4; ++c) cells.push_back(d.Child(q0, c));
  for (std::uint32_t c = 1; c < 4; ++c) cells.push_back(d.Child(root, c));
  return cells;
}

// Counts at noise scale 1 (the thresholds: a group of one cell is a candidate from about 5.0,
// a seed from about 14.5 (LaplaceSumThreshold); a lone cell weighs from 5 = kLoneLeafScales):
//  q00's points 500, 300, 0, 200: a seed; q01 = 8: a candidate touching it (kept, and above 5);
//  q02 = q03 = 3: below the candidate threshold (cut); q1 = -3, q2 = 0: cut; q3 = 10: a
//  candidate, but touching no kept group, without a seed and below the seed threshold: cut.
NoisyGeoCells Noisy(const GeoDecomposition& d, bool cut_empty) {
  NoisyGeoCells noisy;
  noisy.nodes = TenCells(d);
  noisy.counts = {500, 300, 0, 200, 8, 3, 3, -3, 0, 10};
  noisy.count_noise_scale = 1;
  noisy.cut_empty = cut_empty;
  return noisy;
}

GeoBinning Binning(int regions) {
  GeoBinning binning;
  binning.max_regions = regions;
  binning.group_degrees = 2;  // groups: the level-2 squares (side 2), shallower cells alone
  return binning;
}

TEST(GeoRegionsTest, ThresholdsOfTheExampleAreWhereTheCommentSays) {
  EXPECT_GT(LaplaceSumThreshold(1, 1.0, kExtendFalsePositive), 3.0);
  EXPECT_LT(LaplaceSumThreshold(1, 1.0, kExtendFalsePositive), 8.0);
  EXPECT_GT(LaplaceSumThreshold(1, 1.0, kSeedFalsePositive), 10.0);
  EXPECT_LT(LaplaceSumThreshold(1, 1.0, kSeedFalsePositive), 1000.0);
}

TEST(GeoRegionsTest, CutsEmptyGroupsFarFromTheDataAndMergesIntoEqualWeightRuns) {
  const GeoDecomposition d = Lattice();
  auto cells = GeoCellsFromNoisy(d, Noisy(d, /*cut_empty=*/true), Binning(4));
  ASSERT_TRUE(cells.has_value()) << cells.error().message;
  EXPECT_EQ(cells->weights, (std::vector<double>{500, 300, 0, 200, 8, 0, 0, 0, 0, 0}));
  // Share 1008 / 4 = 252: the three heavy points stand alone, the rest is one run.
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 1, 2, 4, 10}));
  EXPECT_EQ(cells->resolution, 1.0);
  EXPECT_EQ(cells->levels, (std::vector<std::uint32_t>{3, 3, 3, 3, 2, 2, 2, 1, 1, 1}));
  EXPECT_EQ(ValidateGeoCells(*cells), "");
}

// The marginals mode's Gaussian second pass (σ = 1): the thresholds keep their false-positive
// rates and sit lower, so q3 = 10, cut under Laplace noise (a candidate below the seed
// threshold 14.5, touching no kept group), is a seed of its own (σ·√(2 ln 1e5) = 4.8), and the
// q02/q03 cells of 3 are candidates (Chernoff at p = 0.05: 2.45) that join q00's component.
TEST(GeoRegionsTest, GaussianCountsKeepWhatTheirLighterTailsShow) {
  const GeoDecomposition d = Lattice();
  NoisyGeoCells noisy = Noisy(d, /*cut_empty=*/true);
  noisy.gaussian = true;
  EXPECT_NEAR(NoiseSumThreshold(true, 1, 1.0, kSeedFalsePositive), std::sqrt(2 * std::log(1e5)),
              1e-12);
  EXPECT_LT(NoiseSumThreshold(true, 1, 1.0, kExtendFalsePositive), 3.0);
  auto cells = GeoCellsFromNoisy(d, noisy, Binning(4));
  ASSERT_TRUE(cells.has_value()) << cells.error().message;
  // A lone cell weighs from NoiseThreshold(σ = 1, 5 scales) = Q⁻¹(½e⁻⁵) ≈ 2.71: q3 = 10 does.
  EXPECT_EQ(cells->weights, (std::vector<double>{500, 300, 0, 200, 8, 3, 3, 0, 0, 10}));
}

TEST(GeoRegionsTest, InsideADeclaredBoxNothingIsCut) {
  const GeoDecomposition d = Lattice();
  auto cells = GeoCellsFromNoisy(d, Noisy(d, /*cut_empty=*/false), Binning(4));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->weights, (std::vector<double>{500, 300, 0, 200, 8, 3, 3, 0, 0, 10}));
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 1, 2, 4, 10}));
}

TEST(GeoRegionsTest, ASeedFarAwayIsKeptAndAJointClusterToo) {
  const GeoDecomposition d = Lattice();
  NoisyGeoCells noisy = Noisy(d, true);
  noisy.counts[9] = 40;  // q3 is now a seed of its own
  auto cells = GeoCellsFromNoisy(d, noisy, Binning(4));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->weights[9], 40);
  // q02 and q03 at 9 each: candidates, together 18, touching each other but no seed (q00 made
  // empty), jointly above the seed threshold for two cells: kept.
  noisy.counts = {0, 0, 0, 0, 0, 9, 9, 0, 0, 0};
  ASSERT_LT(LaplaceSumThreshold(2, 1.0, kSeedFalsePositive), 18.0);  // about 16.1
  ASSERT_GT(LaplaceSumThreshold(1, 1.0, kSeedFalsePositive), 9.0);
  cells = GeoCellsFromNoisy(d, noisy, Binning(4));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->weights, (std::vector<double>{0, 0, 0, 0, 0, 9, 9, 0, 0, 0}));
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 6, 10}));
  // Nothing anywhere: the heaviest group alone, weighted by its lattice points.
  noisy.counts = {0, 0, 0, 0, 0, 0, 0, -1, 2, 1};
  cells = GeoCellsFromNoisy(d, noisy, Binning(4));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->weights, (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 16, 0}));
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 10}));
}

TEST(GeoRegionsTest, NeverMoreRegionsThanAsked) {
  const GeoDecomposition d = Lattice();
  NoisyGeoCells noisy = Noisy(d, /*cut_empty=*/false);
  // Eight cells of equal weight, each at least half a share (80 / 4 / 2 = 10): eight heavy
  // runs, merged pairwise, lightest first, into four.
  noisy.counts = {10, 10, 10, 10, 10, 10, 10, 10, 0, -2};
  auto cells = GeoCellsFromNoisy(d, noisy, Binning(4));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 2, 4, 6, 10}));
  cells = GeoCellsFromNoisy(d, noisy, Binning(1));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->region_starts, (std::vector<std::uint32_t>{0, 10}));
}

TEST(GeoRegionsTest, EncodesEveryPointOfTheBoxAndDrawsOnlyWeightedCells) {
  const GeoDecomposition d = Lattice();
  const GeoCells cells = GeoCellsFromNoisy(d, Noisy(d, true), Binning(4)).value();
  auto codec = GeoCodec::Create(cells);
  ASSERT_TRUE(codec.has_value()) << codec.error().message;
  EXPECT_EQ(codec->RegionOf({0, 0}), 0u);    // q000
  EXPECT_EQ(codec->RegionOf({0, 1}), 1u);    // q001
  EXPECT_EQ(codec->RegionOf({1, 1}), 2u);    // q003
  EXPECT_EQ(codec->RegionOf({0.4, 2.6}), 3u);  // q01, rounded onto the lattice
  EXPECT_EQ(codec->RegionOf({7, 7}), 3u);    // q3 (cut: weight 0, still a code)
  EXPECT_EQ(codec->RegionOf({100, -5}), 3u);  // clamped to (7, 0): q2
  SeededRng rng(7);
  for (int k = 0; k < 200; ++k) {
    const GeoPoint zero = codec->Draw(0, rng);
    EXPECT_EQ(zero.lat, 0);
    EXPECT_EQ(zero.lon, 0);
    const GeoPoint two = codec->Draw(2, rng);  // q002 weighs 0: always q003 = (1, 1)
    EXPECT_EQ(two.lat, 1);
    EXPECT_EQ(two.lon, 1);
    const GeoPoint three = codec->Draw(3, rng);  // only q01 weighs: i 0..1, j 2..3
    EXPECT_TRUE(three.lat == 0 || three.lat == 1);
    EXPECT_TRUE(three.lon == 2 || three.lon == 3);
  }
  GeoPoint first, last;
  ASSERT_TRUE(GeoRegionExtent(cells, 3, first, last));
  EXPECT_EQ(first.lat, 0);
  EXPECT_EQ(first.lon, 2);
  EXPECT_EQ(last.lat, 1);
  EXPECT_EQ(last.lon, 3);
}

TEST(GeoRegionsTest, LayoutsThatDoNotPartitionTheBoxAreRefused) {
  const GeoDecomposition d = Lattice();
  const GeoCells good = GeoCellsFromNoisy(d, Noisy(d, true), Binning(4)).value();
  GeoCells missing_cell = good;
  missing_cell.keys.erase(missing_cell.keys.begin() + 5);
  missing_cell.levels.erase(missing_cell.levels.begin() + 5);
  missing_cell.weights.erase(missing_cell.weights.begin() + 5);
  missing_cell.region_starts.back() = 9;
  EXPECT_EQ(ValidateGeoCells(missing_cell), "the cells do not partition the box in Morton order");
  GeoCells swapped = good;
  std::swap(swapped.keys[7], swapped.keys[8]);
  EXPECT_EQ(ValidateGeoCells(swapped), "the cells do not partition the box in Morton order");
  GeoCells too_deep = good;
  too_deep.levels[0] = 4;
  EXPECT_EQ(ValidateGeoCells(too_deep), "a cell's level is deeper than the quadtree");
  GeoCells negative = good;
  negative.weights[1] = -1;
  EXPECT_EQ(ValidateGeoCells(negative), "cell weights must be finite and >= 0");
  GeoCells empty_region = good;
  empty_region.region_starts = {0, 2, 2, 10};
  EXPECT_EQ(ValidateGeoCells(empty_region), "every region must hold at least one cell");
  GeoCells short_regions = good;
  short_regions.region_starts = {0, 4};
  EXPECT_NE(ValidateGeoCells(short_regions), "");
  GeoCells bad_box = good;
  bad_box.box.lat_hi = -1;
  EXPECT_NE(ValidateGeoCells(bad_box), "");
  EXPECT_FALSE(GeoCodec::Create(swapped).has_value());
  NoisyGeoCells noisy = Noisy(d, true);
  noisy.counts.pop_back();
  EXPECT_FALSE(GeoCellsFromNoisy(d, noisy, Binning(4)).has_value());
  noisy = Noisy(d, true);
  std::swap(noisy.nodes[0], noisy.nodes[1]);
  EXPECT_FALSE(GeoCellsFromNoisy(d, noisy, Binning(4)).has_value());
}

TEST(GeoRegionsTest, UniformLayoutUsesTheDeepestLevelThatFits) {
  const GeoDecomposition d = Lattice();
  const GeoCells sixteen = UniformGeoCells(d, 20);
  EXPECT_EQ(sixteen.cells(), 16u);
  EXPECT_EQ(sixteen.regions(), 16u);
  EXPECT_EQ(sixteen.weights, std::vector<double>(16, 4.0));  // 2 × 2 points each
  EXPECT_EQ(ValidateGeoCells(sixteen), "");
  const GeoCells one = UniformGeoCells(d, 3);
  EXPECT_EQ(one.cells(), 1u);
  EXPECT_EQ(one.weights, std::vector<double>{64.0});
}

TEST(GeoRegionsTest, ResolutionIsTheFinerLatticeCoarsenedToFitTheBox) {
  const GeoBox globe;
  EXPECT_DOUBLE_EQ(GeoResolutionOf(1e-5, 1e-5, globe), 1e-5);
  EXPECT_DOUBLE_EQ(GeoResolutionOf(1e-3, 1e-5, globe), 1e-5);
  EXPECT_DOUBLE_EQ(GeoResolutionOf(1e-8, 1e-8, globe), 1e-7);  // 360° / 2^32 ≈ 8.4e-8
  EXPECT_DOUBLE_EQ(GeoResolutionOf(0, 0, globe), kGeoDefaultResolution);
  EXPECT_DOUBLE_EQ(GeoResolutionOf(1, 0, globe), 1);
  EXPECT_DOUBLE_EQ(GeoResolutionOf(1e-8, 1e-8, GeoBox{44, 46, -94, -92}), 1e-8);
}

}  // namespace
}  // namespace deniable
