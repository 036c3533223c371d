// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/consistency.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/core/random.h"
#include "engine/marginals/marginals_model.h"

namespace deniable {
namespace {

// A model over A (3 codes), B (3 codes), C (2 codes) with cliques {A, B} and {B, C} whose
// marginals are the given counts (row-major, last attribute fastest).
GraphicalModel ModelOf(const std::vector<double>& ab, const std::vector<double>& bc) {
  const std::vector<std::uint32_t> sizes = {3, 3, 2};
  JunctionTree tree = JunctionTree::Build({{0, 1}, {1, 2}}, sizes);
  std::vector<Factor> marginals;
  double total = 0;
  for (double v : ab) total += v;
  for (const Clique& c : tree.cliques()) {
    Factor f = Factor::Filled(c, sizes, 0.0);
    f.values = c == Clique{0, 1} ? ab : bc;
    marginals.push_back(std::move(f));
  }
  return ModelFromMarginals(std::move(tree), marginals, total);
}

// A → B: codes 0 and 1 have clear labels; code 2 (30 records) has no majority (12 of 30).
// λ(B | A) = (762 − 418)/(820 − 418) = 0.8557; λ(A | B) = (762 − 420)/(820 − 420) = 0.855.
const std::vector<double> kAb = {400, 10, 10,  //
                                 8, 350, 12,   //
                                 10, 12, 8};
const std::vector<double> kBc = {209, 209, 300, 72, 15, 15};  // B's totals 418, 372, 30

// The released form: the model of kAb/kBc on identity compression, with its pairs.
MarginalsModel ModelWithPairs() {
  MarginalsModel m;
  m.mechanism = "aim";
  m.model = ModelOf(kAb, kBc);
  m.compression = DomainCompression::Identity({3, 3, 2});
  m.consistent_pairs = FindConsistentPairs(m.model);
  return m;
}

TEST(ConsistencyTest, ANearFunctionalPairIsFoundWithItsMapping) {
  const std::vector<ConsistentPair> pairs = FindConsistentPairs(ModelOf(kAb, kBc));
  // The stronger direction is kept; its reverse would close a cycle.
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].parent, 0);
  EXPECT_EQ(pairs[0].child, 1);
  EXPECT_NEAR(pairs[0].lambda, 344.0 / 402.0, 1e-9);
  EXPECT_EQ(pairs[0].mapping[0], 0u);
  EXPECT_EQ(pairs[0].mapping[1], 1u);
  EXPECT_EQ(pairs[0].forced, (std::vector<bool>{true, true, false}));  // code 2: no majority
  // Just above the rule's λ0; a stricter one finds nothing.
  EXPECT_TRUE(FindConsistentPairs(ModelOf(kAb, kBc), 0.86).empty());
}

// A numeric parent (its codes are bins): a bin whose runner-up label holds >= 15% straddles a
// step of B and is left to decoding (model/band_pairs.h); a categorical parent's is forced.
TEST(ConsistencyTest, AStraddlingBinOfANumericParentIsNotForced) {
  // A0 and A1 → B0, A2 → B1 with 60 of 265 (22.6%) in B2. λ(B | A) = (900 − 705)/(985 − 705)
  // = 0.696; λ(A | B) = (660 − 410)/(985 − 410) = 0.435 (so only A → B passes λ0 = 0.5).
  const std::vector<double> ab = {400, 5, 5, 300, 5, 5, 5, 200, 60};
  const std::vector<double> bc = {352.5, 352.5, 105, 105, 35, 35};
  const std::vector<ConsistentPair> ordered =
      FindConsistentPairs(ModelOf(ab, bc), 0.5, {true, false, false});
  ASSERT_EQ(ordered.size(), 1u);
  EXPECT_EQ(ordered[0].parent, 0);
  EXPECT_EQ(ordered[0].child, 1);
  EXPECT_EQ(ordered[0].forced, (std::vector<bool>{true, true, false}));
  const std::vector<ConsistentPair> categorical = FindConsistentPairs(ModelOf(ab, bc), 0.5);
  ASSERT_EQ(categorical.size(), 1u);
  EXPECT_EQ(categorical[0].forced, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(categorical[0].mapping, ordered[0].mapping);
}

TEST(ConsistencyTest, AMereAssociationIsLeftAlone) {
  // λ(B | A) = (760 − 365)/(1000 − 365) = 0.62 and λ(A | B) likewise: below 0.85.
  const std::vector<double> ab = {250, 50, 20, 60, 250, 40, 20, 50, 260};
  const std::vector<double> bc = {165, 165, 175, 175, 160, 160};
  EXPECT_TRUE(FindConsistentPairs(ModelOf(ab, bc)).empty());
}

TEST(ConsistencyTest, ApplyingSetsTheChildOfForcedCodesOnlyParentsFirst) {
  EncodedTable rows;
  rows.rows = 4;
  rows.cardinalities = {3, 3, 3};
  rows.columns = {{0, 1, 2, 0}, {2, 2, 2, 1}, {0, 0, 0, 0}};
  ConsistentPair ab{0, 1, 0.9, {0, 1, 2}, {true, true, false}};
  ConsistentPair bc{1, 2, 0.9, {1, 2, 0}, {true, true, true}};
  ApplyConsistentPairs({ab, bc}, rows);
  EXPECT_EQ(rows.columns[1], (std::vector<Code>{0, 1, 2, 0}));  // row 2: code 2 left alone
  EXPECT_EQ(rows.columns[2], (std::vector<Code>{1, 2, 0, 1}));  // from the updated B
}

// Sampling applies the pairs: every row of a forced code carries its label, and the parent's
// marginal is the model's (a chi-square-free check: counts within 4 standard deviations).
TEST(ConsistencyTest, SamplesOfTheModelKeepThePairAndTheParentsMarginal) {
  const MarginalsModel m = ModelWithPairs();
  SeededRng rng(5);
  const std::size_t n = 20000;
  const EncodedTable rows = m.Sample(n, SamplingOptions{}, rng);
  std::vector<double> of_a(3, 0.0);
  for (std::size_t r = 0; r < n; ++r) {
    const Code a = rows.columns[0][r], b = rows.columns[1][r];
    of_a[a] += 1;
    if (a < 2) {
      EXPECT_EQ(b, a) << "row " << r;
    }
  }
  const std::vector<double> p = {420.0 / 820, 370.0 / 820, 30.0 / 820};
  for (std::size_t a = 0; a < 3; ++a) {
    EXPECT_NEAR(of_a[a] / n, p[a], 4 * std::sqrt(p[a] * (1 - p[a]) / n)) << "code " << a;
  }
}

// The description carries the pairs: written and read back, they are the same.
TEST(ConsistencyTest, ThePairsSurviveTheDescription) {
  const MarginalsModel m = ModelWithPairs();
  auto back = MarginalsModel::FromJson(m.ToJson(), {3, 3, 2}, "model");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  ASSERT_EQ(back->consistent_pairs.size(), 1u);
  EXPECT_EQ(back->consistent_pairs[0].mapping, m.consistent_pairs[0].mapping);
  EXPECT_EQ(back->consistent_pairs[0].forced, m.consistent_pairs[0].forced);
  // A mapped code out of the child's range is refused with the field named.
  nlohmann::json bad = m.ToJson();
  bad["consistent_pairs"][0]["mapping"][0] = 7;
  auto refused = MarginalsModel::FromJson(bad, {3, 3, 2}, "model");
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("consistent_pairs"), std::string::npos);
}

}  // namespace
}  // namespace deniable
