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
//    graph acyclic and Π_{j∈P(i)} |bkt(x_j)| <= maxcost (eq. 6), until no edge improves the
//    merit by more than kCfsMinimumGain (0.01): a first parent always "improves" an empty set
//    (merit 0), so without a minimum every pair with a sampling- or noise-level correlation
//    (SU ~ 1e-3) would become an edge and dilute the counts of D_P;
//  * σ: a topological order (Kahn), preferring attributes with the smallest noisy entropy
//    first: copied prefixes then hold the attributes that seeds share most often, which raises
//    the number of plausible seeds (and the pass rate) at no privacy cost.
//
// Privacy guarantee
//   Neighbouring: add/remove one row of `data` (D_T).
//   Queries: the m(m+1)-style entropies above (exactly `entropy_queries` of them, each counted
//   once: H(x_i) for all i, H(bkt x_i) for bucketised i, H(x_i, bkt x_j) for ordered pairs,
//   one query per unordered pair when neither is bucketised), each with Laplace noise of scale
//   ΔH/ε_H (eq. 8), ΔH = EntropySensitivity(max(lower - 1, 0)) from a DP lower bound on |D_T|
//   (entropy.h; eq. 10 made one-sided).
//   Guarantee: (ε, δ) with ε = ε_n + (entropy batch composed by the accountant: the better of
//   sequential and advanced composition), δ = δ_n (+ δ'' if advanced). Valid because, for a
//   neighbouring pair whose smaller side has s rows, the noise is calibrated to ΔH(s) unless
//   the lower bound exceeds s, which has probability <= δ_n under either dataset
//   (docs/deniable.md, "Structure learning").
//   Everything else (greedy choices, σ) is post-processing. Bucket maps and maxcost are public.
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
  double epsilon = 1.0;              // whole structure learning
  double delta = 0x1.0p-31;          // δ_n of the row-count lower bound
  double row_count_fraction = 0.02;  // ε_n = fraction · epsilon
  std::uint64_t maxcost = 1024;      // eq. (6)
  // θ-usefulness (PrivBayes, Zhang et al. 2017 §4.3) for the tables later learned on D_P:
  // target i may have at most max(1, ⌊n̂_P·ε_p / (θ·|x_i|)⌋) parent configurations (and at
  // most maxcost), where n̂_P = (noisy |D_T|) × parameter_row_ratio — a function of DP outputs
  // and public settings only. Keeps the expected count per cell well above the noise scale
  // 1/ε_p. usefulness_theta = 0 disables it (maxcost alone).
  double usefulness_theta = 0;
  double parameter_epsilon = 0;    // ε_p of one table
  double parameter_row_ratio = 1;  // split_parameters / split_structure
  // bkt() per attribute: empty = identity; else map[code] = bucket (public, data-independent).
  std::vector<std::vector<std::uint32_t>> buckets;
  const std::vector<std::string>* names = nullptr;  // optional, for ledger labels
};

struct CfsStructure {
  std::vector<BayesNode> nodes;  // σ order; parents and bucket maps set, no tables
  RowCountBound rows;            // the DP |D_T|
  double entropy_sensitivity = 0;
  std::size_t entropy_queries = 0;
  double epsilon_per_entropy = 0;
  std::vector<double> merit;  // per node (σ order): noisy CFS merit of its parent set
  std::vector<std::uint64_t> configuration_limit;  // per attribute: the limit that applied
};

Result<CfsStructure> LearnCfsStructure(const EncodedTable& data, const CfsOptions& options,
                                       PrivacyAccountant& accountant, const std::string& partition,
                                       Rng& rng, Progress& progress);

inline constexpr double kCfsMinimumGain = 0.01;

// Greedy CFS on given (noisy) entropies — the post-processing half, exposed for tests.
// h[i] = H(x_i), hb[i] = H(bkt x_i), hj[i][j] = H(x_i, bkt x_j); bucket_counts[j] = |bkt(x_j)|;
// limits[i] = the largest number of parent configurations target i may have.
// Returns parents per attribute (each list increasing).
std::vector<std::vector<int>> GreedyCfsParents(const std::vector<double>& h,
                                               const std::vector<double>& hb,
                                               const std::vector<std::vector<double>>& hj,
                                               const std::vector<std::uint32_t>& bucket_counts,
                                               const std::vector<std::uint64_t>& limits,
                                               double minimum_gain = kCfsMinimumGain);

// The θ-usefulness limit on parent configurations for a child with `cardinality` values
// (see CfsOptions), never below 1 nor above maxcost.
std::uint64_t UsefulConfigurations(double parameter_rows, double parameter_epsilon, double theta,
                                   std::uint32_t cardinality, std::uint64_t maxcost);

// σ from parent lists: Kahn's algorithm, smallest `key` first (e.g. noisy entropy or
// cardinality), then smallest index.
std::vector<int> TopologicalOrder(const std::vector<std::vector<int>>& parents,
                                  const std::vector<double>& key);

}  // namespace deniable
