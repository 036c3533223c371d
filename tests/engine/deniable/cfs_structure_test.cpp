// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/cfs_structure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/core/progress.h"
#include "tests/engine/deniable/deniable_test_util.h"

namespace deniable {
namespace {

// A planted network: A(0) -> B(1) -> C(2) strongly (copy with 5% noise), E(4) -> D(3), and
// F(5) independent of everything.
EncodedTable PlantedTable(std::size_t rows, std::uint64_t seed) {
  SeededRng rng(seed);
  EncodedTable t;
  t.rows = rows;
  t.cardinalities = {4, 4, 4, 3, 3, 5};
  t.columns.assign(6, std::vector<Code>(rows));
  auto noisy_copy = [&](Code from, std::uint32_t cardinality) {
    return UniformUnit(rng) < 0.05 ? static_cast<Code>(UniformBelow(rng, cardinality)) : from;
  };
  for (std::size_t r = 0; r < rows; ++r) {
    t.columns[0][r] = static_cast<Code>(UniformBelow(rng, 4));
    t.columns[1][r] = noisy_copy(t.columns[0][r], 4);
    t.columns[2][r] = noisy_copy(t.columns[1][r], 4);
    t.columns[4][r] = static_cast<Code>(UniformBelow(rng, 3));
    t.columns[3][r] = noisy_copy(t.columns[4][r], 3);
    t.columns[5][r] = static_cast<Code>(UniformBelow(rng, 5));
  }
  return t;
}

std::set<std::pair<int, int>> UndirectedEdges(const std::vector<BayesNode>& nodes) {
  std::set<std::pair<int, int>> edges;
  for (const BayesNode& node : nodes) {
    for (int p : node.parents)
      edges.insert({std::min(p, node.attribute), std::max(p, node.attribute)});
  }
  return edges;
}

void ExpectValidOrderWithinMaxcost(const std::vector<BayesNode>& nodes, std::uint64_t maxcost) {
  std::set<int> seen;
  for (const BayesNode& node : nodes) {
    std::uint64_t cost = 1;
    for (std::size_t j = 0; j < node.parents.size(); ++j) {
      EXPECT_TRUE(seen.count(node.parents[j])) << "parent after child: not acyclic in σ";
      cost *= node.parent_bucket_counts[j];
    }
    EXPECT_LE(cost, maxcost) << "attribute " << node.attribute;
    seen.insert(node.attribute);
  }
  EXPECT_EQ(seen.size(), nodes.size());
}

TEST(CfsStructureTest, RecoversAPlantedNetworkAtLargeEpsilon) {
  const EncodedTable data = PlantedTable(20000, 1);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1000, 1e-6});
  ASSERT_TRUE(accountant.has_value());
  CfsOptions options;
  options.epsilon = 500;
  options.maxcost = 16;
  SeededRng rng(2);
  NullProgress progress;
  auto learned = LearnCfsStructure(data, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(learned.has_value()) << learned.error().message;
  const auto edges = UndirectedEdges(learned->nodes);
  EXPECT_TRUE(edges.count({0, 1}));
  EXPECT_TRUE(edges.count({1, 2}));
  EXPECT_TRUE(edges.count({3, 4}));
  for (const auto& e : edges) {
    EXPECT_NE(e.first, 5) << "the independent attribute got an edge";
    EXPECT_NE(e.second, 5) << "the independent attribute got an edge";
    // No edge between the two independent groups.
    const bool first_group = e.first <= 2, second_group = e.second <= 2;
    EXPECT_EQ(first_group, second_group) << e.first << " - " << e.second;
  }
  ExpectValidOrderWithinMaxcost(learned->nodes, 16);
}

TEST(CfsStructureTest, StaysAcyclicAndWithinMaxcostOnCorrelatedData) {
  // Many attributes all correlated: the greedy would like many parents everywhere.
  SeededRng rng(4);
  const std::vector<std::uint32_t> cardinalities = {3, 4, 5, 3, 6, 2, 4, 3};
  const std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::vector<int>> parents(8);
  for (int i = 1; i < 8; ++i) parents[static_cast<std::size_t>(i)] = {i - 1};
  const BayesNet truth = test_support::RandomNetwork(cardinalities, order, parents, rng);
  const EncodedTable data = test_support::SampleTable(truth, cardinalities, 5000, rng);
  for (std::uint64_t maxcost : {1u, 4u, 12u, 30u}) {
    auto accountant = PrivacyAccountant::Create(PrivacyCost{10, 1e-6});
    ASSERT_TRUE(accountant.has_value());
    CfsOptions options;
    options.epsilon = 5;
    options.maxcost = maxcost;
    options.buckets.assign(8, {});
    options.buckets[4] = {0, 0, 1, 1, 2, 2};  // 6 codes -> 3 buckets
    NullProgress progress;
    auto learned = LearnCfsStructure(data, options, *accountant, "all", rng, progress);
    ASSERT_TRUE(learned.has_value());
    ExpectValidOrderWithinMaxcost(learned->nodes, maxcost);
    if (maxcost == 1) {
      for (const BayesNode& node : learned->nodes) EXPECT_TRUE(node.parents.empty());
    }
    for (const BayesNode& node : learned->nodes) {
      for (std::size_t j = 0; j < node.parents.size(); ++j) {
        if (node.parents[j] == 4) {
          EXPECT_EQ(node.parent_bucket_counts[j], 3u);
          EXPECT_EQ(node.parent_buckets[j], options.buckets[4]);
        }
      }
    }
  }
}

TEST(CfsStructureTest, LedgerHasTheExactNumberOfEntropyQueriesAndTheBudget) {
  const EncodedTable data = PlantedTable(3000, 5);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{2, 1e-6});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->AddPartition("D_T", "all", "test").has_value());
  CfsOptions options;
  options.epsilon = 1.0;
  options.delta = 1e-9;
  options.row_count_fraction = 0.1;
  options.buckets.assign(6, {});
  options.buckets[5] = {0, 0, 1, 1, 1};  // attribute 5 (5 codes) bucketised into 2
  SeededRng rng(6);
  NullProgress progress;
  auto learned = LearnCfsStructure(data, options, *accountant, "D_T", rng, progress);
  ASSERT_TRUE(learned.has_value());
  // m = 6: 6 single entropies + 1 bucketised single + 10 pairs without attribute 5 (one query
  // each) + 5 pairs with it (two queries each) = 27.
  EXPECT_EQ(learned->entropy_queries, 27u);
  ASSERT_EQ(accountant->entries().size(), 2u);
  const LedgerEntry& rows = accountant->entries()[0];
  const LedgerEntry& entropies = accountant->entries()[1];
  EXPECT_DOUBLE_EQ(rows.cost.epsilon, 0.1);
  EXPECT_DOUBLE_EQ(rows.cost.delta, 1e-9);
  EXPECT_EQ(entropies.count, 27u);
  // No advanced-composition slack in this accountant: sequential, ε_each = 0.9 / 27.
  EXPECT_NEAR(entropies.epsilon_each, 0.9 / 27, 1e-12);
  EXPECT_LE(accountant->TotalOf("D_T").epsilon, 1.0);
  EXPECT_NEAR(accountant->TotalOf("D_T").epsilon, 1.0, 1e-12);
  // The sensitivity is the add/remove bound at the DP lower bound of |D_T| minus one.
  EXPECT_DOUBLE_EQ(entropies.sensitivity,
                   EntropyQuerySensitivity(static_cast<double>(learned->rows.lower - 1)));
  EXPECT_LT(learned->rows.lower, 3000 + 5);  // a lower bound, not an estimate
}

TEST(CfsStructureTest, UsefulnessLimitsConfigurationsByRowsAndEpsilon) {
  // A child spread over its 5 values (effective values = cardinality): PrivBayes's
  // n̂_P·ε_p/(θ·|x|) = 10,000 · 0.05 / (4 · 5) = 25 configurations.
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 5, 5, 1024), 25u);
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 9, 5, 1024), 25u);  // clamped to |x|
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 5, 5, 16), 16u);    // maxcost still applies
  EXPECT_EQ(UsefulConfigurations(10, 0.05, 4, 5, 5, 1024), 1u);      // never below 1 (no parents)
  EXPECT_EQ(UsefulConfigurations(-3, 0.05, 4, 5, 5, 1024), 1u);      // a negative noisy count
  EXPECT_EQ(UsefulConfigurations(10, 0.05, 0, 5, 5, 1024), 1024u);   // θ = 0: maxcost alone
  // A child its parent determines (one value per configuration): the 4 empty cells carry
  // ProjectedCountNoise(1, 4) = 1 + min(2, sqrt(8) + 0.5) = 3 noise scales, not 5:
  // floor(500 / (4 · 3)) = 41 configurations.
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 1, 5, 1024), 41u);
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 0.2, 5, 1024), 41u);  // clamped to 1
  // Two values per configuration of 14: 2 + min(6, sqrt(24) + 1) = 7.899 -> floor(15.8) = 15.
  EXPECT_EQ(UsefulConfigurations(10000, 0.05, 4, 2, 14, 1024), 15u);
  // In the learner: with few rows every attribute is limited to one configuration (no edge).
  const EncodedTable data = PlantedTable(400, 9);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1000, 1e-6});
  ASSERT_TRUE(accountant.has_value());
  CfsOptions options;
  options.epsilon = 100;
  options.usefulness_theta = 4;
  options.parameter_epsilon = 0.01;  // 400 · 0.01 / (4 · 4) < 1
  SeededRng rng(10);
  NullProgress progress;
  auto learned = LearnCfsStructure(data, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(learned.has_value());
  for (const BayesNode& node : learned->nodes) EXPECT_TRUE(node.parents.empty());
  EXPECT_EQ(learned->configuration_limit, std::vector<std::uint64_t>(6, 1));
}

CfsEntropies HandMade(std::vector<double> h, std::vector<std::vector<double>> hj) {
  CfsEntropies e;
  e.single = h;
  e.bucketed = std::move(h);
  e.pair = std::move(hj);
  return e;
}

ParentLimit MaxcostOnly(std::uint64_t maxcost, std::vector<std::uint32_t> cardinalities) {
  ParentLimit limit;
  limit.maxcost = maxcost;
  limit.cardinalities = std::move(cardinalities);
  return limit;
}

TEST(CfsStructureTest, GreedyFollowsTheMeritOnHandMadeEntropies) {
  // Three attributes, 1 bit each; (0, 1) perfectly correlated (joint 1 bit), 2 independent.
  const CfsEntropies e = HandMade({1, 1, 1}, {{0, 1, 2}, {1, 0, 2}, {2, 2, 0}});
  const auto parents = GreedyCfsParents(e, {2, 2, 2}, MaxcostOnly(4, {2, 2, 2}));
  // Exactly one edge between 0 and 1 (equal entropies: the first best, target 0, parent 1),
  // nothing for 2.
  EXPECT_EQ(parents[0], std::vector<int>{1});
  EXPECT_TRUE(parents[1].empty());
  EXPECT_TRUE(parents[2].empty());
  EXPECT_EQ(TopologicalOrder(parents, {1, 1, 1}), (std::vector<int>{1, 0, 2}));
  // Smallest key (entropy) first among the available attributes.
  EXPECT_EQ(TopologicalOrder({{}, {}, {}}, {2.5, 0.3, 1.0}), (std::vector<int>{1, 2, 0}));
  // ...but never before a parent.
  EXPECT_EQ(TopologicalOrder({{2}, {}, {}}, {0.1, 0.3, 1.0}), (std::vector<int>{1, 2, 0}));
}

TEST(CfsStructureTest, EqualMeritGoesToTheLowEntropyParent) {
  // Attribute 1 (1 bit) is a function of attribute 0 (3 bits): joint 3 bits, SU = 2 − 6/4 =
  // 0.5 both ways. The edge is 1 -> 0 (parent 1, the smaller entropy), whatever the order.
  const auto forward = GreedyCfsParents(HandMade({3, 1}, {{0, 3}, {3, 0}}), {8, 2},
                                        MaxcostOnly(1024, {8, 2}));
  EXPECT_EQ(forward[0], std::vector<int>{1});
  EXPECT_TRUE(forward[1].empty());
  const auto backward = GreedyCfsParents(HandMade({1, 3}, {{0, 3}, {3, 0}}), {2, 8},
                                         MaxcostOnly(1024, {2, 8}));
  EXPECT_TRUE(backward[0].empty());
  EXPECT_EQ(backward[1], std::vector<int>{0});
}

TEST(CfsStructureTest, ConditionalEntropyAndDeterminationFromPairQueries) {
  // H(0) = 3, H(1) = 1, H(2) = 2; H(0, 1) = 3.2, H(0, 2) = 4.9, H(1, 2) = 2.5.
  CfsEntropies e = HandMade({3, 1, 2}, {{0, 3.2, 4.9}, {3.2, 0, 2.5}, {4.9, 2.5, 0}});
  EXPECT_DOUBLE_EQ(e.ConditionalEntropy(0, {}), 3);
  EXPECT_DOUBLE_EQ(e.ConditionalEntropy(0, {2}), 2.9);
  EXPECT_DOUBLE_EQ(e.ConditionalEntropy(0, {1, 2}), 2.2);  // the smaller bound
  EXPECT_NEAR(e.ConditionalEntropy(1, {0}), 0.2, 1e-15);
  EXPECT_DOUBLE_EQ(e.ConditionalEntropy(2, {1}), 1.5);
  // Noisy entropies may make the difference negative: clamped at 0.
  e.pair[1][0] = 2.5;
  EXPECT_DOUBLE_EQ(e.ConditionalEntropy(1, {0}), 0);
  // Determination: H(x_i | P) + noise <= H(x_i)/4.
  e.pair[1][0] = 3.2;
  e.noise_scale = 0.04;
  EXPECT_TRUE(e.Determines(1, {0}));   // 0.2 + 0.04 <= 0.25
  EXPECT_FALSE(e.Determines(1, {}));   // no parents, nothing determined
  EXPECT_FALSE(e.Determines(2, {1}));  // 1.5 of 2 bits left
  e.noise_scale = 0.06;
  EXPECT_FALSE(e.Determines(1, {0}));  // not by a margin of one noise scale
}

TEST(CfsStructureTest, UsefulnessLimitFollowsTheParentSet) {
  // Child 0 has 14 values (3.8 bits); parent 1 (14 codes) determines it, parent 2 (14 codes)
  // does not. 10,000 rows, ε_p = 0.05, θ = 4: 125 noise-scale cells of budget.
  const CfsEntropies e =
      HandMade({3.8, 3.8, 3.8}, {{0, 3.8, 7.6}, {3.8, 0, 7.6}, {7.6, 7.6, 0}});
  ParentLimit limit;
  limit.parameter_rows = 10000;
  limit.parameter_epsilon = 0.05;
  limit.theta = 4;
  limit.cardinalities = {14, 14, 14};
  // Determined: 1 + min(6.5, sqrt(26) + 0.5) = 6.6 noise scales -> 18 configurations (>= 14).
  EXPECT_EQ(limit.Configurations(e, 0, {1}), 18u);
  // Independent: 2^3.8 = 13.9 effective values -> about 14 noise scales -> 8 configurations.
  EXPECT_EQ(limit.Configurations(e, 0, {2}), 8u);
  // So the greedy gives 0 the parent that determines it, despite its 14 configurations, which
  // PrivBayes's rule (125 / 14 = 8 configurations) would refuse.
  const auto parents = GreedyCfsParents(e, {14, 14, 14}, limit);
  EXPECT_EQ(parents[0], std::vector<int>{1});
}

TEST(CfsStructureTest, AutomaticRowCountShareShrinksAsTheTableGrows) {
  const double epsilon = 0.7, delta = 0x1.0p-31;
  double previous = 1;
  for (std::int64_t rows : {1000, 2500, 10000, 50000, 300000}) {
    const double share = AutomaticRowCountFraction(rows, epsilon, delta);
    EXPECT_GE(share, 0.005);
    EXPECT_LE(share, 0.5);
    EXPECT_LE(share, previous) << rows;
    previous = share;
    // It is the grid's best: no other share gives a smaller entropy noise scale.
    auto noise = [&](double f) {
      const std::int64_t margin = RowCountMargin(f * epsilon, delta).value();
      return EntropySensitivity(static_cast<double>(std::max<std::int64_t>(rows - margin - 1, 0))) /
             (1 - kRowCountProbeFraction - f);
    };
    for (int step = 1; step <= 100; ++step) EXPECT_LE(noise(share), noise(0.005 * step)) << rows;
  }
  EXPECT_GE(AutomaticRowCountFraction(2500, epsilon, delta), 0.08);   // was 0.02: half the rows
  EXPECT_LE(AutomaticRowCountFraction(300000, epsilon, delta), 0.02);
}

TEST(CfsStructureTest, AutomaticRowCountSpendsAProbeThenTheBound) {
  const EncodedTable data = PlantedTable(3000, 11);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{2, 1e-6});
  ASSERT_TRUE(accountant.has_value());
  CfsOptions options;  // row_count_fraction = 0: automatic
  options.epsilon = 1.0;
  options.delta = 1e-9;
  SeededRng rng(12);
  NullProgress progress;
  auto learned = LearnCfsStructure(data, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(learned.has_value()) << learned.error().message;
  ASSERT_EQ(accountant->entries().size(), 3u);
  const LedgerEntry& probe = accountant->entries()[0];
  const LedgerEntry& bound = accountant->entries()[1];
  EXPECT_DOUBLE_EQ(probe.cost.epsilon, kRowCountProbeFraction);
  EXPECT_DOUBLE_EQ(probe.cost.delta, 0);
  EXPECT_NE(probe.label.find("probe"), std::string::npos);
  EXPECT_DOUBLE_EQ(bound.cost.delta, 1e-9);
  EXPECT_NEAR(learned->row_count_epsilon, probe.cost.epsilon + bound.cost.epsilon, 1e-15);
  EXPECT_GT(bound.cost.epsilon, 0.02);  // more than the old fixed share for 3,000 rows
  EXPECT_LE(accountant->Total().epsilon, 1.0);
  EXPECT_NEAR(accountant->Total().epsilon, 1.0, 1e-12);
  // The noise scale the determination margin uses: ΔH/ε_H (rounded up by about 2^-40).
  const double scale = learned->entropy_sensitivity / learned->epsilon_per_entropy;
  EXPECT_GE(learned->entropies.noise_scale, scale);
  EXPECT_NEAR(learned->entropies.noise_scale, scale, 1e-9 * scale);
  // Rejects a share outside [0, 1).
  options.row_count_fraction = 1.5;
  auto bad = LearnCfsStructure(data, options, *accountant, "all", rng, progress);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("row_count_fraction"), std::string::npos);
}

}  // namespace
}  // namespace deniable
