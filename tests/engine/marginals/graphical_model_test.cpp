// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/graphical_model.h"

#include <gtest/gtest.h>

#include <cmath>
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
