// SPDX-License-Identifier: Apache-2.0
// A stochastic differential-privacy auditor (in the manner of Google DP's stochastic tester,
// DP-Sniper — Bichsel et al., S&P 2021 — and DP-Auditorium — Kong et al., 2023): it runs a
// mechanism many times on two neighbouring inputs D and D′ and derives, from the outputs alone,
// a high-confidence LOWER bound on the ε the mechanism really has.
//
// Contract
//   An audited mechanism is a function (neighbour, rng) -> features: one run of M on D
//   (neighbour = false) or on D′ (neighbour = true), reduced to a few real-valued features of
//   its output (a noisy value, a count of a cell in a synthetic table, whether a category was
//   kept, ...). Any event defined on the features is an event on M's output, so the
//   post-processing is free: the features can only hide leakage, never invent it.
//   Procedure (audit_notes.md derives each step):
//    1. `samples` runs on D and on D′, drawn with fresh streams of one seeded generator.
//    2. Selection half (the first samples/2 of each): candidate events are threshold sets
//       {f_j >= t}, {f_j <= t} and, for a feature with few distinct values, {f_j = v}; each is
//       scored in both directions (D against D′ and D′ against D) with Wilson bounds, and the
//       `events` best (event, direction) pairs are kept.
//    3. Evaluation half (the other samples/2, independent of the choice): for each kept pair,
//       Clopper–Pearson bounds p_lo on Pr[M(A) ∈ E] and p′_hi on Pr[M(B) ∈ E], each at level
//       α/(2·events) (Bonferroni over the events tried and the two bounds), and
//          ε_lb(E) = ln((p_lo − δ) / p′_hi),      ε_lb = max over the kept pairs (and 0).
//   Guarantee: if M is (ε, δ)-DP for add/remove neighbours then, with probability >= 1 − α over
//   the auditor's own randomness, ε_lb <= ε. A mechanism PASSES when ε_lb <= ε_claimed.
//   Passing proves NOTHING about privacy (only the events tried were checked, only on this
//   pair D, D′, and with a seeded generator instead of the secure one); failing is evidence of
//   a violation at confidence 1 − α (or of an unlucky 1-in-1/α run — fixed seeds make it
//   reproducible).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

// One run of the mechanism on D (neighbour = false) or D′ (neighbour = true), reduced to
// features. Every call must return the same number of features (finite or ±inf; NaN refused).
using AuditedMechanism = std::function<std::vector<double>(bool neighbour, Rng& rng)>;

struct AuditOptions {
  std::size_t samples = 20000;  // runs on EACH of D and D′ (half select, half evaluate); >= 4
  double alpha = 1e-3;          // the auditor's own error probability, in (0, 0.5)
  double delta = 0;             // the δ of the claim, in [0, 1)
  std::size_t events = 8;       // (event, direction) pairs carried to the evaluation half
  std::size_t max_thresholds = 128;  // per feature: thresholds tried (quantiles of half 1)
  std::size_t max_equality_values = 64;  // {f = v} events when a feature has at most this many
  // Run i on D gets SeededRng(w_i), w_i the i-th word of SeededRng(seed).Fork(0) (D′: Fork(1)):
  // the reproducible generator (fast, and a fixed seed makes a verdict repeatable), a fresh one
  // per run because SeededRng::Fork depends on the seed alone (runs sharing a generator would
  // share their forked streams and not be independent).
  std::uint64_t seed = 1;
};

enum class AuditEventKind { kAtLeast, kAtMost, kEquals };

struct AuditEvent {
  std::size_t feature = 0;
  AuditEventKind kind = AuditEventKind::kAtLeast;
  double value = 0;
  bool neighbour_first = false;  // the bound is Pr[M(D′) ∈ E] against Pr[M(D) ∈ E]
  std::string Describe(const std::vector<std::string>& feature_names) const;
};

struct AuditResult {
  double epsilon_lb = 0;      // >= 0
  AuditEvent event;           // the event that gave it (meaningful when epsilon_lb > 0)
  std::uint64_t hits_first = 0;   // evaluation-half counts of the event under the first input
  std::uint64_t hits_second = 0;  // ... and under the second
  std::size_t evaluation_samples = 0;  // per input
  std::size_t events_tried = 0;        // candidate (event, direction) pairs scored in half 1
  double seconds = 0;
};

// Clopper–Pearson one-sided bounds for k successes in n trials at level a in (0, 1): the lower
// bound is 0 for k = 0, the upper 1 for k = n; otherwise Beta quantiles (a and 1 − a).
double ClopperPearsonLower(std::uint64_t k, std::uint64_t n, double a);
double ClopperPearsonUpper(std::uint64_t k, std::uint64_t n, double a);
// The regularized incomplete beta function I_x(a, b) (a, b > 0, x in [0, 1]).
double RegularizedIncompleteBeta(double a, double b, double x);

// ε_lb for `mechanism` as described above. Errors: invalid options, a mechanism returning no
// feature, a varying feature count or NaN (kInvalidArgument).
Result<AuditResult> AuditDp(const AuditedMechanism& mechanism, const AuditOptions& options);

}  // namespace deniable
