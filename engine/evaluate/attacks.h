// SPDX-License-Identifier: Apache-2.0
// Three attacks on a released synthetic table, in the manner of Anonymeter (Giomi et al., PETS
// 2023, §4). Each is run twice with the same synthetic rows: against training rows (what the
// synthesizer saw) and against control rows (held out before anything was learned); the
// control run is the baseline (attack_statistics.h), a random guesser the naive one.
//
// - Singling out (§4.1): predicates "c1 = v1 ∧ c2 = v2 ∧ c3 = v3" over up to 3 random
//   knowledge columns, the values taken from one random synthetic row, kept when exactly one
//   synthetic row satisfies them (and distinct); a predicate succeeds when exactly one training
//   row satisfies it. The chance that a predicate matches exactly one row depends on how many
//   rows there are, and the control set is usually smaller than the training set, so the
//   control rate is corrected to the training set's size as Anonymeter does: successes are measured
//   on random control subsets of 10 sizes (5 repeats each) and the model
//     s(n) = c · ∫_0^w n x (1 − x)^{n−1} dx                               (Anonymeter's model)
//   is fitted (least squares over a grid of w, c in closed form) and read at n = |training|.
//   Naive baseline: predicates whose values are drawn column by column from random synthetic
//   rows (no row's combination), checked against training rows.
// - Linkability (§4.2): the knowledge columns are split in two halves A and B (two data sets
//   an attacker holds about the same people). For a target row, the synthetic rows nearest on A
//   and nearest on B (every row tied at the smallest distance) are found; the link succeeds
//   when the two sets meet. Naive baseline: two independent random synthetic rows are the same.
// - Attribute inference (§4.3): the attacker knows a target's knowledge columns and guesses its
//   sensitive value as the majority value (numeric: the median) among the synthetic rows
//   nearest on those columns; a guess is right when equal (numeric: within 5% of the true
//   value). Naive baseline: the sensitive value of a random synthetic row.
// Targets: the same number of random training and control rows (min(attacks, |control|)).
// Randomness: a SeededRng (`seed`): the evaluation is the owner's analysis, not a release, and
// must be repeatable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/evaluate/attack_statistics.h"
#include "engine/evaluate/mixed_table.h"

namespace deniable {

struct AttackOptions {
  std::vector<std::size_t> knowledge;  // column indices into MixedTables::columns
  std::size_t secret = 0;              // inference: the sensitive column's index
  std::size_t attacks = 2000;          // predicates / targets per attack
  int predicate_columns = 3;           // singling out: columns per predicate (at most)
  double numeric_tolerance = 0.05;     // inference on a numeric secret: relative
  std::size_t tie_cap = 10000;         // rows tied at the nearest distance kept per target
  double confidence = 0.95;
  std::uint64_t seed = 0;
  unsigned threads = 2;
};

struct SinglingOutResult {
  AttackRisk risk;
  std::size_t predicates = 0;  // found (≤ attacks)
  double control_size_corrected_successes = 0;
  bool control_corrected = false;  // false when |control| = |training| (direct count)
};

struct LinkabilityResult {
  AttackRisk risk;
  std::vector<std::size_t> columns_a, columns_b;
};

struct InferenceResult {
  AttackRisk risk;
};

// kInvalidArgument when there is no knowledge column; kCancelled.
Result<SinglingOutResult> SinglingOutAttack(const MixedTables& tables, const AttackOptions& options,
                                            Progress& progress);
// kInvalidArgument when fewer than 2 knowledge columns.
Result<LinkabilityResult> LinkabilityAttack(const MixedTables& tables, const AttackOptions& options,
                                            Progress& progress);
// kInvalidArgument when no knowledge column other than the secret.
Result<InferenceResult> InferenceAttack(const MixedTables& tables, const AttackOptions& options,
                                        Progress& progress);

// Anonymeter's size model, ∫_0^w n x (1 − x)^{n−1} dx = (1 − (1 − w)^{n+1})/(n + 1) − w(1 − w)^n.
double SinglingOutIntegral(double n, double w);

// Fits s(n) = c · SinglingOutIntegral(n, w) to (sizes, successes) and returns s(at).
double FitSinglingOutModel(const std::vector<double>& sizes, const std::vector<double>& successes,
                           double at);

}  // namespace deniable
