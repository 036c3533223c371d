// SPDX-License-Identifier: Apache-2.0
// Building each modelled column's domain without leaking: public declarations first, accounted
// DP mechanisms for everything else (issue #2 item 4, issue #9 items 2–3).
//  * String columns without a public list (other than free text): which values exist at all is
//    decided by ONE DP set union over all columns (dp/set_union.h, Policy Gaussian: a record's
//    unit ℓ2 weight flows to the values it has not yet filled, so the noise grows with
//    √(columns), not with the column count). Values not kept map to the `other` code. The same union decides
//    the "missing" marker of every column that takes part in it (also the String columns with a
//    public list and the free-text columns) — unless the model decides the missing markers
//    (DomainOptions::missing_markers, the marginals mode): then only the columns whose values
//    are learnt take part, and every column keeps a missing code for the model to measure.
//  * Categorical numeric columns (a 0/1 flag, codes 1..16) take part in the same union with
//    their values; a value not kept is encoded as the nearest kept one, so such a column never
//    writes "Other" (typed output).
//  * Other numeric columns (Integer, Float, DateTime) without a public category list: a
//    private adaptive histogram each (histogram/column_histograms.h, improved algorithm,
//    Thm. 3: 2ε_a for the leaves, then ε_2 for their noisy counts), inside the column's public
//    bounds or the public coarse range, on the column's lattice (integers, its decimals, its
//    date-time resolution). The leaves become the model's bins and the within-bin detail
//    (model/numeric_bins.h): spikes and tails keep their shape and there is no "Other" code, so
//    an Integer column only ever writes integers. The missing marker comes from the same second
//    pass (a cell of its own: parallel composition).
//  * Free-text String columns (domain_budget.h IsFreeText: many distinct values): a private
//    character trie
//    (LearnStringHistogram): the strings frequent enough to survive verbatim are the
//    categories; a rarer string is encoded as the kept string sharing its longest prefix, so
//    rare strings vanish instead of becoming "Other".
//  * Geo pairs (schema/geo_pairs.h): one domain for the two columns, on the latitude column's
//    attribute (model/geo_domain.h): a private quadtree over the points, its cells merged into
//    regions (model/geo_regions.h); the longitude column is not an attribute of its own.
//  * Identifier and ignored columns have no domain (they are not modelled).
// The budget (DomainOptions::budget) comes from model/domain_budget.h. A column whose domain is
// public costs nothing; with no set union, every union column keeps a missing code.
// Every spend is a ledger entry on partition "all".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/domain.h"
#include "engine/model/domain_budget.h"
#include "engine/schema/schema.h"

namespace deniable {

// Share of a numeric column's ε for the adaptive stage (which spends twice its ε, Thm. 3); the
// rest pays the second-pass counts.
inline constexpr double kAdaptiveShare = 0.5;
// The marginals mode (Gaussian second pass, no public bounds): a numeric column's magnitude
// groups (the power-of-two buckets of its coarse range) are also counted directly, with
// discrete Gaussian noise at this share of the second pass's ρ (σ_g = √2·σ), on top of the
// column's budget. A group's leaves' sum has noise σ·√leaves, so a dense or split group was
// hard to tell from noise: the demo's capital-loss (460 of 10,000 rows in [1024, 2048), four
// leaves) failed the range's seed test and came out all zeros, and its empty magnitudes,
// split by the partition's noise, drew phantom records. The range rule and the leaf weights
// now use each group's inverse-variance combination of both (model/numeric_bins.h rules 1,
// 2). Measured in docs/utility.md (stop 27).
inline constexpr double kGroupCountShare = 0.5;
// Whether a numeric histogram column's magnitude groups are counted (given a Gaussian second
// pass): not a date-time (its groups are calendar decades) and no public bounds (no coarse
// range to find the data in).
bool CountsMagnitudeGroups(const ColumnSchema& column);

namespace internal {
// ε or σ in three significant digits, for provenance and forecast texts.
std::string FormatEpsilon(double epsilon);
// The first level of a coarse-range decomposition a numeric leaf [first, right) lies in
// (numeric_bins.h, rule 1): sign × (1000 + bit length − 1) of the lattice coordinate (step > 0)
// or of the midpoint on the real line; 0 for the zero bucket. Ordered as the values are.
std::int64_t MagnitudeGroup(double first, double right, double step);
}  // namespace internal

struct DomainOptions {
  DomainBudget budget;   // ε of the set union and of each numeric / free-text column
  double delta = 1e-9;   // for the set union
  int default_bins = 20; // most bins of a numeric column (a column's own `bins` wins)
  std::string other_label = "Other";
  // Who decides the missing codes (domain_budget.h). kModel: every column but the numeric
  // histogram and geo ones keeps a missing code, and only the columns whose values are learnt
  // take part in the set union; must match the budget's plan.
  MissingMarkers missing_markers = MissingMarkers::kSetUnion;
  // The marginals mode: the set union is an approximate-zCDP entry of the model's zCDP block
  // (dp/set_union.md, "Under zCDP"), taking budget.union_zcdp_fraction of the ρ the accountant
  // has left once the columns' pure-ε domains are spent; `delta` is then its total-variation
  // coupling. Needs kModel missing markers and the accountant's zCDP δ set (SetZcdpDelta).
  bool union_in_zcdp_block = false;
  // The marginals mode: a numeric or date-time histogram's second pass (and its missing count)
  // draws discrete Gaussian noise of σ = 1/ε₂, a ρ = ε₂²/2 zCDP entry of the block (what the
  // ε₂-DP Laplace pass would cost there once folded in), so its thresholds need about half the
  // records (numeric_bins.h NoiseThreshold). Needs the accountant's zCDP δ set.
  bool gaussian_counts = false;
};

// The marginals mode's δ split when the set union shares the model's zCDP block: the union's
// total-variation coupling gets kZcdpUnionDeltaShare of δ divided by e^ε, the block's
// conversion δ_z the rest (privacy_accountant.md, "Approximate zCDP entries").
inline constexpr double kZcdpUnionDeltaShare = 0.1;
struct ZcdpUnionPlan {
  double delta_z = 0;   // the block's conversion δ
  double coupling = 0;  // the union's total-variation coupling τ
};
ZcdpUnionPlan PlanZcdpUnion(double epsilon, double delta);

// A budget that spends all of `epsilon` on the domains, split between the set union and the
// columns as the rule does (for tests and benchmarks that want a domain budget without a noisy
// row count): PlanDomainBudget with `rows` as n̂ and a domain share of 1.
DomainOptions DomainOptionsFor(const Schema& schema, double epsilon, double rows);

// The indices (into schema.columns / table.columns) of the modelled columns, in order. The
// k-th modelled column is attribute k of every EncodedTable and BayesNet. A geo pair's
// longitude column is left out: the pair is its latitude column's attribute.
std::vector<int> ModelledColumns(const Schema& schema);

// How many columns need a DP domain (0 => no domain budget needed).
int ColumnsNeedingDpDomain(const Schema& schema);

// The lattice step of a numeric column's values: 1 for Integer, 10^-d for a Float written with
// d <= 9 decimals, the format's resolution in seconds for a DateTime (1, 60, 3600 or 86400),
// 0 for anything else (real values).
double LatticeStepOf(const ColumnSchema& column);

// ---- Before a run: what a budget will keep (for the owner's eyes: inspect, the Columns step) --
struct ColumnForecast {
  std::string column;             // a geo pair: its latitude column (need kGeo)
  DomainNeed need = DomainNeed::kNone;
  double epsilon = 0;             // the column's own ε (histogram, trie) or the union's
  std::uint64_t merge_below = 0;  // union: values with fewer rows are likely merged (0: all kept)
  std::uint64_t values = 0;       // union: distinct values; likely_kept of them survive
  std::uint64_t likely_kept = 0;
  std::int64_t rows_per_leaf = 0; // histogram / trie: the adaptive stage's threshold b
  // Numeric (not date-time) histogram without public bounds: the fewest rows a power-of-two magnitude group needs to
  // seed the range on its own (numeric_bins.h rule 1: kSeedFalsePositive against the noise
  // of one leaf, and of the group's own count where it is measured), so a cluster apart from
  // the rest (a mostly-zero column's non-zero values) is kept. 0: not applicable.
  std::int64_t cluster_rows = 0;
  // The owner's own data (for their eyes only, as the merged values): power-of-two ranges that
  // hold rows but are likely lost by that rule — below cluster_rows alone and in every window
  // of up to kSeedWindow neighbouring ranges, and not next to a range that is kept. A lost
  // range's values are clamped into the edge of the kept range.
  struct LostRange {
    double lo = 0, hi = 0;  // the range's first and last values (hi: its lattice's last point)
    std::uint64_t rows = 0;
  };
  std::vector<LostRange> likely_lost;
  std::string summary;            // one line, e.g. "values with fewer than about 120 rows ..."
};
struct DomainForecast {
  DomainBudget budget;
  // The marginals mode (kModel markers): the set union's ρ in the zCDP block, as the run
  // plans it; 0 otherwise.
  double union_rho = 0;
  std::vector<ColumnForecast> columns;  // one per modelled column (ModelledColumns order)
};
// The budget the run would plan (with the exact row count standing for its noisy one) and, per
// column, what it would keep: the set union's forecast (ForecastSetUnion, probabilities over
// random orders) and the adaptive stages' thresholds. Reads the real data: for the owner only,
// never part of a release; spends nothing.
// `progress` (optional) is polled between stages: a cancel returns kCancelled.
Result<DomainForecast> ForecastDomains(const RawTable& table, const Schema& schema,
                                       double epsilon, double delta,
                                       std::optional<double> domain_fraction,
                                       const Progress* progress = nullptr,
                                       MissingMarkers markers = MissingMarkers::kSetUnion);

// One domain per modelled column (same order as ModelledColumns). A declared geo pair that is
// not valid (GeoPairProblem) is refused (kFailedPrecondition naming the columns).
Result<std::vector<ColumnDomain>> BuildDomains(const RawTable& table, const Schema& schema,
                                               const DomainOptions& options,
                                               PrivacyAccountant& accountant, Rng& rng,
                                               Progress& progress);

}  // namespace deniable
