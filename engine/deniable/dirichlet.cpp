// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/dirichlet.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

namespace deniable {
namespace {

// Uniform in (0, 1): never 0, so logs stay finite.
double OpenUnit(Rng& rng) { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; }

// ln Gamma(shape) sample for shape >= 1 (Marsaglia & Tsang, "A simple method for generating
// gamma variables", ACM TOMS 26(3), 2000).
double LogGammaAtLeastOne(double shape, Rng& rng) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = SampleStandardNormal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = OpenUnit(rng);
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return std::log(d) + std::log(v);  // squeeze
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return std::log(d) + std::log(v);
  }
}

}  // namespace

double SampleStandardNormal(Rng& rng) {
  // Marsaglia's polar method; the second normal of the pair is discarded (stateless).
  for (;;) {
    const double u = 2.0 * UniformUnit(rng) - 1.0;
    const double v = 2.0 * UniformUnit(rng) - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double SampleLogGamma(double shape, Rng& rng) {
  assert(shape > 0 && "SampleLogGamma: shape must be positive");
  if (shape >= 1.0) return LogGammaAtLeastOne(shape, rng);
  // Gamma(a) = Gamma(a + 1) · U^{1/a}.
  return LogGammaAtLeastOne(shape + 1.0, rng) + std::log(OpenUnit(rng)) / shape;
}

double SampleGamma(double shape, Rng& rng) { return std::exp(SampleLogGamma(shape, rng)); }

void SampleDirichlet(std::span<const double> alpha, std::span<double> p, Rng& rng) {
  assert(alpha.size() == p.size() && !alpha.empty());
  double largest = -INFINITY;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    p[i] = SampleLogGamma(alpha[i], rng);
    largest = std::max(largest, p[i]);
  }
  double total = 0;
  for (double& x : p) {
    x = std::exp(x - largest);
    total += x;
  }
  for (double& x : p) x /= total;
}

}  // namespace deniable
