// SPDX-License-Identifier: Apache-2.0
// Equal-width bins: edges and the bin of a value, including values on edges and out of range.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "engine/metrics/column_encoding.h"

namespace deniable::internal {
namespace {

using ::testing::ElementsAre;

TEST(BinningTest, EdgesSplitTheRangeEvenly) {
  EXPECT_THAT(EqualWidthEdges(0, 10, 4), ElementsAre(0, 2.5, 5, 7.5, 10));
  // Range 98 over 20 bins: the 11th edge is exactly 50 (1 + 98 * 10 / 20), not 1 + 10 * 4.9.
  EXPECT_EQ(EqualWidthEdges(1, 99, 20)[10], 50.0);
  // A single value: a unit-wide range around it.
  EXPECT_THAT(EqualWidthEdges(3, 3, 2), ElementsAre(2.5, 3, 3.5));
}

TEST(BinningTest, ValueOnAnEdgeOpensTheNextBin) {
  const std::vector<double> edges = EqualWidthEdges(1, 99, 20);
  EXPECT_EQ(BinIndex(50, edges), 10);   // [50, 54.9)
  EXPECT_EQ(BinIndex(49.9, edges), 9);  // [45.1, 50)
  EXPECT_EQ(BinIndex(1, edges), 0);     // the minimum
  EXPECT_EQ(BinIndex(99, edges), 19);   // the maximum: the last bin is closed
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    EXPECT_EQ(BinIndex(edges[i], edges), static_cast<int>(i)) << "edge " << i;
  }
}

TEST(BinningTest, OutOfRangeValuesGoToTheEdgeBins) {
  const std::vector<double> edges = EqualWidthEdges(0, 10, 5);
  EXPECT_EQ(BinIndex(-1e300, edges), 0);
  EXPECT_EQ(BinIndex(-INFINITY, edges), 0);
  EXPECT_EQ(BinIndex(10.000001, edges), 4);
  EXPECT_EQ(BinIndex(INFINITY, edges), 4);
}

TEST(BinningTest, EveryIntegerOfAnAgeRangeLandsWhereItsEdgesSay) {
  // Ages 17..90 in 20 bins of width 3.65: the bin of v satisfies edge[b] <= v < edge[b+1].
  const std::vector<double> edges = EqualWidthEdges(17, 90, 20);
  for (int v = 17; v < 90; ++v) {
    const int bin = BinIndex(v, edges);
    EXPECT_LE(edges[static_cast<std::size_t>(bin)], v);
    EXPECT_LT(v, edges[static_cast<std::size_t>(bin) + 1]);
  }
}

}  // namespace
}  // namespace deniable::internal
