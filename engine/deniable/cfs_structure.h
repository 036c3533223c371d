// SPDX-License-Identifier: Apache-2.0
// DP structure learning of the plausible-deniability paper (§3.3): greedy CFS (correlation-based
// feature selection, Hall 1999) with noisy entropies.
//
//  * merit (eq. 4): score(P) = Σ_{j∈P} r(i, j) / sqrt(|P| + Σ_{j≠k∈P} r(j, k)), the sum in the
//    denominator over ordered pairs (Hall's k + k(k-1)·r_ff);
//  * r = symmetrical uncertainty (eq. 5) 2 - 2 H(X, Y)/(H(X) + H(Y)), clamped to [0, 1];
//    target i against parent j uses the parent's buckets: r(i, j) from H(x_i, bkt x_j),
//    H(x_i), H(bkt x_j); between two parents j, k, r is the mean of r(j, k) and r(k, j) (no
//    extra query);
//  * greedy (§3.3): repeatedly add the edge j -> i with the largest merit gain that keeps the
//    graph acyclic and the parent set within its limit (below), until no edge improves the
//    merit by more than kCfsMinimumGain (0.01): a first parent always "improves" an empty set
//    (merit 0), so without a minimum every pair with a sampling- or noise-level correlation
//    (SU ~ 1e-3) would become an edge and dilute the counts of D_P;
//  * limit: Π_{j∈P(i)} |bkt(x_j)| <= maxcost (eq. 6) and θ-usefulness (PrivBayes §4.3) of the
//    table later learned on D_P, counted in noise: configurations × ProjectedCountNoise(k, |x_i|
//    − k) <= n̂_P·ε_p/θ, where k = 2^{H̃(x_i | P)} (clamped to [1, |x_i|]) is the effective
//    number of values per configuration from the noisy conditional entropy. For a child spread
//    over all its values this is PrivBayes's configurations <= n̂_P·ε_p/(θ·|x_i|); for a child
//    that its parent determines (a code and its label, a score and its band) the table is one
//    occupied cell per configuration, whose projected noise is far below |x_i| noise scales,
//    so such a pair fits where the plain rule would refuse it (docs/deniable.md, "Tied columns");
//  * ties: j -> i and i -> j have the same merit when neither is bucketised; the greedy takes
//    the direction whose parent has the smaller noisy entropy (it comes first in σ);
//  * σ: a topological order (Kahn), preferring attributes with the smallest noisy entropy
//    first, counted GIVEN THE PARENTS (the upper bound min_j H̃(x_i | bkt x_j)): copied prefixes
//    then hold the attributes that seeds share most often, which raises the number of plausible
//    seeds (and the pass rate) at no privacy cost, and a child its parent determines adds
//    nothing to the prefix, so it comes right after the parent and is copied with it.
//
// Privacy guarantee
//   Neighbouring: add/remove one row of `data` (D_T).
//   Queries: the m(m+1)-style entropies above (exactly `entropy_queries` of them, each counted
//   once: H(x_i) for all i, H(bkt x_i) for bucketised i, H(x_i, bkt x_j) for ordered pairs,
//   one query per unordered pair when neither is bucketised), each with Laplace noise of scale
//   ΔH/ε_H (eq. 8), ΔH = EntropySensitivity(max(lower - 1, 0)) from a DP lower bound on |D_T|
//   (entropy.h; eq. 10 made one-sided). The bound's share of ε is fixed (row_count_fraction)
//   or chosen from a first, cheap noisy count (kRowCountProbeFraction of ε, sequential
//   composition: the second mechanism's ε is a function of the first's output).
//   Guarantee: (ε, δ) with ε = ε_probe + ε_n + (entropy batch composed by the accountant: the
//   better of sequential and advanced composition), δ = δ_n (+ δ'' if advanced). Valid because,
//   for a neighbouring pair whose smaller side has s rows, the noise is calibrated to ΔH(s)
//   unless the lower bound exceeds s, which has probability <= δ_n under either dataset
//   whatever the probe's value (docs/deniable.md, "Structure learning").
//   Everything else (greedy choices, limits, σ) is post-processing of the noisy entropies and
//   counts. Bucket maps, maxcost and θ are public.
//   Reference: PD paper §3.3, §3.5.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/deniable/entropy.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

struct CfsOptions {
  double epsilon = 1.0;      // whole structure learning
  double delta = 0x1.0p-31;  // δ_n of the row-count lower bound
  // ε_n = fraction · epsilon for the lower bound on |D_T| (eq. 10). 0 = automatic
  // (AutomaticRowCountFraction from a probe count).
  double row_count_fraction = 0;
  std::uint64_t maxcost = 1024;  // eq. (6)
  // θ-usefulness (PrivBayes, Zhang et al. 2017 §4.3) for the tables later learned on D_P:
  // configurations × ProjectedCountNoise(k, |x_i| − k) <= n̂_P·ε_p/θ (and configurations <=
  // maxcost), n̂_P = (noisy |D_T|) × parameter_row_ratio — a function of DP outputs and public
  // settings only. Keeps the expected count of a configuration well above the noise it
  // carries. usefulness_theta = 0 disables it (maxcost alone).
  double usefulness_theta = 0;
  double parameter_epsilon = 0;    // ε_p of one table
  double parameter_row_ratio = 1;  // split_parameters / split_structure
  // bkt() per attribute: empty = identity; else map[code] = bucket (public, data-independent).
  std::vector<std::vector<std::uint32_t>> buckets;
  const std::vector<std::string>* names = nullptr;  // optional, for ledger labels
};

// The share of a child's entropy its parents must explain for CfsEntropies::Determines.
inline constexpr double kDeterminedShare = 0.75;

// The noisy entropies (DP outputs), by attribute index, in bits.
struct CfsEntropies {
  std::vector<double> single;                   // H(x_i)
  std::vector<double> bucketed;                 // H(bkt x_i) (= H(x_i) when not bucketised)
  std::vector<std::vector<double>> pair;        // H(x_i, bkt x_j); 0 on the diagonal
  double noise_scale = 0;                       // Laplace scale of each: ΔH/ε_H
  // An upper bound on H(x_i | bkt x_j for j in parents) from the pair queries:
  // min(H(x_i), min_j max(0, H(x_i, bkt x_j) − H(bkt x_j))) (conditioning never adds entropy).
  double ConditionalEntropy(std::size_t i, const std::vector<int>& parents) const;
  // The parents (nearly) determine x_i: H̃(x_i | P) + noise_scale <= (1 − kDeterminedShare) ·
  // H̃(x_i) — they explain three quarters of its entropy or more, by a margin of one noise
  // scale (so that a low-entropy child does not pass by noise alone). A label given its code,
  // a band given its score.
  bool Determines(std::size_t i, const std::vector<int>& parents) const;
};

struct CfsStructure {
  std::vector<BayesNode> nodes;  // σ order; parents and bucket maps set, no tables
  RowCountBound rows;            // the DP |D_T|
  double row_count_epsilon = 0;  // ε_n of `rows` (+ the probe's, when automatic)
  double entropy_sensitivity = 0;
  std::size_t entropy_queries = 0;
  double epsilon_per_entropy = 0;
  CfsEntropies entropies;
  std::vector<double> merit;  // per node (σ order): noisy CFS merit of its parent set
  // Per node (σ order): 2^{H̃(x_i | P)} when CfsEntropies::Determines(x_i, P) (a
  // (near-)deterministic child), else 0. For ParameterOptions::determined_values.
  std::vector<double> determined_values;
  // Per attribute: the largest number of parent configurations its chosen parent set allowed.
  std::vector<std::uint64_t> configuration_limit;
};

Result<CfsStructure> LearnCfsStructure(const EncodedTable& data, const CfsOptions& options,
                                       PrivacyAccountant& accountant, const std::string& partition,
                                       Rng& rng, Progress& progress);

inline constexpr double kCfsMinimumGain = 0.01;

// Share of the structure ε spent on the probe count that sizes the lower bound's share when
// row_count_fraction = 0.
inline constexpr double kRowCountProbeFraction = 0.01;

// The share f of `epsilon` for the lower bound on |D_T| that minimises the entropy noise scale
// ΔH(ñ − margin(f·ε, δ) − 1) / (1 − kRowCountProbeFraction − f), ñ = the probe's noisy count,
// over f ∈ {0.005, 0.010, ..., 0.5}; ties to the smaller f. Post-processing of ñ. (The
// margin is about ln(1/2δ)/(f·ε) rows: a fixed small f wastes half the rows of a small D_T —
// 0.02 at ε = 0.7 left a bound of 970 for 2,460 rows — and a large f wastes ε on a large one.)
double AutomaticRowCountFraction(std::int64_t probe_count, double epsilon, double delta);

// How many parent configurations a child with `cardinality` values may have when about
// `effective_values` of them occur per configuration: floor(n̂_P·ε_p / (θ ·
// ProjectedCountNoise(k, cardinality − k))), k = effective_values clamped to [1, cardinality],
// never below 1 nor above maxcost; θ <= 0: maxcost. With k = cardinality this is PrivBayes's
// n̂_P·ε_p / (θ·|x|).
std::uint64_t UsefulConfigurations(double parameter_rows, double parameter_epsilon, double theta,
                                   double effective_values, std::uint32_t cardinality,
                                   std::uint64_t maxcost);

// The parent-set limit of the greedy: configurations <= UsefulConfigurations(..., 2^{H̃(x_i |
// P)}, |x_i|, maxcost). theta <= 0: maxcost alone.
struct ParentLimit {
  std::uint64_t maxcost = 1024;
  double parameter_rows = 0;
  double parameter_epsilon = 0;
  double theta = 0;
  std::vector<std::uint32_t> cardinalities;  // |x_i| per attribute
  std::uint64_t Configurations(const CfsEntropies& entropies, std::size_t child,
                               const std::vector<int>& parents) const;
};

// Greedy CFS on given (noisy) entropies — the post-processing half, exposed for tests.
// bucket_counts[j] = |bkt(x_j)|. Returns parents per attribute (each list increasing).
std::vector<std::vector<int>> GreedyCfsParents(const CfsEntropies& entropies,
                                               const std::vector<std::uint32_t>& bucket_counts,
                                               const ParentLimit& limit,
                                               double minimum_gain = kCfsMinimumGain);

// σ from parent lists: Kahn's algorithm, smallest `key` first (e.g. noisy conditional
// entropy), then smallest index.
std::vector<int> TopologicalOrder(const std::vector<std::vector<int>>& parents,
                                  const std::vector<double>& key);

}  // namespace deniable
