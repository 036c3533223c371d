// SPDX-License-Identifier: Apache-2.0
// Fig. 4's Center() on hand examples and against the literal round-robin loop; Fig. 3's
// synthesis keeps the total exactly and spends ε.
#include "engine/histogram/direct_synthesis.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "engine/histogram/numeric_decomposition.h"
#include "engine/histogram/string_trie.h"

namespace deniable {
namespace {

std::vector<std::int64_t> Centered(std::int64_t count, std::vector<std::int64_t> subcounts,
                                   std::size_t start) {
  Center(count, subcounts, start);
  return subcounts;
}

// Fig. 4 (and Fig. 14's loop) literally, one unit per step.
std::vector<std::int64_t> CenterLoop(std::int64_t count, std::vector<std::int64_t> s,
                                     std::size_t start) {
  std::int64_t sum = 0;
  for (auto& x : s) {
    x = std::max<std::int64_t>(0, x);
    sum += x;
  }
  const std::int64_t direction = count > sum ? 1 : -1;
  for (std::size_t i = start; sum != count; ++i) {
    std::int64_t& x = s[i % s.size()];
    const std::int64_t moved = std::max<std::int64_t>(0, x + direction);
    sum += moved - x;
    x = moved;
  }
  return s;
}

TEST(CenterTest, HandExamplesOfFigure4) {
  // Up: deficit 3 over two entries from index 0: +1, +1, +1 -> (5, 5).
  EXPECT_EQ(Centered(10, {3, 4}, 0), (std::vector<std::int64_t>{5, 5}));
  // Down, one unit at a time, an entry at 0 is skipped: (10,5) -> ... -> (4,0) -> (3,0).
  EXPECT_EQ(Centered(3, {10, 5}, 0), (std::vector<std::int64_t>{3, 0}));
  // (Fig. 14's code clamps at `count` first and would give (1, 2): we follow Fig. 4.)
  // Negative noisy counts are clamped at 0 before centering.
  EXPECT_EQ(Centered(4, {-3, 2, 1}, 2), (std::vector<std::int64_t>{0, 2, 2}));
  // The start of the round robin decides who gives way.
  EXPECT_EQ(Centered(1, {1, 1}, 1), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(Centered(1, {1, 1}, 0), (std::vector<std::int64_t>{0, 1}));
  // Already centered: unchanged; zero count: all zero.
  EXPECT_EQ(Centered(6, {1, 2, 3}, 1), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(Centered(0, {4, -1, 7}, 2), (std::vector<std::int64_t>{0, 0, 0}));
}

TEST(CenterTest, ClosedFormEqualsTheRoundRobinLoop) {
  SeededRng rng(77);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t k = 1 + UniformBelow(rng, 9);
    std::vector<std::int64_t> s(k);
    for (auto& x : s) x = static_cast<std::int64_t>(UniformBelow(rng, 61)) - 20;
    const auto count = static_cast<std::int64_t>(UniformBelow(rng, 120));
    const std::size_t start = UniformBelow(rng, k);
    const std::vector<std::int64_t> fast = Centered(count, s, start);
    ASSERT_EQ(fast, CenterLoop(count, s, start)) << "trial " << trial;
    ASSERT_EQ(std::accumulate(fast.begin(), fast.end(), std::int64_t{0}), count);
  }
}

TEST(CenterTest, LargeCountsAreFast) {
  std::vector<std::int64_t> s = {4'000'000'000'000, 3, -5, 1'000'000'000'000};
  Center(7, s, 3);
  EXPECT_EQ(std::accumulate(s.begin(), s.end(), std::int64_t{0}), 7);
  // Both large entries fall in step until the smaller reaches 0; the larger is left with 8
  // after the last full round, and the final step (from index 3, which is 0) takes it to 7.
  EXPECT_EQ(s, (std::vector<std::int64_t>{7, 0, 0, 0}));
}

TEST(DirectSynthesisTest, KeepsTheTotalExactlyAndSpendsEpsilon) {
  const NumericDecomposition d = NumericDecomposition::Create({.lo = 0.0, .hi = 1023.0}).value();
  SeededRng data_rng(1);
  std::vector<Int128> values;
  for (int i = 0; i < 3000; ++i) values.push_back(static_cast<Int128>(UniformBelow(data_rng, 300)));
  for (std::int64_t total : {0, 1, 2, 2999, 3000, 5000}) {
    SeededRng rng(static_cast<std::uint64_t>(total));
    NullProgress progress;
    auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    auto result = SynthesizeDirect(d, std::span<const Int128>(values), total,
                                   {.epsilon = 1.0, .max_depth = 10}, accountant, "direct", "all",
                                   rng, progress);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < result->cells.size(); ++i) {
      const auto& cell = result->cells[i];
      sum += cell.count;
      EXPECT_GE(cell.count, 1);
      EXPECT_LE(cell.depth, 10u);
      // A cell stops at depth 10 (width 1 here) or holds exactly one record.
      EXPECT_TRUE(cell.count == 1 || cell.depth == 10) << cell.count << " at " << cell.depth;
      if (i > 0) {
        EXPECT_LT(result->cells[i - 1].node.lo, cell.node.lo);  // value order
      }
    }
    EXPECT_EQ(sum, total);
    ASSERT_EQ(accountant.entries().size(), 1u);
    EXPECT_EQ(accountant.entries()[0].count, 10u);
    EXPECT_LE(accountant.Total().epsilon, 1.0);
    EXPECT_EQ(accountant.entries()[0].epsilon_each, EvenShare(1.0, 10));  // 10 of them <= 1
    const auto drawn = DrawCells(d, std::span<const SynthesisCell<NumericDecomposition::Node>>(
                                        result->cells),
                                 rng);
    EXPECT_EQ(static_cast<std::int64_t>(drawn.size()), total);
  }
}

TEST(DirectSynthesisTest, SynthesizesFrequentStringsVerbatim) {
  auto trie = StringTrie::Create(12).value();
  std::vector<std::string> values(4000, "minneapolis");
  values.insert(values.end(), 2000, "st paul");
  SeededRng rng(3);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({10.0, 0.0}).value();
  auto result = SynthesizeDirect(trie, std::span<const std::string>(values), 6000,
                                 {.epsilon = 10.0, .max_depth = 13}, accountant, "s", "all", rng,
                                 progress);
  ASSERT_TRUE(result.has_value());
  const auto drawn = DrawCells(trie, std::span<const SynthesisCell<StringTrie::Node>>(
                                         result->cells),
                               rng);
  const auto minneapolis = std::count(drawn.begin(), drawn.end(), "minneapolis");
  const auto st_paul = std::count(drawn.begin(), drawn.end(), "st paul");
  // Noise scale 1.3 per level: the ~179 empty children of a node get positive noise worth
  // about 179·E[max(0, Z)] ≈ 105 units, which Center() takes back from all positive entries
  // evenly, about 4 per level from the dense child: ~50 records over 12 levels go astray.
  EXPECT_NEAR(static_cast<double>(minneapolis), 4000, 100);
  EXPECT_NEAR(static_cast<double>(st_paul), 2000, 100);
  EXPECT_EQ(drawn.size(), 6000u);
}

TEST(DirectSynthesisTest, RejectsBadParameters) {
  const NumericDecomposition d = NumericDecomposition::Create({}).value();
  const std::vector<Int128> values = {1, 2};
  SeededRng rng(4);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
  EXPECT_FALSE(SynthesizeDirect(d, std::span<const Int128>(values), -1, {}, accountant, "x",
                                "all", rng, progress)
                   .has_value());
  EXPECT_FALSE(SynthesizeDirect(d, std::span<const Int128>(values), 2, {.max_depth = 0},
                                accountant, "x", "all", rng, progress)
                   .has_value());
  EXPECT_TRUE(accountant.entries().empty());
}

}  // namespace
}  // namespace deniable
