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
//   ledger entry per round and per mapping.
//   Sized mappings (rows_estimate > 0, max_mapping_epsilon > ε_map): a found pair's mapping
//   may instead get ε_pair = clamp(|A|·(|B| − 1)/(e·q·n̂), ε_map, max_mapping_epsilon), the ε
//   at which the rows it maps wrong are expected to be at most q·n̂ (below), whatever the sizes
//   of A's codes; the excess over ε_map is the caller's budget (at most max_mapping_epsilon per
//   found pair), not part of options.epsilon. ε_pair is a function of public settings and
//   earlier DP outputs (the chosen pair, the domains' sizes, a DP row count n̂): adaptive
//   sequential composition.
//   Why: under the monotonic exponential mechanism a code a whose n_a rows all hold one value
//   b* maps elsewhere with probability at most (|B| − 1)·e^{−ε·n_a}, so it costs at most
//   n_a·(|B| − 1)·e^{−ε·n_a} ≤ (|B| − 1)/(e·ε) wrong rows in expectation (x·e^{−εx} peaks at
//   x = 1/ε); over A's codes at most |A|·(|B| − 1)/(e·ε). ε_map alone is far below that for a
//   fine parent: the independent mode's search at ε = 1 has ε_map ≈ 0.0075, and COMPAS' 26 age
//   bins of 180–540 rows were mapped to "Other" or the wrong band, 1–3 of them a run (age →
//   age_cat 0.89–0.95 consistent when found, 0.98–1.00 sized). A bound for codes of average
//   size (|A|·ln(|A|·(|B| − 1)/q)/n̂) was measured too and is not used: Adult's small education
//   codes (83–657 of 48,842 rows) kept mapping wrong (docs/utility.md, stop 32).
//   The choice of which pairs to test, λ0 and the penalty are public. Reference: exponential
//   mechanism, McSherry & Talwar 2007 (Dwork & Roth Thm. 3.10); λ: Goodman & Kruskal, JASA
//   1954.
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
  // Sized mappings (above): a public or DP row count n̂ (<= 0: off, every mapping at ε_map),
  // the most a mapping may spend, and q, the expected share of rows a mapping may get wrong.
  double rows_estimate = -1;
  double max_mapping_epsilon = 0;
  double mapping_inconsistency = 0.01;
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

// The ε of a found pair's mapping (sized mappings, above): `reserved` (ε_map) unless options
// ask for sized mappings.
double MappingEpsilon(const DependencyOptions& options, double reserved, std::uint32_t parent_codes,
                      std::uint32_t child_codes);

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
