// SPDX-License-Identifier: Apache-2.0
// Building each modelled column's domain without leaking: public declarations first, accounted
// DP mechanisms for everything else (issue #2 item 4).
//  * Which values exist at all — the categories of categorical/String columns without a public
//    list, and the "missing" marker of every column — is decided by ONE DP set union over all
//    columns (dp/set_union.h, Policy Laplace): a record spreads a unit weight over its values,
//    rare ones first, so the budget is not divided by the number of columns (the threshold idea
//    of the private adaptive histograms paper, done jointly). Values not kept map to the
//    `other` code; the missing code exists only if enough records are missing.
//  * Numeric / DateTime non-categorical columns: the user's public bounds, else DP bounds
//    (dp/dp_bounds.h) inside a public coarse range; `bins` equal-width bins.
//  * Identifier and ignored columns have no domain (they are not modelled).
// Budget (DomainOptions::epsilon, delta): all of it to the set union when every numeric column
// has public bounds; otherwise 40% to the set union (kSetUnionShare) and 60% split evenly over
// the columns needing DP bounds, each column's share 80% for its bounds (kBoundsShare) and 20%
// for its within-bin detail histogram. Every spend is a ledger entry on partition "all".
#pragma once

#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/domain.h"
#include "engine/schema/schema.h"

namespace deniable {

struct DomainOptions {
  double epsilon = 0.1;  // total for all DP domain facts (0 allowed only if all are public)
  double delta = 1e-9;   // for partition selection
  int default_bins = 20;
  std::string other_label = "Other";
};

// The indices (into schema.columns / table.columns) of the modelled columns, in order. The
// k-th modelled column is attribute k of every EncodedTable and BayesNet.
std::vector<int> ModelledColumns(const Schema& schema);

// How many columns need a DP domain (0 => no domain budget needed).
int ColumnsNeedingDpDomain(const Schema& schema);

// One domain per modelled column (same order as ModelledColumns).
Result<std::vector<ColumnDomain>> BuildDomains(const RawTable& table, const Schema& schema,
                                               const DomainOptions& options,
                                               PrivacyAccountant& accountant, Rng& rng,
                                               Progress& progress);

}  // namespace deniable
