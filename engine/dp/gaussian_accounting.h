// SPDX-License-Identifier: Apache-2.0
// Privacy accounting for Gaussian noise: the standard normal tail with certified error, the
// exact (ε, δ) curve of the Gaussian mechanism (Balle & Wang, "Improving the Gaussian
// Mechanism for Differential Privacy", ICML 2018, Theorem 8) and its inverses, zero-concentrated
// DP (Bun & Steinke, TCC 2016) with the tight conversion to (ε, δ) of Canonne, Kamath, Steinke
// ("The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Corollary 13), and
// composition (μ-GDP: Dong, Roth, Su, JRSS-B 2022, Corollary 3; ρ-zCDP: ρ adds).
//
// Every function returns a SAFE value: a δ is an upper bound of the exact δ, a σ or an ε is at
// least the exact one, a μ or a ρ is an upper bound. Rounding is directed
// (dp/directed_rounding.h); the only assumption is that the C library's erfc is accurate to a
// relative 2^-40 (glibc's documented error is a few ulps, 2^-50; tested against erfcl in
// gaussian_accounting_test). Proof note: dp/gaussian_accounting.md.
//
// Notation: Q(x) = Pr[N(0, 1) > x] = ½·erfc(x/√2), Φ(x) = Q(−x). A Gaussian mechanism with
// noise N(0, σ²) on a query of ℓ2 sensitivity Δ is μ-GDP with μ = Δ/σ, and ρ-zCDP with
// ρ = Δ²/(2σ²) = μ²/2.
#pragma once

#include <span>

#include "engine/core/result.h"

namespace deniable {

// |x| up to which GaussianTail has the certified relative error kGaussianTailRelativeError.
// Q(37.5) ≈ 4.6e-308 is still a normal double.
inline constexpr double kGaussianTailMaxArgument = 37.5;
// Relative error bound of GaussianTail on [−37.5, 37.5]: 2^-40 for erfc plus 2^-41 for the
// rounding of the argument, with margin (gaussian_accounting.md §1).
inline constexpr double kGaussianTailRelativeError = 0x1p-38;

// Q(x) = ½·erfc(x/√2), computed without cancellation on both sides (erfc of a negative
// argument is 2 − erfc(|x|) inside the library, accurate in relative terms as it is ≥ 1).
// NaN for NaN. Relative error <= kGaussianTailRelativeError for |x| <= 37.5.
double GaussianTail(double x);
// Certified bounds: GaussianTailLower(x) <= Q(x) <= GaussianTailUpper(x) for every x
// (beyond ±37.5 the bounds are the constants of the monotone tail; NaN gives 0 and 1).
double GaussianTailUpper(double x);
double GaussianTailLower(double x);
// The smallest z found by bisection with GaussianTailUpper(z) <= p, hence Q(z) <= p:
// an upper bound of Q^{-1}(p). +inf when p < GaussianTailUpper(37.5) (too small to certify),
// −inf when p >= 1; NaN for NaN.
double GaussianTailInverseUpper(double p);

// Balle & Wang Theorem 8: the Gaussian mechanism N(0, σ²) on a query of ℓ2 sensitivity Δ is
// (ε, δ)-DP exactly for δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ).
// Returns an upper bound of δ(ε) (in [0, 1]); epsilon >= 0, sigma > 0, sensitivity > 0
// (otherwise 1, the trivial bound).
double AnalyticGaussianDelta(double epsilon, double sigma, double l2_sensitivity);
// The smallest σ (found by bisection, rounded up) with AnalyticGaussianDelta(ε, σ, Δ) <= δ.
// epsilon finite in [0, 500], delta in (0, 1), l2_sensitivity finite > 0.
Result<double> AnalyticGaussianSigma(double epsilon, double delta, double l2_sensitivity);
// The smallest ε >= 0 (bisection, rounded up) with AnalyticGaussianDelta(ε, σ, Δ) <= δ.
// sigma and l2_sensitivity finite > 0, delta in (0, 1). Fails if ε would exceed 500.
Result<double> AnalyticGaussianEpsilon(double sigma, double delta, double l2_sensitivity);

// μ-GDP composition (Dong, Roth, Su Cor. 3): adaptive composition of μ_i-GDP mechanisms is
// sqrt(Σ μ_i²)-GDP. Rounded up. A μ-GDP mechanism has the curve AnalyticGaussianDelta(ε, 1/μ, 1).
double ComposeGdp(std::span<const double> mus);

// zCDP. ρ of the Gaussian mechanism: Δ²/(2σ²) (Bun & Steinke Prop. 1.6; CKS Theorem 4 for the
// discrete Gaussian), rounded up.
double ZcdpOfGaussian(double sigma, double l2_sensitivity);
// ρ = ε²/2 for an ε-DP mechanism (Bun & Steinke Prop. 1.4), rounded up.
double ZcdpOfPureDp(double epsilon);
// Σ ρ_i (Bun & Steinke Lemma 1.7: adaptive composition), rounded up.
double ComposeZcdp(std::span<const double> rhos);
// CKS Corollary 13: a ρ-zCDP mechanism is (ε, δ)-DP for
//   δ = inf_{α > 1} exp((α − 1)(αρ − ε)) / (α − 1) · (1 − 1/α)^α.
// Returns an upper bound (every α gives a valid δ; the search only makes it small). In [0, 1].
double ZcdpDelta(double rho, double epsilon);
namespace internal {
// ZcdpDelta's search: `full_scan` evaluates all 401 grid points (the reference, for tests);
// otherwise a descent from the leading term's minimiser finds the same grid point.
double ZcdpDeltaSearch(double rho, double epsilon, bool full_scan);
}  // namespace internal
// The smallest ε (bisection, rounded up) with ZcdpDelta(ρ, ε) <= δ. rho finite >= 0, delta in
// (0, 1).
Result<double> ZcdpEpsilon(double rho, double delta);
// The largest ρ found by bisection (rounded down) with ZcdpDelta(ρ, ε) <= δ, hence
// ZcdpEpsilon(ρ, δ) <= ε: the zCDP budget an (ε, δ) target allows. epsilon finite > 0, delta in
// (0, 1).
Result<double> ZcdpRhoFor(double epsilon, double delta);

}  // namespace deniable
