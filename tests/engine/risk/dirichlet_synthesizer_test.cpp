// SPDX-License-Identifier: Apache-2.0
// The posterior-predictive synthesizer's parameters (Thm. 1) and a brute-force check of its
// ε-DP claim (dirichlet_synthesizer.md) on small n (#11).
#include "engine/risk/dirichlet_synthesizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace deniable {
namespace {

using Counts = std::vector<std::int64_t>;

// Every vector of `k` non-negative counts summing to `total`.
std::vector<Counts> Compositions(std::int64_t total, int k) {
  std::vector<Counts> out;
  Counts current(static_cast<std::size_t>(k), 0);
  std::function<void(int, std::int64_t)> fill = [&](int index, std::int64_t left) {
    if (index == k - 1) {
      current[static_cast<std::size_t>(index)] = left;
      out.push_back(current);
      return;
    }
    for (std::int64_t c = 0; c <= left; ++c) {
      current[static_cast<std::size_t>(index)] = c;
      fill(index + 1, left - c);
    }
  };
  fill(0, total);
  return out;
}

// The largest |log P(D* | D1) − log P(D* | D2)| over all released counts D*.
double MaxLogRatio(const DirichletSynthesizer& s, const Counts& d1, const Counts& d2) {
  double worst = 0;
  for (const Counts& release : Compositions(s.synthetic_records(), s.categories())) {
    worst = std::max(worst, std::abs(s.LogProbability(d1, release) - s.LogProbability(d2, release)));
  }
  return worst;
}

TEST(DirichletSynthesizerTest, AlphaIsThm1sFormula) {
  auto s = DirichletSynthesizer::Create(1000, 1000, 2);
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR(s->alpha(), 1 / (std::exp(1.0) - 1), 1e-12);  // the paper's α = .58
  EXPECT_NEAR(DirichletSynthesizer::EpsilonOf(s->alpha(), 1000), 1000, 1e-9);  // eq. 9
  auto small = DirichletSynthesizer::Create(1e-6, 10, 2);
  ASSERT_TRUE(small.has_value());
  EXPECT_NEAR(small->alpha() / 1e7, 1.0, 1e-6);  // 1/(e^{1e-7} − 1) ≈ 1e7
  // ε/n_s = 2000: α underflows to 0, log α stays exact (−2000).
  auto huge = DirichletSynthesizer::Create(2000, 1, 2);
  ASSERT_TRUE(huge.has_value());
  EXPECT_NEAR(huge->log_alpha(), -2000, 1e-9);
}

TEST(DirichletSynthesizerTest, PredictiveProbabilitiesSumToOne) {
  auto s = DirichletSynthesizer::Create(3, 7, 4).value();
  const std::vector<double> log_p = s.LogPredictive({0, 2, 5, 1});
  double total = 0;
  for (double v : log_p) total += std::exp(v);
  EXPECT_NEAR(total, 1, 1e-12);
  double total_release = 0;
  for (const Counts& release : Compositions(7, 4)) {
    total_release += std::exp(s.LogProbability({0, 2, 5, 1}, release));
  }
  EXPECT_NEAR(total_release, 1, 1e-12);
}

// Brute force over every dataset of n records, every neighbour and every release: the largest
// privacy loss is ε, attained for a changed value (Thm. 1 is tight), never more for an added or
// removed record.
TEST(DirichletSynthesizerTest, BruteForcePrivacyLossIsAtMostEpsilon) {
  for (int k : {2, 3}) {
    for (double epsilon : {0.1, 1.0, 5.0}) {
      for (std::int64_t ns : {1, 3}) {
        auto s = DirichletSynthesizer::Create(epsilon, ns, k).value();
        const std::int64_t n = 4;
        double worst_change = 0, worst_add = 0;
        for (const Counts& d : Compositions(n, k)) {
          for (int from = 0; from < k; ++from) {
            if (d[static_cast<std::size_t>(from)] == 0) continue;
            for (int to = 0; to < k; ++to) {
              if (to == from) continue;
              Counts changed = d;
              --changed[static_cast<std::size_t>(from)];
              ++changed[static_cast<std::size_t>(to)];
              worst_change = std::max(worst_change, MaxLogRatio(s, d, changed));
            }
          }
          for (int added = 0; added < k; ++added) {
            Counts bigger = d;
            ++bigger[static_cast<std::size_t>(added)];
            worst_add = std::max(worst_add, MaxLogRatio(s, d, bigger));
          }
        }
        EXPECT_LE(worst_change, epsilon * (1 + 1e-9)) << "K=" << k << " ns=" << ns;
        EXPECT_NEAR(worst_change, epsilon, epsilon * 1e-9) << "tight, K=" << k << " ns=" << ns;
        EXPECT_LE(worst_add, epsilon * (1 + 1e-9)) << "K=" << k << " ns=" << ns;
      }
    }
  }
}

TEST(DirichletSynthesizerTest, RejectsBadParametersNamingThem) {
  auto epsilon = DirichletSynthesizer::Create(-1, 10, 2);
  ASSERT_FALSE(epsilon.has_value());
  EXPECT_EQ(epsilon.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(epsilon.error().message.find("epsilon"), std::string::npos);
  EXPECT_FALSE(DirichletSynthesizer::Create(std::nan(""), 10, 2).has_value());
  auto ns = DirichletSynthesizer::Create(1, 0, 2);
  ASSERT_FALSE(ns.has_value());
  EXPECT_NE(ns.error().message.find("ns"), std::string::npos);
  EXPECT_FALSE(DirichletSynthesizer::Create(1, 10, 1).has_value());
}

}  // namespace
}  // namespace deniable
