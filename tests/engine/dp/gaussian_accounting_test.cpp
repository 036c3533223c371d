// SPDX-License-Identifier: Apache-2.0
// Reference values below were computed with mpmath at 40 digits (erfc, and the CKS infimum by
// Newton's method on the derivative of its logarithm); each function must be on the safe side
// of the exact value and close to it.
#include "engine/dp/gaussian_accounting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace deniable {
namespace {

TEST(GaussianAccountingTest, TailMatchesHighPrecisionValues) {
  // Q(1) = 0.158655253931457051414767454368, Q(5) = 2.86651571879193911673752332875e-7.
  EXPECT_NEAR(GaussianTail(1.0), 0.158655253931457051414767454368, 6e-17);  // 2 ulps
  EXPECT_NEAR(GaussianTail(5.0) / 2.86651571879193911673752332875e-7, 1.0, 1e-14);
  EXPECT_NEAR(GaussianTail(-1.0), 0.841344746068542948585232545632, 2.3e-16);  // 2 ulps
  EXPECT_EQ(GaussianTail(0.0), 0.5);
  // Deep tail without cancellation: Q(30) = 4.906713927148187e-198 (relative 1e-12).
  EXPECT_NEAR(GaussianTail(30.0) / 4.906713927148187e-198, 1.0, 1e-12);
  EXPECT_GT(GaussianTail(37.5), std::numeric_limits<double>::min());  // still normal
}

// The one assumption of the accounting: erfc in double is accurate to a relative 2^-40. Checked
// against the 64-bit-mantissa erfcl on a fine grid over the certified range (the observed error
// is a few ulps, ~2^-50; we demand 2^-45 to keep a margin below the assumption).
TEST(GaussianAccountingTest, ErfcIsAsAccurateAsTheAccountingAssumes) {
  double worst = 0;
  for (int i = -3750; i <= 3750; ++i) {
    const double y = (i / 100.0) * 0.70710678118654752440;
    const long double reference = std::erfc(static_cast<long double>(y));
    const long double error =
        std::fabs((static_cast<long double>(std::erfc(y)) - reference) / reference);
    worst = std::max(worst, static_cast<double>(error));
  }
  EXPECT_LT(worst, 0x1p-45);
}

TEST(GaussianAccountingTest, TailBoundsBracketTheValueAndTheInverseIsSafeAndTight) {
  for (double x : {-40.0, -37.5, -3.0, 0.0, 0.5, 4.0, 20.0, 37.5, 38.0, 100.0}) {
    EXPECT_LE(GaussianTailLower(x), GaussianTail(x)) << x;
    EXPECT_GE(GaussianTailUpper(x), GaussianTail(x)) << x;
  }
  EXPECT_EQ(GaussianTailUpper(std::nan("")), 1.0);
  EXPECT_EQ(GaussianTailLower(std::nan("")), 0.0);
  // Q^{-1}(0.025) = 1.959963984540054235524594430521; the certified inverse is just above.
  const double z = GaussianTailInverseUpper(0.025);
  EXPECT_GE(z, 1.959963984540054);
  EXPECT_NEAR(z, 1.959963984540054235524594430521, 1e-10);
  EXPECT_LE(GaussianTailUpper(z), 0.025);
  EXPECT_EQ(GaussianTailInverseUpper(1e-320), std::numeric_limits<double>::infinity());
  EXPECT_EQ(GaussianTailInverseUpper(1.0), -std::numeric_limits<double>::infinity());
}

TEST(GaussianAccountingTest, AnalyticGaussianDeltaIsAnUpperBoundOfTheExactCurve) {
  // Balle & Wang Thm. 8 at ε = 1, σ = 1, Δ = 1: Φ(−0.5) − e·Φ(−1.5) = 0.126936737506643945800.
  const double delta = AnalyticGaussianDelta(1.0, 1.0, 1.0);
  EXPECT_GE(delta, 0.126936737506643945800);
  EXPECT_NEAR(delta, 0.126936737506643945800, 1e-10);
  // Scale invariance: only Δ/σ matters.
  EXPECT_NEAR(AnalyticGaussianDelta(1.0, 4.0, 4.0), delta, 1e-12);
  EXPECT_EQ(AnalyticGaussianDelta(1.0, 0.0, 1.0), 1.0);  // invalid: trivial bound
  EXPECT_EQ(AnalyticGaussianDelta(-1.0, 1.0, 1.0), 1.0);
}

TEST(GaussianAccountingTest, AnalyticGaussianSigmaAndEpsilonAreSafeInverses) {
  // Exact σ for ε = 1, δ = 1e-5, Δ = 1: 3.730631634815941832 (the classical
  // sqrt(2 ln(1.25/δ))/ε would be 4.84).
  auto sigma = AnalyticGaussianSigma(1.0, 1e-5, 1.0);
  ASSERT_TRUE(sigma.has_value()) << sigma.error().message;
  EXPECT_GE(*sigma, 3.730631634815941832);
  EXPECT_NEAR(*sigma, 3.730631634815941832, 1e-9);
  EXPECT_LE(AnalyticGaussianDelta(1.0, *sigma, 1.0), 1e-5);
  // σ scales with Δ.
  EXPECT_NEAR(AnalyticGaussianSigma(1.0, 1e-5, 3.0).value() / *sigma, 3.0, 1e-9);
  // ε for that σ is back at 1 (from above), and its δ is within the target.
  auto epsilon = AnalyticGaussianEpsilon(*sigma, 1e-5, 1.0);
  ASSERT_TRUE(epsilon.has_value());
  EXPECT_GE(*epsilon, 1.0 - 1e-9);
  EXPECT_NEAR(*epsilon, 1.0, 1e-8);
  EXPECT_LE(AnalyticGaussianDelta(*epsilon, *sigma, 1.0), 1e-5);
  // Huge σ: ε = 0.
  EXPECT_EQ(AnalyticGaussianEpsilon(1e12, 1e-5, 1.0).value(), 0.0);
  EXPECT_FALSE(AnalyticGaussianSigma(1.0, 0.0, 1.0).has_value());
  EXPECT_FALSE(AnalyticGaussianSigma(1.0, 1e-5, -1.0).has_value());
  EXPECT_FALSE(AnalyticGaussianSigma(std::nan(""), 1e-5, 1.0).has_value());
  EXPECT_FALSE(AnalyticGaussianEpsilon(1e-6, 1e-5, 1.0).has_value());  // ε > 500
}

TEST(GaussianAccountingTest, ZcdpConversionIsTheTightCksBoundFromAbove) {
  // CKS Cor. 13 at ρ = 0.1, ε = 2: inf over α (at α = 10.9776) = 4.325210869092558232e-6.
  const double delta = ZcdpDelta(0.1, 2.0);
  EXPECT_GE(delta, 4.325210869092558232e-6);
  EXPECT_NEAR(delta / 4.325210869092558232e-6, 1.0, 1e-9);
  // ε for ρ = 0.1, δ = 1e-6: the exact infimum at our ε is 0.99999999999999213e-6 <= 1e-6.
  auto epsilon = ZcdpEpsilon(0.1, 1e-6);
  ASSERT_TRUE(epsilon.has_value());
  EXPECT_NEAR(*epsilon, 2.1419389283854744, 1e-9);
  EXPECT_LT(*epsilon, 0.1 + 2 * std::sqrt(0.1 * std::log(1e6)));  // tighter than ρ + 2√(ρ ln 1/δ)
  EXPECT_EQ(ZcdpDelta(0.0, 0.5), 0.0);
  EXPECT_FALSE(ZcdpEpsilon(-1.0, 1e-6).has_value());
  EXPECT_FALSE(ZcdpEpsilon(0.1, 1.0).has_value());
}

// The conversion's fast search (a descent on the grid from the leading term's minimiser) finds
// the very grid point the full 401-point scan finds, so δ is bit-for-bit the same: over ρ from
// 1e-9 to 100 and ε from 0 to 60 (the accountant's range and beyond), including ε <= ρ (no
// analytic start: the walk begins at the grid's left end).
TEST(GaussianAccountingTest, ZcdpDeltaSearchMatchesTheFullGridScan) {
  int compared = 0;
  for (double log_rho = -9; log_rho <= 2; log_rho += 0.37) {
    const double rho = std::pow(10.0, log_rho);
    for (double epsilon : {0.0, 1e-6, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.99, 1.0, 1.7, 3.0, 8.0,
                           20.0, 60.0}) {
      for (double scale : {1.0, 1.0 + 1e-12, 0.97}) {  // nudges: neighbouring bisection probes
        const double e = epsilon * scale;
        ASSERT_EQ(ZcdpDelta(rho, e), internal::ZcdpDeltaSearch(rho, e, true))
            << "rho " << rho << " epsilon " << e;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 30 * 15 * 3);
}

// zCDP is a relaxation: converting the Gaussian's ρ can never give a smaller δ than the exact
// analytic curve.
TEST(GaussianAccountingTest, ZcdpOfAGaussianIsNeverTighterThanTheAnalyticCurve) {
  for (double sigma : {0.5, 1.0, 3.0, 10.0}) {
    for (double epsilon : {0.1, 0.5, 1.0, 3.0}) {
      const double rho = ZcdpOfGaussian(sigma, 1.0);
      EXPECT_GE(ZcdpDelta(rho, epsilon), AnalyticGaussianDelta(epsilon, sigma, 1.0) * (1 - 1e-9))
          << sigma << " " << epsilon;
    }
  }
}

TEST(GaussianAccountingTest, CompositionAndParameterConversionsRoundUp) {
  const std::vector<double> mus = {3.0, 4.0};
  EXPECT_GE(ComposeGdp(mus), 5.0);
  EXPECT_NEAR(ComposeGdp(mus), 5.0, 1e-15);
  EXPECT_EQ(ZcdpOfGaussian(2.0, 1.0), 0.125);
  EXPECT_EQ(ZcdpOfPureDp(1.0), 0.5);
  const std::vector<double> rhos = {0.1, 0.2};
  EXPECT_GE(ComposeZcdp(rhos), 0.1 + 0.2);
  // Composing k Gaussians of σ through ρ equals one Gaussian of σ/sqrt(k).
  const std::vector<double> four(4, ZcdpOfGaussian(2.0, 1.0));
  EXPECT_EQ(ComposeZcdp(four), ZcdpOfGaussian(1.0, 1.0));
}

}  // namespace
}  // namespace deniable
