// SPDX-License-Identifier: Apache-2.0
// Building each modelled column's domain without leaking: public declarations first, accounted
// DP mechanisms for everything else (issue #2 item 4).
//  * Categorical or String columns: the user's public category list, else DP partition
//    selection over the values present (dp/partition_selection.h); values not kept map to the
//    `other` code. Missing is treated as one more "value" in the same selection, so the
//    missing code exists only if enough records are missing (DP).
//  * Numeric / DateTime non-categorical columns: the user's public bounds, else DP bounds
//    (dp/dp_bounds.h) inside the public coarse range; `bins` equal-width bins; missing code
//    from a DP count of missing cells (geometric noise) clearing the partition threshold.
//  * Identifier and ignored columns have no domain (they are not modelled).
// The budget for domains (DomainOptions::epsilon, delta) is split evenly over the columns that
// need a DP domain; each spend is one ledger entry on partition "all".
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
