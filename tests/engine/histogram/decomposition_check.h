// SPDX-License-Identifier: Apache-2.0
// Generic checks of the Decomposition contract (engine/histogram/decomposition.h) on nodes met by
// random walks from the root: children partition their parent (every drawn value of the parent
// is in exactly the child ChildOf names, and in no other), ChildOf agrees with Child, every
// drawn value lies in its node, and the order makes children contiguous and in index order
// (values of child i sort before values of child j > i).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "engine/core/random.h"
#include "engine/histogram/decomposition.h"

namespace deniable::test_support {

template <Decomposition D>
void CheckNode(const D& d, const typename D::Node& node, Rng& rng, int draws) {
  const std::uint32_t k = d.Branching(node);
  for (int t = 0; t < draws; ++t) {
    const typename D::Value v = d.Draw(node, rng);
    ASSERT_TRUE(d.Contains(node, v)) << d.Label(node);
    if (k == 0) continue;
    const std::uint32_t c = d.ChildOf(node, v);
    ASSERT_LT(c, k) << d.Label(node);
    for (std::uint32_t i = 0; i < k; ++i) {
      ASSERT_EQ(d.Contains(d.Child(node, i), v), i == c)
          << d.Label(node) << " child " << i << " (ChildOf says " << c << ")";
    }
  }
  if (k < 2) return;
  // Order: a value of child i is Less than a value of child i + 1.
  for (std::uint32_t i = 0; i + 1 < k; ++i) {
    const typename D::Value a = d.Draw(d.Child(node, i), rng);
    const typename D::Value b = d.Draw(d.Child(node, i + 1), rng);
    ASSERT_TRUE(d.Less(a, b)) << d.Label(d.Child(node, i)) << " vs " << d.Label(d.Child(node, i + 1));
    ASSERT_FALSE(d.Less(b, a));
  }
}

// `walks` random root-to-leaf walks (at most max_depth steps), checking every node met.
template <Decomposition D>
void CheckDecomposition(const D& d, std::uint64_t seed, int walks, int max_depth = 200,
                        int draws = 8) {
  SeededRng rng(seed);
  for (int w = 0; w < walks; ++w) {
    typename D::Node node = d.Root();
    for (int depth = 0; depth < max_depth; ++depth) {
      CheckNode(d, node, rng, draws);
      if (::testing::Test::HasFatalFailure()) return;
      const std::uint32_t k = d.Branching(node);
      if (k == 0) break;
      // Half of the time follow a drawn value (dense paths), else a uniform child.
      const typename D::Value v = d.Draw(node, rng);
      const std::uint32_t next = (rng() & 1) ? d.ChildOf(node, v)
                                             : static_cast<std::uint32_t>(UniformBelow(rng, k));
      node = d.Child(node, next);
    }
  }
}

}  // namespace deniable::test_support
