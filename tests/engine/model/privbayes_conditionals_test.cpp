// SPDX-License-Identifier: Apache-2.0
// The correlated mode's conditional tables (engine/model/privbayes_conditionals.cpp, privbayes.md §4).
#include "engine/model/privbayes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/support/accountant.h"
#include "tests/support/fake_progress.h"
#include "tests/support/random_encoded_table.h"

namespace deniable {
namespace {

using test_support::Accountant;
using test_support::LedgerTotal;
using test_support::RandomEncodedTable;

TEST(LearnConditionalsTest, HugeEpsilonRecoversExactConditionals) {
  EncodedTable data;
  data.rows = 6;
  data.cardinalities = {3, 2};
  // parent (attr 0) never takes value 2.
  data.columns = {{0, 0, 0, 1, 1, 1}, {0, 0, 1, 1, 1, 1}};
  std::vector<BayesNode> structure(2);
  structure[0].attribute = 0;
  structure[1].attribute = 1;
  structure[1].parents = {0};  // identity buckets filled in by LearnConditionals
  PrivacyAccountant accountant = Accountant(1e7);
  SeededRng rng(1);
  NullProgress progress;
  auto net = LearnConditionals(data, structure, 1e6, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  EXPECT_EQ(net->Validate(data.cardinalities), "");
  EXPECT_EQ(net->nodes[0].probabilities, (std::vector<double>{0.5, 0.5, 0.0}));
  // Configuration 2 has no rows: it gets the child's marginal (2/6, 4/6).
  const std::vector<double> expected = {2.0 / 3, 1.0 / 3, 0.0, 1.0, 1.0 / 3, 2.0 / 3};
  ASSERT_EQ(net->nodes[1].probabilities.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_DOUBLE_EQ(net->nodes[1].probabilities[i], expected[i]) << i;
  }
}

TEST(LearnConditionalsTest, SplitsEpsilonBySquareRootOfCells) {
  const EncodedTable data = RandomEncodedTable(100, {4, 4}, 1);
  std::vector<BayesNode> structure(2);
  structure[0].attribute = 0;  // 4 cells
  structure[1].attribute = 1;  // 16 cells
  structure[1].parents = {0};
  const std::vector<std::string> names = {"a", "b"};
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(1);
  NullProgress progress;
  auto net = LearnConditionals(data, structure, 0.6, accountant, "all", rng, progress, &names);
  ASSERT_TRUE(net.has_value());
  ASSERT_EQ(accountant.entries().size(), 2u);
  EXPECT_EQ(accountant.entries()[0].label, "noisy counts of a");
  EXPECT_EQ(accountant.entries()[1].label, "noisy counts of b | (a)");
  EXPECT_NEAR(accountant.entries()[0].epsilon_each, 0.2, 1e-12);  // sqrt 4 : sqrt 16 = 1 : 2
  EXPECT_NEAR(accountant.entries()[1].epsilon_each, 0.4, 1e-12);
  EXPECT_NEAR(LedgerTotal(accountant), 0.6, 1e-12);
}

TEST(LearnConditionalsTest, RejectsStructureWithLaterParent) {
  const EncodedTable data = RandomEncodedTable(10, {2, 2}, 1);
  std::vector<BayesNode> structure(2);
  structure[0].attribute = 0;
  structure[0].parents = {1};
  structure[1].attribute = 1;
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(1);
  NullProgress progress;
  auto net = LearnConditionals(data, structure, 1.0, accountant, "all", rng, progress);
  ASSERT_FALSE(net.has_value());
  EXPECT_EQ(net.error().message,
            "invalid network structure: node 0 (attribute 0): parent 1 does not come before "
            "the node in the network's order");
}


// A binary column whose two values were both kept still has an "Other" code; its count is 0.
// With other_codes, neither its marginal nor a conditional with sparse configurations gives
// "Other" any mass from noise (without them, the 7% of empty cells that pass 2 noise scales
// wrote "Other" for whole configurations of Adult's sex | relationship, marital-status).
TEST(LearnConditionalsTest, AnEmptyOtherCodeGetsNoMassFromNoise) {
  EncodedTable t;
  t.rows = 4000;
  t.cardinalities = {12, 3};  // a 12-value parent; a binary child with its Other code (2)
  t.columns.resize(2);
  SeededRng data_rng(21);
  for (std::size_t r = 0; r < t.rows; ++r) {
    const auto parent = static_cast<Code>(r % 12 < 10 ? r % 10 : 10 + UniformBelow(data_rng, 2));
    t.columns[0].push_back(parent);
    t.columns[1].push_back(static_cast<Code>(UniformBelow(data_rng, 2)));
  }
  BayesNode root;
  root.attribute = 0;
  BayesNode child;
  child.attribute = 1;
  child.parents = {0};
  const std::vector<std::int64_t> other_codes = {-1, 2};
  double other_mass_with = 0, other_mass_without = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    for (bool with : {true, false}) {
      auto accountant = PrivacyAccountant::Create({10.0, 1e-9});
      ASSERT_TRUE(accountant.has_value());
      SeededRng rng(100 + seed);
      NullProgress progress;
      auto net = LearnConditionals(t, {root, child}, 0.05, *accountant, "all", rng, progress,
                                   nullptr, with ? &other_codes : nullptr);
      ASSERT_TRUE(net.has_value()) << net.error().message;
      const BayesNode& c = net->nodes[1];
      for (std::size_t config = 0; config < 12; ++config) {
        (with ? other_mass_with : other_mass_without) += c.probabilities[config * 3 + 2];
      }
    }
  }
  // The child's table gets ε ≈ 0.032 (ε ∝ √cells): noise scale ≈ 32 per cell, 333 records per
  // configuration. An empty Other cell passes 5 scales with probability ½e^-5 ≈ 0.3% (mass
  // ≈ 0.3 when it does), 2 scales with 7% (mass ≈ 0.15–0.25): over 20 seeds × 12
  // configurations the expected totals are ≈ 0.2 and ≈ 3.
  EXPECT_LT(other_mass_with, 1.0);
  EXPECT_GT(other_mass_without, 2.0);
  EXPECT_GT(other_mass_without, 4 * other_mass_with);
}


// A 100-value parent (200 rows each) and a binary child: its tables' noise scale is ≈ 20 per
// cell (ε = 0.085: the child's 200 cells get √200 / (√100 + √200) of it, 0.050), so step 1 of
// privbayes.md §4 (zero below 2 scales = 40) deletes nearly every cell of a value that holds
// 10 rows per configuration.
EncodedTable ParentAndBinaryChild(bool deterministic, std::uint64_t seed) {
  EncodedTable t;
  t.rows = 20000;
  t.cardinalities = {100, 2};
  t.columns.resize(2);
  SeededRng data_rng(seed);
  for (std::size_t r = 0; r < t.rows; ++r) {
    const auto parent = static_cast<Code>(r % 100);
    t.columns[0].push_back(parent);
    // Independent: 5% ones, 10 a configuration. Deterministic: child = [parent < 5] (5%).
    t.columns[1].push_back(static_cast<Code>(
        deterministic ? (parent < 5 ? 1 : 0) : (UniformBelow(data_rng, 20) == 0 ? 1 : 0)));
  }
  return t;
}

double ChildOneShare(const BayesNet& net) {
  double share = 0;
  for (std::size_t config = 0; config < 100; ++config) {
    share += net.nodes[0].probabilities[config] * net.nodes[1].probabilities[config * 2 + 1];
  }
  return share;
}

// A parent with a single code leaves one configuration: the child's table is a marginal, and
// only its negative counts become 0 (as a root's). Child scale ≈ 60 (ε = 0.0284, of which the
// child's 2 cells get √2 / (1 + √2)): its 100 ones (5%) clear step 1's 2 scales only when the
// noise adds 20 (½e^{-1/3} ≈ 36% of the runs) but stay unless the noise takes 100 (≈ 91%).
TEST(LearnConditionalsTest, UnderAOneCodeParentAValueIsZeroedOnlyWhenNegative) {
  EncodedTable t;
  t.rows = 2000;
  t.cardinalities = {1, 2};
  t.columns = {std::vector<Code>(2000, 0), std::vector<Code>(2000, 0)};
  for (std::size_t r = 0; r < 100; ++r) t.columns[1][r * 20] = 1;
  BayesNode root;
  root.attribute = 0;
  BayesNode child;
  child.attribute = 1;
  child.parents = {0};
  int kept = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    PrivacyAccountant accountant = Accountant();
    SeededRng rng(500 + seed);
    NullProgress progress;
    auto net = LearnConditionals(t, {root, child}, 0.0284, accountant, "all", rng, progress);
    ASSERT_TRUE(net.has_value()) << net.error().message;
    ASSERT_EQ(net->nodes[1].probabilities.size(), 2u);
    kept += net->nodes[1].probabilities[1] > 0 ? 1 : 0;
  }
  // Expected 18.1 of 20 (36%: 7.2 under step 1's zeroing).
  EXPECT_GE(kept, 15);
}

// Step 1b: a value spread thinly over the configurations keeps its share (the zeroed cells'
// noisy sum, 1,000 ± 283, clears 3 standard deviations almost always), where step 1 alone left
// it the 11% of cells whose noise passes 40 (≈ 0.6% of the rows). A value that is a function of
// the parent gets nothing back where it does not occur: the zeroed cells' sum is noise only.
TEST(LearnConditionalsTest, AThinValueKeepsItsShareAndAFunctionStaysAFunction) {
  BayesNode root;
  root.attribute = 0;
  BayesNode child;
  child.attribute = 1;
  child.parents = {0};
  double thin = 0, stray = 0;
  constexpr int kSeeds = 10;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    for (bool deterministic : {false, true}) {
      const EncodedTable t = ParentAndBinaryChild(deterministic, 7 + seed);
      PrivacyAccountant accountant = Accountant();
      SeededRng rng(300 + seed);
      NullProgress progress;
      auto net = LearnConditionals(t, {root, child}, 0.085, accountant, "all", rng, progress);
      ASSERT_TRUE(net.has_value()) << net.error().message;
      ASSERT_NEAR(accountant.entries()[1].epsilon_each, 0.085 * std::sqrt(200.0) /
                                                            (10 + std::sqrt(200.0)), 1e-9);
      if (!deterministic) {
        thin += ChildOneShare(*net) / kSeeds;
        continue;
      }
      // The ones' mass in configurations 5..99, where the real data has none.
      for (std::size_t config = 5; config < 100; ++config) {
        stray += net->nodes[0].probabilities[config] *
                 net->nodes[1].probabilities[config * 2 + 1] / kSeeds;
      }
    }
  }
  // 5% real. Step 1 alone keeps ≈ 11 cells a seed (10 + noise >= 40), ≈ 60 rows each: 3.3%.
  // With 1b: 4.5% over these seeds; the restored sum's noise (±1.1% a seed, √(89·v0) ≈ 220
  // rows) averages to ±0.35% over 10 seeds, and its bias correction assumes empty cells
  // (cells holding 10 rows are cut by their noise a little more often): a tolerance of 1%.
  EXPECT_NEAR(thin, 0.05, 0.01) << thin;
  // The ones' mass where the real data has none is step 1's kept noise only: 95 empty cells
  // pass 40 with probability ½e^-2 ≈ 6.8%, ≈ 50 of a configuration's ≈ 250 rows when they do:
  // ≈ 1.3% (1.66% over these seeds). A restored sum would add at least 3.3% (3 standard
  // deviations of the zeroed sum, ≈ 660 rows) in a seed where it passed.
  EXPECT_LT(stray, 0.022) << stray;
}

}  // namespace
}  // namespace deniable
