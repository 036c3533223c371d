// SPDX-License-Identifier: Apache-2.0
// The domain forecast the Columns step shows: what the chosen ε will keep of each column
// (engine/model/domains.h ForecastDomains), for the current column settings and privacy
// settings, plus — for a column whose rare values are likely merged — which values those are.
//
// It reads the real data: for the owner's eyes only, never part of a release, and it spends
// nothing (no noise is drawn). Values in, values out: ComputeDomainForecast runs on a worker
// thread (DomainForecaster), tests call it directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QString>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/model/domain_budget.h"
#include "engine/model/domains.h"
#include "engine/schema/schema.h"
#include "ui/tasks/jobs.h"

namespace deniable::ui {

class Session;

// The ε, δ and domain share a run with these settings plans its domains with (random mode
// gives the domains the whole budget, as LearnModel does).
struct DomainPlanInputs {
  double epsilon = 1.0;
  double delta = 1e-9;
  std::optional<double> domain_fraction;  // unset: the rule (PlanDomainBudget)
  bool random_mode = false;
  MissingMarkers missing_markers = MissingMarkers::kSetUnion;  // MissingMarkersOf(mode)
  SynthesisMode mode = SynthesisMode::kMarginals;  // for ModelSchemaFor (geo pairs)
};
DomainPlanInputs domainPlanInputs(const PrivacySettings& settings);

// The schema the run of `settings`' mode would model (engine ModelSchemaFor: a geo pair is
// two columns in the correlated and marginals modes); `schema` itself when it declares an
// invalid pair (the run refuses it and says why).
Schema modelledSchema(const Schema& schema, const PrivacySettings& settings);

// The plan a run would make (the exact row count standing for its noisy one, as
// ForecastDomains does): cheap, no data read beyond the row count. For the Privacy page.
DomainBudget plannedDomainBudget(const Schema& schema, std::size_t rows,
                                 const PrivacySettings& settings);
// The plan's one line (the engine's `rule`, or the random mode's own sentence).
QString domainRuleText(const DomainBudget& budget, const PrivacySettings& settings);

struct DomainForecastRequest {
  std::shared_ptr<const LoadedData> data;
  Schema schema;
  PrivacySettings settings;
  QString key;  // what the result is cached under (forecastKey)
};

// The cache key of (input, column settings, the settings the forecast depends on).
QString forecastKey(const LoadedData* data, const Schema& schema, const PrivacySettings& settings);
DomainForecastRequest makeForecastRequest(const Session& session);

struct MergedValue {
  std::string text;
  std::uint64_t rows = 0;
};

// One schema column's forecast.
struct ColumnForecastView {
  bool modelled = false;
  ColumnForecast forecast;            // the engine's (empty when not modelled)
  // Set-union columns: the values held by fewer than forecast.merge_below rows (rarest first;
  // at most kMaxMergedListed), and how many such values there are in all.
  std::vector<MergedValue> merged;
  std::uint64_t merged_values = 0;
  // True when the run would fail: a union column with no domain budget, a numeric column
  // with neither public bounds nor a budget.
  bool blocked = false;
};
inline constexpr std::size_t kMaxMergedListed = 8;

struct DomainForecastRecord {
  QString key;
  DomainBudget budget;
  QString rule;                              // domainRuleText
  std::vector<ColumnForecastView> columns;   // one per schema column (schema order)
  double epsilon = 0, delta = 0;
  std::optional<double> domain_fraction;     // what the user set (unset: Automatic)
  bool random_mode = false;                  // the domains get the whole ε (no share to set)
  // The two levers besides a public declaration, planned (no data read): the budget at twice
  // the ε, and with the domains' share at kMaxDomainShare. Under the automatic rule the set
  // union's ε does not grow with ε until the rule's bounds bind (it aims at values held by a
  // kKeptShare of the rows), so "raise ε" is advised only when it helps.
  DomainBudget doubled_epsilon;
  DomainBudget max_share;
  double seconds = 0;                        // how long the forecast took
  bool off_ui_thread = false;                // computed on a worker thread (tests check it)
};

using DomainForecastOutcome = Result<std::shared_ptr<const DomainForecastRecord>>;

// ForecastDomains on the request's data, mapped to schema columns, with the likely merged
// values. Polls `progress` for cancellation between its stages.
DomainForecastOutcome ComputeDomainForecast(const DomainForecastRequest& request,
                                            Progress& progress);

// The short text of the Columns table's forecast cell ("keeps 12 of 16 values", "bins down to
// ~63 rows", "public: no ε").
QString forecastCellText(const ColumnForecastView& column);
// The details panel's sentences (HTML): the engine's summary, the values likely merged and,
// when values are lost, the fixes (public list, ε, the domain share).
QString forecastDetailsHtml(const ColumnForecastView& column, const DomainForecastRecord& record,
                            const ColumnSchema& schema);
// True when the forecast says values will be lost or the run would fail (worth a warning).
bool forecastLosesValues(const ColumnForecastView& column);

}  // namespace deniable::ui
