// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/domain_forecast.h"

#include <cmath>
#include <algorithm>
#include <chrono>
#include <numeric>

#include <QCoreApplication>
#include <QStringList>
#include <QThread>

#include "engine/model/privbayes.h"
#include "engine/schema/schema_json.h"
#include "ui/project/cli_command.h"
#include "ui/session/session.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("DomainForecast", text); }

QString qs(const std::string& text) { return QString::fromStdString(text); }

// The rows a run's ε leaves the domains after its DP row count (LearnModel: kRowCountShare
// first, then the rule; ForecastDomains does the same).
double afterRowCount(double epsilon) { return epsilon * (1 - kRowCountShare); }

}  // namespace

DomainPlanInputs domainPlanInputs(const PrivacySettings& settings) {
  DomainPlanInputs out;
  out.epsilon = settings.model.epsilon;
  out.delta = settings.model.delta;
  out.random_mode = settings.model.mode == SynthesisMode::kRandom;
  out.missing_markers = MissingMarkersOf(settings.model.mode);
  out.mode = settings.model.mode;
  // Random mode spends the whole budget on the domains (LearnModel: a domain share of 1).
  out.domain_fraction = out.random_mode ? std::optional<double>(1.0) : settings.model.domain_fraction;
  return out;
}

Schema modelledSchema(const Schema& schema, const PrivacySettings& settings) {
  auto modelled = ModelSchemaFor(schema, settings.model.mode);
  return modelled ? std::move(modelled.value()) : schema;
}

DomainBudget plannedDomainBudget(const Schema& schema, std::size_t rows,
                                 const PrivacySettings& settings) {
  const DomainPlanInputs inputs = domainPlanInputs(settings);
  return PlanDomainBudget(modelledSchema(schema, settings), afterRowCount(inputs.epsilon),
                          static_cast<double>(rows), inputs.domain_fraction,
                          inputs.missing_markers);
}

QString domainRuleText(const DomainBudget& budget, const PrivacySettings& settings) {
  if (settings.model.mode == SynthesisMode::kRandom) {
    return tr("random mode: the domains get the whole ε (after the row count), split between "
              "the set union and the columns as the rule does");
  }
  // The engine writes the private row count as "n̂" (n with a combining circumflex), which
  // Qt's rich-text layout places badly when it wraps a line: say it in words.
  return qs(budget.rule).replace(QString::fromUtf8("n\u0302 = "), tr("rows ≈ "));
}

QString forecastKey(const LoadedData* data, const Schema& schema, const PrivacySettings& settings) {
  const DomainPlanInputs inputs = domainPlanInputs(settings);
  return QStringLiteral("%1|%2|%3|%4|%5|%6|%7")
      .arg(reinterpret_cast<quintptr>(data))
      .arg(exactNumber(inputs.epsilon), exactNumber(inputs.delta),
           inputs.domain_fraction ? exactNumber(*inputs.domain_fraction) : QStringLiteral("auto"),
           qs(SchemaToJson(schema, /*include_stats=*/false).dump()))
      .arg(inputs.missing_markers == MissingMarkers::kModel ? 1 : 0)
      .arg(ModelsGeoPairsJointly(inputs.mode) ? 1 : 0);
}

DomainForecastRequest makeForecastRequest(const Session& session) {
  DomainForecastRequest request;
  request.data = session.data();
  request.schema = session.schema();
  request.settings = session.settings();
  request.key = forecastKey(request.data.get(), request.schema, request.settings);
  return request;
}

DomainForecastOutcome ComputeDomainForecast(const DomainForecastRequest& request,
                                            Progress& progress) {
  if (!request.data || !request.data->table) return InvalidArgument("no input loaded");
  const auto start = std::chrono::steady_clock::now();
  const RawTable& table = *request.data->table;
  const DomainPlanInputs inputs = domainPlanInputs(request.settings);
  // What the run models: in the correlated and marginals modes a geo pair is two columns.
  auto modelled_schema = ModelSchemaFor(request.schema, inputs.mode);
  if (!modelled_schema) return modelled_schema.error();
  const Schema& schema = modelled_schema.value();
  progress.Report(0.0, "Forecasting the private domains");
  auto forecast = ForecastDomains(table, schema, inputs.epsilon, inputs.delta,
                                  inputs.domain_fraction, &progress, inputs.missing_markers);
  if (!forecast) return forecast.error();
  if (progress.IsCancelled()) return Cancelled("forecast cancelled");

  auto record = std::make_shared<DomainForecastRecord>();
  record->key = request.key;
  record->budget = forecast->budget;
  record->rule = domainRuleText(forecast->budget, request.settings);
  record->epsilon = inputs.epsilon;
  record->delta = inputs.delta;
  record->domain_fraction = request.settings.model.domain_fraction;
  record->random_mode = inputs.random_mode;
  record->doubled_epsilon = PlanDomainBudget(schema, afterRowCount(2 * inputs.epsilon),
                                             static_cast<double>(table.num_rows()),
                                             inputs.domain_fraction, inputs.missing_markers);
  record->max_share = PlanDomainBudget(schema, afterRowCount(inputs.epsilon),
                                       static_cast<double>(table.num_rows()), kMaxDomainShare,
                                       inputs.missing_markers);
  record->columns.resize(schema.columns.size());
  const std::vector<int> modelled = ModelledColumns(schema);
  if (modelled.size() != forecast->columns.size()) {
    return InternalError("the forecast has " + std::to_string(forecast->columns.size()) +
                         " columns for " + std::to_string(modelled.size()) + " modelled ones");
  }
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    const auto c = static_cast<std::size_t>(modelled[k]);
    ColumnForecastView& view = record->columns[c];
    view.modelled = true;
    view.forecast = std::move(forecast->columns[k]);
    const ColumnForecast& f = view.forecast;
    const ColumnSchema& column = schema.columns[c];
    switch (f.need) {
      case DomainNeed::kSetUnion:
      case DomainNeed::kTrie: view.blocked = !(f.epsilon > 0); break;
      case DomainNeed::kHistogram:
        view.blocked = !(f.epsilon > 0) && !(column.public_min && column.public_max);
        break;
      case DomainNeed::kGeo: {
        // Both columns need public bounds when the pair gets no ε.
        const int lon = schema.ColumnIndex(column.geo_longitude);
        const bool bounded = column.public_min && column.public_max && lon >= 0 &&
                             schema.columns[static_cast<std::size_t>(lon)].public_min &&
                             schema.columns[static_cast<std::size_t>(lon)].public_max;
        view.blocked = !(f.epsilon > 0) && !bounded;
        break;
      }
      case DomainNeed::kNone: break;
    }
    if (f.need == DomainNeed::kSetUnion && f.merge_below > 0) {
      // Which values that is (the owner's own data: counts of the raw column's texts).
      const RawColumn& raw = table.columns[c];
      std::vector<std::size_t> rare;
      for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
        if (raw.counts[i] < f.merge_below) rare.push_back(i);
      }
      std::stable_sort(rare.begin(), rare.end(), [&raw](std::size_t a, std::size_t b) {
        return raw.counts[a] < raw.counts[b];
      });
      view.merged_values = rare.size();
      for (std::size_t i = 0; i < rare.size() && i < kMaxMergedListed; ++i) {
        view.merged.push_back({raw.dictionary[rare[i]], raw.counts[rare[i]]});
      }
    }
    if (progress.IsCancelled()) return Cancelled("forecast cancelled");
  }
  record->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record->off_ui_thread = QCoreApplication::instance() != nullptr &&
                          QThread::currentThread() != QCoreApplication::instance()->thread();
  progress.Report(1.0, "Forecast ready");
  return std::shared_ptr<const DomainForecastRecord>(std::move(record));
}

bool forecastLosesValues(const ColumnForecastView& column) {
  if (!column.modelled) return false;
  if (column.blocked) return true;
  const ColumnForecast& f = column.forecast;
  return (f.need == DomainNeed::kSetUnion && f.likely_kept < f.values) ||
         (f.need == DomainNeed::kHistogram && !f.likely_lost.empty());
}

QString forecastCellText(const ColumnForecastView& column) {
  if (!column.modelled) return QStringLiteral("—");
  const ColumnForecast& f = column.forecast;
  if (column.blocked) {
    return f.need == DomainNeed::kHistogram || f.need == DomainNeed::kGeo
               ? tr("⚠ needs public bounds or ε")
                                            : tr("⚠ needs a public list or ε");
  }
  switch (f.need) {
    case DomainNeed::kNone: return tr("public: no ε");
    case DomainNeed::kSetUnion:
      if (f.likely_kept >= f.values) return tr("keeps all %1").arg(countOf(f.values, tr("value"), tr("values")));
      return tr("keeps ~%1 of %2").arg(f.likely_kept).arg(f.values);
    case DomainNeed::kHistogram:
      if (!(f.epsilon > 0)) return tr("equal-width bins: no ε");
      return tr("bins down to ~%1 rows").arg(formatCount(static_cast<std::uint64_t>(f.rows_per_leaf)));
    case DomainNeed::kGeo:
      if (!(f.epsilon > 0)) return tr("equal cells: no ε");
      return tr("geo cells down to ~%1 rows").arg(formatCount(static_cast<std::uint64_t>(f.rows_per_leaf)));
    case DomainNeed::kTrie:
      return tr("strings with ≥ ~%1 rows").arg(formatCount(static_cast<std::uint64_t>(f.rows_per_leaf)));
  }
  return {};
}

QString forecastDetailsHtml(const ColumnForecastView& column, const DomainForecastRecord& record,
                            const ColumnSchema& schema) {
  if (!column.modelled) {
    return tr("Not modelled (role %1): no domain, no ε.").arg(qs(ColumnRoleName(schema.role)));
  }
  const ColumnForecast& f = column.forecast;
  QStringList parts;
  QString summary = qs(f.summary).toHtmlEscaped();
  if (!summary.isEmpty()) summary[0] = summary[0].toUpper();
  if (f.need == DomainNeed::kSetUnion && f.values > 0 && !column.blocked) {
    summary += tr(" (about %1 of its %2 values kept; set union, ε = %3)")
                   .arg(f.likely_kept)
                   .arg(f.values)
                   .arg(formatEpsilon(f.epsilon));
  }
  parts << (column.blocked ? QStringLiteral("⚠ ") : QString()) + summary + QLatin1Char('.');
  if (column.merged_values > 0) {
    QStringList values;
    for (const MergedValue& value : column.merged) {
      values << tr("%1 (%2)").arg(qs(value.text).toHtmlEscaped(),
                                  countOf(value.rows, tr("row"), tr("rows")));
    }
    if (column.merged_values > column.merged.size()) {
      values << tr("%1 more").arg(column.merged_values - column.merged.size());
    }
    parts << tr("Likely merged: %1.").arg(values.join(QStringLiteral(", ")));
  }
  if (f.need == DomainNeed::kHistogram && !f.likely_lost.empty()) {
    // Whole numbers with thousands separators (1,024), others in six significant digits.
    auto number = [](double v) {
      if (v == std::floor(v) && std::fabs(v) < 1e15) {
        const QString digits = formatCount(static_cast<std::uint64_t>(std::fabs(v)));
        return v < 0 ? QStringLiteral("−") + digits : digits;
      }
      return formatDecimal(v, 6);
    };
    QStringList ranges;
    for (const ColumnForecast::LostRange& range : f.likely_lost) {
      ranges << tr("%1 to %2 (%3)")
                    .arg(number(range.lo), number(range.hi),
                         countOf(range.rows, tr("row"), tr("rows")));
    }
    parts << tr("Likely lost, clamped into the kept range: %1.")
                 .arg(ranges.join(QStringLiteral(", ")));
  }
  if (forecastLosesValues(column)) {
    // The column's own ε under a budget (the union's, or its histogram's / trie's).
    auto epsilon_of = [&f](const DomainBudget& budget) {
      switch (f.need) {
        case DomainNeed::kSetUnion: return budget.union_epsilon;
        case DomainNeed::kHistogram: return budget.histogram_epsilon;
        case DomainNeed::kGeo: return budget.geo_epsilon;
        case DomainNeed::kTrie: return budget.trie_epsilon;
        case DomainNeed::kNone: break;
      }
      return 0.0;
    };
    const QString what = f.need == DomainNeed::kSetUnion ? tr("the category selection")
                                                         : tr("this column's private domain");
    const double now = epsilon_of(record.budget);
    const double doubled = epsilon_of(record.doubled_epsilon);
    const double max_share = epsilon_of(record.max_share);
    const QString privacy = tr("<a href=\"privacy\">Privacy step</a>");
    QStringList fixes;
    if (f.need == DomainNeed::kHistogram || f.need == DomainNeed::kGeo) {
      fixes << tr("declare public bounds below");
    } else {
      fixes << tr("declare the category list public below (or a built-in vocabulary) if it is "
                  "public knowledge");
    }
    // A lever is offered when it gives the column's domain more ε (planned, no data read).
    if (doubled > now * 1.001) {
      fixes << tr("raise ε on the %1 (now %2; at ε = %3 %4 gets ε = %5 instead of %6)")
                   .arg(privacy, formatEpsilon(record.epsilon), formatEpsilon(2 * record.epsilon),
                        what, formatEpsilon(doubled), formatEpsilon(now));
    }
    if (!record.random_mode && max_share > now * 1.001) {
      const QString share = record.domain_fraction
                                ? tr("now %1").arg(formatDecimal(*record.domain_fraction, 3))
                                : tr("now Automatic");
      fixes << tr("set the share of ε for domains (%1 → More settings, %2; at %3 %4 gets ε = %5)")
                   .arg(privacy, share, formatDecimal(kMaxDomainShare, 2), what,
                        formatEpsilon(max_share));
    }
    parts << tr("To keep them: %1.").arg(fixes.join(tr("; or ")));
    if (!(doubled > now * 1.001) && !record.domain_fraction && !record.random_mode) {
      parts << tr("Raising ε alone does not help here: the automatic rule gives %1 the same "
                  "ε = %2 at a larger ε (it aims to keep values held by about %3 of the rows, at least %4).")
                   .arg(what, formatEpsilon(now), formatPercent(kKeptShare, 1),
                        countOf(static_cast<std::uint64_t>(kMinKeptRows), tr("row"), tr("rows")));
    }
  }
  return parts.join(QStringLiteral("<br>"));
}

}  // namespace deniable::ui
