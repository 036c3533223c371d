// SPDX-License-Identifier: Apache-2.0
#include "engine/model/band_pairs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "engine/core/progress.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoding.h"

namespace deniable {
namespace {

ColumnDomain Labels(std::vector<std::string> categories) {
  ColumnDomain d;
  d.categorical = true;
  d.categories = std::move(categories);
  return d;
}

ColumnDomain IntegerBins(double lo, double hi, int bins) {
  ColumnDomain d;
  d.type = DataType::kInteger;
  d.categorical = false;
  d.SetEqualWidth(lo, hi, bins, 1);
  return d;
}

// Rows (bin of A, code of B) with the given counts.
EncodedTable Table(const std::vector<std::vector<int>>& counts, std::uint32_t labels) {
  EncodedTable t;
  t.columns.resize(2);
  t.cardinalities = {static_cast<std::uint32_t>(counts.size()), labels};
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (std::size_t k = 0; k < counts[i].size(); ++k) {
      for (int c = 0; c < counts[i][k]; ++c) {
        t.columns[0].push_back(static_cast<Code>(i));
        t.columns[1].push_back(static_cast<Code>(k));
      }
    }
  }
  t.rows = t.columns[0].size();
  return t;
}

// A band stepping inside bins 1 and 3 of five, labels coded out of order (code 0 is the top
// band), with a little noise far from the steps: found, ordered by A.
TEST(BandPairsTest, FindsAStepFunctionAndOrdersItsLabelsByTheNumericColumn) {
  const std::vector<ColumnDomain> domains = {IntegerBins(0, 49, 5),
                                             Labels({"old", "young", "middle"})};
  // Columns: old, young, middle.
  const EncodedTable t = Table({{3, 100, 0}, {0, 40, 60}, {0, 0, 100}, {30, 2, 70}, {100, 0, 0}},
                               3);
  const std::vector<BandPair> pairs = FindBandPairs(t, domains);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].numeric, 0);
  EXPECT_EQ(pairs[0].band, 1);
  EXPECT_EQ(pairs[0].rank, (std::vector<std::uint32_t>{2, 0, 1}));  // young < middle < old
  // λ = (Σ_i max − max_k n_k) / (N − max_k n_k): (100 + 60 + 100 + 70 + 100 − 230) / (505 − 230).
  EXPECT_NEAR(pairs[0].lambda, 200.0 / 275.0, 1e-12);
  EXPECT_DOUBLE_EQ(pairs[0].gamma, 1.0);  // the noise (3 "old" in bin 0, 2 "young" in bin 3) is below 15%
}

TEST(BandPairsTest, RefusesAnAssociationThatIsNotAStepFunction) {
  const std::vector<ColumnDomain> domains = {IntegerBins(0, 39, 4), Labels({"x", "y"})};
  // Functional but not monotone: x, y, x, y.
  EXPECT_TRUE(FindBandPairs(Table({{100, 0}, {0, 100}, {100, 0}, {0, 100}}, 2), domains).empty());
  // Monotone but loose (λ = 0.2 < 0.5): y grows from 10% to 60%.
  EXPECT_TRUE(
      FindBandPairs(Table({{90, 10}, {80, 20}, {60, 40}, {40, 60}}, 2), domains).empty());
  // A categorical "numeric" side is no band parent.
  std::vector<ColumnDomain> two_labels = {Labels({"a", "b", "c", "d"}), Labels({"x", "y"})};
  EXPECT_TRUE(
      FindBandPairs(Table({{100, 0}, {100, 0}, {0, 100}, {0, 100}}, 2), two_labels).empty());
}

TEST(BandPairsTest, QuantilesSplitAStraddlingBinIntoSlicesInLabelOrder) {
  const std::vector<ColumnDomain> domains = {IntegerBins(0, 29, 3), Labels({"old", "young"})};
  EncodedTable t = Table({{0, 1000}, {250, 750}, {1000, 0}}, 2);  // bin 1: 75% young, 25% old
  const std::vector<BandPair> pairs = FindBandPairs(t, domains);
  ASSERT_EQ(pairs.size(), 1u);
  SeededRng rng(7);  // reproducible, not private
  const std::vector<double> q = BandQuantiles(pairs[0], t, domains, rng);
  ASSERT_EQ(q.size(), t.rows);
  double young_max = 0, old_min = 1;
  for (std::size_t r = 0; r < t.rows; ++r) {
    ASSERT_GE(q[r], 0.0);
    ASSERT_LT(q[r], 1.0);
    if (t.columns[0][r] != 1) continue;
    if (t.columns[1][r] == 1) young_max = std::max(young_max, q[r]);
    if (t.columns[1][r] == 0) old_min = std::min(old_min, q[r]);
  }
  // Young rows take [0, 0.75), old rows [0.75, 1): each slice as wide as its label's share.
  EXPECT_LT(young_max, 0.75);
  EXPECT_GE(old_min, 0.75);
  EXPECT_GT(young_max, 0.74);  // 750 uniform draws fill their slice
  EXPECT_LT(old_min, 0.76);
}

// End to end through decoding: in the straddling bin 10..19 every "young" row's value is below
// every "old" row's, and the bin's values keep their (uniform) distribution.
TEST(BandPairsTest, DecodingOrdersTheValuesOfAStraddlingBinByLabel) {
  Schema schema;
  ColumnSchema age;
  age.name = "age";
  age.type = DataType::kInteger;
  ColumnSchema band;
  band.name = "band";
  band.categorical = true;
  schema.columns = {age, band};
  const std::vector<ColumnDomain> domains = {IntegerBins(0, 29, 3), Labels({"old", "young"})};
  const EncodedTable t = Table({{0, 2000}, {1000, 1000}, {2000, 0}}, 2);
  SeededRng rng(11);  // reproducible, not private
  NullProgress progress;
  auto decoded = DecodeToRawTable(t, schema, domains, rng, progress);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  int young_max = -1, old_min = 100;
  std::vector<int> per_value(20, 0);
  for (std::size_t r = 0; r < t.rows; ++r) {
    const int value = std::stoi(decoded->columns[0].dictionary[decoded->columns[0].codes[r]]);
    const std::string& label = decoded->columns[1].dictionary[decoded->columns[1].codes[r]];
    ASSERT_GE(value, 0);
    ASSERT_LE(value, 29);
    if (value < 10 || value >= 20) {
      EXPECT_EQ(label, value < 10 ? "young" : "old");
      continue;
    }
    ++per_value[static_cast<std::size_t>(value)];
    if (label == "young") young_max = std::max(young_max, value);
    if (label == "old") old_min = std::min(old_min, value);
  }
  // The step falls at the bin's middle: 10..14 young, 15..19 old (quantile 0.5 is between them).
  EXPECT_EQ(young_max, 14);
  EXPECT_EQ(old_min, 15);
  // 2000 rows over 10 values: 200 each, binomial-ish sd ≈ 13 (the slices are stratified by
  // label, so the spread is smaller); 5 sd.
  for (int v = 10; v < 20; ++v) EXPECT_NEAR(per_value[static_cast<std::size_t>(v)], 200, 65) << v;
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// P (2 codes) → A (8 bins) → B (young / old, stepping after bin 3) through A's 2 buckets
// {0..2} and {3..7}: the model sees only the bucket, so inside bucket {3..7} the sample's labels
// follow the bins loosely (bin 3: 60 young, 40 old; bins 4..7: 10 young, 90 old each), 90%
// consistent. Within each (P, bucket) group the coupling hands the group's A codes out in label
// order: every count the network's tables see is the same, and the band is exact.
TEST(BandPairsTest, AcrossBucketsABandBecomesExactAndEveryTableSeesTheSameCounts) {
  const std::vector<ColumnDomain> domains = {Labels({"p0", "p1"}), IntegerBins(0, 79, 8),
                                             Labels({"young", "old"})};
  EncodedTable t;
  t.columns.resize(3);
  t.cardinalities = {2, 8, 2};
  const int young[8] = {100, 100, 100, 60, 10, 10, 10, 10};
  for (int bin = 0; bin < 8; ++bin) {
    for (int r = 0; r < 100; ++r) {
      t.columns[0].push_back(static_cast<Code>(r % 2));
      t.columns[1].push_back(static_cast<Code>(bin));
      t.columns[2].push_back(static_cast<Code>(r < young[bin] ? 0 : 1));
    }
  }
  t.rows = 800;
  BayesNet net;
  net.nodes.resize(3);
  net.nodes[0].attribute = 0;
  net.nodes[0].cardinality = 2;
  net.nodes[1].attribute = 1;
  net.nodes[1].cardinality = 8;
  net.nodes[1].parents = {0};
  net.nodes[1].parent_buckets = {{}};
  net.nodes[1].parent_bucket_counts = {2};
  net.nodes[2].attribute = 2;
  net.nodes[2].cardinality = 2;
  net.nodes[2].parents = {1};
  net.nodes[2].parent_buckets = {{0, 0, 0, 1, 1, 1, 1, 1}};
  net.nodes[2].parent_bucket_counts = {2};
  auto consistent = [](const EncodedTable& s) {
    int ok = 0;
    for (std::size_t r = 0; r < s.rows; ++r) ok += (s.columns[1][r] <= 3) == (s.columns[2][r] == 0);
    return ok;
  };
  // (P, A) counts (A's table) and (A's bucket, B) counts (B's table).
  auto tables = [&](const EncodedTable& s) {
    std::vector<int> pa(16, 0), bb(4, 0);
    for (std::size_t r = 0; r < s.rows; ++r) {
      ++pa[s.columns[0][r] * 8 + s.columns[1][r]];
      ++bb[(s.columns[1][r] >= 3 ? 2 : 0) + s.columns[2][r]];
    }
    return std::pair{pa, bb};
  };
  ASSERT_EQ(consistent(t), 720);
  const auto before = tables(t);
  const std::vector<Code> labels = t.columns[2];
  EncodedTable coupled = t;
  SeededRng rng(3);
  const std::vector<BandPair> pairs = CoupleBandsAcrossBuckets(net, domains, coupled, rng);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].numeric, 1);
  EXPECT_EQ(pairs[0].band, 2);
  EXPECT_EQ(consistent(coupled), 800);
  EXPECT_EQ(tables(coupled), before);
  EXPECT_EQ(coupled.columns[2], labels);  // only A's codes move
  // A node that reads A at its own codes (here B itself, unbucketed) depends on A's exact
  // codes: nothing moves.
  net.nodes[2].parent_buckets = {{}};
  net.nodes[2].parent_bucket_counts = {8};
  EncodedTable untouched = t;
  EXPECT_TRUE(CoupleBandsAcrossBuckets(net, domains, untouched, rng).empty());
  EXPECT_EQ(untouched.columns, t.columns);
}

}  // namespace
}  // namespace deniable
