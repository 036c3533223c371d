// SPDX-License-Identifier: Apache-2.0
#include "engine/risk/table_risk.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/dp/validation.h"
#include "engine/risk/disclosure_risk.h"
#include "engine/risk/dirichlet_synthesizer.h"

namespace deniable {
namespace {

using internal::FormatDouble;

Status CheckOptions(const TableRiskOptions& o) {
  if (!(o.max_relative_risk >= 1 && std::isfinite(o.max_relative_risk))) {
    return InvalidArgument("max-rr must be finite and at least 1 (got " +
                           FormatDouble(o.max_relative_risk) + ")");
  }
  if (!(o.max_absolute_risk > 0 && o.max_absolute_risk <= 1)) {
    return InvalidArgument("max-r must be in (0, 1] (got " + FormatDouble(o.max_absolute_risk) +
                           ")");
  }
  if (!(o.max_relative_risk_above >= 1 && std::isfinite(o.max_relative_risk_above))) {
    return InvalidArgument("max-rr-above must be finite and at least 1 (got " +
                           FormatDouble(o.max_relative_risk_above) + ")");
  }
  if (auto s = internal::CheckOpenUnit(o.quantile, "quantile"); !s) return s;
  if (o.prior_points < 1 || o.prior_points > 100000) {
    return InvalidArgument("priors must be between 1 and 100000 points (got " +
                           std::to_string(o.prior_points) + ")");
  }
  for (double epsilon : o.epsilons) {
    if (auto s = internal::CheckPositiveFinite(epsilon, "epsilon"); !s) return s;
  }
  return OkStatus();
}

// The smallest x with P(X ≤ x) ≥ q for X ~ Bin(trials, p), p = e^{log_p}.
std::int64_t BinomialQuantile(std::int64_t trials, double log_p, double log_q, double q) {
  const double p = std::exp(log_p);
  const double mean = static_cast<double>(trials) * p;
  const double sd = std::sqrt(mean * (1 - p));
  // Below mean − 12 sd (and at least 12 sd from it) the mass is < 1e-30: start there.
  std::int64_t x = std::max<std::int64_t>(0, static_cast<std::int64_t>(mean - 12 * sd - 12));
  double cumulative = 0;
  for (; x < trials; ++x) {
    cumulative += std::exp(LogBinomialPmf(x, trials, log_p, log_q));
    if (cumulative >= q) return x;
  }
  return trials;
}

struct Region {
  double max_relative, max_absolute, max_relative_above;
  bool Contains(const RecordRisk& r) const {
    return (r.absolute <= max_absolute && r.relative <= max_relative) ||
           r.relative <= max_relative_above;
  }
};

// The risk of a record whose value v is held by `count` of the `cell` records (itself
// included), under the synthesizer with n_s = cell.
GroupRisk RiskOfGroup(double epsilon, int categories, std::int64_t cell, std::int64_t count,
                      double quantile, const std::vector<double>& priors, const Region& region) {
  const auto synthesizer = DirichletSynthesizer::Create(epsilon, cell, categories).value();
  // Y_j = v: p1 = (count + α)/(cell + Kα); Y_j ≠ v: p0 = (count − 1 + α)/(cell + Kα), the
  // other categories merged (their α's add up to (K − 1)α).
  double lp1, lq1, lp0, lq0;
  synthesizer.LogPredictiveOf(count, cell, lp1, lq1);
  synthesizer.LogPredictiveOf(count - 1, cell, lp0, lq0);
  // Λ(x) is increasing in x (p1 > p0), so the q-quantile of R_j is R_j at the q-quantile of X*_v.
  const std::int64_t x = BinomialQuantile(cell, lp1, lq1, quantile);
  double log_ratio = 0;
  if (x > 0) log_ratio += static_cast<double>(x) * (lp1 - lp0);
  if (cell - x > 0) log_ratio += static_cast<double>(cell - x) * (lq1 - lq0);
  GroupRisk risk;
  risk.log_likelihood_ratio = log_ratio;
  risk.absolute_at_half = RiskFromLogLikelihoodRatio(log_ratio, 0.5).absolute;
  for (double w : priors) {
    const RecordRisk r = RiskFromLogLikelihoodRatio(log_ratio, w);
    if (r.relative > risk.max_relative) {
      risk.max_relative = r.relative;
      if (risk.inside) risk.worst_prior = w;
    }
    if (risk.inside && !region.Contains(r)) {
      risk.inside = false;
      risk.worst_prior = w;
    }
  }
  return risk;
}

}  // namespace

std::vector<double> DefaultRiskEpsilons() {
  return {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
}

Result<TableRiskReport> AnalyseTableRisk(const RawTable& table, const TableRiskOptions& options) {
  NullProgress progress;
  return AnalyseTableRisk(table, options, progress);
}

Result<TableRiskReport> AnalyseTableRisk(const RawTable& table, const TableRiskOptions& options,
                                         Progress& progress) {
  constexpr std::size_t kCheckEvery = std::size_t{1} << 16;
  // The grouping pass is the first tenth of the work, the ε grid the rest.
  constexpr double kGroupingShare = 0.1;
  if (auto s = CheckOptions(options); !s) return s.error();
  const int sensitive = table.ColumnIndex(options.sensitive);
  if (sensitive < 0) {
    return InvalidArgument("sensitive column '" + options.sensitive + "' is not in " +
                           table.source);
  }
  std::vector<const RawColumn*> quasi;
  for (const std::string& name : options.quasi_identifiers) {
    const int index = table.ColumnIndex(name);
    if (index < 0) {
      return InvalidArgument("quasi column '" + name + "' is not in " + table.source);
    }
    if (index == sensitive) {
      return InvalidArgument("quasi column '" + name + "' is the sensitive column");
    }
    quasi.push_back(&table.columns[static_cast<std::size_t>(index)]);
  }
  const RawColumn& values = table.columns[static_cast<std::size_t>(sensitive)];
  // Missing is a category of its own (the synthesizer can release it).
  const std::uint32_t missing_category = static_cast<std::uint32_t>(values.distinct());
  const int categories =
      static_cast<int>(values.distinct()) + (values.missing_count > 0 ? 1 : 0);
  if (categories < 2) {
    return InvalidArgument("sensitive column '" + options.sensitive +
                           "' needs at least 2 distinct values (got " +
                           std::to_string(categories) + ")");
  }
  std::vector<double> epsilons = options.epsilons.empty() ? DefaultRiskEpsilons()
                                                          : options.epsilons;
  std::sort(epsilons.begin(), epsilons.end());
  epsilons.erase(std::unique(epsilons.begin(), epsilons.end()), epsilons.end());

  // Cells and groups in one pass: key = quasi-identifier codes, then the sensitive code.
  TableRiskReport report;
  report.rows = static_cast<std::int64_t>(table.num_rows());
  report.categories = categories;
  std::vector<std::uint32_t> row_group(table.num_rows(), 0);
  std::unordered_map<std::string, std::uint32_t> cell_of_key, group_of_key;
  std::vector<std::int64_t> cell_size;
  std::vector<std::uint32_t> group_cell;
  std::string key;
  for (std::size_t row = 0; row < table.num_rows(); ++row) {
    if (row % kCheckEvery == 0) {
      if (progress.IsCancelled()) return Cancelled("risk analysis cancelled");
      progress.Report(kGroupingShare * static_cast<double>(row) /
                          static_cast<double>(table.num_rows()),
                      "Grouping records into cells");
    }
    key.clear();
    for (const RawColumn* column : quasi) {
      const std::uint32_t code = column->codes[row];
      key.append(reinterpret_cast<const char*>(&code), sizeof code);
    }
    auto [cell_it, new_cell] =
        cell_of_key.try_emplace(key, static_cast<std::uint32_t>(cell_size.size()));
    if (new_cell) cell_size.push_back(0);
    ++cell_size[cell_it->second];
    const std::uint32_t value =
        values.codes[row] == kMissingCode ? missing_category : values.codes[row];
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
    auto [group_it, new_group] =
        group_of_key.try_emplace(key, static_cast<std::uint32_t>(report.groups.size()));
    if (new_group) {
      RiskGroup group;
      for (const RawColumn* column : quasi) {
        const std::uint32_t code = column->codes[row];
        group.cell.push_back(code == kMissingCode ? "" : column->dictionary[code]);
      }
      group.value = value == missing_category ? "" : values.dictionary[value];
      report.groups.push_back(std::move(group));
      group_cell.push_back(cell_it->second);
    }
    ++report.groups[group_it->second].records;
    row_group[row] = group_it->second;
  }
  report.row_group = std::move(row_group);
  report.cells = static_cast<std::int64_t>(cell_size.size());
  for (std::size_t g = 0; g < report.groups.size(); ++g) {
    report.groups[g].cell_records = cell_size[group_cell[g]];
  }

  const std::vector<double> priors = PriorGrid(options.prior_points);
  const Region region{options.max_relative_risk, options.max_absolute_risk,
                      options.max_relative_risk_above};
  for (std::size_t e = 0; e < epsilons.size(); ++e) {
    if (progress.IsCancelled()) return Cancelled("risk analysis cancelled");
    progress.Report(kGroupingShare + (1 - kGroupingShare) * static_cast<double>(e) /
                                         static_cast<double>(epsilons.size()),
                    "Risk of every record per epsilon");
    const double epsilon = epsilons[e];
    EpsilonRisk level;
    level.epsilon = epsilon;
    // Groups with the same (cell size, count) have the same risk.
    std::map<std::pair<std::int64_t, std::int64_t>, GroupRisk> cache;
    for (const RiskGroup& group : report.groups) {
      const auto cache_key = std::make_pair(group.cell_records, group.records);
      auto it = cache.find(cache_key);
      if (it == cache.end()) {
        it = cache.emplace(cache_key, RiskOfGroup(epsilon, categories, group.cell_records,
                                                  group.records, options.quantile, priors,
                                                  region))
                 .first;
      }
      const GroupRisk& risk = it->second;
      level.groups.push_back(risk);
      level.max_relative = std::max(level.max_relative, risk.max_relative);
      level.max_absolute_at_half = std::max(level.max_absolute_at_half, risk.absolute_at_half);
      if (!risk.inside) {
        ++level.groups_outside;
        level.records_outside += group.records;
      }
    }
    if (level.records_outside == 0) report.recommended_epsilon = epsilon;
    report.per_epsilon.push_back(std::move(level));
  }
  progress.Report(1, "Risk of every record per epsilon");
  return report;
}

}  // namespace deniable
