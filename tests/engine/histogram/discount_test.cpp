// SPDX-License-Identifier: Apache-2.0
// Stability of the record-level discount functions (App. A eq. (9), discount_functions.md): for
// random datasets A and B = A + one record with the same priorities, on a fixed output tree,
// every node's discounted population satisfies A_node ⊆ B_node and |B_node \ A_node| <= 1, and
// the nodes that differ form one root-to-leaf path. And the counterexample that rules out
// Progressive discounting.
#include "engine/histogram/discount.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "engine/core/random.h"
#include "engine/histogram/numeric_decomposition.h"

namespace deniable {
namespace {

using Node = NumericDecomposition::Node;
using Key = std::pair<std::int64_t, std::int64_t>;  // (lo, width) of a node

struct Record {
  int id;
  int value;
};

struct DiscountRun {
  std::map<Key, std::set<int>> alive;  // every node's population after its ancestors' discounts
  std::map<Key, Key> parent;
};

Key KeyOf(const Node& n) {
  return {static_cast<std::int64_t>(n.lo), static_cast<std::int64_t>(n.width)};
}

// Runs the discounts of a fixed tree (a node splits iff `split` says so) on a population listed
// in increasing priority, exactly as the improved algorithm does: discount, then a stable
// distribution of the survivors to the children.
template <typename Split>
void Walk(const NumericDecomposition& d, const Node& node, const std::vector<Record>& population,
          DiscountFunction f, std::uint64_t t, const Split& split, DiscountRun& run) {
  for (const Record& r : population) run.alive[KeyOf(node)].insert(r.id);
  run.alive[KeyOf(node)];  // present even when empty
  const std::uint32_t k = d.Branching(node);
  if (k == 0 || !split(node)) return;
  std::vector<std::uint32_t> child_of;
  for (const Record& r : population) child_of.push_back(d.ChildOf(node, r.value));
  std::vector<std::uint8_t> removed;
  const std::size_t count = MarkDiscounted(f, t, child_of, k, removed);
  EXPECT_GE(count, std::min<std::size_t>(t, population.size()));  // a t-discount
  std::vector<std::vector<Record>> children(k);
  for (std::size_t i = 0; i < population.size(); ++i) {
    if (!removed[i]) children[child_of[i]].push_back(population[i]);
  }
  for (std::uint32_t c = 0; c < k; ++c) {
    const Node child = d.Child(node, c);
    run.parent[KeyOf(child)] = KeyOf(node);
    Walk(d, child, children[c], f, t, split, run);
  }
}

TEST(DiscountTest, EveryDiscountIsStableAlongOnePath) {
  const NumericDecomposition d = NumericDecomposition::Create({.lo = 0.0, .hi = 15.0}).value();
  SeededRng rng(2024);
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    for (int trial = 0; trial < 3000; ++trial) {
      const auto n = static_cast<int>(UniformBelow(rng, 40));
      std::vector<Record> a;
      for (int i = 0; i < n; ++i) a.push_back({i, static_cast<int>(UniformBelow(rng, 16))});
      // Clustered values make deep chains likely: half the trials use values 0..3 only.
      if (trial % 2 == 0) {
        for (Record& r : a) r.value %= 4;
      }
      std::vector<Record> b = a;  // the same priorities, plus one record anywhere
      const auto at = static_cast<std::ptrdiff_t>(UniformBelow(rng, a.size() + 1));
      b.insert(b.begin() + at, Record{n, static_cast<int>(UniformBelow(rng, trial % 2 ? 16 : 4))});
      const std::uint64_t t = 1 + UniformBelow(rng, 6);
      const std::uint64_t salt = rng();
      // A fixed output tree: the same split decisions for A and B (Thm. 3 compares the
      // probabilities of one output).
      auto split = [salt](const Node& node) {
        SeededRng coin(salt ^ static_cast<std::uint64_t>(node.lo * 131 + node.width));
        return UniformBelow(coin, 10) < 8;
      };
      DiscountRun run_a, run_b;
      Walk(d, d.Root(), a, f, t, split, run_a);
      Walk(d, d.Root(), b, f, t, split, run_b);
      ASSERT_EQ(run_a.alive.size(), run_b.alive.size());
      std::set<Key> differing;
      for (const auto& [key, alive_a] : run_a.alive) {
        const std::set<int>& alive_b = run_b.alive.at(key);
        std::vector<int> extra;
        std::set_difference(alive_b.begin(), alive_b.end(), alive_a.begin(), alive_a.end(),
                            std::back_inserter(extra));
        ASSERT_TRUE(std::includes(alive_b.begin(), alive_b.end(), alive_a.begin(), alive_a.end()))
            << DiscountFunctionName(f) << " trial " << trial;
        ASSERT_LE(extra.size(), 1u) << DiscountFunctionName(f) << " trial " << trial;
        if (!extra.empty()) differing.insert(key);
      }
      // One path: every differing node's parent differs, and no two differing siblings.
      std::map<Key, int> differing_children;
      for (const Key& key : differing) {
        if (key == KeyOf(d.Root())) continue;
        const Key parent = run_a.parent.at(key);
        ASSERT_TRUE(differing.count(parent)) << DiscountFunctionName(f) << " trial " << trial;
        ASSERT_EQ(++differing_children[parent], 1) << DiscountFunctionName(f) << " trial " << trial;
      }
    }
  }
}

TEST(DiscountTest, UniformTakesAnEqualShareFromEachChildThenSkips) {
  // 3 children, t = 4: share ⌈4/3⌉ = 2 from each child (child 2 has one record only), 5 removed
  // in step 1 >= t, so the skip step adds nothing.
  const std::vector<std::uint32_t> child_of = {0, 1, 0, 0, 1, 2, 1, 0};
  std::vector<std::uint8_t> removed;
  EXPECT_EQ(MarkDiscounted(DiscountFunction::kUniform, 4, child_of, 3, removed), 5u);
  EXPECT_EQ(removed, (std::vector<std::uint8_t>{1, 1, 1, 0, 1, 1, 0, 0}));
  // t = 7, 2 children: share 4 each, but child 1 has only 3: 4 + 3 = 7, done.
  const std::vector<std::uint32_t> two_children = {0, 1, 0, 0, 1, 0, 1, 0};
  EXPECT_EQ(MarkDiscounted(DiscountFunction::kUniform, 7, two_children, 2, removed), 7u);
  EXPECT_EQ(removed, (std::vector<std::uint8_t>{1, 1, 1, 1, 1, 1, 1, 0}));
  // Empty children leave their share to the skip step: all records in child 0.
  const std::vector<std::uint32_t> one_child = {0, 0, 0, 0, 0};
  EXPECT_EQ(MarkDiscounted(DiscountFunction::kUniform, 4, one_child, 4, removed), 4u);
  EXPECT_EQ(removed, (std::vector<std::uint8_t>{1, 1, 1, 1, 0}));
  EXPECT_EQ(MarkDiscounted(DiscountFunction::kSkipFirst, 2, one_child, 4, removed), 2u);
  EXPECT_EQ(removed, (std::vector<std::uint8_t>{1, 1, 0, 0, 0}));
}

// App. A's Progressive discounting at the record level: t times, remove the lowest-priority
// record of the currently largest child (ties: the lowest child index). NOT stable, shown
// below; not offered by the engine. Returns the survivors' ids.
std::set<int> ProgressiveSurvivors(const std::vector<int>& ids, const std::vector<int>& child,
                                   int children, int t) {
  std::vector<std::vector<int>> lists(children);  // per child, in priority order
  for (std::size_t i = 0; i < ids.size(); ++i) lists[child[i]].push_back(ids[i]);
  for (int step = 0; step < t; ++step) {
    int largest = 0;
    for (int c = 1; c < children; ++c) {
      if (lists[c].size() > lists[largest].size()) largest = c;
    }
    if (!lists[largest].empty()) lists[largest].erase(lists[largest].begin());
  }
  std::set<int> out;
  for (const auto& list : lists) out.insert(list.begin(), list.end());
  return out;
}

TEST(DiscountTest, ProgressiveDiscountIsNotStable) {
  // Children (5, 5), t = 2. Priorities interleave the children: 0 5 1 6 2 7 3 8 4 9.
  const std::vector<int> ids_a = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9};
  std::vector<int> child_a;
  for (int id : ids_a) child_a.push_back(id < 5 ? 0 : 1);
  // B = A + record 10 in child 0, with the highest priority (it is never the one removed).
  std::vector<int> ids_b = ids_a;
  ids_b.push_back(10);
  std::vector<int> child_b = child_a;
  child_b.push_back(0);
  const std::set<int> ta = ProgressiveSurvivors(ids_a, child_a, 2, 2);  // removes 0 then 5
  const std::set<int> tb = ProgressiveSurvivors(ids_b, child_b, 2, 2);  // removes 0 then 1
  EXPECT_EQ(ta, (std::set<int>{1, 2, 3, 4, 6, 7, 8, 9}));
  EXPECT_EQ(tb, (std::set<int>{2, 3, 4, 5, 6, 7, 8, 9, 10}));
  std::vector<int> difference;
  std::set_symmetric_difference(ta.begin(), ta.end(), tb.begin(), tb.end(),
                                std::back_inserter(difference));
  EXPECT_EQ(difference, (std::vector<int>{1, 5, 10}));  // |T(A) Δ T(B)| = 3 > |A Δ B| = 1
  // Both children differ (child 0 by two records, child 1 by one): two paths, not one.

  // The engine's discounts on the same instance differ by exactly one record.
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kUniform}) {
    std::vector<std::uint32_t> ca(child_a.begin(), child_a.end());
    std::vector<std::uint32_t> cb(child_b.begin(), child_b.end());
    std::vector<std::uint8_t> ra, rb;
    MarkDiscounted(f, 2, ca, 2, ra);
    MarkDiscounted(f, 2, cb, 2, rb);
    std::set<int> sa, sb;
    for (std::size_t i = 0; i < ids_a.size(); ++i) {
      if (!ra[i]) sa.insert(ids_a[i]);
    }
    for (std::size_t i = 0; i < ids_b.size(); ++i) {
      if (!rb[i]) sb.insert(ids_b[i]);
    }
    std::vector<int> d;
    std::set_symmetric_difference(sa.begin(), sa.end(), sb.begin(), sb.end(),
                                  std::back_inserter(d));
    EXPECT_EQ(d, (std::vector<int>{10})) << DiscountFunctionName(f);
  }
}

TEST(DiscountTest, NamesRoundTrip) {
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    EXPECT_EQ(ParseDiscountFunction(DiscountFunctionName(f)), f);
  }
  EXPECT_FALSE(ParseDiscountFunction("progressive").has_value());
}

}  // namespace
}  // namespace deniable
