// SPDX-License-Identifier: Apache-2.0
// Sampling checks with fixed seeds: the continuation probabilities of eq. (2) for the discrete
// Laplace, a stochastic privacy check of Thm. 3 on tiny neighbouring datasets, and the error of
// direct synthesis (§4). Tolerances are 5σ of the sampling error (tests/engine/dp/binomial_check.h
// for frequencies; for ratios, 5σ of the log ratio, σ² ≈ 1/c_A + 1/c_B).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/histogram/adaptive_histogram.h"
#include "engine/histogram/direct_synthesis.h"
#include "engine/histogram/numeric_decomposition.h"
#include "tests/engine/dp/binomial_check.h"

namespace deniable {
namespace {

using Node = NumericDecomposition::Node;

PrivacyAccountant Accountant() { return PrivacyAccountant::Create({1e15, 0.0}).value(); }

std::string Encode(const std::vector<Node>& leaves) {
  std::string out;
  for (const Node& n : leaves) {
    out += std::to_string(static_cast<long long>(n.lo)) + "+" +
           std::to_string(static_cast<long long>(n.width)) + " ";
  }
  return out;
}

TEST(ImprovedPartitionStatisticalTest, DecisionFrequenciesMatchEquation2) {
  // x records at value 3 of [0, 7]; b = 3, ε = 0.5 (s = 2), so t = ⌈3 + 2 ln 2⌉ = 5. The root
  // continues with p(x) = Pr[x + Z >= 3]; after it continues, [0, 3] holds max(0, x − 5)
  // alive records and [4, 7] none, and each continues with p of its own count.
  const NumericDecomposition d = NumericDecomposition::Create({.lo = 0.0, .hi = 7.0}).value();
  constexpr std::uint64_t kRuns = 20000;
  const AdaptiveOptions options{.epsilon = 0.5, .threshold = 3};
  for (int x : {0, 1, 2, 3, 4, 6, 10}) {
    const std::vector<Int128> values(static_cast<std::size_t>(x), 3);
    SeededRng rng(100 + static_cast<std::uint64_t>(x));
    NullProgress progress;
    std::uint64_t root = 0, left = 0, right = 0;
    for (std::uint64_t run = 0; run < kRuns; ++run) {
      auto accountant = Accountant();
      auto result = LearnImprovedPartition(d, std::span<const Int128>(values), options,
                                           accountant, "x", "all", rng, progress);
      ASSERT_TRUE(result.has_value());
      if (result->leaves.size() == 1) continue;
      ++root;
      left += result->leaves.front().width < 4 ? 1 : 0;   // [0, 3] was split
      right += result->leaves.back().width < 4 ? 1 : 0;   // [4, 7] was split
    }
    EXPECT_TRUE(test_support::CountMatchesProbability(root, kRuns, ContinueProbability(x, 3, 2)))
        << "root, x = " << x;
    EXPECT_TRUE(test_support::CountMatchesProbability(
        left, root, ContinueProbability(std::max(0, x - 5), 3, 2)))
        << "[0, 3], x = " << x;
    EXPECT_TRUE(test_support::CountMatchesProbability(right, root, ContinueProbability(0, 3, 2)))
        << "[4, 7], x = " << x;
  }
}

// Output frequencies of the improved histogram on a dataset, over `runs` runs.
std::map<std::string, double> OutputFrequencies(const std::vector<Int128>& values,
                                                DiscountFunction f, std::uint64_t seed,
                                                std::uint64_t runs) {
  const NumericDecomposition d = NumericDecomposition::Create({.lo = 0.0, .hi = 3.0}).value();
  SeededRng rng(seed);
  NullProgress progress;
  std::map<std::string, double> counts;
  for (std::uint64_t run = 0; run < runs; ++run) {
    auto accountant = Accountant();
    auto result = LearnImprovedPartition(
        d, std::span<const Int128>(values),
        {.epsilon = 0.5, .threshold = 1, .discount_function = f}, accountant, "x", "all", rng,
        progress);
    counts[Encode(result->leaves)] += 1;
  }
  return counts;
}

TEST(ImprovedPartitionStatisticalTest, StochasticPrivacyCheckOnNeighbours) {
  // A and B = A + one record. Thm. 3 (adaptive_histogram.md §2): for every output o,
  // Pr[M(B) = o] <= e^{2ε} Pr[M(A) = o] (added record: the path terms) and
  // Pr[M(A) = o] <= e^{ε} Pr[M(B) = o] (removed record: only the leaf term). ε = 0.5, b = 1,
  // t = 3. Such a test can only ever show "not private"; it catches gross errors (a release of
  // leaf counts, a missing discount: DiscountedRecordMatters below shows it has power).
  constexpr std::uint64_t kRuns = 150000;
  const std::vector<Int128> a = {0, 0, 1, 3};
  std::vector<Int128> b = a;
  b.push_back(0);
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    const auto pa = OutputFrequencies(a, f, 1, kRuns);
    const auto pb = OutputFrequencies(b, f, 2, kRuns);
    int compared = 0;
    for (const auto& [output, ca] : pa) {
      const auto it = pb.find(output);
      if (it == pb.end() || ca < 500 || it->second < 500) continue;
      const double cb = it->second;
      const double log_ratio = std::log(cb / ca);  // same number of runs
      const double sigma = std::sqrt(1 / ca + 1 / cb);
      EXPECT_LE(log_ratio, 2 * 0.5 + 5 * sigma) << DiscountFunctionName(f) << " " << output;
      EXPECT_LE(-log_ratio, 0.5 + 5 * sigma) << DiscountFunctionName(f) << " " << output;
      ++compared;
    }
    EXPECT_GE(compared, 3) << DiscountFunctionName(f);
  }
}

TEST(ImprovedPartitionStatisticalTest, DiscountedRecordMatters) {
  // Power of the check above: with ten times the records the added record's effect is
  // diluted, but between 1 and 11 records at one value the output distribution moves by far
  // more than e^{2ε} (the check would flag a mechanism that ignored ε this way).
  constexpr std::uint64_t kRuns = 40000;
  const auto p1 = OutputFrequencies({0}, DiscountFunction::kProportional, 3, kRuns);
  const auto p11 = OutputFrequencies(std::vector<Int128>(11, 0), DiscountFunction::kProportional,
                                     4, kRuns);
  const double root_only_1 = p1.count("0+4 ") ? p1.at("0+4 ") : 0;
  const double root_only_11 = p11.count("0+4 ") ? p11.at("0+4 ") : 0;
  EXPECT_GT(root_only_1, std::exp(2 * 0.5) * 3 * root_only_11);
}

TEST(DirectSynthesisStatisticalTest, ErrorsStayWithinDepthTimesR) {
  // §4: with noise of standard deviation R at every level, a node at depth d has expected
  // error at most d·R. [0, 255], 8 levels, ε = 1: scale 8/ε, R = sqrt(2α)/(1 − α), α = e^{−1/8}.
  const NumericDecomposition d = NumericDecomposition::Create({.lo = 0.0, .hi = 255.0}).value();
  SeededRng data_rng(5);
  std::vector<Int128> values;
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t u = UniformBelow(data_rng, 10);
    values.push_back(static_cast<Int128>(u < 6   ? UniformBelow(data_rng, 32)
                                         : u < 9 ? 128 + UniformBelow(data_rng, 32)
                                                 : UniformBelow(data_rng, 256)));
  }
  const double alpha = std::exp(-1.0 / 8);
  const double r = std::sqrt(2 * alpha) / (1 - alpha);
  constexpr int kRuns = 200;
  std::vector<double> error_sum(4, 0);
  std::vector<double> nodes(4, 0);
  SeededRng rng(6);
  NullProgress progress;
  for (int run = 0; run < kRuns; ++run) {
    auto accountant = Accountant();
    auto result = SynthesizeDirect(d, std::span<const Int128>(values), 10000,
                                   {.epsilon = 1.0, .max_depth = 8}, accountant, "x", "all", rng,
                                   progress);
    ASSERT_TRUE(result.has_value());
    std::int64_t total = 0;
    for (const auto& cell : result->cells) total += cell.count;
    ASSERT_EQ(total, 10000);  // exact, every run
    for (int depth = 1; depth <= 3; ++depth) {
      const Int128 width = 256 >> depth;
      for (Int128 lo = 0; lo < 256; lo += width) {
        double allocated = 0;
        for (const auto& cell : result->cells) {
          if (cell.node.lo >= lo && cell.node.lo + cell.node.width <= lo + width) {
            allocated += static_cast<double>(cell.count);
          }
        }
        double truth = 0;
        for (Int128 v : values) truth += (v >= lo && v < lo + width) ? 1 : 0;
        error_sum[depth] += std::fabs(allocated - truth);
        nodes[depth] += 1;
      }
    }
  }
  for (int depth = 1; depth <= 3; ++depth) {
    const double mean = error_sum[depth] / nodes[depth];
    // The mean of >= 400 absolute errors of spread ~R has a standard error < 0.05·R.
    EXPECT_LE(mean, depth * r) << "depth " << depth;
    EXPECT_GE(mean, 0.2 * r) << "depth " << depth;  // the noise is really there
  }
}

}  // namespace
}  // namespace deniable
