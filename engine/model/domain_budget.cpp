// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domain_budget.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/dp/privacy_accountant.h"
#include "engine/schema/geo_pairs.h"

namespace deniable {

bool IsFreeText(const ColumnSchema& column) {
  if (column.type != DataType::kString || column.categorical) return false;
  const std::uint64_t values = column.stats.rows - column.stats.missing;
  return column.stats.distinct >= kFreeTextMinDistinct &&
         static_cast<double>(column.stats.distinct) >= kFreeTextDistinctShare * static_cast<double>(values);
}

DomainNeed DomainNeedOf(const ColumnSchema& column) {
  if (!column.is_modelled()) return DomainNeed::kNone;
  if (column.is_numeric()) {
    if (column.public_categories) return DomainNeed::kNone;
    return column.categorical ? DomainNeed::kSetUnion : DomainNeed::kHistogram;
  }
  if (column.public_categories) return DomainNeed::kNone;
  return IsFreeText(column) ? DomainNeed::kTrie : DomainNeed::kSetUnion;
}

DomainNeed DomainNeedOf(const Schema& schema, std::size_t index) {
  const ColumnSchema& column = schema.columns[index];
  if (!column.is_modelled()) return DomainNeed::kNone;
  if (!column.geo_longitude.empty() && GeoPairProblem(schema, index).empty()) {
    return DomainNeed::kGeo;
  }
  if (GeoLatitudeOf(schema, index) >= 0) return DomainNeed::kNone;
  return DomainNeedOf(column);
}

DomainBudget PlanDomainBudget(const Schema& schema, double epsilon, double noisy_rows,
                              std::optional<double> fixed_fraction, MissingMarkers markers) {
  DomainBudget budget;
  int modelled = 0;  // attributes: a geo pair is one
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (!schema.columns[i].is_modelled() || GeoLatitudeOf(schema, i) >= 0) continue;
    ++modelled;
    switch (DomainNeedOf(schema, i)) {
      case DomainNeed::kSetUnion: ++budget.union_columns; break;
      case DomainNeed::kHistogram: ++budget.histogram_columns; break;
      case DomainNeed::kTrie: ++budget.trie_columns; break;
      case DomainNeed::kGeo: ++budget.geo_columns; break;
      case DomainNeed::kNone: break;
    }
  }
  // Shares of ε by the rule (see the header).
  const double rows = std::max(noisy_rows, 1.0);
  double union_share = 0;
  if (budget.union_columns > 0) {
    // The union's groups: every attribute but the numeric histogram ones and the geo pairs
    // (their missing markers come from their own second pass); only the columns whose values
    // it learns when the model decides the missing markers.
    const int groups = markers == MissingMarkers::kModel
                           ? budget.union_columns
                           : modelled - budget.histogram_columns - budget.geo_columns;
    // The floor never asks more than kSmallTableKeptShare of a small table's rows: a
    // 1,000-row table must keep categories of 50 rows, not of 300.
    const double kept_rows =
        std::max(kKeptShare * rows, std::min(kMinKeptRows, kSmallTableKeptShare * rows));
    const double wanted = kUnionConstant * std::sqrt(static_cast<double>(groups)) / kept_rows /
                          epsilon;
    union_share = std::clamp(wanted, kMinUnionShare, kMaxUnionShare);
  }
  const int per_column_parts =
      budget.histogram_columns + budget.trie_columns + kGeoPairParts * budget.geo_columns;
  double column_share = per_column_parts > 0
                            ? std::min(kNumericShareEach * per_column_parts, kMaxNumericShare)
                            : 0.0;
  double total_share = union_share + column_share;
  if (total_share > kMaxDomainShare) {
    const double scale = kMaxDomainShare / total_share;
    union_share *= scale;
    column_share *= scale;
    total_share = kMaxDomainShare;
  }
  std::ostringstream rule;
  rule.precision(3);
  if (fixed_fraction && total_share > 0) {
    const double scale = *fixed_fraction / total_share;
    union_share *= scale;
    column_share *= scale;
    rule << "domain share " << *fixed_fraction << " of ε (set by the user), split as the rule does";
  } else if (fixed_fraction) {
    rule << "every domain is public: no domain budget";
  } else {
    rule << "domain share " << total_share << " of ε by the rule: set union "
         << union_share << " (" << budget.union_columns << " categorical of " << modelled
         << " columns, n̂ = " << std::llround(rows) << "), " << per_column_parts
         << (budget.geo_columns > 0 ? " numeric/text/geo" : " numeric/text") << " columns "
         << column_share;
  }
  if (union_share > 0) {
    const double model_share = std::max(0.0, 1.0 - union_share - column_share);
    budget.union_zcdp_fraction = union_share / (union_share + model_share);
    if (markers == MissingMarkers::kModel) {
      // The marginals mode: the union's share is spent as ρ inside the model's zCDP block.
      rule << "; the set union takes " << budget.union_zcdp_fraction
           << " of the zCDP block it shares with the model";
    }
  }
  budget.rule = rule.str();
  // Rounded down so that the parts never add up to more than the share (privacy_accountant.h).
  budget.union_epsilon = ShareOf(epsilon, union_share);
  if (per_column_parts > 0) {
    const double each = EvenShare(ShareOf(epsilon, column_share), per_column_parts);
    budget.histogram_epsilon = budget.histogram_columns > 0 ? each : 0;
    budget.trie_epsilon = budget.trie_columns > 0 ? each : 0;
    budget.geo_epsilon = budget.geo_columns > 0 ? each * kGeoPairParts : 0;
  }
  return budget;
}

}  // namespace deniable
