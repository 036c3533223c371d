// SPDX-License-Identifier: Apache-2.0
#include "engine/risk/dirichlet_synthesizer.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <string>

#include "engine/dp/validation.h"

namespace deniable {
namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
}  // namespace

double LogAddExp(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

double LogBinomialPmf(std::int64_t x, std::int64_t trials, double log_p, double log_q) {
  if (x < 0 || x > trials) return kNegInf;
  double log_pmf = std::lgamma(static_cast<double>(trials) + 1) -
                   std::lgamma(static_cast<double>(x) + 1) -
                   std::lgamma(static_cast<double>(trials - x) + 1);
  if (x > 0) log_pmf += static_cast<double>(x) * log_p;  // 0 · log 0 = 0
  if (trials - x > 0) log_pmf += static_cast<double>(trials - x) * log_q;
  return log_pmf;
}

Result<DirichletSynthesizer> DirichletSynthesizer::Create(double epsilon,
                                                          std::int64_t synthetic_records,
                                                          int categories) {
  if (auto s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s.error();
  if (synthetic_records < 1) {
    return InvalidArgument("ns (synthetic records) must be at least 1 (got " +
                           std::to_string(synthetic_records) + ")");
  }
  if (categories < 2) {
    return InvalidArgument("the sensitive attribute needs at least 2 categories (got " +
                           std::to_string(categories) + ")");
  }
  // log α = −log(e^t − 1), t = ε/n_s (Thm. 1): for large t, log(e^t − 1) = t + log1p(−e^−t),
  // which stays exact where e^t overflows; for tiny t, expm1 keeps every digit.
  const double t = epsilon / static_cast<double>(synthetic_records);
  const double log_expm1 = t > 30 ? t + std::log1p(-std::exp(-t)) : std::log(std::expm1(t));
  return DirichletSynthesizer(epsilon, synthetic_records, categories, -log_expm1);
}

double DirichletSynthesizer::alpha() const { return std::exp(log_alpha_); }

double DirichletSynthesizer::EpsilonOf(double alpha, std::int64_t synthetic_records) {
  return static_cast<double>(synthetic_records) * std::log1p(1.0 / alpha);
}

double DirichletSynthesizer::LogCountPlusAlpha(double count, double multiple) const {
  const double log_alphas = std::log(multiple) + log_alpha_;
  return count > 0 ? LogAddExp(std::log(count), log_alphas) : log_alphas;
}

std::vector<double> DirichletSynthesizer::LogPredictive(
    const std::vector<std::int64_t>& counts) const {
  assert(static_cast<int>(counts.size()) == categories_ && "one count per category");
  double n = 0;
  for (std::int64_t c : counts) n += static_cast<double>(c);
  const double log_total = LogCountPlusAlpha(n, categories_);
  std::vector<double> log_p(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    log_p[k] = LogCountPlusAlpha(static_cast<double>(counts[k]), 1) - log_total;
  }
  return log_p;
}

void DirichletSynthesizer::LogPredictiveOf(std::int64_t count, std::int64_t n, double& log_p,
                                           double& log_q) const {
  assert(count >= 0 && count <= n && "a category holds at most n records");
  const double log_total = LogCountPlusAlpha(static_cast<double>(n), categories_);
  log_p = LogCountPlusAlpha(static_cast<double>(count), 1) - log_total;
  log_q = LogCountPlusAlpha(static_cast<double>(n - count), categories_ - 1) - log_total;
}

double DirichletSynthesizer::LogProbability(
    const std::vector<std::int64_t>& counts,
    const std::vector<std::int64_t>& synthetic_counts) const {
  assert(synthetic_counts.size() == counts.size() && "one synthetic count per category");
  const std::vector<double> log_p = LogPredictive(counts);
  std::int64_t total = 0;
  double log_probability = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const std::int64_t x = synthetic_counts[k];
    total += x;
    log_probability -= std::lgamma(static_cast<double>(x) + 1);
    if (x > 0) log_probability += static_cast<double>(x) * log_p[k];
  }
  if (total != synthetic_records_) return kNegInf;
  return log_probability + std::lgamma(static_cast<double>(total) + 1);
}

}  // namespace deniable
