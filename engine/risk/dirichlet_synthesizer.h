// SPDX-License-Identifier: Apache-2.0
// The posterior-predictive synthesizer of McClure & Reiter (2012), generalised from binary
// (Beta) to K categories (Dirichlet): the theory behind the disclosure-risk analysis of issue
// #11. It is a model of a release, used to compute risks exactly; Deniable's release modes do
// not sample from it. Do NOT use it to release data: it needs the category list, n and n_s
// public, and it has no secure sampler.
//
// Synthesizer (paper eq. 3, Thm. 1): from counts X_1..X_K of n records, draw n_s synthetic
// records independently from the one-step posterior predictive under a symmetric
// Dirichlet(α, …, α) prior, p_k = (X_k + α) / (n + K·α), with α = α_ε = 1/(e^{ε/n_s} − 1).
//
// Privacy guarantee
//   Neighbouring: one record's value changed (the paper's relation, n public), or one record
//     added or removed (n_s fixed); the category list is public.
//   Guarantee: releasing the n_s synthetic values is ε-DP for both relations; tight for the
//     first (paper eq. 9; categorical proof in dirichlet_synthesizer.md).
//   Reference: McClure & Reiter, Trans. Data Privacy 5 (2012), Thm. 1 and Appendix A.
//   Proof note: risk/dirichlet_synthesizer.md
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/result.h"

namespace deniable {

// log(e^a + e^b) without overflow; -inf is the log of 0.
double LogAddExp(double a, double b);

// log of the binomial probability Bin(x; trials, p) from log p and log(1 − p); 0·log 0 = 0.
double LogBinomialPmf(std::int64_t x, std::int64_t trials, double log_p, double log_q);

class DirichletSynthesizer {
 public:
  // epsilon > 0 finite; synthetic_records (n_s) >= 1; categories (K) >= 2.
  // Example: auto s = DirichletSynthesizer::Create(1.0, 1000, 2);  // s->alpha() ≈ 999.5
  static Result<DirichletSynthesizer> Create(double epsilon, std::int64_t synthetic_records,
                                             int categories);

  double epsilon() const { return epsilon_; }
  std::int64_t synthetic_records() const { return synthetic_records_; }
  int categories() const { return categories_; }
  // α_ε = 1/(e^{ε/n_s} − 1) (Thm. 1, step 2); may be 0 when ε/n_s exceeds ~709, in which case
  // log_alpha() stays exact.
  double alpha() const;
  double log_alpha() const { return log_alpha_; }

  // log p_k = log((X_k + α)/(n + Kα)) for every k, n = Σ X_k (eq. 3).
  std::vector<double> LogPredictive(const std::vector<std::int64_t>& counts) const;
  // log p_value and log(1 − p_value) for a category holding `count` of `n` records: the binary
  // view of eq. 3 (the other categories merged, their α's summed).
  void LogPredictiveOf(std::int64_t count, std::int64_t n, double& log_p, double& log_q) const;
  // log P(synthetic counts | counts): the multinomial probability of the released counts
  // (the order of the synthetic records carries nothing, paper §3.2).
  double LogProbability(const std::vector<std::int64_t>& counts,
                        const std::vector<std::int64_t>& synthetic_counts) const;

  // The ε of Thm. 1 eq. 9 for a given α: n_s · log((1 + α)/α).
  static double EpsilonOf(double alpha, std::int64_t synthetic_records);

 private:
  DirichletSynthesizer(double epsilon, std::int64_t synthetic_records, int categories,
                       double log_alpha)
      : epsilon_(epsilon), synthetic_records_(synthetic_records), categories_(categories),
        log_alpha_(log_alpha) {}
  // log(count + multiple·α).
  double LogCountPlusAlpha(double count, double multiple) const;

  double epsilon_;
  std::int64_t synthetic_records_;
  int categories_;
  double log_alpha_;
};

}  // namespace deniable
