// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domains.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "engine/dp/dp_bounds.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/dp/set_union.h"
#include "engine/model/encoded_table.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

// Public coarse ranges for DP bounds when the user declared none (dp/dp_bounds.h).
constexpr double kCoarseNumberLimit = 9.0e15;           // |x| < 2^53: exact integers
constexpr double kCoarseDateTimeMin = -2208988800.0;     // 1900-01-01 00:00:00
constexpr double kCoarseDateTimeMax = 4102444800.0;      // 2100-01-01 00:00:00
// Share of the domain budget for the set union when the table has numeric columns (the rest
// goes to their bounds and within-bin detail). Tuned on adult.csv at ε = 1 (docs/utility.md).
constexpr double kSetUnionShare = 0.4;
// Share of a numeric column's budget for its bounds (the rest for the within-bin detail), when
// its bounds are not public. Clamped tails cost more utility than a coarser detail histogram.
constexpr double kBoundsShare = 0.8;

std::string FormatEpsilon(double epsilon) {
  std::ostringstream out;
  out.precision(3);
  out << epsilon;
  return out.str();
}

bool NeedsDpDomain(const ColumnSchema& column) {
  // The existence of a missing code is always decided by DP (the missing count is data), so
  // every modelled column takes part in the set union.
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

// How one modelled column takes part in the DP set union: its items are its values (when the
// category list is not public) and its "missing" marker.
struct ColumnItems {
  std::vector<ValueCount> values;            // categorical columns without a public list
  std::vector<std::uint32_t> item_of_entry;  // per dictionary entry: item index or kNoItem
  std::uint32_t missing_item = 0;            // index of the "missing" item
  std::uint32_t items = 0;                   // number of item indices in this group
};

bool IsCategorical(const ColumnSchema& column) {
  return column.categorical || column.type == DataType::kString;
}

// Items of one column. For a public category list, values outside the list read as missing;
// for numeric columns, unparsable cells read as missing.
ColumnItems MakeItems(const RawColumn& raw, const ColumnSchema& column) {
  ColumnItems items;
  items.item_of_entry.assign(raw.dictionary.size(), kNoItem);
  if (IsCategorical(column) && !column.public_categories) {
    std::uint64_t missing = 0;
    items.values = CategoricalValues(raw, column, missing);
    items.missing_item = static_cast<std::uint32_t>(items.values.size());
    items.items = items.missing_item + 1;
    // Map dictionary entries to value items (numeric categoricals merge by value).
    if (column.is_numeric()) {
      const std::vector<double> parsed = NumericDictionaryValues(raw, column);
      std::map<double, std::uint32_t> index;
      for (std::uint32_t i = 0; i < items.values.size(); ++i) index[items.values[i].number] = i;
      for (std::size_t e = 0; e < parsed.size(); ++e) {
        items.item_of_entry[e] = std::isnan(parsed[e]) ? items.missing_item : index[parsed[e]];
      }
    } else {
      for (std::size_t e = 0; e < raw.dictionary.size(); ++e) {
        items.item_of_entry[e] = static_cast<std::uint32_t>(e);
      }
    }
    return items;
  }
  items.missing_item = 0;
  items.items = 1;
  if (IsCategorical(column)) {
    std::vector<std::string> listed = *column.public_categories;
    std::sort(listed.begin(), listed.end());
    std::vector<double> listed_numbers;
    if (column.is_numeric()) {
      for (const auto& text : listed) {
        if (auto number = ParseNumericCell(text, column)) listed_numbers.push_back(*number);
      }
      std::sort(listed_numbers.begin(), listed_numbers.end());
    }
    const std::vector<double> parsed =
        column.is_numeric() ? NumericDictionaryValues(raw, column) : std::vector<double>();
    for (std::size_t e = 0; e < raw.dictionary.size(); ++e) {
      const bool inside = column.is_numeric()
          ? !std::isnan(parsed[e]) &&
                std::binary_search(listed_numbers.begin(), listed_numbers.end(), parsed[e])
          : std::binary_search(listed.begin(), listed.end(), raw.dictionary[e]);
      if (!inside) items.item_of_entry[e] = 0;
    }
  } else {
    const std::vector<double> parsed = NumericDictionaryValues(raw, column);
    for (std::size_t e = 0; e < parsed.size(); ++e) {
      if (std::isnan(parsed[e])) items.item_of_entry[e] = 0;
    }
  }
  return items;
}

bool Contains(const std::vector<std::uint32_t>& sorted, std::uint32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

ColumnDomain CategoricalDomain(const ColumnSchema& column, const ColumnItems& items,
                               const std::vector<std::uint32_t>& kept,
                               const std::string& selection, const DomainOptions& options) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = true;
  domain.other_label = options.other_label;
  domain.has_missing = Contains(kept, items.missing_item);
  if (column.public_categories) {
    domain.categories = *column.public_categories;  // the user's order
    domain.categories_source = DomainSource::kPublic;
    domain.provenance = "categories declared public in the schema; missing code from " + selection;
    return domain;
  }
  std::vector<const ValueCount*> values;
  for (std::uint32_t item : kept) {
    if (item != items.missing_item) values.push_back(&items.values[item]);
  }
  // A data-independent order (numeric or byte order), never an order by count.
  if (column.is_numeric()) {
    std::sort(values.begin(), values.end(),
              [](const ValueCount* a, const ValueCount* b) { return a->number < b->number; });
  } else {
    std::sort(values.begin(), values.end(),
              [](const ValueCount* a, const ValueCount* b) { return a->text < b->text; });
  }
  for (const ValueCount* value : values) domain.categories.push_back(value->text);
  // Whether any value was dropped is data-dependent, so the `other` code always exists.
  domain.has_other = true;
  domain.categories_source = DomainSource::kDp;
  domain.provenance = selection + ": " + std::to_string(domain.categories.size()) +
                      " values kept; any other value becomes '" + domain.other_label + "'";
  return domain;
}

// The within-bin detail of a numeric column: a DP histogram over leaves that subdivide each
// bin (one per lattice point when the domain has at most kMaxDetailLeaves of them, else
// kLeavesPerBin equal parts per bin) with the GeometricMechanism (sensitivity 1: one value per
// record), so that decoding reproduces spikes (hours-per-week = 40, capital-gain = 0) instead of
// spreading them uniformly over a bin.
constexpr double kMaxDetailLeaves = 4096;
constexpr int kLeavesPerBin = 32;

Status LearnLeafWeights(const std::vector<double>& values, ColumnDomain& domain, double epsilon,
                        PrivacyAccountant& accountant, Rng& rng) {
  auto mechanism = GeometricMechanism::Create(epsilon, 1);
  if (!mechanism) return mechanism.error();
  LedgerEntry entry;
  entry.label = "within-bin detail of " + domain.name;
  entry.mechanism = "discrete Laplace histogram";
  entry.partition = "all";
  entry.reference = "model/domains.h (within-bin detail)";
  entry.epsilon_each = epsilon;
  entry.sensitivity = 1;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  std::vector<double> leaf_edges;
  const double points = domain.PointsIn(domain.edges.front(), domain.edges.back());
  if (domain.on_lattice() && points <= kMaxDetailLeaves) {
    const double first = domain.FirstPointIndex(domain.edges.front());
    for (double k = 0; k <= points; ++k) leaf_edges.push_back(domain.PointValue(first + k));
  } else {
    for (int bin = 0; bin < domain.bins; ++bin) {
      const double left = domain.edges[bin], right = domain.edges[bin + 1];
      for (int part = 0; part < kLeavesPerBin; ++part) {
        double edge = left + (right - left) * part / kLeavesPerBin;
        if (domain.on_lattice()) edge = domain.PointValue(domain.FirstPointIndex(edge));
        if (leaf_edges.empty() || edge > leaf_edges.back()) leaf_edges.push_back(edge);
      }
    }
    leaf_edges.push_back(domain.edges.back());
  }
  const std::size_t leaves = leaf_edges.size() - 1;
  std::vector<std::int64_t> counts(leaves, 0);
  for (double v : values) {
    const auto at = std::upper_bound(leaf_edges.begin() + 1, leaf_edges.end() - 1, v);
    ++counts[static_cast<std::size_t>(at - (leaf_edges.begin() + 1))];
  }
  // Post-processing: negative counts are impossible, and a pseudo-count of half a noise scale
  // per leaf keeps sparse leaves (whose counts are mostly noise) close to uniform, while
  // spikes far above the noise keep their weight.
  const double pseudo_count = mechanism->scale() / 2;
  std::vector<double> weights(leaves, 0.0);
  for (std::size_t i = 0; i < leaves; ++i) {
    const auto noisy = static_cast<double>(mechanism->AddNoise(counts[i], rng));
    weights[i] = std::max(noisy, 0.0) + pseudo_count;
  }
  return domain.SetLeaves(std::move(leaf_edges), std::move(weights));
}

Result<ColumnDomain> NumericDomain(const RawColumn& raw, const ColumnSchema& column,
                                   const std::vector<std::uint32_t>& kept, double bounds_epsilon,
                                   double detail_epsilon, const std::string& selection,
                                   const DomainOptions& options, PrivacyAccountant& accountant,
                                   Rng& rng) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = false;
  const double step = column.type == DataType::kInteger ? 1 : 0;
  domain.has_missing = Contains(kept, 0);
  if (column.public_min && column.public_max) {
    domain.lo = *column.public_min;
    domain.hi = *column.public_max;
    domain.categories_source = DomainSource::kPublic;
    domain.provenance = "bounds declared public in the schema";
  }
  const std::vector<double> dictionary_values = NumericDictionaryValues(raw, column);
  std::vector<double> values;
  values.reserve(raw.num_rows());
  for (std::uint32_t code : raw.codes) {
    if (code != kMissingCode && !std::isnan(dictionary_values[code])) {
      values.push_back(dictionary_values[code]);
    }
  }
  if (!(column.public_min && column.public_max)) {
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
    auto range = EstimateBounds(values, bounds, accountant, "bounds of " + column.name, "all",
                                rng);
    if (!range) return range.error();
    if (!range->reliable) {
      return FailedPrecondition(
          "column '" + column.name + "': too few values to estimate its range privately at "
          "this ε (ε = " + FormatEpsilon(bounds_epsilon) + " for its bounds: no magnitude of its "
          "DP histogram stood out from the noise). Declare public bounds for it (schema "
          "\"public\": {\"min\": ..., \"max\": ...}, or Public bounds on the Columns step), mark "
          "it categorical or ignore, or raise ε");
    }
    domain.lo = column.public_min ? *column.public_min : range->lo;
    domain.hi = column.public_max ? *column.public_max : range->hi;
    domain.categories_source = DomainSource::kDp;
    domain.provenance = "DP bounds (ε = " + FormatEpsilon(bounds_epsilon) +
                        ": a thresholded histogram inside a public coarse range); values "
                        "outside are clamped into the edge bins";
  }
  if (domain.hi < domain.lo) std::swap(domain.lo, domain.hi);
  int bins = column.bins > 0 ? column.bins : options.default_bins;
  if (step > 0) {
    domain.lo = std::floor(domain.lo);
    domain.hi = std::ceil(domain.hi);
    bins = static_cast<int>(std::min<double>(bins, domain.hi - domain.lo + 1));
  } else if (!(domain.hi > domain.lo)) {
    bins = 1;
  }
  domain.SetEqualWidth(domain.lo, domain.hi, std::max(bins, 1), step);
  if (detail_epsilon > 0) {
    if (Status s = LearnLeafWeights(values, domain, detail_epsilon, accountant, rng); !s) {
      return s.error();
    }
    domain.provenance += "; values inside bins drawn from a DP histogram (ε = " +
                         FormatEpsilon(detail_epsilon) + ")";
  }
  domain.provenance += "; missing code from " + selection;
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
  const std::vector<int> modelled = ModelledColumns(schema);
  if (modelled.empty()) return std::vector<ColumnDomain>{};
  if (!(std::isfinite(options.epsilon) && options.epsilon > 0)) {
    return InvalidArgument("the domain budget epsilon must be finite and positive (got " +
                           FormatEpsilon(options.epsilon) + ")");
  }
  if (!(options.delta > 0 && options.delta < 1)) {
    return InvalidArgument("delta must be in (0, 1) (got " + FormatEpsilon(options.delta) + ")");
  }
  // Budget: the set union (categories and missing markers of every column, jointly) and, for
  // each numeric column, its within-bin detail and (without public bounds) its DP bounds.
  int numeric_columns = 0;
  for (int index : modelled) numeric_columns += IsCategorical(schema.columns[index]) ? 0 : 1;
  // Shares rounded down by the accountant's helpers, so that the spends never add up to more
  // than options.epsilon.
  const double set_union_epsilon =
      numeric_columns > 0 ? ShareOf(options.epsilon, kSetUnionShare) : options.epsilon;
  const double numeric_epsilon =
      numeric_columns > 0
          ? EvenShare(ShareOf(options.epsilon, 1.0 - kSetUnionShare), numeric_columns)
          : 0;

  // 1. DP set union over all modelled columns.
  std::vector<ColumnItems> items;
  SetUnionInput input;
  input.records = table.num_rows();
  for (int index : modelled) {
    if (progress.IsCancelled()) return Cancelled("cancelled while building domains");
    const RawColumn& raw = table.columns[index];
    items.push_back(MakeItems(raw, schema.columns[index]));
    const ColumnItems& column_items = items.back();
    std::vector<std::uint32_t> values(raw.num_rows(), kNoItem);
    for (std::size_t r = 0; r < values.size(); ++r) {
      const std::uint32_t code = raw.codes[r];
      values[r] = code == kMissingCode ? column_items.missing_item
                                       : column_items.item_of_entry[code];
    }
    input.values.push_back(std::move(values));
    input.value_counts.push_back(column_items.items);
  }
  SetUnionOptions set_union;
  set_union.epsilon = set_union_epsilon;
  set_union.delta = options.delta;
  SubProgress union_progress(progress, 0.0, 0.6);
  auto selected = DpSetUnion(input, set_union, accountant,
                             "categories and missing markers of all columns", "all", rng,
                             union_progress);
  if (!selected) return selected.error();
  input = SetUnionInput{};  // free the per-record items
  const std::string selection = "the DP set union over all columns (ε = " +
                                FormatEpsilon(set_union_epsilon) + ", δ = " +
                                FormatEpsilon(options.delta) + ")";

  // 2. Domains, with DP bounds where needed.
  std::vector<ColumnDomain> domains;
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    if (progress.IsCancelled()) return Cancelled("cancelled while building domains");
    progress.Report(0.6 + 0.4 * static_cast<double>(k) / modelled.size(),
                    "Building private domains");
    const ColumnSchema& column = schema.columns[modelled[k]];
    const std::vector<std::uint32_t>& kept = selected->kept[k];
    if (IsCategorical(column)) {
      domains.push_back(CategoricalDomain(column, items[k], kept, selection, options));
    } else {
      const bool public_bounds = column.public_min && column.public_max;
      const double bounds_epsilon = public_bounds ? 0 : ShareOf(numeric_epsilon, kBoundsShare);
      const double detail_epsilon =
          public_bounds ? numeric_epsilon : ShareOf(numeric_epsilon, 1.0 - kBoundsShare);
      auto domain = NumericDomain(table.columns[modelled[k]], column, kept, bounds_epsilon,
                                  detail_epsilon, selection, options, accountant, rng);
      if (!domain) return domain.error();
      domains.push_back(std::move(domain.value()));
    }
    if (domains.back().cardinality() > kMaxCardinality) {
      return FailedPrecondition("column '" + column.name + "' keeps " +
                                std::to_string(domains.back().categories.size()) +
                                " distinct values, more than the model supports (65,533); mark "
                                "it as an identifier or ignore it in the schema");
    }
  }
  progress.Report(1.0, "Building private domains");
  return domains;
}

}  // namespace deniable
