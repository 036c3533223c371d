// SPDX-License-Identifier: Apache-2.0
// The fast count of plausible seeds against the brute-force oracle (issue 3, "How we will
// know": thousands of candidates, fixed and random ω, several γ).
#include "engine/deniable/plausibility.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/progress.h"
#include "engine/deniable/seed_index.h"
#include "engine/deniable/seed_model.h"
#include "tests/engine/deniable/deniable_test_util.h"

namespace deniable {
namespace {

using test_support::RandomNetwork;
using test_support::SampleTable;

struct Fixture {
  std::vector<std::uint32_t> cardinalities;
  BayesNet network;
  EncodedTable seeds;
};

// m = 8 attributes with small cardinalities (so prefixes are shared by many seeds) and a few
// edges; the order σ is not the identity.
Fixture MakeFixture(std::uint64_t seed, std::size_t rows, double zero_share) {
  SeededRng rng(seed);
  Fixture f;
  f.cardinalities = {2, 3, 2, 4, 3, 2, 5, 3};
  const std::vector<int> order = {3, 0, 5, 1, 7, 2, 6, 4};
  const std::vector<std::vector<int>> parents = {{}, {3}, {0}, {3, 5}, {1}, {7, 0}, {2}, {6, 1}};
  f.network = RandomNetwork(f.cardinalities, order, parents, rng, zero_share);
  f.seeds = SampleTable(f.network, f.cardinalities, rows, rng);
  return f;
}

// Runs `candidates` candidates through both counts and checks they agree exactly.
void ExpectFastEqualsBruteForce(const Fixture& f, OmegaRange omega, double gamma, int candidates,
                                std::uint64_t seed) {
  auto model = SeedModel::Create(f.network, f.cardinalities);
  ASSERT_TRUE(model.has_value()) << model.error().message;
  const int m = model->attributes();
  NullProgress progress;
  auto index = SeedIndex::Build(f.seeds, model->order(), m - omega.min, progress);
  ASSERT_TRUE(index.has_value()) << index.error().message;
  PlausibleSeedCounter counter(*index, m, omega, gamma);
  SeededRng rng(seed);
  std::vector<Code> y(static_cast<std::size_t>(m));
  std::vector<double> q(static_cast<std::size_t>(omega.max) + 1);
  int with_other_partitions = 0, uncertain = 0;
  for (int c = 0; c < candidates; ++c) {
    const std::size_t j = UniformBelow(rng, index->size());
    const int w = omega.min + static_cast<int>(UniformBelow(rng, omega.width()));
    model->Generate(index->SeedCodes(j), m - w, y.data(), rng);
    SuffixProbabilities(*model, y.data(), omega.max, q.data());
    const CandidateCount fast = counter.Count(j, w, y.data(), q.data());
    const CandidateCount slow = CountPlausibleSeedsBruteForce(
        f.seeds, model->order(), omega, gamma, y.data(), q.data(), index->SeedRow(j));
    ASSERT_EQ(fast.k_prime, slow.k_prime) << "candidate " << c << ", omega " << w;
    ASSERT_GE(fast.k_prime, 1u);  // the seed itself is always plausible
    if (omega.width() > 1) {
      EXPECT_EQ(fast.key.certain, slow.key.certain);
      EXPECT_EQ(fast.key.partition, slow.key.partition);
      if (!slow.key.certain) ++uncertain;
      // How many seeds have a positive probability at all, to see that partitions matter;
      // and the index's groups (the audit checker's) equal the oracle's.
      std::uint32_t positive = 0;
      const auto groups =
          PlausibleGroupsBruteForce(f.seeds, model->order(), omega, gamma, y.data(), q.data());
      const auto fast_groups = PlausibleGroups(*index, m, omega, gamma, y.data(), q.data());
      ASSERT_EQ(groups.size(), fast_groups.size());
      for (std::size_t g = 0; g < groups.size(); ++g) {
        positive += groups[g].seeds;
        EXPECT_EQ(groups[g].seeds, fast_groups[g].seeds);
        EXPECT_EQ(groups[g].key.partition, fast_groups[g].key.partition);
        EXPECT_EQ(groups[g].agreement, fast_groups[g].agreement);
      }
      if (positive > fast.k_prime) ++with_other_partitions;
    }
  }
  if (omega.width() > 1) {
    // The comparison is only meaningful if seeds fall into different partitions often.
    EXPECT_GT(with_other_partitions, candidates / 10);
    EXPECT_LT(uncertain, candidates / 100);
  }
}

TEST(PlausibleSeedCounterTest, FixedOmegaMatchesBruteForce) {
  const Fixture f = MakeFixture(1, 3000, 0.0);
  for (int omega : {1, 3, 5, 8}) {
    ExpectFastEqualsBruteForce(f, OmegaRange{omega, omega}, 4.0, 400, 10 + omega);
  }
}

TEST(PlausibleSeedCounterTest, RandomOmegaMatchesBruteForceForSeveralGammas) {
  const Fixture f = MakeFixture(2, 3000, 0.0);
  for (double gamma : {1.05, 2.0, 4.0, 50.0}) {
    ExpectFastEqualsBruteForce(f, OmegaRange{2, 7}, gamma, 700, 20);
  }
}

TEST(PlausibleSeedCounterTest, FullRangeOfOmegaWithZeroProbabilitiesMatchesBruteForce) {
  // ω from 0 (the candidate is the seed) to m, and tables with exact zeros (Q_ω = 0 levels).
  const Fixture f = MakeFixture(3, 2000, 0.3);
  ExpectFastEqualsBruteForce(f, OmegaRange{0, 8}, 3.0, 800, 30);
}

TEST(PlausibleSeedCounterTest, FixedOmegaCountsSeedsSharingTheCopiedPrefix) {
  // With fixed ω every plausible seed has the same probability: k' = N(m - ω).
  const Fixture f = MakeFixture(4, 1500, 0.0);
  auto model = SeedModel::Create(f.network, f.cardinalities);
  ASSERT_TRUE(model.has_value());
  const int m = model->attributes(), omega = 4;
  NullProgress progress;
  auto index = SeedIndex::Build(f.seeds, model->order(), m - omega, progress);
  ASSERT_TRUE(index.has_value());
  PlausibleSeedCounter counter(*index, m, OmegaRange{omega, omega}, 4.0);
  SeededRng rng(5);
  std::vector<Code> y(8);
  std::vector<double> q(static_cast<std::size_t>(omega) + 1);
  for (int c = 0; c < 200; ++c) {
    const std::size_t j = UniformBelow(rng, index->size());
    model->Generate(index->SeedCodes(j), m - omega, y.data(), rng);
    SuffixProbabilities(*model, y.data(), omega, q.data());
    std::uint32_t expected = 0;
    for (std::size_t row = 0; row < f.seeds.rows; ++row) {
      const auto codes = test_support::RowInOrder(f.seeds, model->order(), row);
      if (std::equal(codes.begin(), codes.begin() + (m - omega), y.begin())) ++expected;
    }
    EXPECT_EQ(counter.Count(j, omega, y.data(), q.data()).k_prime, expected);
  }
}

TEST(ClassifyProbabilityTest, PartitionsAreGeometricBands) {
  const double log4 = std::log(4.0);
  // (γ^{-i-1}, γ^{-i}] is partition i.
  EXPECT_EQ(ClassifyProbability(0.5, log4).partition, 0);
  EXPECT_TRUE(ClassifyProbability(0.5, log4).certain);
  EXPECT_EQ(ClassifyProbability(0.1, log4).partition, 1);
  EXPECT_EQ(ClassifyProbability(0.01, log4).partition, 3);
  // Exactly on a boundary (γ^{-1} = 0.25, γ^0 = 1) the value is uncertain: neither the fast
  // path nor the oracle counts other seeds with it.
  EXPECT_FALSE(ClassifyProbability(0.25, log4).certain);
  EXPECT_FALSE(ClassifyProbability(1.0, log4).certain);
  EXPECT_FALSE(ClassifyProbability(0.0, log4).certain);
}

}  // namespace
}  // namespace deniable
