// SPDX-License-Identifier: Apache-2.0
// How much of ε the domains get, by a rule over public facts only: the total ε and δ, a DP
// row count n̂, the schema (which columns need a DP domain and of which kind). Never from the
// data itself, and never tuned to one table: the same rule for every input (docs/utility.md
// shows it on every shared table at several ε).
//
// The parts of a domain budget:
//  * the categorical set union (dp/set_union.h, Policy Gaussian): the values of String
//    columns without a public list (other than free text), and the "missing" marker of every modelled
//    column, decided jointly. The rule aims to keep every value held by a share φ = kKeptShare
//    of the rows: with the Gaussian union a value held by c records survives when c/√(m/3)
//    clears the threshold plus two noise scales, about 53/ε_u at δ = 1e-9 (m columns in the
//    union; a record's unit ℓ2 weight spreads over the items it has not yet filled — about a
//    third of them on the tables measured), so ε_u = kUnionConstant·√m / (φ·n̂), kept within
//    [kMinUnionShare, kMaxUnionShare] of ε. (On the 5,000-row, 30-column composite table the
//    formula asks 0.67 for φ = 5%, where the union's forecast needs 0.65.) φ = 1.5%, but never
//    below kMinKeptRows rows (or kSmallTableKeptShare of the rows, when that is fewer): below a few hundred rows a value is within the noise of the
//    model's counts anyway, and a smaller target only takes ε from the model. Measured on the
//    utility suite (8 tables × independent/correlated × ε 0.3, 1; 4 seeds; sum of the mean
//    2-way TVDs): φ = 3% scores 5.08, 2% 4.99, 1.5% 4.90, 1.5% with at least 300 rows 4.81 —
//    a long-tailed column (a 73-value age written as text) keeps its tail (adult_missing
//    0.087 → 0.060 at ε = 1) and the small tables keep their model's ε (flchain 0.118,
//    compas 0.096, the 10,000-row demo 0.11 where 1.5% alone gave 0.141 / 0.119 / 0.14).
//  * the numeric columns that are not categorical (Integer, Float, DateTime without a public
//    category list; categorical ones take part in the union): a private adaptive histogram each (histogram/), kNumericShareEach of ε per column, at most
//    kMaxNumericShare of ε in all;
//  * free-text String columns (IsFreeText): a character trie each, like numeric columns;
//  * geo pairs (schema/geo_pairs.h): a private quadtree each, with kGeoPairParts numeric
//    columns' shares (kNumericShareEach each) for the pair: it is one attribute, and the
//    quadtree's adaptive stage and second pass cost what a numeric column's do.
// Columns with public domains cost nothing; when every domain is public the domain budget is
// zero (numeric columns with public bounds then get equal-width bins without within-bin detail).
#pragma once

#include <optional>
#include <string>

#include "engine/core/result.h"
#include "engine/schema/schema.h"

namespace deniable {

inline constexpr double kKeptShare = 0.015;
inline constexpr double kMinKeptRows = 300;
inline constexpr double kSmallTableKeptShare = 0.05;
inline constexpr double kUnionConstant = 30.6;
inline constexpr double kMinUnionShare = 0.12;
inline constexpr double kMaxUnionShare = 0.7;
inline constexpr double kNumericShareEach = 0.045;
inline constexpr double kMaxNumericShare = 0.3;
inline constexpr double kMaxDomainShare = 0.8;
// Numeric shares a geo pair's quadtree gets. One: the pair is one attribute. (Measured on
// mplsstops at ε = 1, correlated: two shares, what its two columns cost as numeric columns,
// bring the 16×16 TVD of (lat, long) from 0.158 to 0.126; see docs/adaptive-histograms.md.)
inline constexpr int kGeoPairParts = 1;

// Free text: a String column (not categorical) with at least kFreeTextMinDistinct distinct
// values, at least kFreeTextDistinctShare of its non-missing cells (the schema's inference
// facts, reviewed by the owner like its types). Such a column would put one never-filling item
// per record into the set union, so it gets a trie of its own instead; any other String column
// (a 41-country or 87-neighbourhood column) takes part in the union, where its frequent values
// cost far less than in a trie of its own.
inline constexpr std::uint64_t kFreeTextMinDistinct = 1000;
inline constexpr double kFreeTextDistinctShare = 0.1;
bool IsFreeText(const ColumnSchema& column);

// Who decides whether a column has a "missing" code. kSetUnion: the set union, one marker item
// per column that is not a numeric histogram or geo column (those read it from their own second
// pass). kModel: the model's own noisy 1-way marginals (the marginals mode: every column gets a
// missing code and AIM/MST drop it when its noisy count is below 3σ, marginals/measure.h
// CompressDomains), so only the columns that need their values learnt take part in the union
// and its noise grows with √(those columns), not √(all columns): a table whose category lists
// are mostly declared public no longer pays a union for its missing markers.
enum class MissingMarkers { kSetUnion, kModel };

// What a column needs from the domain budget.
enum class DomainNeed {
  kNone,       // not modelled, or a public domain and nothing else to learn
  kSetUnion,   // String or categorical numeric values (and missing marker): the set union
  kHistogram,  // numeric: a private adaptive histogram (bins and within-bin detail)
  kTrie,       // free-text String (IsFreeText): frequent strings by a private character trie
  kGeo,        // a geo pair's latitude column: the pair's private quadtree (model/geo_regions.h)
};
// The need of a column on its own (geo pairs aside).
DomainNeed DomainNeedOf(const ColumnSchema& column);
// The need of column `index` in its schema: kGeo for the latitude column of a valid geo pair,
// kNone for its longitude column (not an attribute of its own), else DomainNeedOf(column).
// A declared pair that is not valid counts as its two columns (BuildDomains refuses it).
DomainNeed DomainNeedOf(const Schema& schema, std::size_t index);

struct DomainBudget {
  double union_epsilon = 0;      // the set union (0: none run; missing codes always present)
  double histogram_epsilon = 0;  // per numeric column (adaptive stage 2ε_a plus second pass)
  double trie_epsilon = 0;       // per free-text column
  double geo_epsilon = 0;        // per geo pair (quadtree adaptive stage plus second pass)
  // The union's share of a zCDP block it shares with the model (the marginals mode): its ε
  // share over its and the model's ε shares, union / (union + 1 − total share). A ρ split in
  // the rule's proportions; the block as a whole converts far better than the two apart.
  double union_zcdp_fraction = 0;
  int union_columns = 0, histogram_columns = 0, trie_columns = 0, geo_columns = 0;
  double total() const {
    return union_epsilon + histogram_epsilon * histogram_columns + trie_epsilon * trie_columns +
           geo_epsilon * geo_columns;
  }
  std::string rule;  // one line for the ledger and the GUI: the rule and its inputs
};

// The rule above. `fixed_fraction` (the user's --domain-fraction) replaces the rule's total
// share, split between the parts in the rule's proportions. epsilon > 0, noisy_rows >= 0.
DomainBudget PlanDomainBudget(const Schema& schema, double epsilon, double noisy_rows,
                              std::optional<double> fixed_fraction,
                              MissingMarkers markers = MissingMarkers::kSetUnion);

}  // namespace deniable
