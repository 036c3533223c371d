// SPDX-License-Identifier: Apache-2.0
// Moments of the normal, Gamma and Dirichlet samplers. Fixed seeds; tolerances are 5 standard
// errors of the estimated moment (never flaky at a fixed seed, and a wrong sampler is off by
// far more).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/deniable/dirichlet.h"

namespace deniable {
namespace {

constexpr int kDraws = 400'000;

TEST(DirichletStatisticalTest, NormalHasMeanZeroAndUnitVariance) {
  SeededRng rng(1);
  double sum = 0, sum2 = 0, sum4 = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double x = SampleStandardNormal(rng);
    sum += x;
    sum2 += x * x;
    sum4 += x * x * x * x;
  }
  EXPECT_NEAR(sum / kDraws, 0.0, 5 * std::sqrt(1.0 / kDraws));
  EXPECT_NEAR(sum2 / kDraws, 1.0, 5 * std::sqrt(2.0 / kDraws));   // Var(X^2) = 2
  EXPECT_NEAR(sum4 / kDraws, 3.0, 5 * std::sqrt(96.0 / kDraws));  // Var(X^4) = 105 - 9
}

TEST(DirichletStatisticalTest, GammaHasMeanAndVarianceEqualToShape) {
  for (double shape : {0.05, 0.3, 1.0, 2.5, 40.0}) {
    SeededRng rng(2);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < kDraws; ++i) {
      const double x = SampleGamma(shape, rng);
      ASSERT_GE(x, 0.0);
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / kDraws;
    const double variance = sum2 / kDraws - mean * mean;
    // Var(X) = k; Var(X^2) = E X^4 - (E X^2)^2 = k(k+1)(k+2)(k+3) - k^2 (k+1)^2.
    const double k = shape;
    const double var_x2 = k * (k + 1) * (k + 2) * (k + 3) - k * k * (k + 1) * (k + 1);
    EXPECT_NEAR(mean, k, 5 * std::sqrt(k / kDraws)) << "shape " << shape;
    EXPECT_NEAR(variance, k, 5 * std::sqrt(var_x2 / kDraws) + 1e-3 * k) << "shape " << shape;
  }
}

TEST(DirichletStatisticalTest, LogGammaStaysFiniteForTinyShapes) {
  SeededRng rng(3);
  for (int i = 0; i < 1000; ++i) {
    const double x = SampleLogGamma(1e-4, rng);
    ASSERT_TRUE(std::isfinite(x));
  }
}

TEST(DirichletStatisticalTest, DirichletMeansAreProportionalToAlpha) {
  const std::vector<double> alpha = {0.5, 2.0, 7.5};
  const double total = 10.0;
  SeededRng rng(4);
  std::vector<double> p(3), mean(3, 0.0);
  for (int i = 0; i < kDraws; ++i) {
    SampleDirichlet(alpha, p, rng);
    EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-12);
    for (int j = 0; j < 3; ++j) mean[static_cast<std::size_t>(j)] += p[static_cast<std::size_t>(j)];
  }
  for (std::size_t j = 0; j < 3; ++j) {
    const double a = alpha[j] / total;
    const double sd = std::sqrt(a * (1 - a) / (total + 1));  // of one component
    EXPECT_NEAR(mean[j] / kDraws, a, 5 * sd / std::sqrt(kDraws));
  }
}

}  // namespace
}  // namespace deniable
