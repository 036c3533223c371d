// SPDX-License-Identifier: Apache-2.0
// Building each modelled column's domain without leaking: public declarations first, accounted
// DP mechanisms for everything else (issue #2 item 4, issue #9 items 2–3).
//  * String columns without a public list (other than free text): which values exist at all is
//    decided by ONE DP set union over all columns (dp/set_union.h, Policy Gaussian: a record's
//    unit ℓ2 weight flows to the values it has not yet filled, so the noise grows with
//    √(columns), not with the column count). Values not kept map to the `other` code. The same union decides
//    the "missing" marker of every column that takes part in it (also the String columns with a
//    public list and the free-text columns).
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
//  * Identifier and ignored columns have no domain (they are not modelled).
// The budget (DomainOptions::budget) comes from model/domain_budget.h. A column whose domain is
// public costs nothing; with no set union, every union column keeps a missing code.
// Every spend is a ledger entry on partition "all".
#pragma once

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

struct DomainOptions {
  DomainBudget budget;   // ε of the set union and of each numeric / free-text column
  double delta = 1e-9;   // for the set union
  int default_bins = 20; // most bins of a numeric column (a column's own `bins` wins)
  std::string other_label = "Other";
};

// A budget that spends all of `epsilon` on the domains, split between the set union and the
// columns as the rule does (for tests and benchmarks that want a domain budget without a noisy
// row count): PlanDomainBudget with `rows` as n̂ and a domain share of 1.
DomainOptions DomainOptionsFor(const Schema& schema, double epsilon, double rows);

// The indices (into schema.columns / table.columns) of the modelled columns, in order. The
// k-th modelled column is attribute k of every EncodedTable and BayesNet.
std::vector<int> ModelledColumns(const Schema& schema);

// How many columns need a DP domain (0 => no domain budget needed).
int ColumnsNeedingDpDomain(const Schema& schema);

// The lattice step of a numeric column's values: 1 for Integer, 10^-d for a Float written with
// d <= 9 decimals, the format's resolution in seconds for a DateTime (1, 60, 3600 or 86400),
// 0 for anything else (real values).
double LatticeStepOf(const ColumnSchema& column);

// One domain per modelled column (same order as ModelledColumns).
Result<std::vector<ColumnDomain>> BuildDomains(const RawTable& table, const Schema& schema,
                                               const DomainOptions& options,
                                               PrivacyAccountant& accountant, Rng& rng,
                                               Progress& progress);

}  // namespace deniable
