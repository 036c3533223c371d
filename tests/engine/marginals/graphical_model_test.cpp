// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/graphical_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/core/random.h"

namespace deniable {
namespace {

// The exact joint of a model: Π exp(θ_C) over every cell of the full domain, normalised.
std::vector<double> BruteForceJoint(const GraphicalModel& model) {
  const std::vector<std::uint32_t>& sizes = model.tree().sizes();
  Clique all;
  for (std::size_t a = 0; a < sizes.size(); ++a) all.push_back(static_cast<int>(a));
  Factor joint = Factor::Filled(all, sizes, 0.0);
  for (const Factor& p : model.potentials()) AddBroadcast(joint, p);
  double z = 0;
  for (double& v : joint.values) z += v = std::exp(v);
  for (double& v : joint.values) v *= model.total() / z;
  return joint.values;
}

Factor BruteForceMarginal(const GraphicalModel& model, const Clique& onto) {
  const std::vector<std::uint32_t>& sizes = model.tree().sizes();
  Clique all;
  for (std::size_t a = 0; a < sizes.size(); ++a) all.push_back(static_cast<int>(a));
  Factor joint = Factor::Filled(all, sizes, 0.0);
  joint.values = BruteForceJoint(model);
  return SumOnto(joint, onto);
}

void RandomPotentials(GraphicalModel& model, std::uint64_t seed) {
  SeededRng rng(seed);
  for (Factor& p : model.potentials()) {
    for (double& v : p.values) v = 3.0 * (UniformUnit(rng) - 0.5);
  }
  model.Calibrate();
}

void ExpectSameFactor(const Factor& a, const Factor& b, double tolerance) {
  ASSERT_EQ(a.attributes, b.attributes);
  ASSERT_EQ(a.values.size(), b.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    EXPECT_NEAR(a.values[i], b.values[i], tolerance) << "cell " << i;
  }
}

// The min-fill triangulation written out plainly (the form JunctionTree::Build had before its
// adjacency became bitsets): elimination order and maximal cliques.
std::pair<std::vector<int>, std::vector<Clique>> ReferenceTriangulation(
    const std::vector<Clique>& cliques, const std::vector<std::uint32_t>& sizes) {
  const std::size_t n = sizes.size();
  std::vector<std::vector<char>> adjacent(n, std::vector<char>(n, 0));
  const auto connect = [&](const Clique& c) {
    for (int a : c) {
      for (int b : c) {
        if (a != b) adjacent[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = 1;
      }
    }
  };
  for (const Clique& c : cliques) connect(c);
  std::vector<char> eliminated(n, 0);
  std::vector<int> order;
  std::vector<Clique> formed;
  const auto clique_of = [&](std::size_t v) {
    Clique c{static_cast<int>(v)};
    for (std::size_t u = 0; u < n; ++u) {
      if (!eliminated[u] && adjacent[v][u]) c.push_back(static_cast<int>(u));
    }
    std::sort(c.begin(), c.end());
    return c;
  };
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t best = n, best_fill = 0, best_cells = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (eliminated[v]) continue;
      const Clique c = clique_of(v);
      std::size_t fill = 0;
      for (std::size_t i = 0; i < c.size(); ++i) {
        for (std::size_t j = i + 1; j < c.size(); ++j) {
          const auto a = static_cast<std::size_t>(c[i]), b = static_cast<std::size_t>(c[j]);
          if (a != v && b != v && !adjacent[a][b]) ++fill;
        }
      }
      const std::size_t cells = CellCount(c, sizes);
      if (best == n || fill < best_fill || (fill == best_fill && cells < best_cells)) {
        best = v;
        best_fill = fill;
        best_cells = cells;
      }
    }
    Clique c = clique_of(best);
    connect(c);
    eliminated[best] = 1;
    order.push_back(static_cast<int>(best));
    formed.push_back(std::move(c));
  }
  std::vector<Clique> maximal;
  for (std::size_t i = 0; i < formed.size(); ++i) {
    bool keep = true;
    for (std::size_t j = 0; j < formed.size() && keep; ++j) {
      if (i != j && IsSubset(formed[i], formed[j]) && (formed[i] != formed[j] || j < i)) {
        keep = false;
      }
    }
    if (keep) maximal.push_back(formed[i]);
  }
  return {order, maximal};
}

// Random graphs of 5 to 90 attributes (past one 64-bit word) with 2- and 3-attribute cliques:
// the same elimination order, the same maximal cliques and the same cell total as the plain
// triangulation, and HypotheticalModelCells agrees with the built tree.
TEST(JunctionTreeTest, BitsetTriangulationMatchesThePlainOne) {
  SeededRng rng(21);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 5 + UniformBelow(rng, 86);
    std::vector<std::uint32_t> sizes(n);
    for (auto& size : sizes) size = 2 + static_cast<std::uint32_t>(UniformBelow(rng, 6));
    std::vector<Clique> cliques;
    const std::size_t count = UniformBelow(rng, 2 * n);
    for (std::size_t k = 0; k < count; ++k) {
      Clique c;
      const std::size_t width = 2 + UniformBelow(rng, 2);
      while (c.size() < width) {
        const int a = static_cast<int>(UniformBelow(rng, n));
        if (std::find(c.begin(), c.end(), a) == c.end()) c.push_back(a);
      }
      std::sort(c.begin(), c.end());
      cliques.push_back(c);
    }
    const auto [order, maximal] = ReferenceTriangulation(cliques, sizes);
    const JunctionTree tree = JunctionTree::Build(cliques, sizes);
    ASSERT_EQ(tree.elimination_order(), order) << "trial " << trial << ", " << n << " attributes";
    ASSERT_EQ(tree.cliques(), maximal) << "trial " << trial;
    EXPECT_EQ(HypotheticalModelCells(cliques, sizes), tree.TotalCells()) << "trial " << trial;
  }
}

TEST(JunctionTreeTest, MergesATriangleIntoOneClique) {
  const JunctionTree tree = JunctionTree::Build({{0, 1}, {1, 2}, {0, 2}}, {2, 3, 4});
  ASSERT_EQ(tree.cliques().size(), 1u);
  EXPECT_EQ(tree.cliques()[0], (Clique{0, 1, 2}));
  EXPECT_EQ(tree.Containing({1, 2}), 0);
  EXPECT_EQ(tree.TotalCells(), 24u);
}

TEST(JunctionTreeTest, ChainKeepsPairsAndCoversUnmeasuredAttributes) {
  const JunctionTree tree = JunctionTree::Build({{0, 1}, {1, 2}}, {2, 3, 4, 5});
  EXPECT_EQ(tree.cliques().size(), 3u);  // {0,1}, {1,2}, {3}
  EXPECT_GE(tree.Containing({3}), 0);
  EXPECT_LT(tree.Containing({0, 2}), 0);
  EXPECT_EQ(tree.order().size(), tree.cliques().size());
  EXPECT_EQ(tree.parent(tree.order()[0]), -1);
}

TEST(JunctionTreeTest, CycleIsTriangulated) {
  // A 4-cycle needs one chord: two cliques of three attributes.
  const JunctionTree tree = JunctionTree::Build({{0, 1}, {1, 2}, {2, 3}, {0, 3}}, {2, 2, 2, 2});
  ASSERT_EQ(tree.cliques().size(), 2u);
  EXPECT_EQ(tree.cliques()[0].size(), 3u);
  EXPECT_EQ(tree.edges().size(), 1u);
  EXPECT_EQ(tree.edges()[0].separator.size(), 2u);
}

class BeliefPropagationTest : public ::testing::TestWithParam<std::vector<Clique>> {};

TEST_P(BeliefPropagationTest, MatchesBruteForceMarginals) {
  const std::vector<std::uint32_t> sizes = {2, 3, 4, 2, 3};
  GraphicalModel model(JunctionTree::Build(GetParam(), sizes), 1000.0);
  RandomPotentials(model, 7);
  for (std::size_t c = 0; c < model.tree().cliques().size(); ++c) {
    const Clique& clique = model.tree().cliques()[c];
    ExpectSameFactor(model.marginals()[c], BruteForceMarginal(model, clique), 1e-9);
  }
  // Marginals across cliques (variable elimination over a subtree).
  for (const Clique& q : std::vector<Clique>{{0, 4}, {0, 2, 4}, {1, 3}, {3}, {0, 1, 2, 3, 4}}) {
    ExpectSameFactor(model.Marginal(q), BruteForceMarginal(model, q), 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Graphs, BeliefPropagationTest,
    ::testing::Values(std::vector<Clique>{{0, 1}, {1, 2}, {2, 3}, {3, 4}},          // chain
                      std::vector<Clique>{{0, 1}, {0, 2}, {0, 3}, {0, 4}},          // star
                      std::vector<Clique>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {2, 4}},  // cycle
                      std::vector<Clique>{{0, 1, 2}, {2, 3}, {1, 3}, {4}},          // non-tree
                      std::vector<Clique>{{0}, {1}, {2}, {3}, {4}}));               // independent

}  // namespace
}  // namespace deniable
