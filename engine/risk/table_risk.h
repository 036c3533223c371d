// SPDX-License-Identifier: Apache-2.0
// Record-level disclosure risk of a real table under the posterior-predictive synthesizer
// (McClure & Reiter 2012, §4): the owner picks a sensitive categorical attribute and the
// quasi-identifier columns whose value combinations form the cells; each cell's sensitive
// values are released by the Dirichlet synthesizer with n_s = the cell's size. For every record
// and every intruder prior w on a grid, R_j and RR_j; a record is acceptable when every w keeps
// (RR_j, R_j) inside the region; the recommendation is the largest ε on a grid whose records
// are all acceptable.
//
// The intruder (paper §2.2): knows D_{-j} (so the cells and their sizes), the synthesizer, and
// asks "is Y_j = v?" from the released count X*_v of v in j's cell. For two categories this is
// the paper's R_j (eq. 5) exactly; for more it is the one-value view of the release (the other
// categories merged; exact for that intruder, a full-release intruder may learn more — see
// risk/README.md). The release is random: R_j is reported at the q-quantile of the release
// (default 0.95: with probability ≥ 95% the release gives the intruder at most this), exact
// because R_j is increasing in X*_v.
//
// Records with the same (cell, value) share their risk: the work is per group, not per record.
// Everything returned is derived from the real data: for the data owner's eyes only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"

namespace deniable {

struct TableRiskOptions {
  std::string sensitive = {};                  // column name
  std::vector<std::string> quasi_identifiers = {};  // column names; none = one cell
  std::vector<double> epsilons = {};           // empty = DefaultRiskEpsilons()
  int prior_points = 1000;                     // w_i = i/(points + 1) (Figs. 3–4)
  // Acceptable region (§4): RR ≤ max_relative_risk while R ≤ max_absolute_risk; above
  // max_absolute_risk only RR ≤ max_relative_risk_above ("the prior explains the high R").
  double max_relative_risk = 10;
  double max_absolute_risk = 0.1;
  double max_relative_risk_above = 1.05;
  double quantile = 0.95;                      // of the release's randomness, in (0, 1)
};

std::vector<double> DefaultRiskEpsilons();  // 0.01 … 1000, a 1-2-5 grid

struct GroupRisk {
  // log Λ at the release quantile: R_j at any prior w is RiskFromLogLikelihoodRatio(this, w)
  // (disclosure_risk.h), so a plot can draw the record's whole (R_j, RR_j) curve over w.
  double log_likelihood_ratio = 0;
  double absolute_at_half = 0;  // R_j at w = 0.5
  double max_relative = 0;      // max over the prior grid of RR_j
  double worst_prior = 0;       // the w of the first violation, else of max_relative
  bool inside = true;
};

struct EpsilonRisk {
  double epsilon = 0;
  std::int64_t records_outside = 0;
  std::int64_t groups_outside = 0;
  double max_relative = 0;       // over records and priors
  double max_absolute_at_half = 0;
  std::vector<GroupRisk> groups;  // indexed like TableRiskReport::groups
};

// One (cell, sensitive value): `records` records share it.
struct RiskGroup {
  std::vector<std::string> cell;  // the quasi-identifiers' texts ("" for missing)
  std::string value;              // the sensitive text ("" for missing)
  std::int64_t records = 0;
  std::int64_t cell_records = 0;
};

struct TableRiskReport {
  std::int64_t rows = 0;
  std::int64_t cells = 0;
  int categories = 0;
  std::vector<RiskGroup> groups;
  std::vector<std::uint32_t> row_group;  // row → index into groups
  std::vector<EpsilonRisk> per_epsilon;  // in the order of the options' grid, sorted ascending
  std::optional<double> recommended_epsilon;  // none when even the smallest ε fails
};

// kInvalidArgument naming the option (unknown column, bad region or grid). With `progress`:
// reports the grouping pass and each ε, and returns kCancelled when it is cancelled (polled
// every 64K rows and per ε).
Result<TableRiskReport> AnalyseTableRisk(const RawTable& table, const TableRiskOptions& options);
Result<TableRiskReport> AnalyseTableRisk(const RawTable& table, const TableRiskOptions& options,
                                         Progress& progress);

}  // namespace deniable
