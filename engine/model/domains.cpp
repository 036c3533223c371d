// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domains.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/set_union.h"
#include "engine/histogram/column_histograms.h"
#include "engine/model/encoded_table.h"
#include "engine/model/geo_domain.h"
#include "engine/model/privbayes.h"
#include "engine/model/union_items.h"
#include "engine/model/numeric_bins.h"
#include "engine/schema/datetime.h"
#include "engine/schema/geo_pairs.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

// Public coarse ranges of numeric columns without public bounds (histogram/ decompositions):
// |x| < 9e15 for numbers (exact integers below 2^53), 1900-01-01 .. 2100-01-01 for date-times.
constexpr double kCoarseNumberLimit = 9.0e15;
constexpr std::int64_t kCoarseFirstYear = 1900;
constexpr std::int64_t kCoarseEndYear = 2100;
// Free text: strings are cut at this many bytes before the trie (public).
constexpr std::size_t kMaxTextBytes = 64;
// A missing code exists when the noisy missing count reaches this many noise scales (an absent
// one passes with probability ½e^-3 ≈ 2.5%; a false code only costs a code the model gives
// almost no probability).
constexpr double kMissingThreshold = 3.0;
// Free text: a string is kept verbatim when its noisy count reaches this many noise scales (of
// the many empty end-of-string leaves of the trie, each passes with probability ½e^-8).
constexpr double kVerbatimThreshold = 8.0;

}  // namespace

namespace internal {

// The first level of a coarse-range decomposition a numeric leaf lies in (numeric_bins.h, rule
// 1): sign × bit length of the lattice coordinate (the power-of-two magnitude buckets of
// histogram/numeric_decomposition.h), or of the value on the real line.
std::int64_t MagnitudeGroup(double first, double right, double step) {
  // On a lattice, any point of the leaf (its first) tells its bucket; on the real line the
  // midpoint, strictly inside the cell.
  const double x = step > 0 ? std::round(first / step) : first + (right - first) / 2;
  // The zero bucket: coordinate 0 on a lattice, |x| < 2^-32 on the real line (the
  // decomposition's default min_exponent).
  if (std::fabs(x) < (step > 0 ? 1.0 : 0x1p-32)) return 0;
  const auto bits = static_cast<std::int64_t>(std::floor(std::log2(std::fabs(x)))) + 1000;
  return x > 0 ? bits : -bits;
}

}  // namespace internal

bool CountsMagnitudeGroups(const ColumnSchema& column) {
  return column.type != DataType::kDateTime && !(column.public_min && column.public_max);
}

namespace internal {
std::string FormatEpsilon(double epsilon) {
  std::ostringstream out;
  out.precision(3);
  out << epsilon;
  return out.str();
}
}  // namespace internal

namespace {

using internal::FormatEpsilon;

bool Contains(const std::vector<std::uint32_t>& sorted, std::uint32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

ColumnDomain CategoricalDomain(const ColumnSchema& column, const ColumnItems& items,
                               const std::vector<std::uint32_t>& kept,
                               const std::string& selection, const std::string& missing_source,
                               const DomainOptions& options) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = true;
  domain.other_label = options.other_label;
  domain.has_missing = Contains(kept, items.missing_item);
  if (column.public_categories) {
    domain.categories = *column.public_categories;  // the user's order
    domain.categories_source = DomainSource::kPublic;
    domain.provenance =
        "categories declared public in the schema; missing code from " + missing_source;
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
  domain.categories_source = DomainSource::kDp;
  if (column.is_numeric()) {
    // A number column never writes "Other": a value that was not kept is encoded as the
    // nearest kept one. With none kept, the column can only be written empty.
    domain.unknown = UnknownValues::kNearestValue;
    if (domain.categories.empty()) domain.has_missing = true;
    domain.provenance = selection + ": " + std::to_string(domain.categories.size()) +
                        " values kept; any other value becomes the nearest kept one";
    if (domain.categories.empty()) {
      domain.provenance += " (none was kept: the column is written empty)";
    }
    return domain;
  }
  // Whether any value was dropped is data-dependent, so the `other` code always exists.
  domain.has_other = true;
  domain.provenance = selection + ": " + std::to_string(domain.categories.size()) +
                      " values kept; any other value becomes '" + domain.other_label + "'";
  return domain;
}

std::int64_t YearOf(double seconds) {
  std::int64_t year = 1970;
  int month = 1, day = 1;
  CivilFromDays(static_cast<std::int64_t>(std::floor(seconds / 86400.0)), year, month, day);
  return year;
}

// The values of a numeric column (missing and unparsable cells left out) and how many rows
// have none.
std::vector<double> NumericValues(const RawColumn& raw, const ColumnSchema& column,
                                  std::uint64_t& missing) {
  const std::vector<double> dictionary_values = NumericDictionaryValues(raw, column);
  std::vector<double> values;
  values.reserve(raw.num_rows());
  missing = 0;
  for (std::uint32_t code : raw.codes) {
    if (code != kMissingCode && !std::isnan(dictionary_values[code])) {
      values.push_back(dictionary_values[code]);
    } else {
      ++missing;
    }
  }
  return values;
}

// A numeric column's domain from its private adaptive histogram (see domains.h), or, with no
// budget, equal-width bins over its public bounds.
Result<ColumnDomain> HistogramDomain(const RawColumn& raw, const ColumnSchema& column,
                                     double epsilon, const DomainOptions& options,
                                     PrivacyAccountant& accountant, Rng& rng,
                                     Progress& progress) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = false;
  const double step = LatticeStepOf(column);
  const int max_bins = column.bins > 0 ? column.bins : options.default_bins;
  const bool public_bounds = column.public_min && column.public_max;
  if (!(epsilon > 0)) {
    if (!public_bounds) {
      return FailedPrecondition(
          "column '" + column.name + "' has no public bounds and no domain budget: declare "
          "public bounds for it (schema \"public\": {\"min\": ..., \"max\": ...}) or give "
          "the domains a share of ε");
    }
    double lo = std::min(*column.public_min, *column.public_max);
    double hi = std::max(*column.public_min, *column.public_max);
    int bins = max_bins;
    if (step > 0) {
      ColumnDomain lattice;
      lattice.step = step;
      lo = lattice.PointValue(lattice.FirstPointIndex(lo));
      bins = static_cast<int>(std::clamp(lattice.PointsIn(lo, hi + step), 1.0,
                                         static_cast<double>(max_bins)));
    }
    domain.SetEqualWidth(lo, hi, bins, step);
    domain.has_missing = true;
    domain.categories_source = DomainSource::kPublic;
    domain.provenance = "bounds declared public in the schema; equal-width bins (no domain "
                        "budget); a missing code always present";
    return domain;
  }
  std::uint64_t missing = 0;
  const std::vector<double> values = NumericValues(raw, column, missing);
  HistogramOptions histogram;
  histogram.adaptive.epsilon = ShareOf(epsilon, kAdaptiveShare) / 2;
  histogram.counts_epsilon = epsilon - 2 * histogram.adaptive.epsilon;
  const std::string label = "bins of " + column.name;
  if (options.gaussian_counts) UseGaussianCounts(histogram);
  // The marginals mode: a numeric column's magnitude groups are also counted directly
  // (kGroupCountShare, domains.h), for the range rule and the leaf weights.
  const double group_rho = CountsMagnitudeGroups(column) && histogram.counts_rho > 0
                               ? kGroupCountShare * histogram.counts_rho
                               : 0.0;
  const CountNoise noise = CountNoiseOf(histogram);
  NoisyLeaves leaves;
  leaves.count_noise_scale = noise.scale;
  leaves.gaussian = noise.gaussian;
  std::size_t leaf_count = 0;
  if (column.type == DataType::kDateTime) {
    DateTimeHistogramOptions spec;
    spec.resolution_seconds = static_cast<std::int64_t>(step);
    spec.first_year = column.public_min ? YearOf(*column.public_min) : kCoarseFirstYear;
    spec.end_year = column.public_max ? YearOf(*column.public_max) + 1 : kCoarseEndYear;
    // Only instants the format writes and reads back (a %y column: its 100-year window; no
    // year in the format: the first day), so no leaf draws a date that reads back a century
    // off. The window is a public fact of the schema.
    if (const auto range = DateTimeFormatRange(column.datetime_format, column.two_digit_year_start)) {
      spec.first_year = std::max(spec.first_year, YearOf(range->lo));
      spec.end_year = std::min(spec.end_year, YearOf(range->hi - 1) + 1);
      if (spec.end_year <= spec.first_year) spec.end_year = spec.first_year + 1;
    }
    spec.histogram = histogram;
    auto learnt = LearnDateTimeHistogram(values, spec, accountant, label, "all", rng, progress);
    if (!learnt) return learnt.error();
    for (const DateTimeBin& bin : learnt->bins) {
      leaves.edges.push_back(static_cast<double>(bin.first));
      leaves.counts.push_back(bin.noisy_count);
      // Decades: calendar leaves never straddle a year, so never a decade.
      if (!public_bounds) {
        const std::int64_t year = YearOf(static_cast<double>(bin.first));
        leaves.groups.push_back(year >= 0 ? year / 10 : (year - 9) / 10);
      }
    }
    leaves.edges.push_back(static_cast<double>(learnt->bins.back().last + spec.resolution_seconds));
    leaves.step = step;
    leaf_count = learnt->bins.size();
  } else {
    NumericHistogramOptions spec;
    if (step > 0) {
      spec.domain.lattice = LatticeKind::kDecimal;
      spec.domain.decimals = column.type == DataType::kInteger ? 0 : column.decimals;
    } else {
      spec.domain.lattice = LatticeKind::kContinuous;
    }
    if (public_bounds) {
      spec.domain.lo = std::min(*column.public_min, *column.public_max);
      spec.domain.hi = std::max(*column.public_min, *column.public_max);
    }
    spec.domain.coarse_limit = kCoarseNumberLimit * (step > 0 && step < 1 ? step : 1.0);
    spec.histogram = histogram;
    auto learnt = LearnNumericHistogram(values, spec, accountant, label, "all", rng, progress);
    if (!learnt) return learnt.error();
    for (const NumericBin& bin : learnt->bins) {
      leaves.edges.push_back(bin.first);
      leaves.counts.push_back(bin.noisy_count);
      if (!public_bounds) leaves.groups.push_back(internal::MagnitudeGroup(bin.first, bin.right, step));
    }
    leaves.edges.push_back(learnt->bins.back().right);
    leaves.step = step;
    leaf_count = learnt->bins.size();
    if (group_rho > 0) {
      // The groups are the magnitude buckets, one run of leaves each (the decomposition's first
      // level: a leaf never straddles two); every record is in exactly one, so the vector of
      // their counts has ℓ2 sensitivity 1 (NoisyGaussianHistogram: a group_rho-zCDP entry).
      std::vector<std::size_t> group_of_leaf(leaves.groups.size());
      std::size_t groups = 0;
      for (std::size_t j = 0; j < leaves.groups.size(); ++j) {
        if (j > 0 && leaves.groups[j] != leaves.groups[j - 1]) ++groups;
        group_of_leaf[j] = groups;
      }
      std::vector<std::uint64_t> group_counts(groups + 1, 0);
      for (const double v : values) ++group_counts[group_of_leaf[learnt->BinOf(v)]];
      auto noisy = NoisyGaussianHistogram(group_counts, group_rho, accountant,
                                          "magnitude groups of " + column.name, "all", rng);
      if (!noisy) return noisy.error();
      leaves.group_counts = std::move(*noisy);
      leaves.group_noise_scale = std::sqrt(1 / (2 * group_rho));
    }
  }
  NumericBinning binning;
  binning.max_bins = max_bins;
  binning.categorical = column.categorical;
  if (Status s = SetBinsFromLeaves(leaves, binning, domain); !s) {
    return s.error().WithContext("column '" + column.name + "'");
  }
  // The missing marker: a cell of the same second-pass histogram (a record is either missing
  // or holds a value, so the cells are disjoint: parallel composition, no extra ε).
  auto noisy_missing = NoisyExtraCell(histogram, missing, rng);
  if (!noisy_missing) return noisy_missing.error();
  domain.has_missing = static_cast<double>(*noisy_missing) >=
                       NoiseThreshold(noise.gaussian, noise.scale, kMissingThreshold);
  domain.categories_source = public_bounds ? DomainSource::kPublic : DomainSource::kDp;
  domain.provenance =
      std::string("private adaptive histogram (improved, Thm. 3: ε = ") +
      FormatEpsilon(2 * histogram.adaptive.epsilon) + " for " + std::to_string(leaf_count) +
      " leaves, " +
      (noise.gaussian ? "discrete Gaussian σ = " + FormatEpsilon(noise.scale) +
                             " (ρ = " + FormatEpsilon(histogram.counts_rho) + ")"
                       : "ε = " + FormatEpsilon(histogram.counts_epsilon)) +
      " for their counts" +
      (leaves.group_counts.empty()
           ? std::string()
           : ", discrete Gaussian σ = " + FormatEpsilon(leaves.group_noise_scale) + " (ρ = " +
                 FormatEpsilon(group_rho) + ") for the magnitude groups' counts") +
      ") " +
      (public_bounds ? "inside the public bounds" : "inside the public coarse range") + "; " +
      std::to_string(domain.bins) + " bins; values beyond the range are clamped into the edge "
      "bins; missing code from the same counts";
  return domain;
}

// A free-text column's domain: the strings its private trie keeps verbatim (see domains.h).
Result<ColumnDomain> TextDomain(const RawColumn& raw, const ColumnSchema& column,
                                double epsilon, const ColumnItems& items,
                                const std::vector<std::uint32_t>* kept,
                                const std::string& missing_source, const DomainOptions& options,
                                PrivacyAccountant& accountant, Rng& rng, Progress& progress) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  domain.categorical = true;
  domain.other_label = options.other_label;
  domain.has_missing = kept == nullptr || std::binary_search(kept->begin(), kept->end(),
                                                             items.missing_item);
  if (!(epsilon > 0)) {
    return FailedPrecondition("column '" + column.name + "' (free text) has no public category "
                              "list and no domain budget: declare its categories public or "
                              "give the domains a share of ε");
  }
  std::vector<std::string> texts;
  texts.reserve(raw.num_rows());
  for (std::uint32_t code : raw.codes) {
    if (code != kMissingCode) texts.push_back(raw.dictionary[code]);
  }
  StringHistogramOptions spec;
  spec.max_length_bytes = kMaxTextBytes;
  spec.histogram.adaptive.epsilon = ShareOf(epsilon, kAdaptiveShare) / 2;
  spec.histogram.counts_epsilon = epsilon - 2 * spec.histogram.adaptive.epsilon;
  if (options.gaussian_counts) UseGaussianCounts(spec.histogram);
  const CountNoise noise = CountNoiseOf(spec.histogram);
  auto learnt = LearnStringHistogram(texts, spec, accountant, "strings of " + column.name, "all",
                                     rng, progress);
  if (!learnt) return learnt.error();
  const double threshold = NoiseThreshold(noise.gaussian, noise.scale, kVerbatimThreshold);
  for (const StringBin& bin : learnt->bins) {
    if (bin.verbatim && static_cast<double>(bin.noisy_count) >= threshold) {
      domain.categories.push_back(bin.text);
    }
  }
  std::sort(domain.categories.begin(), domain.categories.end());  // byte order, never by count
  domain.categories.erase(std::unique(domain.categories.begin(), domain.categories.end()),
                          domain.categories.end());
  // Rare strings vanish into the kept string sharing their longest prefix; with none kept, the
  // column can only say "Other".
  if (!domain.categories.empty()) domain.unknown = UnknownValues::kNearestPrefix;
  domain.has_other = domain.categories.empty();
  domain.categories_source = DomainSource::kDp;
  domain.provenance = "private character trie (improved adaptive histogram, ε = " +
                      FormatEpsilon(2 * spec.histogram.adaptive.epsilon) +
                      (noise.gaussian
                           ? ", counts discrete Gaussian σ = " + FormatEpsilon(noise.scale)
                           : ", counts ε = " + FormatEpsilon(spec.histogram.counts_epsilon)) +
                      "): " +
                      std::to_string(domain.categories.size()) +
                      " strings kept verbatim; a rarer string becomes the kept one sharing its "
                      "longest prefix; missing code from " + missing_source;
  return domain;
}

}  // namespace

ZcdpUnionPlan PlanZcdpUnion(double epsilon, double delta) {
  ZcdpUnionPlan plan;
  plan.coupling = internal::MulDown(ShareOf(delta, kZcdpUnionDeltaShare),
                                    internal::ExpDown(-epsilon));
  plan.delta_z = ShareOf(delta, 1 - kZcdpUnionDeltaShare);
  return plan;
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
  const DomainBudget& budget = options.budget;
  for (double e : {budget.union_epsilon, budget.histogram_epsilon, budget.trie_epsilon,
                   budget.geo_epsilon}) {
    if (!(std::isfinite(e) && e >= 0)) {
      return InvalidArgument("domain budgets must be finite and >= 0 (got " + FormatEpsilon(e) +
                             ")");
    }
  }
  if (!(options.delta > 0 && options.delta < 1)) {
    return InvalidArgument("delta must be in (0, 1) (got " + FormatEpsilon(options.delta) + ")");
  }
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (std::string problem = GeoPairProblem(schema, i); !problem.empty()) {
      return FailedPrecondition(problem);
    }
  }
  const std::vector<int> modelled = ModelledColumns(schema);
  if (modelled.empty()) return std::vector<ColumnDomain>{};

  // 1. The set union: value items of categorical String columns without a public list, and
  //    the missing marker of every column that is not a numeric histogram column.
  for (const int index : modelled) {
    const ColumnSchema& column = schema.columns[static_cast<std::size_t>(index)];
    if (DomainNeedOf(schema, static_cast<std::size_t>(index)) == DomainNeed::kSetUnion &&
        !(budget.union_epsilon > 0)) {
      return FailedPrecondition("column '" + column.name + "' has no public category list and "
                                "no domain budget: declare its categories public or give the "
                                "domains a share of ε");
    }
  }
  if (progress.IsCancelled()) return Cancelled("cancelled while building domains");
  const bool markers_by_model = options.missing_markers == MissingMarkers::kModel;
  // Under zCDP (the marginals mode, options.union_in_zcdp_block) the union is an entry of
  // the model's zCDP block, which must follow every pure-ε step (privacy_accountant.h): the
  // columns' own histograms, tries and quadtrees are built first, then the union, then the
  // union's columns. Otherwise the union runs first (its (ε, δ) entry leads the ledger).
  const bool zcdp_union = options.union_in_zcdp_block;
  if (zcdp_union && (!markers_by_model || !(budget.union_zcdp_fraction > 0 &&
                                            budget.union_zcdp_fraction < 1))) {
    return InvalidArgument("a zCDP set union needs the model to decide the missing markers and "
                           "a share of the zCDP block in (0, 1)");
  }
  if (zcdp_union && !(accountant.zcdp_delta() > 0)) {
    return FailedPrecondition("the zCDP set union needs the zCDP conversion δ set first");
  }
  UnionItems union_items = MakeUnionItems(table, schema, modelled, budget.union_epsilon > 0,
                                          options.missing_markers);
  std::vector<ColumnItems>& items = union_items.items;
  const std::vector<int>& group_of = union_items.group_of;
  SetUnionInput& input = union_items.input;
  SetUnionResult selected;
  std::string selection = "a missing code always present (no set union was run)";
  const std::string missing_source =
      markers_by_model ? std::string("the model's noisy 1-way marginal (dropped when below 3σ)")
                       : std::string();
  std::vector<std::optional<ColumnDomain>> slots(modelled.size());

  // One column's domain (the union, if it takes part in it, has run).
  auto build_column = [&](std::size_t k, double from, double to) -> Status {
    if (progress.IsCancelled()) return Cancelled("cancelled while building domains");
    progress.Report(from, "Building private domains");
    SubProgress column_progress(progress, from, to);
    const ColumnSchema& column = schema.columns[modelled[k]];
    const RawColumn& raw = table.columns[modelled[k]];
    const std::vector<std::uint32_t>* kept =
        group_of[k] >= 0 ? &selected.kept[static_cast<std::size_t>(group_of[k])] : nullptr;
    const std::string& missing = markers_by_model ? missing_source : selection;
    switch (DomainNeedOf(schema, static_cast<std::size_t>(modelled[k]))) {
      case DomainNeed::kGeo: {
        const GeoPair pair{static_cast<std::size_t>(modelled[k]),
                           static_cast<std::size_t>(schema.ColumnIndex(column.geo_longitude))};
        auto domain = BuildGeoDomain(table, schema, pair, budget.geo_epsilon, options, accountant,
                                     rng, column_progress);
        if (!domain) return domain.error();
        slots[k] = std::move(domain.value());
        break;
      }
      case DomainNeed::kHistogram: {
        auto domain = HistogramDomain(raw, column, budget.histogram_epsilon, options, accountant,
                                      rng, column_progress);
        if (!domain) return domain.error();
        slots[k] = std::move(domain.value());
        break;
      }
      case DomainNeed::kTrie: {
        auto domain = TextDomain(raw, column, budget.trie_epsilon, items[k], kept, missing,
                                 options, accountant, rng, column_progress);
        if (!domain) return domain.error();
        slots[k] = std::move(domain.value());
        break;
      }
      case DomainNeed::kSetUnion:
      case DomainNeed::kNone: {
        static const std::vector<std::uint32_t> kEverything;
        ColumnDomain domain = CategoricalDomain(column, items[k], kept ? *kept : kEverything,
                                                selection, missing, options);
        if (kept == nullptr || markers_by_model) domain.has_missing = true;
        slots[k] = std::move(domain);
        break;
      }
    }
    if (slots[k]->cardinality() > kMaxCardinality) {
      return FailedPrecondition("column '" + column.name + "' keeps " +
                                std::to_string(slots[k]->value_codes()) +
                                " distinct values, more than the model supports (65,533); mark "
                                "it as an identifier or ignore it in the schema");
    }
    return OkStatus();
  };
  // Progress: the union 0–0.4, the columns 0.4–1 in file order.
  auto column_span = [&](std::size_t k) {
    const double n = static_cast<double>(modelled.size());
    return std::pair{0.4 + 0.6 * static_cast<double>(k) / n,
                     0.4 + 0.6 * static_cast<double>(k + 1) / n};
  };
  auto in_union = [&](std::size_t k) {
    const DomainNeed need = DomainNeedOf(schema, static_cast<std::size_t>(modelled[k]));
    return need == DomainNeed::kSetUnion || need == DomainNeed::kNone;
  };
  if (zcdp_union) {
    for (std::size_t k = 0; k < modelled.size(); ++k) {
      if (in_union(k)) continue;
      const auto [from, to] = column_span(k);
      if (Status s = build_column(k, from, to); !s) return s.error();
    }
  }

  // 1. The set union: value items of categorical String columns without a public list, and
  //    (unless the model decides them) the missing marker of every column that is not a
  //    numeric histogram column.
  if (!input.values.empty()) {
    SetUnionOptions set_union;
    set_union.epsilon = budget.union_epsilon;
    set_union.delta = options.delta;
    if (zcdp_union) {
      // Its share of the zCDP block (the rule's split, domain_budget.h); `delta` is then its
      // total-variation coupling.
      set_union.rho = ShareOf(accountant.RemainingRhoToSpend(), budget.union_zcdp_fraction);
      if (!(set_union.rho > 0)) {
        return FailedPrecondition("no privacy budget left for the set union");
      }
    }
    SubProgress union_progress(progress, 0.0, 0.4);
    auto result = DpSetUnion(input, set_union, accountant,
                             markers_by_model ? "categories of the columns without a public list"
                                              : "categories and missing markers of all columns",
                             "all", rng, union_progress);
    if (!result) return result.error();
    selected = std::move(result.value());
    std::ostringstream privacy;
    privacy.precision(3);
    if (zcdp_union) {
      privacy << "ρ = " << set_union.rho << " of the model's zCDP budget";
    } else {
      privacy << "ε = " << FormatEpsilon(budget.union_epsilon)
              << ", δ = " << FormatEpsilon(options.delta);
    }
    selection = std::string(markers_by_model ? "the DP set union over the categorical columns"
                                             : "the DP set union over all columns") +
                " (Policy Gaussian, " + privacy.str() + ")";
  }
  input = SetUnionInput{};  // free the per-record items

  // 2. One domain per column (those not built above).
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    if (slots[k]) continue;
    const auto [from, to] = column_span(k);
    if (Status s = build_column(k, from, to); !s) return s.error();
  }
  std::vector<ColumnDomain> domains;
  domains.reserve(slots.size());
  for (auto& slot : slots) domains.push_back(std::move(*slot));
  progress.Report(1.0, "Building private domains");
  return domains;
}

}  // namespace deniable
