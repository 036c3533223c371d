// SPDX-License-Identifier: Apache-2.0
#include "engine/risk/disclosure_risk.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/dp/validation.h"

namespace deniable {
namespace {

using internal::FormatDouble;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// Terms of p(X*, X | p0) below e^-60 are skipped in eq. 6.
constexpr double kLogNegligible = -60.0;

std::string Text(std::int64_t value) { return std::to_string(value); }

// log(p/(1 − p)).
double Logit(double p) { return std::log(p) - std::log1p(-p); }

// log Bin(x; n, p0) for p0 in [0, 1], exact at the ends.
double LogBinomialOfProbability(std::int64_t x, std::int64_t n, double p0) {
  if (p0 <= 0) return x == 0 ? 0.0 : kNegInf;
  if (p0 >= 1) return x == n ? 0.0 : kNegInf;
  return LogBinomialPmf(x, n, std::log(p0), std::log1p(-p0));
}

Status CheckPrior(double prior, const std::string& name) {
  return internal::CheckOpenUnit(prior, name);
}

}  // namespace

RecordRisk RiskFromLogLikelihoodRatio(double log_likelihood_ratio, double prior) {
  // R = 1/(1 + e^{−(log Λ + logit π)}): stable for any log Λ, ±inf included.
  const double z = log_likelihood_ratio + Logit(prior);
  const double absolute = z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
  return RecordRisk{absolute, absolute / prior, prior};
}

Result<RecordRisk> BinaryRecordRisk(const BinaryRiskQuery& q) {
  if (q.n < 1) return InvalidArgument("n must be at least 1 (got " + Text(q.n) + ")");
  if (q.ns < 1) return InvalidArgument("ns must be at least 1 (got " + Text(q.ns) + ")");
  if (q.others_ones < 0 || q.others_ones > q.n - 1) {
    return InvalidArgument("the other records' ones (X_-j) must be in [0, n − 1] = [0, " +
                           Text(q.n - 1) + "] (got " + Text(q.others_ones) + ")");
  }
  if (q.synthetic_ones < 0 || q.synthetic_ones > q.ns) {
    return InvalidArgument("the synthetic ones (X*) must be in [0, ns] = [0, " + Text(q.ns) +
                           "] (got " + Text(q.synthetic_ones) + ")");
  }
  if (q.true_value != 0 && q.true_value != 1) {
    return InvalidArgument("the record's value must be 0 or 1 (got " + Text(q.true_value) + ")");
  }
  if (auto s = CheckPrior(q.prior_one, "prior"); !s) return s.error();
  auto synthesizer = DirichletSynthesizer::Create(q.epsilon, q.ns, 2);
  if (!synthesizer) return synthesizer.error();
  // Eq. 5: Bin(X*; n_s, p(X_{-j} + 1)) against Bin(X*; n_s, p(X_{-j})); the binomial
  // coefficient cancels.
  double lp1, lq1, lp0, lq0;
  synthesizer->LogPredictiveOf(q.others_ones + 1, q.n, lp1, lq1);
  synthesizer->LogPredictiveOf(q.others_ones, q.n, lp0, lq0);
  const double x = static_cast<double>(q.synthetic_ones);
  const double y = static_cast<double>(q.ns - q.synthetic_ones);
  double log_ratio_one = 0;  // log P(D* | Y_j = 1) − log P(D* | Y_j = 0)
  if (x > 0) log_ratio_one += x * (lp1 - lp0);
  if (y > 0) log_ratio_one += y * (lq1 - lq0);
  if (q.true_value == 1) return RiskFromLogLikelihoodRatio(log_ratio_one, q.prior_one);
  return RiskFromLogLikelihoodRatio(-log_ratio_one, 1.0 - q.prior_one);
}

Result<ExpectedRisk> ExpectedRiskIncrease(const ExpectedRiskOptions& o) {
  if (!(o.p0 >= 0 && o.p0 <= 1)) {
    return InvalidArgument("p0 must be in [0, 1] (got " + FormatDouble(o.p0) + ")");
  }
  if (o.n < 1 || o.n > 1'000'000) {
    return InvalidArgument("n must be between 1 and 1,000,000 (got " + Text(o.n) + ")");
  }
  const std::int64_t ns = o.ns == 0 ? o.n : o.ns;
  if (ns < 1 || ns > 1'000'000) {
    return InvalidArgument("ns must be between 1 and 1,000,000 (got " + Text(o.ns) + ")");
  }
  if (o.n * ns > 4'000'000'000LL) {
    return InvalidArgument("n × ns must be at most 4e9 for the exact sum of eq. 6 (got " +
                           Text(o.n) + " × " + Text(ns) + ")");
  }
  if (auto s = CheckPrior(o.prior, "prior"); !s) return s.error();
  auto synthesizer = DirichletSynthesizer::Create(o.epsilon, ns, 2);
  if (!synthesizer) return synthesizer.error();

  std::vector<double> log_choose(static_cast<std::size_t>(ns) + 1);
  for (std::int64_t x = 0; x <= ns; ++x) log_choose[x] = LogBinomialPmf(x, ns, 0.0, 0.0);
  std::vector<double> log_p(static_cast<std::size_t>(o.n) + 1), log_q(log_p.size());
  for (std::int64_t x = 0; x <= o.n; ++x) synthesizer->LogPredictiveOf(x, o.n, log_p[x], log_q[x]);

  ExpectedRisk result;
  result.alpha = synthesizer->alpha();
  result.ns = ns;
  std::vector<std::pair<double, double>> mass;  // (R_j, probability)
  double total = 0;
  for (std::int64_t x = 0; x <= o.n; ++x) {
    const double log_weight_x = LogBinomialOfProbability(x, o.n, o.p0);
    if (log_weight_x < kLogNegligible) continue;
    // Eq. 6–7: the target record has Y_j = 1 (alternative: one fewer one); when X = 0 it has
    // Y_j = 0 (alternative: one more one) and its prior is 1 − w.
    const std::int64_t alternative = x >= 1 ? x - 1 : 1;
    const double prior = x >= 1 ? o.prior : 1.0 - o.prior;
    const double a = log_p[x] - log_p[alternative];
    const double b = log_q[x] - log_q[alternative];
    for (std::int64_t s = 0; s <= ns; ++s) {
      double log_release = log_choose[s];  // log Bin(X*; n_s, p(X))
      if (s > 0) log_release += static_cast<double>(s) * log_p[x];
      if (ns - s > 0) log_release += static_cast<double>(ns - s) * log_q[x];
      const double log_weight = log_weight_x + log_release;
      if (log_weight < kLogNegligible) continue;
      double log_ratio = 0;
      if (s > 0) log_ratio += static_cast<double>(s) * a;
      if (ns - s > 0) log_ratio += static_cast<double>(ns - s) * b;
      const double risk = RiskFromLogLikelihoodRatio(log_ratio, prior).absolute;
      const double weight = std::exp(log_weight);
      result.expected_increase += (std::max(risk, prior) - prior) * weight;
      result.mean_risk += risk * weight;
      total += weight;
      if (weight > 1e-18) {
        mass.emplace_back(risk, weight);
        result.max_risk = std::max(result.max_risk, risk);
      }
    }
  }
  // The skipped terms are below e^-60 each; the kept mass is 1 up to rounding.
  result.mean_risk /= total;
  std::sort(mass.begin(), mass.end());
  double kept = 0;
  for (const auto& [risk, weight] : mass) kept += weight;
  result.histogram.assign(10, 0.0);
  for (const auto& [risk, weight] : mass) {
    result.histogram[std::min<std::size_t>(9, static_cast<std::size_t>(risk * 10))] += weight / kept;
  }
  double cumulative = 0;
  std::size_t next = 0;
  const double levels[] = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
  for (const auto& [risk, weight] : mass) {
    cumulative += weight / kept;
    while (next < std::size(levels) && cumulative >= levels[next] - 1e-12) {
      result.quantiles.emplace_back(levels[next++], risk);
    }
  }
  while (next < std::size(levels)) result.quantiles.emplace_back(levels[next++], result.max_risk);
  return result;
}

std::vector<double> PriorGrid(int points) {
  std::vector<double> grid;
  for (int i = 1; i <= points; ++i) grid.push_back(static_cast<double>(i) / (points + 1));
  return grid;
}

Result<std::vector<double>> CategoricalPosterior(const DirichletSynthesizer& synthesizer,
                                                 const std::vector<std::int64_t>& others,
                                                 const std::vector<std::int64_t>& synthetic,
                                                 const std::vector<double>& prior) {
  const std::size_t k_values = static_cast<std::size_t>(synthesizer.categories());
  if (others.size() != k_values || synthetic.size() != k_values || prior.size() != k_values) {
    return InvalidArgument("counts, synthetic counts and prior need one entry per category (" +
                           Text(static_cast<std::int64_t>(k_values)) + ")");
  }
  std::int64_t released = 0;
  double prior_total = 0;
  for (std::size_t k = 0; k < k_values; ++k) {
    if (others[k] < 0 || synthetic[k] < 0) {
      return InvalidArgument("counts must be non-negative (category " +
                             Text(static_cast<std::int64_t>(k)) + ")");
    }
    if (auto s = CheckPrior(prior[k], "prior[" + Text(static_cast<std::int64_t>(k)) + "]"); !s) {
      return s.error();
    }
    released += synthetic[k];
    prior_total += prior[k];
  }
  if (released != synthesizer.synthetic_records()) {
    return InvalidArgument("synthetic counts must sum to ns = " +
                           Text(synthesizer.synthetic_records()) + " (got " + Text(released) + ")");
  }
  if (std::abs(prior_total - 1) > 1e-9) {
    return InvalidArgument("prior must sum to 1 (got " + FormatDouble(prior_total) + ")");
  }
  // log posterior_k = log prior_k + Σ_m X*_m log p_m(others + e_k) + const; log-sum-exp.
  std::vector<double> log_posterior(k_values);
  std::vector<std::int64_t> counts = others;
  double log_normaliser = kNegInf;
  for (std::size_t k = 0; k < k_values; ++k) {
    ++counts[k];
    const std::vector<double> log_p = synthesizer.LogPredictive(counts);
    --counts[k];
    double value = std::log(prior[k]);
    for (std::size_t m = 0; m < k_values; ++m) {
      if (synthetic[m] > 0) value += static_cast<double>(synthetic[m]) * log_p[m];
    }
    log_posterior[k] = value;
    log_normaliser = LogAddExp(log_normaliser, value);
  }
  for (double& value : log_posterior) value = std::exp(value - log_normaliser);
  return log_posterior;
}

Result<RecordRisk> CategoricalRecordRisk(const DirichletSynthesizer& synthesizer,
                                         const std::vector<std::int64_t>& others,
                                         const std::vector<std::int64_t>& synthetic,
                                         const std::vector<double>& prior, int true_value) {
  if (true_value < 0 || true_value >= synthesizer.categories()) {
    return InvalidArgument("the record's value must be a category index in [0, " +
                           Text(synthesizer.categories() - 1) + "] (got " + Text(true_value) +
                           ")");
  }
  auto posterior = CategoricalPosterior(synthesizer, others, synthetic, prior);
  if (!posterior) return posterior.error();
  const double absolute = posterior.value()[static_cast<std::size_t>(true_value)];
  const double p = prior[static_cast<std::size_t>(true_value)];
  return RecordRisk{absolute, absolute / p, p};
}

}  // namespace deniable
