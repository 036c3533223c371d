// SPDX-License-Identifier: Apache-2.0
// Fig. 1 and Fig. 2 on the numeric decomposition: exact outcomes at huge ε, partitions, the
// ledger, the parameter rules of Theorem 3, the node cap as post-processing, cancellation.
#include "engine/histogram/adaptive_histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <numbers>
#include <vector>

#include "engine/histogram/numeric_decomposition.h"
#include "engine/histogram/string_trie.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

using Node = NumericDecomposition::Node;

constexpr double kHugeEpsilon = 0x1p30;  // scale 2^-30: the noise is 0 with probability ~1

NumericDecomposition Bounded(double lo, double hi) {
  return NumericDecomposition::Create({.lo = lo, .hi = hi}).value();
}

PrivacyAccountant Accountant(double epsilon = 1e12) {
  return PrivacyAccountant::Create({epsilon, 0.0}).value();
}

std::vector<Int128> Repeat(std::initializer_list<std::pair<int, int>> value_counts) {
  std::vector<Int128> values;
  for (auto [value, count] : value_counts) values.insert(values.end(), count, value);
  return values;
}

// Leaves of the tree in which exactly the nodes holding one of `present` (and wider than one
// point) are split: what Fig. 2 must output when noise is absent and every present value keeps
// at least one alive record along its path.
void ExpectedLeaves(const NumericDecomposition& d, const Node& node,
                    const std::vector<Int128>& present, std::vector<std::pair<Int128, Int128>>& out) {
  bool holds = false;
  for (Int128 v : present) holds = holds || d.Contains(node, v);
  if (!holds || d.Branching(node) == 0) {
    out.emplace_back(node.lo, node.width);
    return;
  }
  for (std::uint32_t c = 0; c < d.Branching(node); ++c) {
    ExpectedLeaves(d, d.Child(node, c), present, out);
  }
}

std::vector<std::pair<Int128, Int128>> Intervals(const std::vector<Node>& leaves) {
  std::vector<std::pair<Int128, Int128>> out;
  for (const Node& n : leaves) out.emplace_back(n.lo, n.width);
  return out;
}

TEST(ImprovedPartitionTest, HugeEpsilonIsolatesEveryValueWithEnoughRecords) {
  // [0, 63]: 6 binary levels. With b = 1 and t = 2 a continuing ancestor removes at most 2
  // records, so a value with >= 2·6 + 1 = 13 records keeps one alive down to its own leaf.
  const NumericDecomposition d = Bounded(0, 63);
  const std::vector<Int128> values = Repeat({{5, 20}, {40, 13}, {63, 16}});
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    SeededRng rng(1);
    test_support::FakeProgress progress;
    auto accountant = Accountant();
    AdaptiveOptions options{.epsilon = kHugeEpsilon, .threshold = 1, .discount_function = f};
    auto result = LearnImprovedPartition(d, std::span<const Int128>(values), options, accountant,
                                         "x", "all", rng, progress);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->threshold, 1);
    EXPECT_EQ(result->discount, 2);
    std::vector<std::pair<Int128, Int128>> expected;
    ExpectedLeaves(d, d.Root(), {5, 40, 63}, expected);
    EXPECT_EQ(Intervals(result->leaves), expected) << DiscountFunctionName(f);
    EXPECT_EQ(result->nodes, 2 * expected.size() - 1);  // a binary tree
  }
}

TEST(ImprovedPartitionTest, DiscountsConsumeSmallPopulationsExactly) {
  // Three records 1, 2, 3 in input order, Skip-first, t = 2: the root (3 alive) splits and
  // discounts 1 and 2; [0, 31] holds only 3 and splits, discounting it; then all is empty.
  const NumericDecomposition d = Bounded(0, 63);
  const std::vector<Int128> values = {1, 2, 3};
  SeededRng rng(2);
  NullProgress progress;
  auto accountant = Accountant();
  AdaptiveOptions options{.epsilon = kHugeEpsilon, .threshold = 1,
                          .discount_function = DiscountFunction::kSkipFirst};
  auto result = LearnImprovedPartition(d, std::span<const Int128>(values), options, accountant,
                                       "x", "all", rng, progress);
  ASSERT_TRUE(result.has_value());
  const std::vector<std::pair<Int128, Int128>> expected = {{0, 16}, {16, 16}, {32, 32}};
  EXPECT_EQ(Intervals(result->leaves), expected);
  EXPECT_EQ(result->depths, (std::vector<std::uint32_t>{2, 2, 1}));
  EXPECT_TRUE(result->leaf_counts.empty());  // the improved algorithm releases no count
}

TEST(ImprovedPartitionTest, LeavesPartitionTheRootForEveryDiscount) {
  const NumericDecomposition d = NumericDecomposition::Create({}).value();  // unbounded
  SeededRng data_rng(3);
  std::vector<Int128> values;
  for (int i = 0; i < 5000; ++i) {
    const auto v = static_cast<Int128>(UniformBelow(data_rng, 2000)) - 1000;
    values.push_back(i % 3 == 0 ? 0 : v * v * (v % 7));
  }
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      SeededRng rng(seed);
      NullProgress progress;
      auto accountant = Accountant();
      AdaptiveOptions options{.epsilon = 0.5, .discount_function = f};
      auto result = LearnImprovedPartition(d, std::span<const Int128>(values), options,
                                           accountant, "x", "all", rng, progress);
      ASSERT_TRUE(result.has_value());
      ASSERT_FALSE(result->leaves.empty());
      EXPECT_EQ(result->leaves.front().lo, d.Root().lo);
      for (std::size_t i = 0; i + 1 < result->leaves.size(); ++i) {
        ASSERT_EQ(result->leaves[i].lo + result->leaves[i].width, result->leaves[i + 1].lo);
      }
      EXPECT_EQ(result->leaves.back().lo + result->leaves.back().width,
                d.Root().lo + d.Root().width);
      // The zero spike (1,667 records) is resolved down to its own leaf.
      bool zero_alone = false;
      for (const Node& leaf : result->leaves) zero_alone |= leaf.lo == 0 && leaf.width == 1;
      EXPECT_TRUE(zero_alone) << DiscountFunctionName(f) << " seed " << seed;
    }
  }
}

TEST(ImprovedPartitionTest, LedgerGetsExactlyTwoEpsilonPlusTheCounts) {
  const NumericDecomposition d = Bounded(0, 1000);
  const std::vector<Int128> values = Repeat({{3, 50}, {700, 80}});
  SeededRng rng(4);
  NullProgress progress;
  auto accountant = Accountant(1.0);
  auto partition = LearnImprovedPartition(d, std::span<const Int128>(values), {.epsilon = 0.25},
                                          accountant, "bins", "all", rng, progress);
  ASSERT_TRUE(partition.has_value());
  EXPECT_EQ(partition->epsilon_spent, 0.5);
  auto counts = NoisyLeafCounts(d, std::span<const Node>(partition->leaves),
                                std::span<const Int128>(values), 0.5, accountant, "counts", "all",
                                rng, progress);
  ASSERT_TRUE(counts.has_value());
  ASSERT_EQ(accountant.entries().size(), 2u);
  EXPECT_EQ(accountant.entries()[0].cost.epsilon, 0.5);
  EXPECT_EQ(accountant.entries()[0].sensitivity, 1);
  EXPECT_EQ(accountant.entries()[1].cost.epsilon, 0.5);
  EXPECT_EQ(accountant.Total().epsilon, 1.0);
  // A third spend does not fit: refused before any noise is drawn.
  auto refused = LearnImprovedPartition(d, std::span<const Int128>(values), {.epsilon = 0.25},
                                        accountant, "again", "all", rng, progress);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kBudgetExhausted);
}

TEST(ImprovedPartitionTest, SecondPassCountsAreExactAtHugeEpsilon) {
  const NumericDecomposition d = Bounded(0, 63);
  const std::vector<Int128> values = Repeat({{5, 20}, {40, 13}, {63, 16}, {30, 1}});
  SeededRng rng(5);
  NullProgress progress;
  auto accountant = Accountant();
  const std::vector<Node> leaves = {Node{0, 32}, Node{32, 16}, Node{48, 16}};
  auto counts = NoisyLeafCounts(d, std::span<const Node>(leaves), std::span<const Int128>(values),
                                kHugeEpsilon, accountant, "c", "all", rng, progress);
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(*counts, (std::vector<std::int64_t>{21, 13, 16}));
  const std::vector<Node> gap = {Node{0, 32}, Node{48, 16}};  // [32, 47] missing
  auto bad = NoisyLeafCounts(d, std::span<const Node>(gap), std::span<const Int128>(values),
                             1.0, accountant, "c", "all", rng, progress);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
}

TEST(BasicPartitionTest, SpendsEpsilonPerLevelAndReleasesLeafCounts) {
  const NumericDecomposition d = Bounded(0, 63);
  const std::vector<Int128> values = Repeat({{5, 20}, {40, 13}});
  SeededRng rng(6);
  NullProgress progress;
  auto accountant = Accountant();
  AdaptiveOptions options{.epsilon = kHugeEpsilon, .threshold = 10, .max_depth = 3};
  auto result = LearnBasicPartition(d, std::span<const Int128>(values), options, accountant, "b",
                                    "all", rng, progress);
  ASSERT_TRUE(result.has_value());
  ASSERT_EQ(accountant.entries().size(), 1u);
  EXPECT_EQ(accountant.entries()[0].count, 3u);
  EXPECT_EQ(accountant.Total().epsilon, 3 * kHugeEpsilon);  // Cor. 2: ε·B
  // No discount: [0,63] (33) -> [0,31] (20), [32,63] (13) -> [0,15] (20) and [32,47] (13)
  // split at depth 2; depth 3 is never counted (B = 3).
  const std::vector<std::pair<Int128, Int128>> expected = {
      {0, 8}, {8, 8}, {16, 16}, {32, 8}, {40, 8}, {48, 16}};
  EXPECT_EQ(Intervals(result->leaves), expected);
  EXPECT_EQ(result->leaf_counts,
            (std::vector<std::int64_t>{kNotMeasured, kNotMeasured, 0, kNotMeasured, kNotMeasured,
                                       0}));
}

TEST(AdaptiveParametersTest, DefaultRuleAndTheorem3Discount) {
  // Binary: b = ln 2 / 0.5 = 1.386 -> 2; s = 2; t = ⌈2 + 2 ln 2⌉ = 4.
  auto p = ImprovedParameters({.epsilon = 0.5}, 2);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->scale, 2.0);
  EXPECT_EQ(p->threshold, 2);
  EXPECT_EQ(p->discount, 4);
  EXPECT_LT(p->empty_offspring_mean, 1);
  // Trie: b = ln 180 / 0.5 = 10.39 -> 11, t = ⌈11 + 1.386⌉ = 13.
  auto trie = ImprovedParameters({.epsilon = 0.5}, 180);
  ASSERT_TRUE(trie.has_value());
  EXPECT_EQ(trie->threshold, 11);
  EXPECT_EQ(trie->discount, 13);
  // threshold_scale c multiplies b.
  auto c3 = ImprovedParameters({.epsilon = 1.0, .threshold_scale = 3.0}, 2);
  ASSERT_TRUE(c3.has_value());
  EXPECT_EQ(c3->threshold, 3);  // ⌈3 ln 2⌉ = ⌈2.08⌉
}

TEST(AdaptiveParametersTest, RefusesADiscountBelowTheorem3) {
  // b = 5, ε = 1: t must be >= 5 + ln 2 = 5.69.
  auto low = ImprovedParameters({.epsilon = 1.0, .threshold = 5, .discount = 5}, 2);
  ASSERT_FALSE(low.has_value());
  EXPECT_NE(low.error().message.find("Theorem 3"), std::string::npos);
  auto ok = ImprovedParameters({.epsilon = 1.0, .threshold = 5, .discount = 6}, 2);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->discount, 6);
  auto larger = ImprovedParameters({.epsilon = 1.0, .threshold = 5, .discount = 40}, 2);
  ASSERT_TRUE(larger.has_value());
  EXPECT_EQ(larger->discount, 40);
}

TEST(AdaptiveParametersTest, RefusesThresholdsThatWouldNotTerminate) {
  // 180 children each continuing with Pr[Z >= 1] = e^-1/(1 + e^-1) = 0.27: 48 expected.
  auto trie = ImprovedParameters({.epsilon = 1.0, .threshold = 1}, 180);
  ASSERT_FALSE(trie.has_value());
  EXPECT_NE(trie.error().message.find("would not terminate"), std::string::npos);
  EXPECT_FALSE(ImprovedParameters({.epsilon = 0.0}, 2).has_value());
  EXPECT_FALSE(ImprovedParameters({.epsilon = 1.0, .threshold = -1}, 2).has_value());
  EXPECT_FALSE(BasicParameters({.epsilon = 1.0, .max_depth = 0}, 2).has_value());
  // The basic algorithm's depth limit makes any positive threshold acceptable.
  EXPECT_TRUE(BasicParameters({.epsilon = 1.0, .threshold = 1}, 180).has_value());
}

TEST(AdaptiveParametersTest, ContinueProbabilityIsTheDiscreteLaplaceTail) {
  // Direct summation of Pr[Z = z] = (1 − α)/(1 + α)·α^|z| over z >= threshold − x.
  const double scale = 1.7;
  const double alpha = std::exp(-1 / scale);
  for (int x = -5; x <= 12; ++x) {
    double tail = 0;
    for (int z = 4 - x; z < 400; ++z) tail += (1 - alpha) / (1 + alpha) * std::pow(alpha, std::abs(z));
    EXPECT_NEAR(ContinueProbability(x, 4, scale), tail, 1e-12) << x;
  }
}

// The tree f(T) that a cap of `cap` nodes makes of a full run T: T's internal nodes expanded in
// breadth-first order while their children fit; the first that does not fit stops everything.
std::vector<std::pair<Int128, Int128>> CapTree(const NumericDecomposition& d,
                                               const std::vector<Node>& full_leaves,
                                               std::size_t cap) {
  auto internal_in_full = [&](const Node& n) {
    for (const Node& leaf : full_leaves) {
      if (leaf.lo == n.lo && leaf.width == n.width) return false;
    }
    return true;
  };
  struct Item {
    Node node;
    bool leaf;
  };
  std::vector<Item> tree{{d.Root(), true}};
  std::deque<std::size_t> queue{0};
  bool stopped = false;
  std::vector<std::vector<std::size_t>> children(1);
  while (!queue.empty() && !stopped) {
    const std::size_t i = queue.front();
    queue.pop_front();
    const Node node = tree[i].node;
    if (d.Branching(node) == 0 || !internal_in_full(node)) continue;
    if (tree.size() + d.Branching(node) > cap) {
      stopped = true;
      break;
    }
    tree[i].leaf = false;
    for (std::uint32_t c = 0; c < d.Branching(node); ++c) {
      tree.push_back({d.Child(node, c), true});
      children.emplace_back();
      children[i].push_back(tree.size() - 1);
      queue.push_back(tree.size() - 1);
    }
  }
  std::vector<std::pair<Int128, Int128>> leaves;
  std::vector<std::size_t> stack{0};
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    if (tree[i].leaf) {
      leaves.emplace_back(tree[i].node.lo, tree[i].node.width);
      continue;
    }
    for (auto it = children[i].rbegin(); it != children[i].rend(); ++it) stack.push_back(*it);
  }
  return leaves;
}

TEST(ImprovedPartitionTest, NodeCapIsAFunctionOfTheFullRun) {
  const NumericDecomposition d = Bounded(0, 4095);
  SeededRng data_rng(7);
  std::vector<Int128> values;
  for (int i = 0; i < 3000; ++i) {
    values.push_back(static_cast<Int128>(UniformBelow(data_rng, 64) * UniformBelow(data_rng, 64)));
  }
  NullProgress progress;
  for (std::uint64_t seed = 10; seed < 14; ++seed) {
    auto accountant = Accountant();
    SeededRng full_rng(seed);
    auto full = LearnImprovedPartition(d, std::span<const Int128>(values), {.epsilon = 1.0},
                                       accountant, "x", "all", full_rng, progress);
    ASSERT_TRUE(full.has_value());
    ASSERT_FALSE(full->truncated);
    for (std::size_t cap : {1ul, 2ul, 3ul, 17ul, 60ul, full->nodes - 1, full->nodes}) {
      SeededRng rng(seed);  // the same randomness: decisions coincide until the cap stops
      AdaptiveOptions options{.epsilon = 1.0, .max_nodes = cap};
      auto capped = LearnImprovedPartition(d, std::span<const Int128>(values), options,
                                           accountant, "x", "all", rng, progress);
      ASSERT_TRUE(capped.has_value());
      EXPECT_EQ(Intervals(capped->leaves), CapTree(d, full->leaves, cap)) << "cap " << cap;
      EXPECT_LE(capped->nodes, cap);
      EXPECT_EQ(capped->truncated, cap < full->nodes) << "cap " << cap;
    }
  }
}

TEST(ImprovedPartitionTest, DeterministicGivenASeedAndCancellable) {
  const NumericDecomposition d = NumericDecomposition::Create({}).value();
  SeededRng data_rng(8);
  std::vector<Int128> values;
  for (int i = 0; i < 200'000; ++i) values.push_back(static_cast<Int128>(data_rng() >> 20));
  auto run = [&](std::uint64_t seed, Progress& progress) {
    SeededRng rng(seed);
    auto accountant = Accountant();
    return LearnImprovedPartition(d, std::span<const Int128>(values), {.epsilon = 1.0},
                                  accountant, "x", "all", rng, progress);
  };
  NullProgress quiet;
  auto a = run(1, quiet);
  auto b = run(1, quiet);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(Intervals(a->leaves), Intervals(b->leaves));
  EXPECT_GT(a->leaves.size(), 1000u);
  test_support::FakeProgress cancelling(/*cancel_after_reports=*/1);
  auto cancelled = run(1, cancelling);
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code, ErrorCode::kCancelled);
}

TEST(ImprovedPartitionTest, RejectsValuesOutsideTheRoot) {
  const NumericDecomposition d = Bounded(0, 10);
  const std::vector<Int128> values = {1, 2, 11};
  SeededRng rng(9);
  NullProgress progress;
  auto accountant = Accountant();
  auto result = LearnImprovedPartition(d, std::span<const Int128>(values), {}, accountant, "x",
                                       "all", rng, progress);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("value 2"), std::string::npos);
  EXPECT_TRUE(accountant.entries().empty());  // nothing spent
}

TEST(ImprovedPartitionTest, WorksOnTheTrie) {
  auto trie = StringTrie::Create(16).value();
  std::vector<std::string> values;
  for (int i = 0; i < 300; ++i) values.push_back(i % 3 == 0 ? "apple" : "banana");
  values.push_back("cherry");
  SeededRng rng(12);
  NullProgress progress;
  auto accountant = Accountant();
  auto result = LearnImprovedPartition(trie, std::span<const std::string>(values),
                                       {.epsilon = 2.0}, accountant, "s", "all", rng, progress);
  ASSERT_TRUE(result.has_value());
  int verbatim = 0;
  for (const auto& leaf : result->leaves) {
    if (leaf.terminal && (leaf.prefix == "apple" || leaf.prefix == "banana")) ++verbatim;
    // One record is discounted by the first node it passes alone ("c", t = 4), so "cherry"
    // could only appear through six empty regions continuing in a row.
    EXPECT_FALSE(leaf.terminal && leaf.prefix == "cherry");
  }
  EXPECT_EQ(verbatim, 2);
}

}  // namespace
}  // namespace deniable
