// SPDX-License-Identifier: Apache-2.0
#include "engine/model/privbayes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/model/sampler.h"
#include "tests/support/accountant.h"
#include "tests/support/fake_progress.h"
#include "tests/support/random_encoded_table.h"

namespace deniable {
namespace {

using test_support::Accountant;
using test_support::LedgerTotal;
using test_support::RandomEncodedTable;

TEST(LearnIndependentTest, SpendsEpsilonEvenlyWithOneEntryPerAttribute) {
  const EncodedTable data = RandomEncodedTable(500, {3, 2, 5}, 1);
  const std::vector<std::string> names = {"age", "sex", "income"};
  PrivacyAccountant accountant = Accountant(1.0);
  SeededRng rng(7);
  NullProgress progress;
  auto net = LearnIndependent(data, {.epsilon = 0.9, .names = &names}, accountant, "all", rng,
                              progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  EXPECT_EQ(net->Validate(data.cardinalities), "");
  ASSERT_EQ(accountant.entries().size(), 3u);
  EXPECT_EQ(accountant.entries()[0].label, "histogram of age");
  EXPECT_EQ(accountant.entries()[2].label, "histogram of income");
  for (const LedgerEntry& e : accountant.entries()) {
    EXPECT_DOUBLE_EQ(e.epsilon_each, 0.3);
    EXPECT_EQ(e.sensitivity, 1.0);
    EXPECT_EQ(e.partition, "all");
  }
  EXPECT_NEAR(accountant.Total().epsilon, 0.9, 1e-12);
}

TEST(LearnIndependentTest, HugeEpsilonGivesExactHistograms) {
  EncodedTable data;
  data.rows = 4;
  data.cardinalities = {3};
  data.columns = {{0, 2, 2, 2}};
  PrivacyAccountant accountant = Accountant(1e7);
  SeededRng rng(1);
  NullProgress progress;
  // Noise scale 1e-6: Pr[any noise != 0] < 1e-100.
  auto net = LearnIndependent(data, {.epsilon = 1e6}, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value());
  EXPECT_EQ(net->nodes[0].probabilities, (std::vector<double>{0.25, 0.0, 0.75}));
  EXPECT_EQ(accountant.entries()[0].label, "histogram of attribute 0");
}

TEST(LearnIndependentTest, EmptyTableGivesUniform) {
  EncodedTable data;
  data.cardinalities = {4};
  data.columns = {{}};
  PrivacyAccountant accountant = Accountant(1e7);
  SeededRng rng(1);
  NullProgress progress;
  auto net = LearnIndependent(data, {.epsilon = 1e6}, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value());
  EXPECT_EQ(net->nodes[0].probabilities, std::vector<double>(4, 0.25));
}

TEST(LearnIndependentTest, RejectsBadEpsilonAndBadCodes) {
  EncodedTable data = RandomEncodedTable(10, {3, 2}, 1);
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(1);
  NullProgress progress;
  auto bad_epsilon = LearnIndependent(data, {.epsilon = -1}, accountant, "all", rng, progress);
  ASSERT_FALSE(bad_epsilon.has_value());
  EXPECT_EQ(bad_epsilon.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_epsilon.error().message,
            "independent-mode epsilon must be finite and positive (got -1.000000)");
  data.columns[1][7] = 2;
  auto bad_code = LearnIndependent(data, {.epsilon = 1}, accountant, "all", rng, progress);
  ASSERT_FALSE(bad_code.has_value());
  EXPECT_EQ(bad_code.error().message,
            "attribute 1, row 7: code 2 is not below the cardinality 2");
  data.columns[1].pop_back();
  auto ragged = LearnIndependent(data, {.epsilon = 1}, accountant, "all", rng, progress);
  ASSERT_FALSE(ragged.has_value());
  EXPECT_EQ(ragged.error().message, "attribute 1 has 9 codes for 10 rows");
  EXPECT_TRUE(accountant.entries().empty());
}

TEST(LearnIndependentTest, CancellationReturnsCancelled) {
  const EncodedTable data = RandomEncodedTable(100, {3, 2, 5, 4}, 1);
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(1);
  test_support::FakeProgress progress(/*cancel_after_reports=*/1);
  auto net = LearnIndependent(data, {.epsilon = 1}, accountant, "all", rng, progress);
  ASSERT_FALSE(net.has_value());
  EXPECT_EQ(net.error().code, ErrorCode::kCancelled);
}

TEST(LearnPrivBayesStructureTest, IsAcyclicWithExactlyMinDegreeParents) {
  const EncodedTable data = RandomEncodedTable(2'000, {4, 2, 3, 5, 2, 3}, 2);
  for (int degree = 1; degree <= 3; ++degree) {
    PrivacyAccountant accountant = Accountant();
    ASSERT_TRUE(accountant.AddPartition("D_S", "all", "structure rows").has_value());
    SeededRng rng(static_cast<std::uint64_t>(degree));
    NullProgress progress;
    auto nodes = LearnPrivBayesStructure(data, degree, 0.5, accountant, "D_S", rng, progress);
    ASSERT_TRUE(nodes.has_value()) << nodes.error().message;
    ASSERT_EQ(nodes->size(), 6u);
    std::vector<bool> seen(6, false);
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      const BayesNode& node = (*nodes)[i];
      EXPECT_EQ(node.parents.size(), std::min<std::size_t>(degree, i));
      for (int p : node.parents) EXPECT_TRUE(seen[p]) << "parent " << p << " not earlier";
      EXPECT_FALSE(seen[node.attribute]);
      seen[node.attribute] = true;
      EXPECT_EQ(node.parent_buckets.size(), node.parents.size());
      EXPECT_EQ(node.parent_bucket_counts.size(), node.parents.size());
    }
    ASSERT_EQ(accountant.entries().size(), 1u);
    const LedgerEntry& entry = accountant.entries()[0];
    EXPECT_EQ(entry.count, 5u);
    EXPECT_DOUBLE_EQ(entry.epsilon_each, 0.1);
    EXPECT_EQ(entry.partition, "D_S");
    EXPECT_DOUBLE_EQ(entry.sensitivity, MutualInformationScoreSensitivity());
    EXPECT_NEAR(LedgerTotal(accountant), 0.5, 1e-12);
  }
}

TEST(LearnPrivBayesStructureTest, RespectsTableLimitAndBuckets) {
  const EncodedTable data = RandomEncodedTable(3'000, {20, 10, 20, 6, 4}, 3);
  StructureOptions options;
  options.degree = 2;
  options.epsilon = 1.0;
  options.max_table_cells = 100;
  options.parent_buckets = {CoarseBinBuckets(20, 0, 5), {}, CoarseBinBuckets(20, 0, 4)};
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(5);
  NullProgress progress;
  auto nodes = LearnPrivBayesStructure(data, options, accountant, "all", rng, progress);
  ASSERT_TRUE(nodes.has_value()) << nodes.error().message;
  for (const BayesNode& node : *nodes) {
    std::uint64_t cells = node.cardinality;
    for (std::size_t p = 0; p < node.parents.size(); ++p) {
      cells *= node.parent_bucket_counts[p];
      if (node.parents[p] == 0) {
        EXPECT_EQ(node.parent_buckets[p], CoarseBinBuckets(20, 0, 5));
        EXPECT_EQ(node.parent_bucket_counts[p], 5u);
      }
    }
    EXPECT_TRUE(node.parents.empty() || cells <= 100) << "attribute " << node.attribute;
  }
}

TEST(LearnPrivBayesStructureTest, RejectsBadDegreeAndBucketMaps) {
  const EncodedTable data = RandomEncodedTable(100, {3, 2}, 1);
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(1);
  NullProgress progress;
  auto zero = LearnPrivBayesStructure(data, 0, 1.0, accountant, "all", rng, progress);
  ASSERT_FALSE(zero.has_value());
  EXPECT_EQ(zero.error().message, "degree must be between 1 and 8 (got 0)");
  StructureOptions options;
  options.parent_buckets = {{0, 1}};
  auto bad_map = LearnPrivBayesStructure(data, options, accountant, "all", rng, progress);
  ASSERT_FALSE(bad_map.has_value());
  EXPECT_EQ(bad_map.error().message,
            "the parent bucket map of attribute 0 has 2 entries for cardinality 3");
  EXPECT_TRUE(accountant.entries().empty());
}

TEST(LearnPrivBayesStructureTest, SameResultForOneAndTwoThreads) {
  const EncodedTable data = RandomEncodedTable(5'000, {4, 2, 3, 5, 2, 3, 6}, 4);
  std::vector<std::vector<int>> parents[2];
  for (unsigned threads = 1; threads <= 2; ++threads) {
    StructureOptions options;
    options.epsilon = 2.0;
    options.threads = threads;
    PrivacyAccountant accountant = Accountant();
    SeededRng rng(11);
    NullProgress progress;
    auto nodes = LearnPrivBayesStructure(data, options, accountant, "all", rng, progress);
    ASSERT_TRUE(nodes.has_value());
    for (const BayesNode& node : *nodes) {
      parents[threads - 1].push_back(node.parents);
      parents[threads - 1].back().push_back(node.attribute);
    }
  }
  EXPECT_EQ(parents[0], parents[1]);
}

TEST(MutualInformationScoreTest, MatchesHandComputedValues) {
  EncodedTable data;
  data.rows = 4;
  data.cardinalities = {2, 2, 2};
  data.columns = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 1, 0, 1}};
  EXPECT_DOUBLE_EQ(internal::MutualInformationScore(data, 0, {1}), 4.0);  // 4 rows x 1 bit
  EXPECT_DOUBLE_EQ(internal::MutualInformationScore(data, 0, {2}), 0.0);
  EXPECT_DOUBLE_EQ(internal::MutualInformationScore(data, 0, {1, 2}), 4.0);
  EXPECT_DOUBLE_EQ(internal::MutualInformationScore(data, 2, {}), 0.0);
}

// The privacy-critical bound of privbayes.md §2: adding any one record to any table changes
// n·I(X;Π) by at most g(n) = (n+1) log2(n+1) - n log2 n <= the declared sensitivity.
TEST(MutualInformationScoreTest, AddingOneRecordMovesTheScoreByAtMostTheSensitivity) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = 1 + seed * 7;
    EncodedTable data = RandomEncodedTable(n, {3, 4, 2}, seed);
    const double before = internal::MutualInformationScore(data, 0, {1, 2});
    const double g = (n + 1) * std::log2(n + 1.0) - n * std::log2(static_cast<double>(n));
    for (Code x = 0; x < 3; ++x) {
      for (Code a = 0; a < 4; ++a) {
        for (Code b = 0; b < 2; ++b) {
          const EncodedTable plus = test_support::WithRecord(data, {x, a, b});
          const double after = internal::MutualInformationScore(plus, 0, {1, 2});
          EXPECT_LE(std::abs(after - before), g + 1e-9) << "seed " << seed;
        }
      }
    }
    EXPECT_LT(g, MutualInformationScoreSensitivity());
  }
  // log2(2^32) + 1/ln 2 for the exact scores, plus twice the evaluation-error bound 2^-10.
  EXPECT_NEAR(MutualInformationScoreSensitivity(), 32 + 1 / std::log(2.0) + 0x1p-9, 1e-12);
}

// Scores are counted over distinct rows with multiplicities: repeating every row 3 times must
// multiply n·I exactly by 3 (all counts x3; the log2 3 terms cancel).
TEST(MutualInformationScoreTest, RepeatedRowsTripleTheScore) {
  const EncodedTable data = RandomEncodedTable(200, {3, 4, 2}, 12);
  std::vector<std::uint32_t> rows;
  for (int copy = 0; copy < 3; ++copy) {
    for (std::uint32_t r = 0; r < 200; ++r) rows.push_back((r * 7 + copy) % 200);
  }
  const EncodedTable tripled = SelectRows(data, rows);
  const double once = internal::MutualInformationScore(data, 0, {1, 2});
  ASSERT_GT(once, 1.0);  // column 1 copies column 0 modulo 4: strongly dependent
  EXPECT_NEAR(internal::MutualInformationScore(tripled, 0, {1, 2}), 3 * once, 1e-9 * once);
  EXPECT_NEAR(internal::MutualInformationScore(tripled, 2, {0}),
              3 * internal::MutualInformationScore(data, 2, {0}), 1e-9);
}

// Huge tables (> 2^24 cells) are counted by sorting; both paths must agree with a direct sum.
TEST(MutualInformationScoreTest, SparsePathMatchesDirectComputation) {
  const EncodedTable data = RandomEncodedTable(3'000, {300, 290, 300}, 8);
  std::map<std::uint64_t, double> joint, configs, values;
  for (std::size_t r = 0; r < data.rows; ++r) {
    const std::uint64_t c = data.columns[1][r] * 300u + data.columns[2][r];
    joint[c * 300 + data.columns[0][r]] += 1;
    configs[c] += 1;
    values[data.columns[0][r]] += 1;
  }
  auto f = [](double c) { return c * std::log2(c); };
  double expected = f(3000);
  for (auto& [k, c] : joint) expected += f(c);
  for (auto& [k, c] : configs) expected -= f(c);
  for (auto& [k, c] : values) expected -= f(c);
  EXPECT_NEAR(internal::MutualInformationScore(data, 0, {1, 2}), expected, 1e-6);
}

TEST(LearnPrivBayesTest, SpendsExactlyEpsilonAndGivesAValidNetwork) {
  const EncodedTable data = RandomEncodedTable(4'000, {5, 3, 4, 2, 6}, 6);
  for (double public_rows : {-1.0, 4'000.0}) {
    PrivacyAccountant accountant = Accountant(1.0);
    SeededRng rng(3);
    NullProgress progress;
    PrivBayesOptions options;
    options.epsilon = 1.0;
    options.public_rows = public_rows;
    auto net = LearnPrivBayes(data, options, accountant, "all", rng, progress);
    ASSERT_TRUE(net.has_value()) << net.error().message;
    EXPECT_EQ(net->Validate(data.cardinalities), "");
    for (const BayesNode& node : net->nodes) EXPECT_LE(node.parents.size(), 2u);
    // [row count] + structure + one table per attribute.
    EXPECT_EQ(accountant.entries().size(), public_rows < 0 ? 7u : 6u);
    EXPECT_NEAR(LedgerTotal(accountant), 1.0, 1e-12);
  }
}

TEST(LearnPrivBayesTest, HandlesEmptyTablesAndSingleValueColumns) {
  for (std::size_t rows : {std::size_t{0}, std::size_t{3}}) {
    const EncodedTable data = RandomEncodedTable(rows, {1, 1, 4, 1}, 2);
    PrivacyAccountant accountant = Accountant(1.0);
    SeededRng rng(3);
    NullProgress progress;
    PrivBayesOptions options;
    options.degree = 3;
    auto net = LearnPrivBayes(data, options, accountant, "all", rng, progress);
    ASSERT_TRUE(net.has_value()) << net.error().message;
    EXPECT_EQ(net->Validate(data.cardinalities), "");
    auto sample = SampleNetwork(*net, data.cardinalities, 10, rng, progress);
    ASSERT_TRUE(sample.has_value());
    EXPECT_EQ(sample->columns[0], std::vector<Code>(10, 0));
  }
}

// 40 rows at ε = 1: the θ-limit (≈ 40·0.69/(3·8) ≈ 1 cell) admits no parent at all, so no ε is
// wasted on a structure: row count + one table per attribute, all parentless, totalling ε.
TEST(LearnPrivBayesTest, SkipsTheStructureWhenNoEdgeCouldBeUseful) {
  const EncodedTable data = RandomEncodedTable(40, {5, 4, 3}, 9);
  PrivacyAccountant accountant = Accountant(1.0);
  SeededRng rng(3);
  NullProgress progress;
  auto net = LearnPrivBayes(data, PrivBayesOptions{}, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  for (const BayesNode& node : net->nodes) EXPECT_TRUE(node.parents.empty());
  ASSERT_EQ(accountant.entries().size(), 4u);
  EXPECT_EQ(accountant.entries()[0].label,
            "row count (sizes the conditional tables, θ-usefulness)");
  EXPECT_NEAR(LedgerTotal(accountant), 1.0, 1e-12);
  PrivBayesOptions bad;
  bad.degree = 0;
  auto refused = LearnPrivBayes(data, bad, accountant, "all", rng, progress);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().message, "degree must be between 1 and 8 (got 0)");
}

TEST(LearnPrivBayesTest, SingleAttributeSpendsAllOnItsTable) {
  const EncodedTable data = RandomEncodedTable(50, {3}, 1);
  PrivacyAccountant accountant = Accountant(1.0);
  SeededRng rng(3);
  NullProgress progress;
  PrivBayesOptions options;
  options.epsilon = 0.5;
  auto net = LearnPrivBayes(data, options, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  ASSERT_EQ(accountant.entries().size(), 1u);
  EXPECT_NEAR(accountant.entries()[0].epsilon_each, 0.5, 1e-15);
}

TEST(LearnPrivBayesTest, RejectsBadStructureFraction) {
  const EncodedTable data = RandomEncodedTable(50, {3, 2}, 1);
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(3);
  NullProgress progress;
  PrivBayesOptions options;
  options.structure_fraction = 1.0;
  auto net = LearnPrivBayes(data, options, accountant, "all", rng, progress);
  ASSERT_FALSE(net.has_value());
  EXPECT_EQ(net.error().message, "structure_fraction must be in (0, 1) (got 1.000000)");
}

TEST(LearnPrivBayesTest, CancellationReturnsCancelled) {
  const EncodedTable data = RandomEncodedTable(1'000, {5, 3, 4, 2, 6}, 6);
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(3);
  test_support::FakeProgress progress(/*cancel_after_reports=*/1);
  auto net = LearnPrivBayes(data, {}, accountant, "all", rng, progress);
  ASSERT_FALSE(net.has_value());
  EXPECT_EQ(net.error().code, ErrorCode::kCancelled);
}

TEST(CoarseBinBucketsTest, MergesAdjacentBinsAndKeepsExtraCodes) {
  EXPECT_EQ(CoarseBinBuckets(20, 1, 5),
            (std::vector<std::uint32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4,
                                        4, 5}));
  EXPECT_EQ(CoarseBinBuckets(5, 0, 2), (std::vector<std::uint32_t>{0, 0, 0, 1, 1}));
  EXPECT_EQ(CoarseBinBuckets(3, 2, 10), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
}


// Attribute 1 = attribute 0 mod 3 (a found dependency): placed right after 0 at 0's own codes,
// no exponential-mechanism choice for it, never a parent beside 0, and a parent of others only
// when it is coarser than 0 enters tables.
TEST(LearnPrivBayesStructureTest, AForcedChildFollowsItsParentAndCostsNoChoice) {
  const EncodedTable data = RandomEncodedTable(3'000, {6, 3, 4, 5, 2}, 7);
  for (const bool coarse_parent : {false, true}) {
    StructureOptions options;
    options.degree = 2;
    options.epsilon = 0.9;
    // Coarse: 0 enters tables in 2 buckets, so its 3-code function would be a finer copy.
    if (coarse_parent) options.parent_buckets = {CoarseBinBuckets(6, 0, 2), {}, {}, {}, {}};
    options.forced_parent = {-1, 0, -1, -1, -1};
    bool one_is_a_parent = false;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      PrivacyAccountant accountant = Accountant(1.0);
      SeededRng rng(seed);
      NullProgress progress;
      auto nodes = LearnPrivBayesStructure(data, options, accountant, "all", rng, progress);
      ASSERT_TRUE(nodes.has_value()) << nodes.error().message;
      ASSERT_EQ(nodes->size(), 5u);
      std::vector<bool> seen(5, false);
      std::size_t at = 0;
      for (std::size_t i = 0; i < nodes->size(); ++i) {
        const BayesNode& node = (*nodes)[i];
        for (int p : node.parents) EXPECT_TRUE(seen[static_cast<std::size_t>(p)]);  // parents first
        seen[static_cast<std::size_t>(node.attribute)] = true;
        if (node.attribute == 0) at = i;
        const auto has = [&](int a) {
          return std::find(node.parents.begin(), node.parents.end(), a) != node.parents.end();
        };
        EXPECT_FALSE(has(0) && has(1)) << "attribute " << node.attribute;
        if (node.attribute != 1 && has(1)) {
          one_is_a_parent = true;
          EXPECT_FALSE(coarse_parent) << "a finer copy of a coarsened parent, seed " << seed;
        }
      }
      ASSERT_LT(at + 1, nodes->size());
      const BayesNode& child = (*nodes)[at + 1];  // right after its parent
      EXPECT_EQ(child.attribute, 1);
      EXPECT_EQ(child.parents, std::vector<int>{0});
      EXPECT_TRUE(child.parent_buckets[0].empty());  // the parent at its own codes
      EXPECT_EQ(child.parent_bucket_counts[0], 6u);
      // One entry: 3 choices (5 attributes less the first and the forced one), ε in total.
      ASSERT_EQ(accountant.entries().size(), 1u);
      EXPECT_EQ(accountant.entries()[0].count, 3u);
      EXPECT_NEAR(LedgerTotal(accountant), 0.9, 1e-12);
    }
    // With 0 at its own 6 codes, its 3-code function is a coarser parent and gets chosen.
    if (!coarse_parent) {
      EXPECT_TRUE(one_is_a_parent);
    }
  }
  StructureOptions cyclic;
  cyclic.forced_parent = {2, -1, 0, -1, -1};
  PrivacyAccountant accountant = Accountant(1.0);
  SeededRng rng(1);
  NullProgress progress;
  auto refused = LearnPrivBayesStructure(data, cyclic, accountant, "all", rng, progress);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().message, "the forced parents form a cycle");
  EXPECT_TRUE(accountant.entries().empty());
}

// A found dependency (LearnWithDependencies passes the search's pairs as `derived`): the child
// keeps its deterministic table inside the network and costs nothing, and every sampled row is
// consistent.
TEST(LearnPrivBayesTest, ADerivedChildIsDeterministicInsideTheNetwork) {
  const EncodedTable data = RandomEncodedTable(4'000, {6, 3, 4, 5}, 8);  // 1 = 0 mod 3
  Dependency dependency;
  dependency.parent = 0;
  dependency.child = 1;
  for (std::uint32_t a = 0; a < 6; ++a) dependency.mapping.push_back(a % 3);
  PrivacyAccountant accountant = Accountant(1.0);
  SeededRng rng(4);
  NullProgress progress;
  PrivBayesOptions options;
  options.epsilon = 1.0;
  options.public_rows = 4'000;
  options.derived = {dependency};
  auto net = LearnPrivBayes(data, options, accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  EXPECT_EQ(net->Validate(data.cardinalities), "");
  for (const BayesNode& node : net->nodes) {
    if (node.attribute != 1) continue;
    EXPECT_EQ(node.parents, std::vector<int>{0});
    for (std::uint32_t a = 0; a < 6; ++a) {
      for (std::uint32_t b = 0; b < 3; ++b) {
        EXPECT_EQ(node.probabilities[a * 3 + b], b == a % 3 ? 1.0 : 0.0);
      }
    }
  }
  // Structure (2 choices) + 3 noisy tables, none for the derived child; ε in total.
  ASSERT_EQ(accountant.entries().size(), 4u);
  for (const LedgerEntry& e : accountant.entries()) {
    EXPECT_EQ(e.label.find("noisy counts of attribute 1"), std::string::npos) << e.label;
  }
  EXPECT_NEAR(LedgerTotal(accountant), 1.0, 1e-12);
  auto sample = SampleNetwork(*net, data.cardinalities, 2'000, rng, progress);
  ASSERT_TRUE(sample.has_value());
  for (std::size_t r = 0; r < sample->rows; ++r) {
    EXPECT_EQ(sample->columns[1][r], sample->columns[0][r] % 3);
  }
  PrivBayesOptions twice = options;
  twice.derived = {dependency, dependency};
  auto refused = LearnPrivBayes(data, twice, accountant, "all", rng, progress);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().message,
            "a derived attribute's dependency does not fit the table (or derives an attribute "
            "twice)");
}

}  // namespace
}  // namespace deniable
