// SPDX-License-Identifier: Apache-2.0
// The structure's total-variation score u = n·R(X, Π) (privbayes.md §2b): values, the
// privacy-critical sensitivity bound, the dense and sparse paths, and its use by the learner.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "engine/core/select_rows.h"
#include "engine/model/privbayes.h"
#include "tests/support/random_encoded_table.h"

namespace deniable {
namespace {

using test_support::RandomEncodedTable;

// ½ Σ over every cell (x, π) of |c_xπ − c_x·c_π/n|, straight from the definition.
double DirectTotalVariation(const EncodedTable& data, int child, const std::vector<int>& parents) {
  std::map<std::uint64_t, double> joint, configurations, values;
  for (std::size_t r = 0; r < data.rows; ++r) {
    std::uint64_t c = 0;
    for (int p : parents) c = c * data.cardinalities[p] + data.columns[p][r];
    joint[c * data.cardinalities[child] + data.columns[child][r]] += 1;
    configurations[c] += 1;
    values[data.columns[child][r]] += 1;
  }
  const double n = static_cast<double>(data.rows);
  double sum = 0;
  for (const auto& [c, cc] : configurations) {
    for (const auto& [x, cx] : values) {
      const auto it = joint.find(c * data.cardinalities[child] + x);
      const double observed = it == joint.end() ? 0.0 : it->second;
      sum += std::abs(observed - cx * cc / n);
    }
  }
  return sum / 2;
}

TEST(TotalVariationScoreTest, MatchesHandComputedValues) {
  EncodedTable data;
  data.rows = 4;
  data.cardinalities = {2, 2, 2};
  data.columns = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 1, 0, 1}};
  // Cells (0,0) and (1,1) hold 2 where independence expects 1, the others 0: ½·4·1 = 2.
  EXPECT_DOUBLE_EQ(internal::TotalVariationScore(data, 0, {1}), 2.0);
  EXPECT_DOUBLE_EQ(internal::TotalVariationScore(data, 0, {2}), 0.0);
  // Four parent configurations of one row each: every cell expects ½ and holds 0 or 1.
  EXPECT_DOUBLE_EQ(internal::TotalVariationScore(data, 0, {1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(internal::TotalVariationScore(data, 2, {}), 0.0);
}

// The privacy-critical bound of privbayes.md §2b: adding any one record to any table moves
// n·R by at most 2·n/(n+1)·(1 − p_a)·(1 − q_b) < 2, p_a and q_b the shares of the added
// record's child value and parent configuration before it was added.
TEST(TotalVariationScoreTest, AddingOneRecordMovesTheScoreByLessThanTwo) {
  double largest = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = 1 + seed * 7;
    const EncodedTable data = RandomEncodedTable(n, {3, 4, 2}, seed);
    const double before = internal::TotalVariationScore(data, 0, {1, 2});
    for (Code x = 0; x < 3; ++x) {
      for (Code a = 0; a < 4; ++a) {
        for (Code b = 0; b < 2; ++b) {
          const EncodedTable plus = test_support::WithRecord(data, {x, a, b});
          double share_x = 0, share_config = 0;
          for (std::size_t r = 0; r < n; ++r) {
            share_x += data.columns[0][r] == x;
            share_config += data.columns[1][r] == a && data.columns[2][r] == b;
          }
          share_x /= static_cast<double>(n);
          share_config /= static_cast<double>(n);
          const double bound = 2.0 * static_cast<double>(n) / static_cast<double>(n + 1) *
                               (1 - share_x) * (1 - share_config);
          const double moved =
              std::abs(internal::TotalVariationScore(plus, 0, {1, 2}) - before);
          EXPECT_LE(moved, bound + 1e-9) << "seed " << seed;
          largest = std::max(largest, moved);
        }
      }
    }
  }
  EXPECT_GT(largest, 1.0);  // the bound is not loose by an order of magnitude
  EXPECT_NEAR(TotalVariationScoreSensitivity(), 2 + 0x1p-18, 1e-15);
  EXPECT_DOUBLE_EQ(StructureScoreSensitivity(StructureScore::kTotalVariation),
                   TotalVariationScoreSensitivity());
  EXPECT_DOUBLE_EQ(StructureScoreSensitivity(StructureScore::kMutualInformation),
                   MutualInformationScoreSensitivity());
}

// A large move, by hand: child and parent perfectly tied on two of three codes (n·R = n/2);
// the added record brings the third code to both. Its cells give n·R' = n/2 + 1.5·n/(n+1):
// (0,0) and (1,1) hold n/2 against (n/2)²/(n+1), (0,1) and (1,0) hold 0 against the same,
// (2,2) holds 1 against 1/(n+1), and the four cells pairing code 2 with 0 or 1 expect
// (n/2)/(n+1) each. So it moves by 1.5·n/(n+1), within the bound 2·n/(n+1).
TEST(TotalVariationScoreTest, ANewValueAndConfigurationMoveTheScoreByHandComputedAmount) {
  for (std::size_t n : {4u, 10u, 1000u}) {
    EncodedTable data;
    data.rows = n;
    data.cardinalities = {3, 3};
    data.columns.assign(2, std::vector<Code>(n));
    for (std::size_t r = 0; r < n; ++r) data.columns[0][r] = data.columns[1][r] = r % 2;
    const double before = internal::TotalVariationScore(data, 0, {1});
    EXPECT_NEAR(before, static_cast<double>(n) / 2, 1e-9);
    EncodedTable plus = data;
    plus.rows = n + 1;
    plus.columns[0].push_back(2);
    plus.columns[1].push_back(2);
    const double after = internal::TotalVariationScore(plus, 0, {1});
    EXPECT_NEAR(after - before, 1.5 * n / (n + 1.0), 1e-9) << "n = " << n;
    EXPECT_NEAR(after, DirectTotalVariation(plus, 0, {1}), 1e-9);
  }
}

// Counting runs over distinct rows with multiplicities: tripling every row triples n·R exactly.
TEST(TotalVariationScoreTest, RepeatedRowsTripleTheScore) {
  const EncodedTable data = RandomEncodedTable(200, {3, 4, 2}, 12);
  std::vector<std::uint32_t> rows;
  for (int copy = 0; copy < 3; ++copy) {
    for (std::uint32_t r = 0; r < 200; ++r) rows.push_back((r * 7 + copy) % 200);
  }
  const EncodedTable tripled = SelectRows(data, rows);
  const double once = internal::TotalVariationScore(data, 0, {1, 2});
  ASSERT_GT(once, 50.0);  // column 1 copies column 0 modulo 4
  EXPECT_DOUBLE_EQ(internal::TotalVariationScore(tripled, 0, {1, 2}), 3 * once);
  EXPECT_NEAR(once, DirectTotalVariation(data, 0, {1, 2}), 1e-9);
}

// Tables of more than 2^24 cells are counted by sorting; both paths agree with the definition.
TEST(TotalVariationScoreTest, SparsePathMatchesDirectComputation) {
  const EncodedTable data = RandomEncodedTable(3'000, {300, 290, 300}, 8);
  EXPECT_NEAR(internal::TotalVariationScore(data, 0, {1, 2}),
              DirectTotalVariation(data, 0, {1, 2}), 1e-6);
  EXPECT_NEAR(internal::TotalVariationScore(data, 2, {0}), DirectTotalVariation(data, 2, {0}),
              1e-6);
}

TEST(TotalVariationScoreTest, TheLedgerNamesTheScoreAndItsSensitivity) {
  const EncodedTable data = RandomEncodedTable(2'000, {4, 2, 3, 5}, 2);
  StructureOptions options;
  options.epsilon = 0.6;
  options.score = StructureScore::kTotalVariation;
  PrivacyAccountant accountant = PrivacyAccountant::Create({10.0, 0.0}).value();
  SeededRng rng(3);
  NullProgress progress;
  auto nodes = LearnPrivBayesStructure(data, options, accountant, "all", rng, progress);
  ASSERT_TRUE(nodes.has_value()) << nodes.error().message;
  ASSERT_EQ(accountant.entries().size(), 1u);
  const LedgerEntry& entry = accountant.entries()[0];
  EXPECT_EQ(entry.mechanism, "exponential mechanism on n·R(X,Π)");
  EXPECT_DOUBLE_EQ(entry.sensitivity, TotalVariationScoreSensitivity());
  EXPECT_EQ(entry.count, 3u);
  EXPECT_DOUBLE_EQ(entry.epsilon_each, 0.2);
}

}  // namespace
}  // namespace deniable
