// SPDX-License-Identifier: Apache-2.0
// Near-functional pairs of a fitted model made exact in its samples (issue 9: deterministic
// pairs). A code and its label (education-num ↔ education), a score and its band
// (decile_score → score_text) are functions in the data, but the model fitted to noisy marginals
// spreads a little mass over the impossible cells of their joint (the measurement noise of a
// 16 × 16 × k marginal), and a few percent of the sampled rows paired a code with the wrong
// label (Adult 0.94–0.96 consistent, COMPAS decile → text 0.95).
//
// Rule: for every ordered pair (A → B) of attributes that share a clique of the junction tree,
// Goodman and Kruskal's λ(B | A) = (S − M)/(N − M) on the MODEL's joint μ of (A, B), with
// S = Σ_a max_b μ(a, b), M = max_b μ(b), N = Σ μ. When λ >= min_lambda, f(a) = argmax_b μ(a, b)
// for every code a whose own conditional has a majority (μ(f(a) | a) > ½; a rare code whose
// joint is mostly noise is left alone), and every sampled row with such an a gets B = f(a)
// (ApplyConsistentPairs). So P'(a, rest, b) = P(a, rest)·1[b = f(a)]: every marginal without B
// is the model's exactly, and B follows A. (Conditioning the model on the event B = f(A)
// instead moved the other columns' marginals, since the dropped cells had their own
// distribution of the rest: COMPAS age_cat 1-way TVD 0.007 → 0.023 on one seed.)
// λ0 = 0.85: the model's λ of the real deterministic pairs is 0.91–0.92 on Adult at ε = 1 (the
// noise spreads mass), and on the shared tables the real pairs' λ is >= 0.99 or <= 0.76 (Adult,
// COMPAS, mplsstops, flchain), so the rule does not force a merely strong association.
// A numeric parent's bin that straddles a step of B (COMPAS' age 20–29 holds "Less than 25" and
// "25 - 45") is not forced when its runner-up label holds >= kStraddleShare of the bin: the two
// labels are real there, and decoding orders them inside the bin (model/band_pairs.h), which
// keeps both the bin's label shares and the step. Forcing the majority made every row of the
// minority label inconsistent with its value (COMPAS age → age_cat 0.90–0.95 at ε = 1). 0.15:
// the model's noise on a pure bin's wrong labels stays below it on the shared tables at ε = 1.
// Pairs are accepted by decreasing λ; an attribute is the child of at most one pair and no pair
// closes a cycle (education-num → education kept, its reverse skipped); they are applied
// parents first.
//
// Privacy: reads only the fitted model (a function of the noisy measurements): post-processing,
// no privacy cost. The pairs are written to the description, so `generate` applies them too.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/marginals/graphical_model.h"
#include "engine/model/encoded_table.h"

namespace deniable {

inline constexpr double kConsistentPairLambda = 0.85;
inline constexpr double kStraddleShare = 0.15;

struct ConsistentPair {
  int parent = 0;  // A
  int child = 0;   // B
  double lambda = 0;                   // λ(B | A) on the model
  std::vector<std::uint32_t> mapping;  // f: per code of A, the code of B
  std::vector<bool> forced;            // per code of A: μ(f(a) | a) > ½ (else left alone)
};

// The accepted pairs of `model` (codes are the model's), in the order they must be applied.
// `ordered` (per attribute, may be empty): the attribute's codes are a numeric column's bins.
std::vector<ConsistentPair> FindConsistentPairs(const GraphicalModel& model,
                                                double min_lambda = kConsistentPairLambda,
                                                const std::vector<bool>& ordered = {});

// Sets B = f(A) in every row whose A code is forced, pair by pair in order. Codes out of a
// pair's range are left alone (the description's reader validates the ranges).
void ApplyConsistentPairs(const std::vector<ConsistentPair>& pairs, EncodedTable& rows);

}  // namespace deniable
