// SPDX-License-Identifier: Apache-2.0
// Pr{y = M(d)} as the privacy test computes it (suffix products Q_ω, uniform ω) against the
// frequency with which SeedModel really produces y from d.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/deniable/plausibility.h"
#include "engine/deniable/seed_model.h"
#include "tests/engine/deniable/deniable_test_util.h"

namespace deniable {
namespace {

TEST(SeedModelStatisticalTest, CandidateFrequenciesMatchTheTestsProbabilities) {
  SeededRng rng(11);
  const std::vector<std::uint32_t> cardinalities = {3, 2, 4, 2, 3};
  const std::vector<int> order = {1, 0, 3, 2, 4};
  const std::vector<std::vector<int>> parents = {{}, {1}, {1}, {0, 3}, {2}};
  const BayesNet network = test_support::RandomNetwork(cardinalities, order, parents, rng);
  auto model = SeedModel::Create(network, cardinalities);
  ASSERT_TRUE(model.has_value());
  const int m = 5;
  const OmegaRange omega{1, 4};
  const std::vector<Code> seed = {1, 2, 0, 3, 1};  // position order
  constexpr int kDraws = 1'000'000;
  std::map<std::vector<Code>, int> frequency;
  std::vector<Code> y(m);
  for (int i = 0; i < kDraws; ++i) {
    const int w = omega.min + static_cast<int>(UniformBelow(rng, omega.width()));
    model->Generate(seed.data(), m - w, y.data(), rng);
    ++frequency[y];
  }
  int checked = 0;
  double total_probability = 0;
  for (const auto& [candidate, count] : frequency) {
    std::vector<double> q(static_cast<std::size_t>(omega.max) + 1);
    SuffixProbabilities(*model, candidate.data(), omega.max, q.data());
    int common = 0;
    while (common < m &&
           candidate[static_cast<std::size_t>(common)] == seed[static_cast<std::size_t>(common)]) {
      ++common;
    }
    double p = 0;
    for (int w = omega.min; w <= omega.max; ++w) {
      if (common >= m - w) p += q[static_cast<std::size_t>(w)];
    }
    p /= omega.width();
    total_probability += p;
    // Binomial count: 5 standard deviations (plus one count for tiny p) — a 5σ band fails
    // with probability < 1e-6 per candidate, so the test is not flaky for ~100 candidates.
    const double sigma = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(count, kDraws * p, 5 * sigma + 1) << "candidate #" << checked;
    ++checked;
  }
  EXPECT_GT(checked, 20);
  // Every candidate that can occur was drawn at least once here, so the probabilities of the
  // drawn ones sum to nearly 1 (the missing mass is that of never-drawn candidates, < 1e-4).
  EXPECT_NEAR(total_probability, 1.0, 1e-4);
}

}  // namespace
}  // namespace deniable
