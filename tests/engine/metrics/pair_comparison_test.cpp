// SPDX-License-Identifier: Apache-2.0
// ComparePair: the 2-way table behind one heatmap cell, on hand-built tables.
#include "engine/metrics/pair_comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/engine/metrics/metrics_test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Counts = std::vector<std::vector<std::uint64_t>>;

// x: real a a b b, synthetic a a a b; y: real u v u v, synthetic u u v v; id all distinct.
// Joint real (a,u) (a,v) (b,u) (b,v) once each; synthetic (a,u) 2, (a,v) 1, (b,v) 1.
// 2-way TVD = (|1/4 - 1/2| + 0 + 1/4 + 0) / 2 = 1/4.
RawTable Real() {
  return MakeTable("real",
                   {MakeColumn("id", {"1", "2", "3", "4"}), MakeColumn("x", {"a", "a", "b", "b"}),
                    MakeColumn("y", {"u", "v", "u", "v"})});
}
RawTable Synthetic() {
  return MakeTable("syn",
                   {MakeColumn("x", {"a", "a", "a", "b"}), MakeColumn("y", {"u", "u", "v", "v"})});
}
Schema XySchema() {
  return MakeSchema({MakeColumnSchema("id", DataType::kInteger),
                     MakeColumnSchema("x", DataType::kString),
                     MakeColumnSchema("y", DataType::kString)});
}

TEST(ComparePairTest, CountsBothTablesOverTheSameCategories) {
  auto pair = ComparePair(Real(), Synthetic(), XySchema(), "x", "y", CompareOptions{});
  ASSERT_TRUE(pair.has_value()) << pair.error().message;
  EXPECT_EQ(pair->row_name, "x");
  EXPECT_EQ(pair->column_name, "y");
  EXPECT_THAT(pair->row_labels, ElementsAre("a", "b"));
  EXPECT_THAT(pair->column_labels, ElementsAre("u", "v"));
  EXPECT_EQ(pair->real_counts, (Counts{{1, 1}, {1, 1}}));
  EXPECT_EQ(pair->synthetic_counts, (Counts{{2, 1}, {0, 1}}));
  EXPECT_EQ(pair->real_rows, 4u);
  EXPECT_EQ(pair->synthetic_rows, 4u);
  EXPECT_DOUBLE_EQ(pair->tvd, 0.25);
  EXPECT_EQ(pair->real_fraction(0, 1), 0.25);
  EXPECT_EQ(pair->synthetic_fraction(0, 0), 0.5);
  // Real x and y are independent: NMI 0. Synthetic: H(x) = H(3/4, 1/4), H(y) = ln 2,
  // H(x, y) = H(1/2, 1/4, 1/4) = 3/2 ln 2, so I = H(x) - 1/2 ln 2 > 0.
  EXPECT_EQ(pair->nmi_real, 0.0);
  const double hx = -(0.75 * std::log(0.75) + 0.25 * std::log(0.25));
  const double expected = (hx - 0.5 * std::log(2.0)) / ((hx + std::log(2.0)) / 2);
  EXPECT_NEAR(pair->nmi_synthetic, expected, 1e-12);
}

TEST(ComparePairTest, SameColumnTwiceIsTheDiagonal) {
  // x: real a .5 b .5; synthetic a .75 b .25 -> 1-way TVD 1/4; NMI 1 (x is not constant).
  auto pair = ComparePair(Real(), Synthetic(), XySchema(), "x", "x", CompareOptions{});
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->real_counts, (Counts{{2, 0}, {0, 2}}));
  EXPECT_EQ(pair->tvd, 0.25);
  EXPECT_EQ(pair->nmi_real, 1.0);
  EXPECT_EQ(pair->nmi_synthetic, 1.0);
}

TEST(ComparePairTest, MergesCategoriesForDisplayOnly) {
  // s has 5 categories, t 1. With a limit of 3 the table shows a, e and "(3 other values)";
  // the TVD is still over all categories: (0 + .3 + .2 + .1 + .6) / 2 = 0.6.
  const RawTable real =
      MakeTable("real", {MakeColumn("s", {"a", "a", "a", "a", "b", "b", "b", "c", "c", "d"}),
                         MakeColumn("t", {"k", "k", "k", "k", "k", "k", "k", "k", "k", "k"})});
  const RawTable synthetic =
      MakeTable("syn", {MakeColumn("s", {"a", "a", "a", "a", "e", "e", "e", "e", "e", "e"}),
                        MakeColumn("t", {"k", "k", "k", "k", "k", "k", "k", "k", "k", "k"})});
  CompareOptions options;
  options.max_histogram_categories = 3;
  auto pair = ComparePair(real, synthetic,
                          MakeSchema({MakeColumnSchema("s", DataType::kString),
                                      MakeColumnSchema("t", DataType::kString)}),
                          "s", "t", options);
  ASSERT_TRUE(pair.has_value());
  EXPECT_THAT(pair->row_labels, ElementsAre("a", "e", "(3 other values)"));
  EXPECT_EQ(pair->real_counts, (Counts{{4}, {0}, {6}}));
  EXPECT_EQ(pair->synthetic_counts, (Counts{{4}, {6}, {0}}));
  EXPECT_NEAR(pair->tvd, 0.6, 1e-12);
}

TEST(ComparePairTest, ErrorsNameTheColumn) {
  auto unknown = ComparePair(Real(), Synthetic(), XySchema(), "x", "nope", CompareOptions{});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(unknown.error().message, HasSubstr("real table real has no column 'nope'"));

  auto excluded = ComparePair(Real(), Synthetic(), XySchema(), "id", "x", CompareOptions{});
  ASSERT_FALSE(excluded.has_value());
  EXPECT_THAT(excluded.error().message,
              HasSubstr("column 'id' is not compared (all values distinct)"));

  const RawTable only_x = MakeTable("syn", {MakeColumn("x", {"a"})});
  auto missing = ComparePair(Real(), only_x, XySchema(), "x", "y", CompareOptions{});
  ASSERT_FALSE(missing.has_value());
  EXPECT_THAT(missing.error().message, HasSubstr("synthetic table syn has no column 'y'"));

  CompareOptions bad;
  bad.bins = 0;
  auto options = ComparePair(Real(), Synthetic(), XySchema(), "x", "y", bad);
  ASSERT_FALSE(options.has_value());
  EXPECT_THAT(options.error().message, HasSubstr("bins must be between 1 and 100000 (got 0)"));
}

}  // namespace
}  // namespace deniable
