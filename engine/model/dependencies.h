// SPDX-License-Identifier: Apache-2.0
// Columns that (nearly) determine others — a code and its label (education-num ↔ education), a
// score and its band (decile_score → score_text), a value and its range (age → age_cat) —
// found and modelled privately, so that even the independent mode keeps them consistent.
//
// The dependency score of an ordered pair (A → B) over the encoded table is
//   T(A → B) = S − λ0·n − (1 − λ0)·M − |A|,   S = Σ_a max_b n(a, b),   M = max_b n(b),
// i.e. (S − M) − λ0·(n − M) minus a public penalty of one per code of A (an A with many codes
// and few records each would "determine" anything by chance). T ≥ 0 exactly when Goodman and
// Kruskal's λ(B | A) = (S − M)/(n − M), the share of B's non-modal rows that knowing A gets
// right, is at least λ0 (up to the penalty). Adding one record raises S, M and n by 0 or 1 (n by
// exactly 1), so T changes by one of {−1, −λ0, 0, 1 − λ0}: sensitivity 1.
//
// Mechanism (FindDependencies):
//  * Rounds r = 1 .. max_rounds: the exponential mechanism (ε_round) chooses among every
//    admissible pair (A → B) with utility T(A → B) and a "none" candidate with utility 0 that
//    counts as many candidates as there are pairs (a multiset: the same mechanism, so the same
//    guarantee; without it the many pairs a little below 0 would together outweigh "none");
//    "none" ends the search. Range-bounded (`range_bounded`, dp/exponential_mechanism.md §1b;
//    otherwise the plain form, exponent ε_round/2, the correlated mode's): adding a record
//    moves every T by one of {−1, −λ0, 0, 1 − λ0} and "none" by 0, all inside [−1, 1 − λ0]
//    (removing one: the negatives), so the candidates' changes share an interval of width
//    R = 2 − λ0 and the weights are exp(ε_round·u/R), not exp(ε_round·u/2): at λ0 = 0.9 the
//    exponent is 1.82× larger for the same ε (COMPAS, independent mode, ε = 1: decile_score →
//    score_text, T = 505, had been chosen in 3 of 6 seeds with the plain form). A pair is
//    admissible when B is not already derived, A is not B's descendant (no cycles), and both
//    have at most max_cardinality codes (public).
//  * For each chosen pair, the mapping a → b: for every code a of A, the exponential mechanism
//    (ε_map, Δ = 1, monotonic: counts only grow when a record is added) over n(a, ·). The rows
//    with A = a are disjoint across a, so all of A's codes together cost ε_map (parallel
//    composition).
// Privacy guarantee
//   Neighbouring: add/remove one row of `data`. Each round is ε_round-DP (pure), each mapping
//   ε_map-DP; rounds and mappings compose sequentially; the number of rounds run (at most
//   max_rounds) depends only on earlier outputs. Total ≤ max_rounds·ε_round + (pairs found)·ε_map
//   ≤ options.epsilon: the plan reserves ε_map for every round. Recorded on `partition`, one
//   ledger entry per round and per mapping. The choice of which pairs to test, λ0 and the
//   penalty are public. Reference: exponential mechanism, McSherry & Talwar 2007 (Dwork & Roth
//   Thm. 3.10); λ: Goodman & Kruskal, JASA 1954.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

struct DependencyOptions {
  double epsilon = 0.1;    // the most the search may spend (see above)
  int max_rounds = 3;      // pairs looked for at most
  double min_lambda = 0.9; // λ0
  // The selection as the range-bounded exponential mechanism (exponent ε_round/(2 − λ0));
  // false: the plain one (ε_round/2), as ε-DP but less sharp (the correlated mode, privbayes.h).
  bool range_bounded = true;
  std::uint32_t max_cardinality = 128;
  const std::vector<std::string>* names = nullptr;  // ledger labels
};

struct Dependency {
  int parent = 0;                      // A
  int child = 0;                       // B
  std::vector<std::uint32_t> mapping;  // per code of A, the code of B it maps to
};

struct DependencyResult {
  std::vector<Dependency> found;
  double spent = 0;  // ε actually recorded (rounds run plus mappings)
};

// The score T(A → B) defined above (exposed for its sensitivity test).
double DependencyScore(const EncodedTable& data, int parent, int child, double min_lambda);

Result<DependencyResult> FindDependencies(const EncodedTable& data,
                                          const DependencyOptions& options,
                                          PrivacyAccountant& accountant,
                                          const std::string& partition, Rng& rng,
                                          Progress& progress);

// A network node for a found dependency: the child with the parent as its only parent and a
// deterministic conditional table (one-hot at mapping[a] for each a).
BayesNode DeterministicNode(const Dependency& dependency, std::uint32_t parent_cardinality,
                            std::uint32_t child_cardinality);

}  // namespace deniable
