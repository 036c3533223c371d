// SPDX-License-Identifier: Apache-2.0
// Record-level disclosure risk under the posterior-predictive synthesizer
// (dirichlet_synthesizer.h), exactly as McClure & Reiter (2012) define it: the intruder knows
// every record but j (D_{-j}), the synthesizer and its parameters (S), and a prior on Y_j.
//   R_j  = P(Y_j = y_j | D*, D_{-j}, S)                        absolute risk, eq. 2 and eq. 5
//   RR_j = R_j / P(Y_j = y_j | A, S)                           relative risk, eq. 8
//   ER_j = Σ_{X, X*} (max(R_j, w) − w) p(X*, X | p0)           expected increase, eqs. 6–7
// These are statistical risk measures of ONE release given the real data: they are not a DP
// guarantee (paper §4) and the figures derived from real data are for the data owner only.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/result.h"
#include "engine/risk/dirichlet_synthesizer.h"

namespace deniable {

struct RecordRisk {
  double absolute = 0;  // R_j
  double relative = 0;  // RR_j = R_j / prior of the true value
  double prior = 0;     // the intruder's prior on the true value
};

// The binary case (paper §3.2). n_s synthetic records from n real ones.
struct BinaryRiskQuery {
  std::int64_t n = 0;               // records in D, record j included
  std::int64_t ns = 0;              // synthetic records
  double epsilon = 0;
  std::int64_t others_ones = 0;     // X_{-j}: ones among the other n − 1 records
  std::int64_t synthetic_ones = 0;  // X*
  int true_value = 1;               // y_j, the value the intruder is after
  double prior_one = 0.5;           // w = P(Y_j = 1 | A, S), in (0, 1)
};

// R_j and RR_j of eq. 5 / eq. 8 (with n_s trials; the paper has n_s = n).
Result<RecordRisk> BinaryRecordRisk(const BinaryRiskQuery& query);

// R_j as a function of the likelihood ratio Λ = P(D* | y_j) / P(D* | not y_j) and the prior π
// on y_j: R = πΛ / (πΛ + 1 − π), computed from log Λ without overflow.
RecordRisk RiskFromLogLikelihoodRatio(double log_likelihood_ratio, double prior);

struct ExpectedRiskOptions {
  double p0 = 0.5;        // Bernoulli probability that generates D, in [0, 1]
  double epsilon = 1;
  std::int64_t n = 1000;  // records in D
  std::int64_t ns = 0;    // synthetic records; 0 = n (the paper's choice)
  double prior = 0.5;     // w = P(Y_j = 1 | A, S), in (0, 1)
};

// ER_j and the distribution of R_j over (X, X*) ~ p(X*, X | p0) (eq. 7). As in the paper, the
// target record has Y_j = 1, or Y_j = 0 when X = 0 (then its prior is 1 − w).
struct ExpectedRisk {
  double expected_increase = 0;  // ER_j, eq. 6
  double mean_risk = 0;          // E[R_j]
  double max_risk = 0;           // largest R_j of positive probability (> 1e-18)
  // (probability level, R_j quantile) at 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99.
  std::vector<std::pair<double, double>> quantiles;
  std::vector<double> histogram;  // P(R_j in [i/10, (i+1)/10)), 10 bins, the last closed
  double alpha = 0;               // α_ε = β_ε of the synthesizer
  std::int64_t ns = 0;
};

// Exact double sum over X in [0, n] and X* in [0, n_s]; terms below e^-60 are skipped (their
// total is below n·e^-60 < 1e-20 for n ≤ 10^6).
Result<ExpectedRisk> ExpectedRiskIncrease(const ExpectedRiskOptions& options);

// Equally spaced priors in (0, 1): w_i = i/(points + 1), i = 1..points (Figs. 3–4 use 1000).
std::vector<double> PriorGrid(int points);

// The categorical case: the intruder's posterior over Y_j's K values given D_{-j}'s counts
// (`others`, K entries), the released counts (`synthetic`, summing to n_s) and a prior over the
// K values: P(Y_j = k | D*) ∝ prior_k · Mult(D*; p(others + e_k)). Eq. 5 with K hypotheses.
Result<std::vector<double>> CategoricalPosterior(const DirichletSynthesizer& synthesizer,
                                                 const std::vector<std::int64_t>& others,
                                                 const std::vector<std::int64_t>& synthetic,
                                                 const std::vector<double>& prior);

// R_j and RR_j for the record whose true value is `true_value` (eq. 5 and eq. 8, K values).
Result<RecordRisk> CategoricalRecordRisk(const DirichletSynthesizer& synthesizer,
                                         const std::vector<std::int64_t>& others,
                                         const std::vector<std::int64_t>& synthetic,
                                         const std::vector<double>& prior, int true_value);

}  // namespace deniable
