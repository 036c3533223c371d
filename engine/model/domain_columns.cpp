// SPDX-License-Identifier: Apache-2.0
// Which columns get a domain, and of what kind (domains.h): the modelled columns, the ones that
// need a DP domain, a column's lattice step, the default domain options.
#include <cmath>
#include <string_view>
#include <vector>

#include "engine/model/domain_budget.h"
#include "engine/model/domains.h"
#include "engine/schema/geo_pairs.h"

namespace deniable {
namespace {

// Floats written with more decimals than this are modelled on the real line (a lattice of
// 10^-d would leave too few coarse-range bits).
constexpr int kMaxLatticeDecimals = 9;

}  // namespace

DomainOptions DomainOptionsFor(const Schema& schema, double epsilon, double rows) {
  DomainOptions options;
  options.budget = PlanDomainBudget(schema, epsilon, rows, 1.0);
  return options;
}

std::vector<int> ModelledColumns(const Schema& schema) {
  std::vector<int> modelled;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    // A geo pair's longitude column is modelled through its latitude column's attribute.
    if (schema.columns[i].is_modelled() && GeoLatitudeOf(schema, i) < 0) {
      modelled.push_back(static_cast<int>(i));
    }
  }
  return modelled;
}

int ColumnsNeedingDpDomain(const Schema& schema) {
  int count = 0;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    count += DomainNeedOf(schema, i) != DomainNeed::kNone ? 1 : 0;
  }
  return count;
}

double LatticeStepOf(const ColumnSchema& column) {
  switch (column.type) {
    case DataType::kInteger: return 1;
    case DataType::kFloat:
      return column.decimals >= 0 && column.decimals <= kMaxLatticeDecimals
                 ? std::pow(10.0, -column.decimals)
                 : 0;
    case DataType::kDateTime: {
      const std::string_view f = column.datetime_format;
      auto has = [&](std::string_view directive) { return f.find(directive) != f.npos; };
      // Fractions of a second (%f, %3f) are drawn as whole seconds: written with zeros.
      bool fraction = false;  // %f or %Nf
      for (std::size_t i = 0; i + 1 < f.size(); ++i) {
        if (f[i] != '%') continue;
        const std::size_t at = i + 1 < f.size() && f[i + 1] >= '1' && f[i + 1] <= '9' ? i + 2 : i + 1;
        fraction = fraction || (at < f.size() && f[at] == 'f');
        ++i;
      }
      if (has("%S") || has("%T") || fraction) return 1;
      if (has("%M")) return 60;
      if (has("%H") || has("%I")) return 3600;
      return 86400;
    }
    case DataType::kString: return 0;
  }
  return 0;
}

}  // namespace deniable
