// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/parameter_learning.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/progress.h"
#include "tests/engine/deniable/deniable_test_util.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

// Structure: attribute 1 with parent 0 (identity), attribute 2 with parent 1 bucketised.
std::vector<BayesNode> Structure() {
  std::vector<BayesNode> nodes(3);
  nodes[0].attribute = 0;
  nodes[1].attribute = 1;
  nodes[1].parents = {0};
  nodes[1].parent_buckets = {{}};
  nodes[1].parent_bucket_counts = {3};
  nodes[2].attribute = 2;
  nodes[2].parents = {1};
  nodes[2].parent_buckets = {{0, 0, 1, 1}};
  nodes[2].parent_bucket_counts = {2};
  return nodes;
}

EncodedTable Data(std::size_t rows) {
  SeededRng rng(1);
  const std::vector<std::uint32_t> cardinalities = {3, 4, 2};
  std::vector<std::vector<int>> parents = {{}, {0}, {1}};
  const BayesNet truth = test_support::RandomNetwork(cardinalities, {0, 1, 2}, parents, rng);
  return test_support::SampleTable(truth, cardinalities, rows, rng);
}

TEST(DirichletParametersTest, MatchesEmpiricalConditionalsAtLargeEpsilon) {
  const EncodedTable data = Data(40000);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1e7, 0});
  ASSERT_TRUE(accountant.has_value());
  ParameterOptions options;
  options.epsilon = 1e6;  // noise negligible
  options.dirichlet_alpha = 1e-3;
  SeededRng rng(2);
  NullProgress progress;
  auto network =
      LearnDirichletParameters(data, Structure(), options, *accountant, "all", rng, progress);
  ASSERT_TRUE(network.has_value()) << network.error().message;
  EXPECT_EQ(network->Validate(data.cardinalities), "");
  // Node 2 given bucket of attribute 1: empirical conditional frequencies.
  double counts[2][2] = {{0, 0}, {0, 0}};
  for (std::size_t r = 0; r < data.rows; ++r) {
    counts[data.columns[1][r] / 2][data.columns[2][r]] += 1;
  }
  for (int c = 0; c < 2; ++c) {
    const double n = counts[c][0] + counts[c][1];
    const double p = counts[c][0] / n;
    // A Dirichlet(n p, n (1-p)) draw has standard deviation sqrt(p(1-p)/(n+1)): 5σ.
    EXPECT_NEAR(network->nodes[2].probabilities[static_cast<std::size_t>(c) * 2], p,
                5 * std::sqrt(p * (1 - p) / (n + 1)));
  }
  ASSERT_EQ(accountant->entries().size(), 3u);  // one per table, ε ∝ sqrt(cells)
  EXPECT_LE(accountant->Total().epsilon, 1e6);
}

TEST(DirichletParametersTest, EmptyDataGivesPriorDrawsAndSpendsTheBudget) {
  EncodedTable empty = Data(0);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1, 0});
  ASSERT_TRUE(accountant.has_value());
  ParameterOptions options;
  options.epsilon = 0.6;
  SeededRng rng(3);
  NullProgress progress;
  auto network =
      LearnDirichletParameters(empty, Structure(), options, *accountant, "all", rng, progress);
  ASSERT_TRUE(network.has_value());
  EXPECT_EQ(network->Validate(empty.cardinalities), "");
  // Tables of 3, 3·4 = 12 and 2·2 = 4 cells: ε ∝ sqrt(cells), summing to 0.6.
  ASSERT_EQ(accountant->entries().size(), 3u);
  const double roots = std::sqrt(3.0) + std::sqrt(12.0) + std::sqrt(4.0);
  // Each share less the accountant's one spend margin (PrivacyAccountant::Spendable).
  const double margin = PrivacyAccountant::kSpendMargin;
  const double cells[] = {3.0, 12.0, 4.0};
  for (std::size_t i = 0; i < 3; ++i) {
    const double share = 0.6 * std::sqrt(cells[i]) / roots;
    EXPECT_LE(accountant->entries()[i].epsilon_each, share) << i;
    EXPECT_GE(accountant->entries()[i].epsilon_each, share * (1 - 2 * margin)) << i;
  }
  EXPECT_LE(accountant->Total().epsilon, 0.6);
  EXPECT_NEAR(accountant->Total().epsilon, 0.6, 0.6 * 2 * margin);
}

TEST(DirichletParametersTest, UsesOneAdvancedBatchWhenThatGivesEachTableMore) {
  // 200 tables sharing ε = 2 (ε/m = 0.01 each under sequential composition): with slack
  // δ'' = 1e-3 advanced composition allows ε_each ≈ 0.0186, so one batch entry is used.
  EncodedTable data;
  data.rows = 10;
  data.cardinalities.assign(200, 2);
  data.columns.assign(200, std::vector<Code>(10, 0));
  std::vector<BayesNode> structure(200);
  for (int a = 0; a < 200; ++a) structure[static_cast<std::size_t>(a)].attribute = a;
  auto accountant = PrivacyAccountant::Create(PrivacyCost{10, 0.01}, 1e-3);
  ASSERT_TRUE(accountant.has_value());
  ParameterOptions options;
  options.epsilon = 2;
  SeededRng rng(5);
  NullProgress progress;
  auto network =
      LearnDirichletParameters(data, structure, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(network.has_value());
  ASSERT_EQ(accountant->entries().size(), 1u);
  EXPECT_EQ(accountant->entries()[0].count, 200u);
  EXPECT_EQ(accountant->entries()[0].composition, "advanced");
  EXPECT_GT(accountant->entries()[0].epsilon_each, 2.0 / 200);
  EXPECT_LE(accountant->Total().epsilon, 2.0);
}

TEST(DirichletParametersTest, RejectsNegativeAlphaAndStopsWhenCancelled) {
  const EncodedTable data = Data(100);
  auto accountant = PrivacyAccountant::Create(PrivacyCost{1, 0});
  ASSERT_TRUE(accountant.has_value());
  ParameterOptions options;
  options.dirichlet_alpha = -1;
  SeededRng rng(4);
  NullProgress progress;
  auto bad =
      LearnDirichletParameters(data, Structure(), options, *accountant, "all", rng, progress);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("dirichlet_alpha"), std::string::npos);
  options.dirichlet_alpha = 0;  // automatic: accepted
  test_support::FakeProgress cancel(1);
  auto cancelled =
      LearnDirichletParameters(data, Structure(), options, *accountant, "all", rng, cancel);
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code, ErrorCode::kCancelled);
}

std::vector<double> Projected(std::vector<std::int64_t> noisy) {
  std::vector<double> out(noisy.size(), -1.0);
  ProjectNoisyCounts(noisy, out);
  return out;
}

TEST(ProjectNoisyCountsTest, SubtractsOneLevelFromThePositiveCountsToKeepTheNoisyTotal) {
  // No negative count: unchanged (eq. 14's clamp does nothing either).
  EXPECT_EQ(Projected({5, 0, 3}), (std::vector<double>{5, 0, 3}));
  // Total 8; clamping would give 12. τ = 2 takes it back to 8 and empties the cell of 2.
  EXPECT_EQ(Projected({10, -3, 2, -1}), (std::vector<double>{8, 0, 0, 0}));
  // Total 4: τ = 2 would leave 4 + 2 = 6, so τ = (6 + 4 − 4)/2 = 3.
  EXPECT_EQ(Projected({6, 4, -2, -4}), (std::vector<double>{3, 1, 0, 0}));
  // A total at or below 0: nothing is left (the configuration is drawn from the prior).
  EXPECT_EQ(Projected({3, -5}), (std::vector<double>{0, 0}));
  EXPECT_EQ(Projected({-1, -1}), (std::vector<double>{0, 0}));
  EXPECT_EQ(Projected({}), std::vector<double>{});
}

TEST(ProjectNoisyCountsTest, IsTheEuclideanProjectionOntoTheScaledSimplex) {
  // Against a bisection on τ and the defining optimality conditions, on random vectors.
  SeededRng rng(9);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t k = 1 + UniformBelow(rng, 12);
    std::vector<std::int64_t> noisy(k);
    std::int64_t total = 0;
    for (auto& x : noisy) {
      x = static_cast<std::int64_t>(UniformBelow(rng, 61)) - 20;
      total += x;
    }
    const std::vector<double> out = Projected(noisy);
    double sum = 0;
    for (double x : out) {
      EXPECT_GE(x, 0);
      sum += x;
    }
    if (total <= 0) {
      EXPECT_EQ(sum, 0);
      continue;
    }
    EXPECT_NEAR(sum, static_cast<double>(total), 1e-9);
    // τ by bisection: Σ max(0, x − τ) = total is decreasing in τ.
    double low = 0, high = 100;
    for (int i = 0; i < 200; ++i) {
      const double tau = (low + high) / 2;
      double s = 0;
      for (auto x : noisy) s += std::max(0.0, static_cast<double>(x) - tau);
      (s > static_cast<double>(total) ? low : high) = tau;
    }
    for (std::size_t v = 0; v < k; ++v) {
      EXPECT_NEAR(out[v], std::max(0.0, static_cast<double>(noisy[v]) - low), 1e-9);
    }
  }
}

TEST(ProjectNoisyCountsTest, ThresholdAndNoiseFormulas) {
  // τ = b·ln(max(2, empty cells)).
  EXPECT_DOUBLE_EQ(EmptyCellThreshold(10, 182), 10 * std::log(182.0));
  EXPECT_DOUBLE_EQ(EmptyCellThreshold(10, 0.5), 10 * std::log(2.0));
  EXPECT_DOUBLE_EQ(EmptyCellThreshold(3, 0), 3 * std::log(2.0));
  // occupied + min(empty/2, sqrt(2·empty) + occupied/2).
  EXPECT_DOUBLE_EQ(ProjectedCountNoise(5, 0), 5);       // dense: one noise scale per cell
  EXPECT_DOUBLE_EQ(ProjectedCountNoise(1, 2), 2);       // 1 + min(1, 2.5)
  EXPECT_DOUBLE_EQ(ProjectedCountNoise(1, 8), 5);       // 1 + min(4, 4.5)
  EXPECT_DOUBLE_EQ(ProjectedCountNoise(1, 50), 11.5);   // 1 + min(25, 10.5)
  EXPECT_DOUBLE_EQ(ProjectedCountNoise(-1, -3), 0);     // clamped at 0
}

}  // namespace
}  // namespace deniable
