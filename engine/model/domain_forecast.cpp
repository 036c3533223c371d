// SPDX-License-Identifier: Apache-2.0
// The Columns page's and `inspect`'s forecast (domains.h ForecastDomains): what the domains
// will keep at a given ε, planned as BuildDomains spends it, without drawing any noise.
#include "engine/model/domains.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/set_union.h"
#include "engine/histogram/column_histograms.h"
#include "engine/model/numeric_bins.h"
#include "engine/schema/typed_values.h"
#include "engine/model/privbayes.h"
#include "engine/model/union_items.h"

namespace deniable {

using internal::FormatEpsilon;

namespace {

// ColumnForecast::cluster_rows: the second pass as HistogramDomain (domains.cpp) plans it for
// a column of ε `epsilon` (Gaussian in the marginals mode, with the magnitude groups' own
// counts), and numeric_bins.h's seed threshold for a window of k groups of one leaf each
// (k = 1: a group alone). threshold[k - 1] for k = 1..kSeedWindow.
std::vector<double> SeedThresholds(const ColumnSchema& column, double epsilon, bool gaussian) {
  HistogramOptions histogram;
  histogram.adaptive.epsilon = ShareOf(epsilon, kAdaptiveShare) / 2;
  histogram.counts_epsilon = epsilon - 2 * histogram.adaptive.epsilon;
  if (gaussian) UseGaussianCounts(histogram);
  const CountNoise noise = CountNoiseOf(histogram);
  std::vector<double> thresholds;
  for (std::size_t k = 1; k <= kSeedWindow; ++k) {
    if (noise.gaussian && CountsMagnitudeGroups(column)) {
      const double group_variance = 1 / (2 * kGroupCountShare * histogram.counts_rho);
      const double combined = 1 / (1 / (noise.scale * noise.scale) + 1 / group_variance);
      thresholds.push_back(NoiseSumThreshold(true, k, std::sqrt(combined), kSeedFalsePositive));
    } else {
      thresholds.push_back(NoiseSumThreshold(noise.gaussian, k, noise.scale, kSeedFalsePositive));
    }
  }
  return thresholds;
}

// ColumnForecast::likely_lost from the owner's column: its rows per magnitude group, rule 1 of
// numeric_bins.h replayed on the true counts (a group at or above thresholds[0] seeds, so does
// the heaviest, and so does a window of 2..kSeedWindow neighbouring non-seed groups whose sum
// reaches thresholds[k - 1]; the range then grows over neighbouring groups that hold rows).
std::vector<ColumnForecast::LostRange> LikelyLost(const RawColumn& raw,
                                                  const ColumnSchema& column,
                                                  const std::vector<double>& thresholds) {
  const double step = LatticeStepOf(column);
  const std::vector<double> values = NumericDictionaryValues(raw, column);
  std::map<std::int64_t, std::uint64_t> rows;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) continue;
    rows[internal::MagnitudeGroup(values[i], values[i] + step, step)] += raw.counts[i];
  }
  std::vector<std::pair<std::int64_t, std::uint64_t>> groups(rows.begin(), rows.end());
  if (groups.size() < 2) return {};
  // Neighbours in the decomposition: consecutive magnitudes, and the zero bucket next to the
  // smallest magnitude of either sign (coordinate 1 on a lattice, 2^-32 on the real line).
  const std::int64_t smallest = step > 0 ? 1000 : 1000 - 32;
  auto next_to = [smallest](std::int64_t x, std::int64_t y) {
    if (x > y) std::swap(x, y);
    if (x == 0) return y == smallest;
    if (y == 0) return x == -smallest;
    return y == x + 1;
  };
  std::vector<bool> kept(groups.size(), false);
  std::size_t heaviest = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    kept[g] = static_cast<double>(groups[g].second) >= thresholds[0];
    if (groups[g].second > groups[heaviest].second) heaviest = g;
  }
  kept[heaviest] = true;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    double sum = 0;
    for (std::size_t end = g; end < groups.size() && end < g + thresholds.size(); ++end) {
      if (kept[end] || (end > g && !next_to(groups[end - 1].first, groups[end].first))) break;
      sum += static_cast<double>(groups[end].second);
      if (end > g && sum >= thresholds[end - g]) {
        for (std::size_t w = g; w <= end; ++w) kept[w] = true;
      }
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t g = 0; g + 1 < groups.size(); ++g) {
      if (kept[g] != kept[g + 1] && next_to(groups[g].first, groups[g + 1].first)) {
        kept[g] = kept[g + 1] = true;
        grew = true;
      }
    }
  }
  // Neighbouring lost groups are reported as one range.
  std::vector<ColumnForecast::LostRange> lost;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (kept[g]) continue;
    const bool joins = g > 0 && !kept[g - 1] && next_to(groups[g - 1].first, groups[g].first);
    const std::int64_t id = groups[g].first;
    const double unit = step > 0 ? step : 1.0;
    const double low = std::ldexp(unit, static_cast<int>(std::llabs(id) - 1000));
    const double high = 2 * low - (step > 0 ? step : 0.0);
    ColumnForecast::LostRange range;
    range.lo = id > 0 ? low : -high;
    range.hi = id > 0 ? high : -low;
    range.rows = groups[g].second;
    if (joins) {
      lost.back().hi = range.hi;
      lost.back().rows += range.rows;
    } else {
      lost.push_back(range);
    }
  }
  return lost;
}

}  // namespace

Result<DomainForecast> ForecastDomains(const RawTable& table, const Schema& schema,
                                       double epsilon, double delta,
                                       std::optional<double> domain_fraction,
                                       const Progress* progress, MissingMarkers markers) {
  if (!(std::isfinite(epsilon) && epsilon > 0) || !(delta > 0 && delta < 1)) {
    return InvalidArgument("the forecast needs ε > 0 and δ in (0, 1)");
  }
  if (schema.columns.size() != table.num_columns()) {
    return InvalidArgument("the schema and the table disagree on the number of columns");
  }
  const auto rows = static_cast<double>(table.num_rows());
  DomainForecast forecast;
  // As LearnModel plans it: the row count's share first, then the rule.
  forecast.budget = PlanDomainBudget(schema, epsilon * (1 - kRowCountShare), rows,
                                     domain_fraction, markers);
  const DomainBudget& budget = forecast.budget;
  const std::vector<int> modelled = ModelledColumns(schema);
  SetUnionForecast union_forecast;
  UnionItems union_items =
      MakeUnionItems(table, schema, modelled, budget.union_epsilon > 0, markers);
  if (progress != nullptr && progress->IsCancelled()) return Cancelled("forecast cancelled");
  if (!union_items.input.values.empty()) {
    SetUnionOptions options;
    options.epsilon = budget.union_epsilon;
    options.delta = delta;
    if (markers == MissingMarkers::kModel && budget.union_zcdp_fraction > 0) {
      // The marginals mode: the union's share of the zCDP block, as the run plans it
      // (run_job.cpp): the row count beside the block, then the columns' own domains inside
      // it (their ε-DP partitions folded in as ρ = ε²/2, their Gaussian second passes at the
      // same ρ), then the union's share of what is left.
      const ZcdpUnionPlan plan = PlanZcdpUnion(epsilon, delta);
      auto scratch = PrivacyAccountant::Create({epsilon, delta});
      if (!scratch) return scratch.error();
      LedgerEntry step;
      step.label = "row count";
      step.partition = "all";
      step.epsilon_each = epsilon * kRowCountShare;
      if (Status s = scratch->Spend(step); !s) return s.error();
      if (Status s = scratch->SetZcdpDelta(plan.delta_z); !s) return s.error();
      if (Status s = scratch->FoldPureDpIntoZcdpBlock(); !s) return s.error();
      auto spend_column = [&](double column_epsilon, int columns) -> Status {
        if (!(column_epsilon > 0)) return OkStatus();
        const double partition = 2 * (ShareOf(column_epsilon, kAdaptiveShare) / 2);
        for (const double e : {partition, column_epsilon - partition}) {
          if (!(e > 0)) continue;
          step.label = "a column's own domain";
          step.epsilon_each = e;
          step.count = static_cast<std::size_t>(columns);
          if (Status s = scratch->Spend(step); !s) return s;
        }
        return OkStatus();
      };
      for (const auto& [column_epsilon, columns] :
           {std::pair{budget.histogram_epsilon, budget.histogram_columns},
            std::pair{budget.trie_epsilon, budget.trie_columns},
            std::pair{budget.geo_epsilon, budget.geo_columns}}) {
        if (columns <= 0) continue;
        if (Status s = spend_column(column_epsilon, columns); !s) return s.error();
      }
      // The numeric columns' magnitude-group counts (NumericDomain).
      std::size_t grouped = 0;
      for (const int index : modelled) {
        const ColumnSchema& column = schema.columns[static_cast<std::size_t>(index)];
        grouped += DomainNeedOf(schema, static_cast<std::size_t>(index)) ==
                           DomainNeed::kHistogram &&
                       CountsMagnitudeGroups(column)
                       ? 1
                       : 0;
      }
      const double counts_epsilon =
          budget.histogram_epsilon - 2 * (ShareOf(budget.histogram_epsilon, kAdaptiveShare) / 2);
      if (grouped > 0 && counts_epsilon > 0) {
        LedgerEntry groups;
        groups.label = "magnitude groups";
        groups.partition = "all";
        groups.rho_each = kGroupCountShare * ZcdpOfPureDp(counts_epsilon);
        groups.sensitivity = 1;
        groups.count = grouped;
        if (Status s = scratch->Spend(groups); !s) return s.error();
      }
      options.rho = ShareOf(scratch->RemainingRhoToSpend(), budget.union_zcdp_fraction);
      options.delta = plan.coupling;
      forecast.union_rho = options.rho;
    }
    auto predicted = ForecastSetUnion(union_items.input, options, progress);
    if (!predicted) return predicted.error();
    union_forecast = std::move(predicted.value());
  }
  auto threshold_of = [](double column_epsilon, double branching) -> std::int64_t {
    AdaptiveOptions adaptive;
    adaptive.epsilon = ShareOf(column_epsilon, kAdaptiveShare) / 2;
    auto parameters = ImprovedParameters(adaptive, branching);
    return parameters ? parameters->threshold : 0;
  };
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    const ColumnSchema& column = schema.columns[static_cast<std::size_t>(modelled[k])];
    ColumnForecast out;
    out.column = column.name;
    out.need = DomainNeedOf(schema, static_cast<std::size_t>(modelled[k]));
    switch (out.need) {
      case DomainNeed::kSetUnion: {
        out.epsilon = budget.union_epsilon;
        const int group = union_items.group_of[k];
        if (group < 0 || !(budget.union_epsilon > 0)) {
          out.summary = "needs a public category list or a domain budget";
          break;
        }
        const SetUnionGroupForecast& g = union_forecast.groups[static_cast<std::size_t>(group)];
        out.merge_below = g.merge_below;
        out.values = g.values;
        out.likely_kept = g.likely_kept;
        const std::string into = column.is_numeric() ? "the nearest kept value" : "Other";
        out.summary = g.merge_below == 0
                          ? "every value is likely kept"
                          : "values with fewer than about " + std::to_string(g.merge_below) +
                                " rows merge into " + into;
        break;
      }
      case DomainNeed::kHistogram:
        out.epsilon = budget.histogram_epsilon;
        if (!(out.epsilon > 0)) {
          out.summary = column.public_min && column.public_max
                            ? "public bounds, equal-width bins: costs no ε"
                            : "needs public bounds or a domain budget";
          break;
        }
        out.rows_per_leaf = threshold_of(out.epsilon, 2);
        out.summary = "bins where the data is, down to about " +
                      std::to_string(out.rows_per_leaf) +
                      " rows each (private adaptive histogram, ε = " +
                      FormatEpsilon(out.epsilon) + ")";
        // Numbers only: a date-time's coarse range is calendar decades, not magnitudes.
        if (!(column.public_min && column.public_max) && column.type != DataType::kDateTime) {
          const std::vector<double> thresholds =
              SeedThresholds(column, out.epsilon, markers == MissingMarkers::kModel);
          out.cluster_rows = static_cast<std::int64_t>(std::ceil(thresholds[0]));
          out.likely_lost = LikelyLost(table.columns[static_cast<std::size_t>(modelled[k])],
                                       column, thresholds);
          out.summary += "; values far from the rest (such as a mostly-zero column's "
                         "non-zero ones) need about " + std::to_string(out.cluster_rows) +
                         " rows within one power-of-two range (such as 1,024–2,047) to be kept";
        }
        break;
      case DomainNeed::kGeo:
        out.epsilon = budget.geo_epsilon;
        if (!(out.epsilon > 0)) {
          out.summary = "needs public bounds on both columns or a domain budget";
          break;
        }
        out.rows_per_leaf = threshold_of(out.epsilon, 4);
        out.summary = "one geo attribute with '" + column.geo_longitude +
                      "': cells where the points are, down to about " +
                      std::to_string(out.rows_per_leaf) +
                      " rows each (private quadtree, ε = " + FormatEpsilon(out.epsilon) + ")";
        break;
      case DomainNeed::kTrie:
        out.epsilon = budget.trie_epsilon;
        out.rows_per_leaf = threshold_of(out.epsilon, 180);
        out.summary = "strings held by fewer than about " + std::to_string(out.rows_per_leaf) +
                      " rows vanish into similar kept ones (private trie, ε = " +
                      FormatEpsilon(out.epsilon) + ")";
        break;
      case DomainNeed::kNone:
        out.summary = "declared public: costs no ε";
        break;
    }
    forecast.columns.push_back(std::move(out));
  }
  return forecast;
}

}  // namespace deniable
