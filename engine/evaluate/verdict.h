// SPDX-License-Identifier: Apache-2.0
// The plain-language verdict the Review opens with (issue 11, part 4): is this release fit to
// share? A list of findings, each on one topic, with a level, a headline, the reason and what to
// change. Pure function of numbers (no data, no Qt): the UI and the report gather the figures.
//
// Rules and thresholds:
//  Utility (when figures are given: the synthetic table's mean 2-way TVD against the real one,
//  and the same measure for the perfect independent model and the floor, see
//  engine/metrics/utility_baselines.h):
//   * good     synthetic <= perfect independent (it keeps dependencies between columns);
//   * caution  perfect independent < synthetic <= kUtilityCautionRatio (1.5) x perfect indep.;
//   * problem  beyond, or when the perfect independent model scores 0 (every column constant or
//     independent) and the synthetic table does not. A problem suggests: raise ε, declare
//     category lists public in the Columns page, drop or merge high-cardinality columns, use the
//     marginals mode on tables of at least kMarginalsModeRows (5,000) rows.
//  Guarantee (always; the whole release's (ε, δ) from the ledger):
//   * problem  a seeded run ("reproducible, NOT a private release");
//   * problem  δ > 1/n (n = the real table's rows): such a δ allows leaking a whole record;
//   * caution  ε > kWeakEpsilon (3): the bound is weak;
//   * good     otherwise. The factor e^ε is printed only when finite and < kLargestFactor
//     (1e6); otherwise the sentence says "the bound is too weak to mean anything" (never "inf").
//   * deniable mode: one more finding (good unless the test is not DP: caution) stating k, γ
//     and the DP ε of the randomized test.
//  Risk (when the Disclosure risk tab has figures): records outside the owner's acceptable
//  region at the release's ε = problem, with the recommended ε (the largest ε whose records all
//  stay inside) when there is one; none outside = good.
//  Attacks (when the Review's Attacks tab has figures: attacks on the release against its
//  training rows, with held-out control rows as the baseline, engine/evaluate/attacks.h). Each
//  attack's risk r = (r_train − r_control)/(1 − r_control) has an interval; the owner's
//  threshold t (kAttackRiskThreshold = 0.1 by default: the release turns at most a tenth of the
//  attacker's failures on unseen people into successes on its own rows). Only attacks that beat
//  a random guesser count (one that does not measures nothing):
//   * problem  an attack's whole interval lies above t (low > t): the release leaks its
//     training rows; what to change: lower ε, drop or coarsen the quasi-identifiers the attack
//     uses, or a mode with a formal guarantee instead of a seeded run;
//   * caution  an attack's estimate is above t and its interval, though it reaches below t,
//     stays above 0: a measurable advantage on the training rows (more control rows would
//     settle whether it passes t);
//   * good     otherwise: every estimate at most t, or an interval that reaches 0 (no
//     measurable advantage; a release that leaks nothing gets an estimate above 0.1 often
//     on a small control split: the demo's 10% split gave 0.118 [−0.124, 0.36]); a wide
//     interval is named in the reason. Exact copies of training rows unique in the training
//     rows are named in the reason (the attacks' numbers decide the level).
//  Overall: the worst level: good "Fit to share", caution "Share with care", problem "Not fit
//  to share".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace deniable {

enum class VerdictTopic { kUtility, kGuarantee, kRisk, kAttacks };
enum class VerdictLevel { kGood, kCaution, kProblem };

inline constexpr double kUtilityCautionRatio = 1.5;
inline constexpr double kWeakEpsilon = 3.0;
inline constexpr double kLargestFactor = 1e6;
inline constexpr std::uint64_t kMarginalsModeRows = 5000;
inline constexpr double kAttackRiskThreshold = 0.1;

struct VerdictFinding {
  VerdictTopic topic = VerdictTopic::kGuarantee;
  VerdictLevel level = VerdictLevel::kGood;
  std::string headline;  // one sentence
  std::string reason;    // why, with the numbers
  std::string change;    // what to change ("" when nothing needs to)
};

struct VerdictUtility {
  double synthetic = 0;            // mean 2-way TVD of the synthetic rows
  // A perfect independent model: drawn with the synthetic table's row count when the caller
  // can (UtilityBaselines::perfect_independent_at_rows), else the exact one.
  double perfect_independent = 0;
  double floor = 0;                // a random half of the real rows
};

struct VerdictDeniable {
  int k = 0;
  double gamma = 0;
  std::optional<double> test_epsilon;  // per-record ε of the randomized test; none: deterministic
};

struct VerdictRisk {
  double epsilon = 0;                       // the ε the figures are for
  std::int64_t records_outside = 0;         // records outside the acceptable region
  std::optional<double> recommended_epsilon;
};

struct VerdictAttack {
  std::string name;  // "singling out", "linkability", "attribute inference"
  double risk = 0;
  double low = 0, high = 0;  // the risk's interval
  bool beats_naive = true;
};

struct VerdictAttacks {
  double threshold = kAttackRiskThreshold;
  std::vector<VerdictAttack> attacks;  // those that ran
  std::uint64_t synthetic_rows = 0;
  std::uint64_t copies_of_unique_train = 0;  // synthetic rows equal to a unique training row
};

struct VerdictInputs {
  std::optional<VerdictUtility> utility;  // owner only: statistics of the real data
  double epsilon = 0;                     // whole release; may be +inf
  double delta = 0;
  std::uint64_t rows = 0;                 // real rows n (for δ > 1/n)
  bool reproducible_not_private = false;
  std::optional<VerdictDeniable> deniable;
  std::optional<VerdictRisk> risk;        // owner only
  std::optional<VerdictAttacks> attacks;  // owner only
};

struct Verdict {
  VerdictLevel overall = VerdictLevel::kGood;
  std::vector<VerdictFinding> findings;  // utility, guarantee, risk, attacks (with figures)
};

Verdict ComputeVerdict(const VerdictInputs& inputs);

// "Fit to share", "Share with care", "Not fit to share".
std::string OverallAnswer(VerdictLevel level);

// What ε means as a likelihood factor: "e^ε ≈ 2.72" when finite and < kLargestFactor, else
// "the bound is too weak to mean anything". Never "inf".
std::string EpsilonFactorText(double epsilon);

}  // namespace deniable
