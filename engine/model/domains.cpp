// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domains.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "engine/dp/dp_bounds.h"
#include "engine/dp/partition_selection.h"
#include "engine/model/encoded_table.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

// Public coarse ranges for DP bounds when the user declared none (dp/dp_bounds.h).
constexpr double kCoarseNumberLimit = 9.0e15;           // |x| < 2^53: exact integers
constexpr double kCoarseDateTimeMin = -2208988800.0;     // 1900-01-01 00:00:00
constexpr double kCoarseDateTimeMax = 4102444800.0;      // 2100-01-01 00:00:00
// Share of a numeric column's domain budget spent on its bounds (the rest decides whether a
// missing code exists).
constexpr double kBoundsShare = 0.8;

std::string FormatEpsilon(double epsilon) {
  std::ostringstream out;
  out.precision(3);
  out << epsilon;
  return out.str();
}

bool NeedsDpDomain(const ColumnSchema& column) {
  // The existence of a missing code is always decided by DP (the missing count is data), so
  // every modelled column needs some DP domain budget.
  return column.is_modelled();
}

struct ValueCount {
  std::string text;     // category label as released
  double number = 0;    // for numeric categorical columns (sorting and matching)
  std::uint64_t count = 0;
};

// Distinct values of a categorical column with their counts; for numeric types values that
// parse to the same number merge ("1" and "1.0"), and texts that fail to parse count as
// missing (they read as missing everywhere).
std::vector<ValueCount> CategoricalValues(const RawColumn& raw, const ColumnSchema& column,
                                          std::uint64_t& missing) {
  missing = raw.missing_count;
  std::vector<ValueCount> values;
  if (column.is_numeric()) {
    const std::vector<double> parsed = NumericDictionaryValues(raw, column);
    std::map<double, std::size_t> index;
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
      if (std::isnan(parsed[i])) {
        missing += raw.counts[i];
        continue;
      }
      auto [it, inserted] = index.emplace(parsed[i], values.size());
      if (inserted) {
        ValueCount value;
        value.number = parsed[i];
        FormatNumericCell(parsed[i], column, value.text);
        values.push_back(std::move(value));
      }
      values[it->second].count += raw.counts[i];
    }
  } else {
    values.reserve(raw.dictionary.size());
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
      values.push_back(ValueCount{raw.dictionary[i], 0, raw.counts[i]});
    }
  }
  return values;
}

Result<ColumnDomain> BuildCategorical(const RawColumn& raw, const ColumnSchema& column,
                                      double epsilon, double delta,
                                      const DomainOptions& options,
                                      PrivacyAccountant& accountant, Rng& rng) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = true;
  domain.other_label = options.other_label;
  std::uint64_t missing = 0;
  std::vector<ValueCount> values = CategoricalValues(raw, column, missing);

  if (column.public_categories) {
    // Public list: kept in the user's order; values outside it read as missing.
    domain.categories = *column.public_categories;
    std::vector<std::string> listed = domain.categories;
    std::vector<double> listed_numbers;
    if (column.is_numeric()) {
      for (const auto& text : listed) {
        auto number = ParseNumericCell(text, column);
        if (number) listed_numbers.push_back(*number);
      }
      std::sort(listed_numbers.begin(), listed_numbers.end());
    }
    std::sort(listed.begin(), listed.end());
    for (const ValueCount& value : values) {
      const bool inside = column.is_numeric()
          ? std::binary_search(listed_numbers.begin(), listed_numbers.end(), value.number)
          : std::binary_search(listed.begin(), listed.end(), value.text);
      if (!inside) missing += value.count;
    }
    const std::uint64_t counts[1] = {missing};
    auto selected = SelectPartitions(counts, epsilon, delta, accountant,
                                     "missing code of " + column.name, "all", rng);
    if (!selected) return selected.error();
    domain.has_missing = !selected->kept.empty();
    domain.categories_source = DomainSource::kPublic;
    domain.provenance = "categories declared public in the schema; missing code by a DP "
                        "threshold (ε = " + FormatEpsilon(epsilon) + ")";
    return domain;
  }

  // DP partition selection over the values present, missing being one more value.
  std::vector<std::uint64_t> counts;
  counts.reserve(values.size() + 1);
  for (const ValueCount& value : values) counts.push_back(value.count);
  counts.push_back(missing);
  auto selected = SelectPartitions(counts, epsilon, delta, accountant,
                                   "categories of " + column.name + " (partition selection)",
                                   "all", rng);
  if (!selected) return selected.error();
  std::vector<const ValueCount*> kept;
  for (std::uint32_t index : selected->kept) {
    if (index == values.size()) {
      domain.has_missing = true;
    } else {
      kept.push_back(&values[index]);
    }
  }
  // A data-independent order (numeric or byte order), never an order by count.
  if (column.is_numeric()) {
    std::sort(kept.begin(), kept.end(),
              [](const ValueCount* a, const ValueCount* b) { return a->number < b->number; });
  } else {
    std::sort(kept.begin(), kept.end(),
              [](const ValueCount* a, const ValueCount* b) { return a->text < b->text; });
  }
  for (const ValueCount* value : kept) domain.categories.push_back(value->text);
  // Whether any value was dropped is data-dependent, so the `other` code always exists.
  domain.has_other = true;
  domain.categories_source = DomainSource::kDp;
  domain.provenance = "DP partition selection (ε = " + FormatEpsilon(epsilon) + ", δ = " +
                      FormatEpsilon(delta) + "): " + std::to_string(domain.categories.size()) +
                      " values kept; any other value becomes '" + domain.other_label + "'";
  if (domain.cardinality() > kMaxCardinality) {
    return FailedPrecondition("column '" + column.name + "' keeps " +
                              std::to_string(domain.categories.size()) +
                              " distinct values, more than the model supports (65,533); mark "
                              "it as an identifier or ignore it in the schema");
  }
  return domain;
}

Result<ColumnDomain> BuildNumeric(const RawColumn& raw, const ColumnSchema& column,
                                  double epsilon, double delta, const DomainOptions& options,
                                  PrivacyAccountant& accountant, Rng& rng) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = false;
  domain.integer_steps = column.type == DataType::kInteger;
  const std::vector<double> dictionary_values = NumericDictionaryValues(raw, column);
  std::uint64_t missing = raw.missing_count;
  for (std::size_t i = 0; i < dictionary_values.size(); ++i) {
    if (std::isnan(dictionary_values[i])) missing += raw.counts[i];
  }

  double missing_epsilon = epsilon;
  if (column.public_min && column.public_max) {
    domain.lo = *column.public_min;
    domain.hi = *column.public_max;
    domain.categories_source = DomainSource::kPublic;
    domain.provenance = "bounds declared public in the schema";
  } else {
    const double bounds_epsilon = epsilon * kBoundsShare;
    missing_epsilon = epsilon - bounds_epsilon;
    BoundsOptions bounds;
    bounds.epsilon = bounds_epsilon;
    bounds.integer = column.type == DataType::kInteger;
    if (column.type == DataType::kDateTime) {
      bounds.coarse_min = kCoarseDateTimeMin;
      bounds.coarse_max = kCoarseDateTimeMax;
    } else {
      bounds.coarse_min = -kCoarseNumberLimit;
      bounds.coarse_max = kCoarseNumberLimit;
    }
    if (column.public_min) bounds.coarse_min = *column.public_min;
    if (column.public_max) bounds.coarse_max = *column.public_max;
    std::vector<double> values;
    values.reserve(raw.num_rows());
    for (std::uint32_t code : raw.codes) {
      if (code != kMissingCode && !std::isnan(dictionary_values[code])) {
        values.push_back(dictionary_values[code]);
      }
    }
    auto range = EstimateBounds(values, bounds, accountant, "bounds of " + column.name, "all",
                                rng);
    if (!range) return range.error();
    domain.lo = column.public_min ? *column.public_min : range->lo;
    domain.hi = column.public_max ? *column.public_max : range->hi;
    domain.categories_source = DomainSource::kDp;
    domain.provenance = "DP bounds (ε = " + FormatEpsilon(bounds_epsilon) +
                        ", quantiles 0.001 and 0.999 inside a public coarse range); values "
                        "outside are clamped into the edge bins";
  }
  if (domain.hi < domain.lo) std::swap(domain.lo, domain.hi);
  int bins = column.bins > 0 ? column.bins : options.default_bins;
  if (domain.integer_steps) {
    domain.lo = std::floor(domain.lo);
    domain.hi = std::ceil(domain.hi);
    bins = static_cast<int>(std::min<double>(bins, domain.hi - domain.lo + 1));
  } else if (!(domain.hi > domain.lo)) {
    bins = 1;
  }
  domain.bins = std::max(bins, 1);

  const std::uint64_t counts[1] = {missing};
  auto selected = SelectPartitions(counts, missing_epsilon, delta, accountant,
                                   "missing code of " + column.name, "all", rng);
  if (!selected) return selected.error();
  domain.has_missing = !selected->kept.empty();
  domain.provenance += "; missing code by a DP threshold (ε = " +
                       FormatEpsilon(missing_epsilon) + ")";
  return domain;
}

}  // namespace

std::vector<int> ModelledColumns(const Schema& schema) {
  std::vector<int> modelled;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (schema.columns[i].is_modelled()) modelled.push_back(static_cast<int>(i));
  }
  return modelled;
}

int ColumnsNeedingDpDomain(const Schema& schema) {
  int count = 0;
  for (const ColumnSchema& column : schema.columns) count += NeedsDpDomain(column) ? 1 : 0;
  return count;
}

Result<std::vector<ColumnDomain>> BuildDomains(const RawTable& table, const Schema& schema,
                                               const DomainOptions& options,
                                               PrivacyAccountant& accountant, Rng& rng,
                                               Progress& progress) {
  if (schema.columns.size() != table.num_columns()) {
    return InvalidArgument("the schema has " + std::to_string(schema.columns.size()) +
                           " columns but the table has " +
                           std::to_string(table.num_columns()));
  }
  if (options.default_bins < 1 || options.default_bins > 10000) {
    return InvalidArgument("bins must be between 1 and 10000 (got " +
                           std::to_string(options.default_bins) + ")");
  }
  const int needing = ColumnsNeedingDpDomain(schema);
  if (needing > 0 && !(std::isfinite(options.epsilon) && options.epsilon > 0)) {
    return InvalidArgument("the domain budget epsilon must be finite and positive (got " +
                           FormatEpsilon(options.epsilon) + ")");
  }
  if (needing > 0 && !(options.delta > 0 && options.delta < 1)) {
    return InvalidArgument("delta must be in (0, 1) (got " + FormatEpsilon(options.delta) +
                           ")");
  }
  const double epsilon_each = needing > 0 ? options.epsilon / needing : 0;
  const double delta_each = needing > 0 ? options.delta / needing : 0;

  std::vector<ColumnDomain> domains;
  const std::vector<int> modelled = ModelledColumns(schema);
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    if (progress.IsCancelled()) return Cancelled("cancelled while building domains");
    progress.Report(static_cast<double>(k) / modelled.size(), "Building private domains");
    const ColumnSchema& column = schema.columns[modelled[k]];
    const RawColumn& raw = table.columns[modelled[k]];
    const bool categorical = column.categorical || column.type == DataType::kString;
    auto domain = categorical
        ? BuildCategorical(raw, column, epsilon_each, delta_each, options, accountant, rng)
        : BuildNumeric(raw, column, epsilon_each, delta_each, options, accountant, rng);
    if (!domain) return domain.error();
    domains.push_back(std::move(domain.value()));
  }
  progress.Report(1.0, "Building private domains");
  return domains;
}

}  // namespace deniable
