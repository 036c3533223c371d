// SPDX-License-Identifier: Apache-2.0
// Options of the plausibly deniable synthesis mode (issue 3; Bindschaedler, Shokri, Gunter,
// "Plausible Deniability for Privacy-Preserving Data Synthesis", extended version, in
// ../shared/papers/plausible-deniability-synthesis-extended.txt). Every default is documented
// here and in docs/deniable.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/core/result.h"

namespace deniable {

// How the generative model's structure (σ and the parent sets) is learned.
enum class DeniableStructure {
  kCfs,        // §3.3: CFS merit with noisy symmetrical uncertainty (the paper's learner)
  kPrivBayes,  // §8 "any generative model": PrivBayes's structure (engine/model/privbayes.h)
  kMarginals,  // §3.2 baseline: no edges (every attribute from its noisy marginal)
};
const char* DeniableStructureName(DeniableStructure structure);  // "cfs", "privbayes", ...

struct DeniableOptions {
  // --- Privacy test (§2) ---
  int k = 50;          // at least k plausible seeds (Definition 1); paper §6.1: 50
  double gamma = 4.0;  // plausible seeds' probabilities within a factor γ > 1; paper: 4
  // ω = number of re-sampled attributes (§3.2), drawn per candidate uniformly from
  // [omega_min, omega_max]; equal values = fixed ω. 0/0 = automatic: the paper's ω ∈R [5, 11]
  // for its m = 11 attributes (§6.1), scaled to m: [round(5m/11), m] (adult, m = 15: [7, 15]).
  int omega_min = 0;
  int omega_max = 0;
  double epsilon0 = 1.0;            // Privacy Test 2's threshold noise Lap(1/ε0); paper: 1
  bool deterministic_test = false;  // Privacy Test 1: (k, γ)-plausible deniability, NO DP
  // δ of the per-record guarantee of Theorem 1: t is the largest integer < k with
  // e^{-ε0 (k - t)} <= record_delta. Default 2^-30, the paper's "δ at most 2^-30" (§6.1).
  double record_delta = 0x1.0p-30;
  // Probability φ that an attempt outputs ⊥ without looking at the data (see
  // docs/deniable.md "Why a failure floor"): it makes the ⊥ output of an attempt DP, which
  // composing over attempts needs. < 0 = automatic: the smallest φ for which ⊥ costs no more
  // than a released record (about 1% at the paper's parameters). Ignored by the deterministic
  // test.
  double fail_floor = -1.0;

  // --- Generative model (§3) ---
  DeniableStructure structure = DeniableStructure::kCfs;
  // (ε, δ) of the model. D_T and D_P are disjoint, so structure learning (on D_T) and
  // parameter learning (on D_P) each get the whole model_epsilon (parallel composition, §3.5).
  double model_epsilon = 1.0;
  // Probability that the DP lower bound on |D_T| (eq. 10) is too high, which would make the
  // entropy sensitivity (eq. 9) too small; charged as δ of the structure learning. 2^-31.
  double structure_delta = 0x1.0p-31;
  // Share of the structure ε spent on the DP lower bound of |D_T| (eq. 10); the rest goes to
  // the entropies. 0 = automatic: 1% on a first noisy count, from which the share that
  // minimises the entropy noise is chosen (cfs_structure.h, AutomaticRowCountFraction). A fixed
  // share wastes either rows (the bound's margin, ~ln(1/2δ)/ε_n, is a large part of a small
  // D_T) or ε (on a large one).
  double row_count_fraction = 0;
  // eq. (6): each attribute's parent configurations (product of bucket counts) <= maxcost.
  std::uint64_t maxcost = 1024;
  // θ-usefulness (PrivBayes §4.3), on top of maxcost: a child's parent configurations times the
  // noise one configuration's counts carry (about |x| noise scales for a child spread over its
  // |x| values, far less for a child its parents determine) must stay below n̂_P·ε_p/θ, n̂_P a
  // DP estimate of |D_P| and ε_p the ε of one parameter table, so that noisy counts are not
  // mostly noise (cfs_structure.h). PrivBayes's default θ = 4. 0 = off (maxcost alone, as in
  // the paper, which had 280k rows in D_P).
  double usefulness_theta = 4.0;
  // bkt() of eq. (7) for parents. 0 (default) = none: a parent's values are its domain codes
  // (numeric columns are already cut into the domain's bins, §3.3: "if the attribute is
  // continuous, it becomes discrete"). >= 2: numeric columns with more bins than this are
  // coarsened into this many groups of adjacent bins (public: CoarseBinBuckets). Categorical
  // codes are never merged: their order carries no meaning, and merging two codes that
  // determine different values of a child (a code and its label) breaks the pair.
  // DeniableStructure::kPrivBayes with 0 keeps its former parents: every attribute with more
  // than 8 codes coarsened into 8 groups (its table limit counts every cell alike).
  std::uint32_t bucket_count = 0;
  // Dirichlet prior hyper-parameter α per cell (eq. 11-13), >= 0. 0 = automatic: 1/|x_i|, one
  // pseudo-record per configuration spread uniformly (α = 1 per cell put |x_i| − 1
  // pseudo-records on the wrong values of a deterministic configuration), and 1 in a table
  // whose noisy counts are mostly noise (parameter_learning.h).
  double dirichlet_alpha = 0;
  int privbayes_degree = 2;  // parents per node for DeniableStructure::kPrivBayes

  // --- Data split (§3, §6.1) --- Each input row goes to D_T, D_P or D_S independently with
  // these probabilities (a Poisson split: what Theorem 4's amplification needs). Paper: about
  // 21% / 21% / 58% (280k / 280k / 735k rows of ACS13). Must sum to 1.
  double split_structure = 0.21;
  double split_parameters = 0.21;
  double split_seeds = 0.58;

  // --- Release ---
  // Records to release; 0 = as many as the input has rows, which reveals the input's size: the
  // pipeline (run_job.cpp) always passes the user's explicit count.
  std::size_t records = 0;
  // Cap T on candidate attempts, fixed before the run (data-independent); the whole release
  // is accounted as T runs of Mechanism 1. 0 = automatic: max(20 × records, 100,000).
  std::uint64_t max_candidates = 0;
  unsigned threads = 0;  // 0 = hardware concurrency; results do not depend on it
  // When true (default) the synthesis is charged to the accountant on partition "D_S" (the
  // whole-release guarantee over T attempts); when false only the per-record guarantee holds
  // and the summary says so.
  bool charge_release_to_budget = true;
  // Theorem 1 (and the failure output's bound, docs/deniable.md §6) need |D_S| >= k. Refusing
  // on the exact size would be a data-dependent decision outside the ledger, so a charged run
  // decides on a DP lower bound of |D_S| (discrete Laplace with this ε, sensitivity 1; the
  // bound exceeds |D_S| with probability <= this δ), spent on "D_S" as part of the synthesis.
  // With the defaults the bound is |D_S| minus 40 rows, give or take the noise (a few rows);
  // its ε is small beside the T attempts' (at least 100,000 by default).
  double seed_count_epsilon = 0.5;
  double seed_count_delta = 1e-9;

  // Checks every field (not the ones that need the data, e.g. ω <= m). Messages name the
  // parameter and its value.
  Status Validate() const;
};

// ω range after resolving the 0/0 default for m attributes; errors name omega and m.
struct OmegaRange {
  int min = 0;
  int max = 0;
  int width() const { return max - min + 1; }
};
Result<OmegaRange> ResolveOmega(const DeniableOptions& options, int attributes);

// Parses the CLI's / GUI's text forms into `options`:
//   omega: "9" (fixed) or "5-11" (uniform range); errors name the text.
//   split: "0.21,0.21,0.58" (D_T, D_P, D_S); must sum to 1.
Status ParseOmegaSpec(const std::string& text, DeniableOptions& options);
Status ParseSplitSpec(const std::string& text, DeniableOptions& options);

// T for a run releasing `records` records (max_candidates or its automatic value).
std::uint64_t ResolveCandidateCap(const DeniableOptions& options, std::size_t records);

}  // namespace deniable
