// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/attack_statistics.h"

#include <algorithm>
#include <cmath>

namespace deniable {
namespace {

// Acklam's rational approximation of the standard normal quantile, refined by one Halley step
// on erfc (relative error below 1e-15 on (0, 1)).
double NormalQuantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double low = 0.02425;
  double x;
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

}  // namespace

double NormalQuantileTwoSided(double confidence) {
  return NormalQuantile(1 - (1 - confidence) / 2);
}

Interval WilsonInterval(double successes, std::uint64_t trials, double confidence) {
  if (trials == 0) return {0, 1};
  const double n = static_cast<double>(trials);
  const double p = std::clamp(successes / n, 0.0, 1.0);
  const double z = NormalQuantileTwoSided(confidence);
  const double z2 = z * z;
  const double denominator = 1 + z2 / n;
  const double centre = (p + z2 / (2 * n)) / denominator;
  const double half = z / denominator * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At p̂ = 0 (p̂ = 1) the lower (upper) end is exactly 0 (1); rounding would leave 1e-17.
  return {successes <= 0 ? 0.0 : std::max(0.0, centre - half),
          successes >= n ? 1.0 : std::min(1.0, centre + half)};
}

RateEstimate EstimateRate(double successes, std::uint64_t trials, double confidence) {
  RateEstimate r;
  r.successes = successes;
  r.trials = trials;
  r.rate = trials == 0 ? 0 : std::clamp(successes / static_cast<double>(trials), 0.0, 1.0);
  r.interval = WilsonInterval(successes, trials, confidence);
  return r;
}

AttackRisk CombineRates(const RateEstimate& train, const RateEstimate& control,
                        const RateEstimate& naive) {
  AttackRisk a{train, control, naive, 0, {0, 0}, true};
  const auto risk = [](double t, double c) { return c >= 1 ? 0.0 : (t - c) / (1 - c); };
  a.risk = risk(train.rate, control.rate);
  a.risk_interval = {risk(train.interval.low, control.interval.high),
                     risk(train.interval.high, control.interval.low)};
  a.attack_beats_naive = train.rate > naive.interval.high;
  return a;
}

}  // namespace deniable
