// SPDX-License-Identifier: Apache-2.0
// DP parameter learning of the plausible-deniability model (§3.4): for every attribute, the
// counts n_{i,l}^c of (parent configuration c, value l) in D_P get discrete Laplace noise,
// ñ = n + DLap(1/ε_p) (eq. 14 before its clamp), are post-processed (below), and each
// configuration's distribution is then SAMPLED once from the Dirichlet posterior Dir(α + ñ)
// (eq. 11-12) with the injected generator (SecureRng in releases). All tables are learned up
// front (maxcost bounds the configurations), so the model is a plain BayesNet for the
// description file.
//
// Post-processing of a table's noisy counts (ChooseTableRegime, from the table's own noisy
// total — a DP output — and its public noise scale b):
//  * noise-dominated (fewer than b records per cell): eq. (14) as in the paper, ñ = max(0, ·),
//    with a uniform prior α = 1 per cell: the counts say little, and the clamped noise plus the
//    prior keep the distribution flat rather than on a few noise peaks (penguins: 72 rows in
//    D_P);
//  * otherwise each configuration's counts are projected onto the non-negative vectors with
//    the same noisy total (ProjectNoisyCounts; eq. 14's max(0, ·) is the projection onto the
//    non-negative vectors alone), and the prior is α = 1/|x_i| per cell, one pseudo-record per
//    configuration. Why (docs/deniable.md, "Tied columns"): clamping leaves every empty cell
//    about half a noise scale, so a configuration with K empty cells carries about K·b/2
//    pseudo-records of pure noise, and α = 1 adds K more. A deterministic table (a code and its
//    label: one occupied cell per configuration) is almost all empty cells; at D_P's sizes
//    that is a large share of each configuration (education given education-num on adult: 13
//    empty cells of b ≈ 12 against ~700 records). The projection subtracts a common τ >= 0
//    from the positive cells until they sum to the noisy total (unbiased; the clamped total
//    is biased up by the empty cells), which removes most of it and leaves dense
//    configurations, whose total already matches, untouched;
//  * a child its parents (nearly) determine (ParameterOptions::determined_values, from the
//    structure learner's noisy entropies) has, in addition, every noisy count below
//    EmptyCellThreshold dropped: such a table is almost all empty cells, and this keeps about
//    half a noise-only cell in the whole table.
//
// Privacy guarantee
//   Neighbouring: add/remove one row of `data` (D_P).
//   Sensitivity: one table's count vector changes by 1 in L1 (the added record lands in
//   exactly one cell); the m tables together by m.
//   Guarantee: table i is ε_i-DP (GeometricMechanism, sensitivity 1) and the tables compose to
//   at most `epsilon`, whichever of two allocations is better: equal shares as one batch entry
//   composed by the accountant with advanced composition (§3.5: advanced over the m
//   attributes) when that gives every table more than ε/m; otherwise shares ∝ sqrt(cells of
//   the table) (PrivBayes §4.4: minimises the total noise), one sequential entry per table.
//   Everything after the noise (the regime, clamping or projection, the threshold, the prior,
//   the Dirichlet draw) is post-processing of the noisy counts and public quantities (ε_i,
//   cells, the DP entropies behind determined_values). Public inputs: structure, bucket maps.
//   Sampling: exact discrete Laplace (dp/secure_sampling.h); Dirichlet via dirichlet.h.
//   Reference: PD paper eq. (11)-(14), §3.5.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

struct ParameterOptions {
  double epsilon = 1.0;  // all m tables together
  // Prior pseudo-count per cell (>= 0); 0 = automatic: 1 in a noise-dominated table, else
  // 1/|x_i| (one pseudo-record per configuration).
  double dirichlet_alpha = 0;
  const std::vector<std::string>* names = nullptr;  // optional, for ledger labels
  // Per node (structure order), optional: > 0 for a child its parents (nearly) determine, the
  // effective number of values per configuration (CfsStructure::determined_values); 0 or
  // missing = no such knowledge. In such a table almost every cell is empty, so a noisy count
  // below EmptyCellThreshold is taken for noise and dropped after the projection.
  std::vector<double> determined_values;
};

// `structure`: nodes in σ order with parents and bucket maps (tables ignored). Returns the
// network with every table filled. Cancellable per node.
Result<BayesNet> LearnDirichletParameters(
    const EncodedTable& data, std::vector<BayesNode> structure, const ParameterOptions& options,
    PrivacyAccountant& accountant, const std::string& partition, Rng& rng, Progress& progress);

// How a table's noisy counts are post-processed (see the top of this file): kSignal when the
// noisy total of all its counts reaches b records per cell (b = noise_scale), else
// kNoiseDominated. A function of DP outputs and public quantities only.
enum class TableRegime { kSignal, kNoiseDominated };
TableRegime ChooseTableRegime(std::span<const std::int64_t> noisy_counts, double noise_scale);

// The Euclidean projection of one configuration's noisy counts onto the non-negative vectors
// with the same total S = Σ noisy (Duchi et al. 2008; "Norm-Sub" in Wang et al., NDSS 2020):
// out_v = max(0, noisy_v − τ) with the τ >= 0 that makes Σ out = S; all zero when S <= 0.
// τ = 0 (plain clamping, eq. 14) when no count is negative. out.size() == noisy.size().
void ProjectNoisyCounts(std::span<const std::int64_t> noisy, std::span<double> out);

// The count below which a noisy count of a (near-)deterministic table is dropped: the level the
// noise of an empty cell exceeds with probability about 1/(2·empty_cells), so that about half
// a noise-only cell survives in the whole table: b·ln(max(2, empty_cells)) (Pr[DLap(b) > τ] ≈
// e^{−τ/b}/2). empty_cells = configurations × (|x_i| − effective values).
double EmptyCellThreshold(double noise_scale, double empty_cells);

// The expected L1 error, in noise scales b, of one configuration's projected counts when
// `occupied` of its values hold records (well above b) and `empty` hold none: each occupied
// cell errs by about b; the empty cells add about min(empty/2, sqrt(2·empty) + occupied/2) —
// the first term is clamping's b/2 per empty cell, the second the projection's (the noisy
// total's spread sqrt(2·cells)·b shifts τ). Monte-Carlo means are 0.82–1.16 times it over
// occupied 1..16, empty 0..60 (parameter_learning_statistical_test.cpp). With no empty value
// it is `occupied`: PrivBayes's θ-usefulness counts every cell as one noise scale.
double ProjectedCountNoise(double occupied, double empty);

}  // namespace deniable
