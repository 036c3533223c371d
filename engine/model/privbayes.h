// SPDX-License-Identifier: Apache-2.0
// Learning Bayesian networks with differential privacy for the DataSynthesizer modes:
//   * independent: one noisy histogram per attribute (a network without edges);
//   * correlated:  PrivBayes (Zhang et al., SIGMOD 2014 / TODS 2017), as DataSynthesizer uses it
//                  (`datasynthesizer-fides.txt`): greedy structure with the exponential
//                  mechanism on mutual information, at most `degree` parents per node,
//                  conditional distributions from noisy counts;
//   * random:      uniform tables, no data touched.
//
// Privacy guarantee (details and proofs: engine/model/privbayes.md)
//   Neighbouring: add/remove one record (one row of the EncodedTable).
//   Every function spends exactly the ε it is given (sequential composition of its parts),
//   each part recorded in the accountant on `partition`; ε = 0 parts are not run. Nothing
//   derived from the data leaves except through these mechanisms: the tables returned are
//   post-processing of noisy counts, the structure of exponential-mechanism choices.
//   Public inputs: the cardinalities, the parent bucket maps, kMaxRows, the options.
// Rows are limited to kMaxRows - 1 (public cap; a larger table is refused).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/dependencies.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Public upper bound on the number of rows of any input (row indices are 32-bit). Sensitivities
// that grow with log(n) use it, so that no data-dependent n enters a noise scale.
inline constexpr double kMaxRows = 4294967296.0;  // 2^32

// Bound on the floating-point error of a computed score n·I = f(n) − Σf(c_x) − Σf(c_π) +
// Σf(c_xπ), f(c) = c·log2 c (privbayes.md §2): each f(c) has relative error <= 3u (glibc's
// log2 within 2 ulp, one product), each compensated sum adds <= 3u of its terms
// (core/compensated_sum.h), each sum is at most f(n) (a partition of n), and the three
// combining operations round values of size <= 2f(n); in all <= 27u·f(n) <= 27u·f(kMaxRows)
// < 2^-11 (u = 2^-53, f(2^32) = 2^37). Twice that is used.
inline constexpr double kScoreEvaluationError = 0x1p-10;

// Sensitivity of the structure score u = n·I(X;Π) (bits) under add/remove one record, for the
// scores as COMPUTED: log2(kMaxRows) + 1/ln 2 for the exact scores (derivation in privbayes.md
// §2) plus 2·kScoreEvaluationError, since each of two neighbouring computed scores can be off
// by kScoreEvaluationError (an audit measured up to 2e-8 at 1.5M rows with plain sums).
double MutualInformationScoreSensitivity();

// The structure's score of a family (child X, bucketed parents Π), u(X, Π):
//   kMutualInformation: n·I(X; Π) in bits, DataSynthesizer's choice (its greedy_bayes);
//   kTotalVariation:    n·R(X, Π) = ½ Σ_{x,π} |c_xπ − c_x·c_π / n| in records, PrivBayes's score
//                       R for non-binary domains (Zhang et al., TODS 2017): the L1 distance
//                       between the joint and the product of its marginals, in counts.
// Under add/remove one record n·R moves by less than 2 whatever n (privbayes.md §2b), where
// n·I moves by up to log2(n)+1.44 bits: a strong dependency's score stands about ten times
// further above the mechanism's noise with R (flchain's kappa ↔ flc.grp, COMPAS' age ↔ age_cat).
enum class StructureScore { kMutualInformation, kTotalVariation };

// Bound on the floating-point error of a computed n·R: the sum 2n·(n·R) is exact in 128-bit
// integers (privbayes.md §2b) and the one conversion and division round within 2u·n·R ≤
// 2u·kMaxRows = 2^-20; twice that is used.
inline constexpr double kTotalVariationEvaluationError = 0x1p-19;

// Sensitivity of u = n·R under add/remove one record, for the scores as COMPUTED: 2 for the
// exact scores (privbayes.md §2b) plus 2·kTotalVariationEvaluationError.
double TotalVariationScoreSensitivity();

// The sensitivity of the given score (one of the two above).
double StructureScoreSensitivity(StructureScore score);

struct IndependentOptions {
  double epsilon = 1.0;  // split evenly over the attributes (sequential composition)
  // Share of epsilon for the dependency search (model/dependencies.h): a column that (nearly)
  // determines another generates it, so the pair stays consistent. 0 = columns fully
  // independent (DataSynthesizer's independent attribute mode). What the search does not
  // spend goes to the histograms.
  double dependency_fraction = 0.0;
  // A public (or already released DP) row count. When given, a found pair's mapping is sized
  // (DependencyOptions::rows_estimate: at most 1% of the rows expected to map wrong) and may
  // take up to one histogram's even share of what the search leaves, (1 − share)·ε/m: the
  // derived column's own histogram, which it no longer needs, pays for it. < 0: every mapping
  // at the search's reserve.
  double public_rows = -1;
  // Per attribute, its "Other" code or -1: zeroed below 2 noise scales (LearnConditionals).
  std::vector<std::int64_t> other_codes = {};
  // Optional attribute names for ledger labels ("histogram of age"); indices otherwise.
  const std::vector<std::string>* names = nullptr;
  // Per attribute (may be empty): noisy counts of its codes an earlier step already released
  // (a numeric column's histogram second pass, ColumnDomain::bin_noisy_counts) and their noise
  // variances (0: not measured); combined with the histogram's own noisy counts by inverse
  // variance (post-processing: no privacy cost).
  std::vector<std::vector<double>> prior_counts = {};
  std::vector<std::vector<double>> prior_variances = {};
};

// One noisy histogram per attribute (discrete Laplace, sensitivity 1 per histogram), clamped at
// zero and normalised (all zero: uniform), except attributes that a dependency found by the
// search (dependency_fraction > 0) derives from another: those get a deterministic node. The
// histograms share what the search left, evenly; one ledger entry each on `partition`.
Result<BayesNet> LearnIndependent(const EncodedTable& data, const IndependentOptions& options,
                                  PrivacyAccountant& accountant, const std::string& partition,
                                  Rng& rng, Progress& progress);

struct PrivBayesOptions {
  int degree = 2;                   // k: at most this many parents per node (1..kMaxDegree)
  double epsilon = 1.0;             // total for row count + structure + conditionals
  double structure_fraction = 0.15;  // share of epsilon for the structure (privbayes.md §5)
  // The structure's score (above). R: on the utility suite (15 tables × ε 0.3/1/3, 6 seeds,
  // docs/utility.md stop 28) 11 cells better and none worse than n·I at the same shares.
  StructureScore score = StructureScore::kTotalVariation;
  // Per attribute, the public bucket map used when it is a parent (empty or missing entry =
  // identity); e.g. CoarseBinBuckets() for numeric columns. Never derived from the data.
  std::vector<std::vector<std::uint32_t>> parent_buckets;
  // θ-usefulness (PrivBayes §4.3): parent sets are limited so that each conditional table has
  // at most n̂·ε_cond / (m·θ) cells, n̂ a DP row count. 0 disables the limit (all parent sets of
  // size min(k, |network|), as DataSynthesizer).
  double usefulness_theta = 6.0;  // 8 with n·I before stop 28 (privbayes.md §3)
  // A public (or already released DP) row count for the limit above; < 0: LearnPrivBayes
  // spends kRowCountShare of epsilon on a noisy count.
  double public_rows = -1;
  // Per attribute, its "Other" code or -1 (LearnConditionals); empty = none.
  std::vector<std::int64_t> other_codes = {};
  // Share of epsilon (after the row count) for the dependency search (model/dependencies.h):
  // a column that (nearly) determines another generates it with a deterministic node, placed
  // right after its parent in the network (StructureOptions::forced_parent), where it can still
  // be a parent of later columns. 0 = none (plain PrivBayes).
  double dependency_fraction = 0.0;
  // The search's selection as the range-bounded exponential mechanism (DependencyOptions).
  // Off here: the network links the columns itself, and the sharper selection, which finds more
  // pairs, cost the correlated mode (mplsstops at ε = 1 +9%: found children take no free parent
  // choice; docs/utility.md, stop 30); the plain one is as ε-DP, only less sharp.
  bool dependency_range_bounded = false;
  // Dependencies already found (LearnPrivBayes fills it from the search; a caller may give its
  // own): each child gets its deterministic node after its parent.
  std::vector<Dependency> derived;
  const std::vector<std::string>* names = nullptr;  // optional, for ledger labels
};
inline constexpr int kMaxDegree = 8;
inline constexpr double kRowCountShare = 0.01;

// The correlated mode: [noisy row count (kRowCountShare of ε) when θ > 0 and no public_rows],
// then the greedy structure (structure_fraction of the rest), then the noisy conditional tables
// (the remainder). The ledger totals options.epsilon. Adult at ε = 1, degree 2: mean 2-way TVD
// 0.044 (privbayes.md §5).
// Example:
//   PrivBayesOptions options;
//   options.epsilon = 0.9;
//   options.names = &column_names;
//   auto net = LearnPrivBayes(encoded, options, accountant, "all", rng, progress);
//   if (!net) return net.error();
//   auto rows = SampleNetwork(*net, encoded.cardinalities, 10'000, rng, progress);
Result<BayesNet> LearnPrivBayes(const EncodedTable& data, const PrivBayesOptions& options,
                                PrivacyAccountant& accountant, const std::string& partition,
                                Rng& rng, Progress& progress);

// The two halves of LearnPrivBayes, also used by the plausible-deniability mode ("any
// generative model", PD paper §8) to take PrivBayes's structure.
struct StructureOptions {
  int degree = 2;
  double epsilon = 0.3;  // in total over the m-1 exponential-mechanism steps
  StructureScore score = StructureScore::kMutualInformation;
  std::vector<std::vector<std::uint32_t>> parent_buckets;  // as in PrivBayesOptions
  // Largest conditional table (child values x parent buckets) a candidate may have; 0 = no
  // limit. Must be public or derived from DP outputs only.
  std::uint64_t max_table_cells = 0;
  // Per attribute (empty: none), -1 or the attribute that must be its only parent, at the
  // parent's own codes: a dependency found by the search (dependencies.h). Such a child follows
  // its parent at once, costs no exponential-mechanism choice (the structure's ε is split over
  // the free choices only) and stays available as a parent of later attributes when it is
  // coarser than its parent as a parent (Candidates in privbayes_structure.cpp). Public: an
  // output of the search. Must be acyclic.
  std::vector<int> forced_parent;
  const std::vector<std::string>* names = nullptr;
  unsigned threads = 2;  // for scoring candidates (the result does not depend on it)
};

// Structure only: nodes in order with their parents and bucket maps (no tables). Spends
// `epsilon` in total on the exponential-mechanism steps (one batched ledger entry).
Result<std::vector<BayesNode>> LearnPrivBayesStructure(const EncodedTable& data,
                                                       const StructureOptions& options,
                                                       PrivacyAccountant& accountant,
                                                       const std::string& partition, Rng& rng,
                                                       Progress& progress);
// The same with identity buckets and no table limit (DataSynthesizer's greedy_bayes).
Result<std::vector<BayesNode>> LearnPrivBayesStructure(const EncodedTable& data, int degree,
                                                       double epsilon,
                                                       PrivacyAccountant& accountant,
                                                       const std::string& partition, Rng& rng,
                                                       Progress& progress);

// Noisy conditional tables for a given structure (nodes in order, parents and buckets set; a
// node with parents but neither parent_buckets nor parent_bucket_counts gets identity buckets).
// Spends `epsilon` in total: one ledger entry per table, ε split ∝ sqrt(cells) (privbayes.md
// §4).
// `other_codes` (optional, per attribute, -1 = none): the code standing for "any value outside
// the domain" ("Other"), which often holds nothing; in a marginal (a node without parents) its
// noisy count is zeroed below kZeroBelowScales noise scales like any cell of a conditional
// table (so a binary column whose values were both kept does not write "Other" from noise).
// `fixed` (optional, per attribute): nodes whose tables are given in `structure` (the
// deterministic tables of found dependencies) keep them; they are not noised, not charged and
// take no share of `epsilon`.
Result<BayesNet> LearnConditionals(const EncodedTable& data, std::vector<BayesNode> structure,
                                   double epsilon, PrivacyAccountant& accountant,
                                   const std::string& partition, Rng& rng, Progress& progress,
                                   const std::vector<std::string>* names = nullptr,
                                   const std::vector<std::int64_t>* other_codes = nullptr,
                                   const std::vector<bool>* fixed = nullptr);

// Uniform conditionals over the given cardinalities, no edges (the random mode).
BayesNet UniformNetwork(const std::vector<std::uint32_t>& cardinalities);

// A public, data-independent parent bucket map for a numeric column whose codes are `bins`
// ordered bins followed by `extra` other codes (e.g. missing): adjacent bins are merged into at
// most `buckets` groups of (nearly) equal size; each extra code keeps a bucket of its own.
std::vector<std::uint32_t> CoarseBinBuckets(std::uint32_t bins, std::uint32_t extra,
                                            std::uint32_t buckets);

namespace internal {
// Checks the table's shape and codes; errors name the attribute, row and code.
Status CheckEncodedTable(const EncodedTable& data);
// Checks per-attribute parent bucket maps (sizes match the cardinalities, buckets < 65,535).
Status CheckParentBuckets(const EncodedTable& data,
                          const std::vector<std::vector<std::uint32_t>>& parent_buckets);
// "age" when names has the attribute, "attribute 3" otherwise.
std::string AttributeLabel(int attribute, const std::vector<std::string>* names);
// The structure score u = n·I(child; parents) in bits, identity buckets (exposed for tests of
// its sensitivity bound).
double MutualInformationScore(const EncodedTable& data, int child, const std::vector<int>& parents);
// The structure score u = n·R(child; parents) in records, identity buckets (likewise).
double TotalVariationScore(const EncodedTable& data, int child, const std::vector<int>& parents);
// Records `entry`. If the accountant refuses it only by a floating-point rounding error (its
// running total is rounded up), retries with epsilon_each lowered by up to 64 ulps: the
// mechanism then runs with the smaller, recorded ε (less privacy loss, never more). Returns
// the ε per invocation actually recorded.
Result<double> SpendAllowingRounding(PrivacyAccountant& accountant, LedgerEntry entry);
// a - b rounded down (budget shares must never round up).
double SubtractDown(double a, double b);
// A ledger entry for one count query of L1 sensitivity 1 under discrete Laplace noise.
LedgerEntry CountEntry(std::string label, double epsilon, const std::string& partition,
                       std::string reference);
}  // namespace internal

}  // namespace deniable
