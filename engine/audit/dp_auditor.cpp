// SPDX-License-Identifier: Apache-2.0
#include "engine/audit/dp_auditor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

namespace deniable {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Continued fraction of I_x(a, b) (modified Lentz; Numerical Recipes §6.4).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr int kMaxIterations = 1000000;
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= kMaxIterations; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-15) break;
  }
  return h;
}

// The p in [0, 1] with I_p(a, b) = target (I is increasing in p), by bisection to the last bit.
double InverseIncompleteBeta(double a, double b, double target) {
  double lo = 0.0;
  double hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (RegularizedIncompleteBeta(a, b, mid) < target) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

// Wilson score bounds with z: only to RANK candidate events on the selection half (cheap); the
// reported bound uses Clopper–Pearson on the other half.
double WilsonLower(std::uint64_t k, std::uint64_t n, double z) {
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double z2 = z * z;
  const double centre = p + z2 / (2 * nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  return std::max(0.0, (centre - half) / (1 + z2 / nn));
}
double WilsonUpper(std::uint64_t k, std::uint64_t n, double z) {
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double z2 = z * z;
  const double centre = p + z2 / (2 * nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  return std::min(1.0, (centre + half) / (1 + z2 / nn));
}

// Sorted samples of one feature under one input.
std::uint64_t CountEvent(const std::vector<double>& sorted, AuditEventKind kind, double value) {
  switch (kind) {
    case AuditEventKind::kAtLeast:
      return static_cast<std::uint64_t>(sorted.end() -
                                        std::lower_bound(sorted.begin(), sorted.end(), value));
    case AuditEventKind::kAtMost:
      return static_cast<std::uint64_t>(std::upper_bound(sorted.begin(), sorted.end(), value) -
                                        sorted.begin());
    case AuditEventKind::kEquals: {
      auto range = std::equal_range(sorted.begin(), sorted.end(), value);
      return static_cast<std::uint64_t>(range.second - range.first);
    }
  }
  return 0;
}

// Candidate threshold values of one feature from the pooled selection samples: every distinct
// value when there are few, else quantiles at evenly spaced ranks plus geometrically spaced
// ranks towards both tails (where the ratio of a tight mechanism is largest).
std::vector<double> Thresholds(const std::vector<double>& a, const std::vector<double>& b,
                               const AuditOptions& options, bool* few_values) {
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  std::vector<double> distinct = pooled;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  *few_values = distinct.size() <= options.max_equality_values;
  if (distinct.size() <= options.max_thresholds) return distinct;
  const double n = static_cast<double>(pooled.size());
  std::vector<double> quantiles;
  const std::size_t linear = options.max_thresholds / 2;
  for (std::size_t i = 0; i <= linear; ++i) quantiles.push_back(static_cast<double>(i) / linear);
  for (double q = 0.5; q * n >= 1.0; q *= 0.5) {
    quantiles.push_back(q);
    quantiles.push_back(1.0 - q);
  }
  std::vector<double> out;
  for (double q : quantiles) {
    const auto rank = static_cast<std::size_t>(std::min(n - 1, std::floor(q * (n - 1))));
    out.push_back(pooled[rank]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct Candidate {
  AuditEvent event;
  double score = kNegInf;
};

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                           a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * BetaContinuedFraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * BetaContinuedFraction(b, a, 1 - x) / b;
}

// Pr[Bin(n, p) >= k] = I_p(k, n − k + 1): the lower bound solves it = a.
double ClopperPearsonLower(std::uint64_t k, std::uint64_t n, double a) {
  if (k == 0) return 0.0;
  return InverseIncompleteBeta(static_cast<double>(k), static_cast<double>(n - k + 1), a);
}

// Pr[Bin(n, p) <= k] = 1 − I_p(k + 1, n − k): the upper bound solves it = a.
double ClopperPearsonUpper(std::uint64_t k, std::uint64_t n, double a) {
  if (k >= n) return 1.0;
  return InverseIncompleteBeta(static_cast<double>(k + 1), static_cast<double>(n - k), 1.0 - a);
}

std::string AuditEvent::Describe(const std::vector<std::string>& feature_names) const {
  std::ostringstream out;
  out << "Pr[" << (neighbour_first ? "M(D')" : "M(D)") << " in E] vs Pr["
      << (neighbour_first ? "M(D)" : "M(D')") << " in E], E = {"
      << (feature < feature_names.size() ? feature_names[feature]
                                         : "f" + std::to_string(feature))
      << (kind == AuditEventKind::kAtLeast ? " >= " : kind == AuditEventKind::kAtMost ? " <= "
                                                                                        : " = ")
      << value << "}";
  return out.str();
}

Result<AuditResult> AuditDp(const AuditedMechanism& mechanism, const AuditOptions& options) {
  if (options.samples < 4) return InvalidArgument("audit: samples must be at least 4");
  if (!(options.alpha > 0 && options.alpha < 0.5)) {
    return InvalidArgument("audit: alpha must be in (0, 0.5)");
  }
  if (!(options.delta >= 0 && options.delta < 1)) {
    return InvalidArgument("audit: delta must be in [0, 1)");
  }
  if (options.events == 0 || options.max_thresholds < 2) {
    return InvalidArgument("audit: events must be >= 1 and max_thresholds >= 2");
  }
  const auto start = std::chrono::steady_clock::now();
  const std::size_t half = options.samples / 2;
  SeededRng base(options.seed);
  std::unique_ptr<Rng> rngs[2] = {base.Fork(0), base.Fork(1)};
  // samples[input][half][feature] -> values
  std::vector<std::vector<double>> values[2][2];
  std::size_t features = 0;
  for (int input = 0; input < 2; ++input) {
    for (std::size_t i = 0; i < 2 * half; ++i) {
      // A fresh generator per run, seeded from the input's stream: SeededRng::Fork depends on
      // the seed only, so runs sharing one generator would share every forked child stream
      // (the pipeline forks per column) and their outputs would not be independent.
      SeededRng run_rng((*rngs[input])());
      const std::vector<double> out = mechanism(input == 1, run_rng);
      if (features == 0) {
        if (out.empty()) return InvalidArgument("audit: the mechanism returned no feature");
        features = out.size();
        for (auto& by_input : values) {
          for (auto& by_half : by_input) by_half.assign(features, {});
        }
      }
      if (out.size() != features) {
        return InvalidArgument("audit: the mechanism returned " + std::to_string(out.size()) +
                               " features after " + std::to_string(features));
      }
      for (std::size_t j = 0; j < features; ++j) {
        if (std::isnan(out[j])) return InvalidArgument("audit: feature " + std::to_string(j) +
                                                       " is NaN");
        values[input][i < half ? 0 : 1][j].push_back(out[j]);
      }
    }
  }
  for (auto& by_input : values) {
    for (auto& by_half : by_input) {
      for (auto& column : by_half) std::sort(column.begin(), column.end());
    }
  }

  // Selection half.
  const double z = std::sqrt(2.0 * std::log(1.0 / options.alpha));
  std::vector<Candidate> candidates;
  for (std::size_t j = 0; j < features; ++j) {
    const auto& a = values[0][0][j];
    const auto& b = values[1][0][j];
    bool few = false;
    std::vector<AuditEventKind> kinds = {AuditEventKind::kAtLeast, AuditEventKind::kAtMost};
    const std::vector<double> thresholds = Thresholds(a, b, options, &few);
    if (few) kinds.push_back(AuditEventKind::kEquals);
    for (double t : thresholds) {
      for (AuditEventKind kind : kinds) {
        const std::uint64_t ka = CountEvent(a, kind, t);
        const std::uint64_t kb = CountEvent(b, kind, t);
        for (bool neighbour_first : {false, true}) {
          const std::uint64_t k1 = neighbour_first ? kb : ka;
          const std::uint64_t k2 = neighbour_first ? ka : kb;
          const double numerator = WilsonLower(k1, half, z) - options.delta;
          Candidate c{AuditEvent{j, kind, t, neighbour_first}, kNegInf};
          if (numerator > 0) c.score = std::log(numerator / WilsonUpper(k2, half, z));
          candidates.push_back(c);
        }
      }
    }
  }
  AuditResult result;
  result.events_tried = candidates.size();
  result.evaluation_samples = half;
  const std::size_t keep = std::min(options.events, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(keep),
                    candidates.end(),
                    [](const Candidate& x, const Candidate& y) { return x.score > y.score; });

  // Evaluation half: Clopper–Pearson, Bonferroni over the kept pairs and both bounds.
  const double level = options.alpha / (2.0 * static_cast<double>(keep));
  bool found = false;
  for (std::size_t c = 0; c < keep; ++c) {
    const AuditEvent& event = candidates[c].event;
    const std::uint64_t ka = CountEvent(values[0][1][event.feature], event.kind, event.value);
    const std::uint64_t kb = CountEvent(values[1][1][event.feature], event.kind, event.value);
    const std::uint64_t k1 = event.neighbour_first ? kb : ka;
    const std::uint64_t k2 = event.neighbour_first ? ka : kb;
    const double numerator = ClopperPearsonLower(k1, half, level) - options.delta;
    if (numerator <= 0) continue;
    const double bound = std::log(numerator / ClopperPearsonUpper(k2, half, level));
    if (!found || bound > result.epsilon_lb) {
      found = true;
      result.epsilon_lb = bound;
      result.event = event;
      result.hits_first = k1;
      result.hits_second = k2;
    }
  }
  result.epsilon_lb = std::max(0.0, result.epsilon_lb);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace deniable
