// SPDX-License-Identifier: Apache-2.0
// The four decompositions: exact partitions, orders, lattice mapping, dates, Morton keys, UTF-8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/histogram/calendar_decomposition.h"
#include "engine/histogram/geo_decomposition.h"
#include "engine/histogram/numeric_decomposition.h"
#include "engine/histogram/string_trie.h"
#include "engine/schema/datetime.h"
#include "tests/engine/histogram/decomposition_check.h"

namespace deniable {
namespace {

using test_support::CheckDecomposition;

NumericDecomposition Numeric(const NumericDomainSpec& spec) {
  auto d = NumericDecomposition::Create(spec);
  EXPECT_TRUE(d.has_value()) << (d ? "" : d.error().message);
  return std::move(d).value();
}

TEST(NumericDecompositionTest, SatisfiesTheContractForEveryLatticeAndRoot) {
  CheckDecomposition(Numeric({}), 1, 200);  // integers, unbounded
  CheckDecomposition(Numeric({.lo = -7.0, .hi = 1000.0}), 2, 200);
  CheckDecomposition(Numeric({.decimals = 3}), 3, 100);
  CheckDecomposition(Numeric({.decimals = 2, .lo = 0.05, .hi = 3.0}), 4, 100);
  CheckDecomposition(Numeric({.lattice = LatticeKind::kFloorGrid, .grid_step = 86400,
                              .lo = -2208988800.0, .hi = 4102444799.0}),
                     5, 100);
  CheckDecomposition(Numeric({.lattice = LatticeKind::kContinuous}), 6, 100);
  CheckDecomposition(Numeric({.lattice = LatticeKind::kContinuous, .lo = -1.5, .hi = 2.25}), 7,
                     100);
}

TEST(NumericDecompositionTest, UnboundedRootIsSignTimesPowerOfTwoBuckets) {
  const NumericDecomposition d = Numeric({});  // integers, |x| < 9e15 < 2^53
  const auto root = d.Root();
  ASSERT_EQ(d.Branching(root), 107u);  // 53 negative buckets, {0}, 53 positive
  const auto zero = d.Child(root, 53);
  EXPECT_EQ(zero.lo, 0);
  EXPECT_EQ(zero.width, 1);
  EXPECT_EQ(d.Branching(zero), 0u);  // a width-one leaf: a spike at 0 is isolated
  const auto one = d.Child(root, 54);  // [1, 2)
  EXPECT_EQ(one.lo, 1);
  EXPECT_EQ(one.width, 1);
  const auto minus_one = d.Child(root, 52);  // {-1}
  EXPECT_EQ(minus_one.lo, -1);
  EXPECT_EQ(minus_one.width, 1);
  const auto big = d.Child(root, 60);  // [64, 128)
  EXPECT_EQ(big.lo, 64);
  EXPECT_EQ(big.width, 64);
  EXPECT_EQ(d.ChildOf(root, d.ToValue(100)), 60u);
  EXPECT_EQ(d.ChildOf(root, d.ToValue(-100)), 46u);  // −[64, 128) mirrors [64, 128)
  EXPECT_EQ(d.ChildOf(root, d.ToValue(0)), 53u);
  // Beyond the coarse range values clamp to the extremes (2^53 − 1).
  EXPECT_EQ(d.ToValue(1e300), (static_cast<Int128>(1) << 53) - 1);
  EXPECT_EQ(d.ToValue(-1e300), -((static_cast<Int128>(1) << 53) - 1));
}

TEST(NumericDecompositionTest, IntegersStopAtWidthOne) {
  const NumericDecomposition d = Numeric({.lo = 17.0, .hi = 90.0});
  SeededRng rng(11);
  for (int v = 17; v <= 90; ++v) {
    auto node = d.Root();
    int depth = 0;
    while (d.Branching(node) > 0) {
      node = d.Child(node, d.ChildOf(node, d.ToValue(v)));
      ++depth;
    }
    EXPECT_EQ(node.width, 1) << v;
    EXPECT_EQ(node.lo, v);
    EXPECT_LE(depth, 7);  // 74 points: ⌈log2 74⌉ = 7 binary levels
    EXPECT_EQ(d.Draw(node, rng), v);
  }
}

TEST(NumericDecompositionTest, DecimalsAreExactLatticeCoordinates) {
  const NumericDecomposition d = Numeric({.decimals = 2});
  EXPECT_EQ(d.ToValue(0.1), 10);
  EXPECT_EQ(d.ToValue(0.29), 29);  // 0.29 * 100 = 28.999999999999996 rounds to 29
  EXPECT_EQ(d.ToValue(-1.005), -100);  // nearest lattice point of the double below -1.005
  EXPECT_EQ(d.FromValue(29), 0.29);
  EXPECT_EQ(d.FromValue(-12345), -123.45);
}

TEST(NumericDecompositionTest, FloorGridFloorsNegativeValues) {
  const NumericDecomposition d = Numeric({.lattice = LatticeKind::kFloorGrid, .grid_step = 60});
  EXPECT_EQ(d.ToValue(59.9), 0);
  EXPECT_EQ(d.ToValue(60), 1);
  EXPECT_EQ(d.ToValue(-1), -1);
  EXPECT_EQ(d.ToValue(-60), -1);
  EXPECT_EQ(d.ToValue(-61), -2);
}

TEST(NumericDecompositionTest, ContinuousLeavesStopAtRelativeResolution) {
  const NumericDecomposition d = Numeric({.lattice = LatticeKind::kContinuous,
                                          .resolution_bits = 10});
  // The leaf holding 1000.3 is as wide as 2^-10 of its bucket [512, 1024): 0.5.
  auto node = d.Root();
  while (d.Branching(node) > 0) node = d.Child(node, d.ChildOf(node, d.ToValue(1000.3)));
  EXPECT_EQ(d.FromValue(node.lo), 1000.0);
  EXPECT_EQ(d.FromValue(node.lo + node.width), 1000.5);
  SeededRng rng(3);
  for (int i = 0; i < 100; ++i) {
    const double x = d.DrawReal(node, rng);
    EXPECT_GE(x, 1000.0);
    EXPECT_LT(x, 1000.5);
  }
  // Tiny magnitudes fall in the zero bucket, a single leaf.
  const auto zero = d.Child(d.Root(), d.ChildOf(d.Root(), d.ToValue(1e-12)));
  EXPECT_EQ(d.Branching(zero), 0u);
  EXPECT_TRUE(d.Contains(zero, d.ToValue(-1e-12)));
}

TEST(NumericDecompositionTest, RejectsBadSpecs) {
  EXPECT_FALSE(NumericDecomposition::Create({.lo = 1.0}).has_value());
  EXPECT_FALSE(NumericDecomposition::Create({.lo = 2.0, .hi = 1.0}).has_value());
  EXPECT_FALSE(NumericDecomposition::Create({.decimals = 16}).has_value());
  EXPECT_FALSE(
      NumericDecomposition::Create({.lattice = LatticeKind::kFloorGrid, .grid_step = 0})
          .has_value());
  auto d = Numeric({});
  const std::vector<double> values = {1.0, std::nan("")};
  auto mapped = d.ToValues(values);
  ASSERT_FALSE(mapped.has_value());
  EXPECT_NE(mapped.error().message.find("value 1"), std::string::npos);
}

TEST(NumericDecompositionTest, UniformBelow128CoversWideRanges) {
  SeededRng rng(5);
  const Uint128 n = (static_cast<Uint128>(1) << 70) + 3;
  bool high_half = false;
  for (int i = 0; i < 200; ++i) {
    const Uint128 v = UniformBelow128(rng, n);
    ASSERT_LT(v, n);
    high_half = high_half || v >= n / 2;
  }
  EXPECT_TRUE(high_half);
}

TEST(CalendarDecompositionTest, SatisfiesTheContractAtEveryResolution) {
  for (std::int64_t resolution : {1, 60, 3600, 86400}) {
    auto d = CalendarDecomposition::Create(resolution);
    ASSERT_TRUE(d.has_value());
    CheckDecomposition(*d, static_cast<std::uint64_t>(resolution), 60);
  }
}

TEST(CalendarDecompositionTest, LevelsFollowTheCalendar) {
  auto d = CalendarDecomposition::Create(60).value();
  const auto root = d.Root();
  EXPECT_EQ(d.Branching(root), 200u);
  const double t = *ParseDateTime("2016-02-29 13:47:31", "%Y-%m-%d %H:%M:%S");
  const std::int64_t v = d.ToValue(t);
  EXPECT_EQ(v, static_cast<std::int64_t>(t) - 31);  // floored to the minute
  auto node = root;
  std::vector<std::uint32_t> branching;
  std::vector<std::string> labels;
  while (d.Branching(node) > 0) {
    branching.push_back(d.Branching(node));
    node = d.Child(node, d.ChildOf(node, v));
    labels.push_back(d.Label(node));
  }
  EXPECT_EQ(branching, (std::vector<std::uint32_t>{200, 12, 29, 24, 60}));  // leap February
  EXPECT_EQ(labels.back(), "2016-02-29 13:47");
  EXPECT_EQ(labels[0], "2016");
  EXPECT_EQ(labels[1], "2016-02");
  EXPECT_EQ(node.end - node.start, 60);
}

TEST(CalendarDecompositionTest, DrawsValidInstantsOnTheGrid) {
  auto d = CalendarDecomposition::Create(86400).value();
  SeededRng rng(9);
  const auto month = d.Child(d.Child(d.Root(), 117), 1);  // February 2017
  EXPECT_EQ(d.Branching(month), 28u);
  for (int i = 0; i < 200; ++i) {
    const std::int64_t v = d.Draw(month, rng);
    EXPECT_EQ(v % 86400, 0);
    std::string text;
    FormatDateTime(static_cast<double>(v), "%Y-%m-%d %H:%M:%S", text);
    EXPECT_EQ(text.substr(0, 8), "2017-02-");
    EXPECT_EQ(text.substr(10), " 00:00:00");
    EXPECT_TRUE(ParseDateTime(text, "%Y-%m-%d %H:%M:%S").has_value());
  }
  // Out-of-range instants clamp into [1900, 2100).
  EXPECT_EQ(d.ToValue(-1e12), d.Root().start);
  EXPECT_EQ(d.ToValue(1e12), d.Root().end - 86400);
  EXPECT_FALSE(CalendarDecomposition::Create(7).has_value());
}

TEST(GeoDecompositionTest, SatisfiesTheContract) {
  auto world = GeoDecomposition::Create(1e-5).value();
  EXPECT_EQ(world.levels(), 26u);  // 36,000,001 longitudes < 2^26
  CheckDecomposition(world, 21, 60);
  auto city = GeoDecomposition::Create(
      1e-3, GeoBox{.lat_lo = 44.89, .lat_hi = 45.06, .lon_lo = -93.33, .lon_hi = -93.19});
  ASSERT_TRUE(city.has_value());
  CheckDecomposition(*city, 22, 100);
}

TEST(GeoDecompositionTest, MortonKeysOrderQuadrants) {
  EXPECT_EQ(GeoDecomposition::Interleave(0b11, 0b01), 0b1011u);
  std::uint32_t i = 0, j = 0;
  GeoDecomposition::Deinterleave(0b1011, i, j);
  EXPECT_EQ(i, 0b11u);
  EXPECT_EQ(j, 0b01u);
  // A 4 x 4 lattice: the root's quadrants in key order are (low lat, low lon), (low, high),
  // (high, low), (high, high); every node is a contiguous key range.
  auto d = GeoDecomposition::Create(1.0, GeoBox{0, 3, 0, 3}).value();
  ASSERT_EQ(d.Branching(d.Root()), 4u);
  std::vector<std::uint64_t> keys;
  for (int lat = 0; lat < 4; ++lat) {
    for (int lon = 0; lon < 4; ++lon) keys.push_back(d.ToValue({1.0 * lat, 1.0 * lon}));
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t k = 0; k < keys.size(); ++k) EXPECT_EQ(keys[k], k);  // a bijection onto 0..15
  const auto high_lat_low_lon = d.Child(d.Root(), 2);
  EXPECT_EQ(d.First(high_lat_low_lon).lat, 2.0);
  EXPECT_EQ(d.First(high_lat_low_lon).lon, 0.0);
  EXPECT_EQ(d.Last(high_lat_low_lon).lon, 1.0);
}

TEST(GeoDecompositionTest, ClipsQuadrantsOutsideTheBox) {
  // 3 latitudes x 5 longitudes in a 8 x 8 square: the root keeps only the low-latitude half.
  auto d = GeoDecomposition::Create(1.0, GeoBox{0, 2, 0, 4}).value();
  EXPECT_EQ(d.levels(), 3u);
  EXPECT_EQ(d.Branching(d.Root()), 2u);
  EXPECT_EQ(d.Points(d.Root()), 15.0);
  double points = 0;
  for (std::uint32_t c = 0; c < 2; ++c) points += d.Points(d.Child(d.Root(), c));
  EXPECT_EQ(points, 15.0);
  CheckDecomposition(d, 23, 100);
  // Clamping: a point outside the box lands on its edge.
  EXPECT_EQ(d.FromValue(d.ToValue({99, -5})).lat, 2.0);
  EXPECT_EQ(d.FromValue(d.ToValue({99, -5})).lon, 0.0);
}

TEST(StringTrieTest, SatisfiesTheContract) {
  auto trie = StringTrie::Create(8).value();
  CheckDecomposition(trie, 31, 300, 20, 2);
}

TEST(StringTrieTest, ChildrenFollowUtf8) {
  auto trie = StringTrie::Create(16).value();
  const auto root = trie.Root();
  EXPECT_EQ(trie.Branching(root), 180u);  // end + 128 ASCII + 30 + 16 + 5 lead bytes
  EXPECT_TRUE(trie.Child(root, 0).terminal);
  EXPECT_EQ(trie.Child(root, 1).prefix, std::string(1, '\0'));
  EXPECT_EQ(trie.Child(root, 129).prefix, "\xC2");
  // After E0 the second byte is A0..BF (no overlong forms); no end-of-string child mid-character.
  const StringTrie::Node e0{"\xE0", false};
  EXPECT_EQ(trie.Branching(e0), 32u);
  EXPECT_EQ(trie.Child(e0, 0).prefix, "\xE0\xA0");
  SeededRng rng(1);
  EXPECT_EQ(trie.Draw(e0, rng), "\xE0\xA0\x80");
  const StringTrie::Node ed{"\xED", false};  // no surrogates: 80..9F
  EXPECT_EQ(trie.Branching(ed), 32u);
  // ChildOf agrees with the children, byte by byte, for a mixed string.
  const std::string text = "Ça\xE2\x82\xAC";  // "Ça€"
  auto node = root;
  while (trie.Branching(node) > 0) {
    const std::uint32_t c = trie.ChildOf(node, text);
    node = trie.Child(node, c);
    EXPECT_TRUE(trie.Contains(node, text)) << trie.Label(node);
  }
  EXPECT_TRUE(node.terminal);
  EXPECT_EQ(node.prefix, text);
}

TEST(StringTrieTest, TruncatesAtACharacterBoundaryAndRepairsBadBytes) {
  auto trie = StringTrie::Create(4).value();
  EXPECT_EQ(trie.Normalize("abcdef"), "abcd");
  EXPECT_EQ(trie.Normalize("ab\xE2\x82\xAC"), "ab");  // the euro sign would need 5 bytes
  EXPECT_EQ(trie.Normalize("a\xFFz"), "a\xEF\xBF\xBD");  // bad byte -> U+FFFD; 'z' does not fit
  EXPECT_TRUE(trie.IsNormalized("ab\xC3\xA9"));
  EXPECT_FALSE(trie.IsNormalized("abcde"));
  EXPECT_FALSE(trie.IsNormalized("\xC3"));
  // A lead byte whose character cannot fit is not a child.
  const StringTrie::Node abc{"abc", false};
  EXPECT_EQ(trie.Branching(abc), 1u + 128u);  // end + ASCII only
  const StringTrie::Node full{"abcd", false};
  EXPECT_EQ(trie.Branching(full), 0u);  // at the maximum length: exactly "abcd"
}

TEST(StringTrieTest, OrderIsByteLexicographic) {
  auto trie = StringTrie::Create(8).value();
  std::vector<std::string> values = {"b", "a", "ab", "", "\xC3\xA9", "a\x7F", "aa"};
  std::sort(values.begin(), values.end(),
            [&](const std::string& x, const std::string& y) { return trie.Less(x, y); });
  EXPECT_EQ(values, (std::vector<std::string>{"", "a", "aa", "ab", "a\x7F", "b", "\xC3\xA9"}));
  // Children of "a": end-of-string first, then one per byte in byte order ('a' = 0x61).
  const StringTrie::Node a{"a", false};
  EXPECT_EQ(trie.ChildOf(a, "aa"), 98u);
  EXPECT_EQ(trie.ChildOf(a, "a\x7F"), 128u);
  EXPECT_EQ(trie.ChildOf(a, "a"), 0u);
}

}  // namespace
}  // namespace deniable
