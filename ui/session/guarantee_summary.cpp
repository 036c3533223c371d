// SPDX-License-Identifier: Apache-2.0
#include "ui/session/guarantee_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <QCoreApplication>

#include "engine/deniable/guarantees.h"
#include "engine/model/domains.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/typed_values.h"
#include "ui/session/session.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("Guarantee", text); }

QString quoted(const std::string& name) {
  return QStringLiteral("‘%1’").arg(QString::fromStdString(name));
}

QString costText(double epsilon, double delta) {
  return delta > 0 ? QStringLiteral("ε = %1, δ = %2").arg(formatEpsilon(epsilon), formatDelta(delta))
                   : QStringLiteral("ε = %1").arg(formatEpsilon(epsilon));
}

// ε above which we say the protection is weak (e^5 ≈ 148: an output can be ~150 times more
// likely with a given person's record); the DP literature's usual range is 0.1 to a few.
constexpr double kWeakEpsilon = 5.0;

// Fewer records than this holding a value makes that value "rare" (identifying).
constexpr std::uint64_t kRareCount = 5;

}  // namespace

QString modeTitle(int mode) {
  switch (static_cast<SynthesisMode>(mode)) {
    case SynthesisMode::kRandom: return tr("Random");
    case SynthesisMode::kIndependent: return tr("Independent attributes");
    case SynthesisMode::kCorrelated: return tr("Correlated attributes (PrivBayes)");
    case SynthesisMode::kDeniable: return tr("Plausibly deniable");
    case SynthesisMode::kMarginals: return tr("Marginals (MST / AIM)");
  }
  return {};
}

std::optional<std::pair<double, double>> dataRange(const RawTable& table, std::size_t column,
                                                   const ColumnSchema& schema) {
  if (column >= table.num_columns() || !schema.is_numeric()) return std::nullopt;
  const std::vector<double> values = NumericDictionaryValues(table.columns[column], schema);
  std::optional<std::pair<double, double>> range;
  for (double value : values) {
    if (std::isnan(value)) continue;
    if (!range) {
      range = std::make_pair(value, value);
    } else {
      range->first = std::min(range->first, value);
      range->second = std::max(range->second, value);
    }
  }
  return range;
}

PublicDomainCheck checkPublicDomain(const RawTable& table, std::size_t column,
                                    const ColumnSchema& schema) {
  PublicDomainCheck out;
  if (!schema.is_modelled()) return out;
  if (schema.public_min || schema.public_max) {
    out.declares_bounds = true;
    const auto range = dataRange(table, column, schema);
    if (range && schema.public_min && schema.public_max && *schema.public_min == range->first &&
        *schema.public_max == range->second) {
      out.suspicious << tr("The public bounds of %1 are exactly the data's smallest and largest "
                           "values. If you read them off the data, they are not private: they "
                           "reveal the most extreme records. Use round, generally known limits "
                           "instead.")
                            .arg(quoted(schema.name));
    }
  }
  if (schema.public_categories && column < table.num_columns()) {
    out.declares_categories = true;
    const RawColumn& raw = table.columns[column];
    const std::set<std::string> declared(schema.public_categories->begin(),
                                         schema.public_categories->end());
    const std::set<std::string> observed(raw.dictionary.begin(), raw.dictionary.end());
    std::uint64_t rarest = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) rarest = std::min(rarest, raw.counts[i]);
    // A list equal to the data's values is suspicious when it holds a value few records have:
    // listing it from the data would reveal those records.
    if (declared == observed && rarest < kRareCount) {
      out.suspicious << tr("The public categories of %1 are exactly the values in the data, "
                           "including a value held by fewer than %2 records. If you listed them "
                           "from the data, that rare value reveals who has it; list the values "
                           "that are possible in general instead.")
                            .arg(quoted(schema.name))
                            .arg(kRareCount);
    }
  }
  return out;
}

QStringList publicDomainWarnings(const RawTable& table, std::size_t column,
                                 const ColumnSchema& schema) {
  const PublicDomainCheck check = checkPublicDomain(table, column, schema);
  QStringList out = check.suspicious;
  if (check.suspicious.isEmpty() && (check.declares_bounds || check.declares_categories)) {
    out << tr("Declared public: this is private only if it is genuinely public knowledge, not "
              "read off the data.");
  }
  return out;
}

GuaranteeSummary summarizeGuarantee(const Session& session, bool use_result) {
  GuaranteeSummary out;
  if (!session.hasInput()) return out;
  out.available = true;
  const PrivacySettings& settings = session.settings();
  const auto& result = session.result();
  const bool fresh = use_result && result && !session.resultIsStale();
  out.mode = modeTitle(static_cast<int>(settings.model.mode));
  double whole_release_epsilon = settings.model.epsilon;  // what the warnings judge

  if (fresh) {
    // What the run actually spent: the accountant's totals and the description's guarantee.
    const Description& description = result->release->model.description;
    out.from_ledger = true;
    out.scope = tr("Spent by the last run (from its privacy ledger).");
    // The description's ledger: for the deniable mode it includes the privacy test's spend.
    const nlohmann::json& privacy = description.privacy;
    auto cost = [](const nlohmann::json& json) {
      return json.is_object() ? costText(jsonNumber(json.value("epsilon", nlohmann::json())),
                                         jsonNumber(json.value("delta", nlohmann::json())))
                              : QString();
    };
    out.numbers.push_back({tr("Whole release"), cost(privacy.value("total", nlohmann::json()))});
    if (privacy.contains("total") && privacy["total"].is_object()) {
      whole_release_epsilon = jsonNumber(privacy["total"].value("epsilon", nlohmann::json()));
    }
    out.numbers.push_back({tr("Budget"), cost(privacy.value("budget", nlohmann::json()))});
    if (privacy.contains("entries") && privacy["entries"].is_array()) {
      out.numbers.push_back({tr("Ledger entries"), formatCount(privacy["entries"].size())});
    }
    const nlohmann::json& guarantee = description.guarantee;
    if (guarantee.contains("plausible_deniability")) {
      const nlohmann::json& pd = guarantee["plausible_deniability"];
      out.numbers.push_back({tr("Each record"), QStringLiteral("k = %1, γ = %2")
                                                    .arg(pd.value("k", 0))
                                                    .arg(formatDecimal(jsonNumber(pd.value("gamma", nlohmann::json())), 3))});
      if (guarantee.contains("per_record") && guarantee["per_record"].is_object()) {
        out.numbers.push_back({tr("Per record"), cost(guarantee["per_record"])});
      }
      const SynthesisSummary& summary = result->release->rows.summary;
      if (summary.candidates > 0) {
        out.numbers.push_back({tr("Pass rate"),
                               formatPercent(static_cast<double>(summary.passed) /
                                             static_cast<double>(summary.candidates))});
      }
    }
    out.statement = QString::fromStdString(description.guarantee.value("statement", std::string()));
    for (const std::string& warning : result->release->model.warnings) {
      out.warnings << QString::fromStdString(warning);
    }
    for (const std::string& warning : description.warnings) {
      out.warnings << QString::fromStdString(warning);
    }
  } else {
    const bool deniable = settings.model.mode == SynthesisMode::kDeniable;
    if (deniable) {
      // The privacy test's cost over all candidate attempts comes on top of the model's budget;
      // the engine plans it before the run (PlanDeniableRelease: data-independent).
      out.scope = tr("Planned by the engine for the next run: the model's budget, and the "
                     "privacy test's cost over every candidate attempt on top of it.");
      out.numbers.push_back(
          {tr("Model budget"), costText(settings.model.epsilon, settings.model.delta)});
      const auto plan = PlanDeniableRelease(settings.model, session.outputRows(),
                                            ModelledColumns(session.schema()).size());
      if (plan) {
        out.numbers.push_back(
            {tr("Whole release"), plan->meaningful
                                      ? costText(plan->release.epsilon, plan->release.delta)
                                      : tr("no meaningful DP")});
        whole_release_epsilon = plan->meaningful ? plan->release.epsilon
                                                 : std::numeric_limits<double>::infinity();
        out.statement = QString::fromStdString(plan->statement);
      }
    } else {
      out.scope = tr("The budget of the next run: what it spends is at most this.");
      out.numbers.push_back(
          {tr("Whole release"), costText(settings.model.epsilon, settings.model.delta)});
    }
    if (auto valid = settings.model.Validate(); valid && !deniable) {
      out.statement =
          QString::fromStdString(PlainGuarantee(settings.model.epsilon, settings.model.delta));
    } else if (!valid) {
      out.warnings << QString::fromStdString(valid.error().message);
    }
    if (use_result && result) {
      out.warnings << tr("The results shown were made with earlier settings.");
    }
    if (deniable) {
      const DeniableOptions& options = settings.model.deniable;
      out.numbers.push_back({tr("Each record"), QStringLiteral("k = %1, γ = %2")
                                                    .arg(options.k)
                                                    .arg(formatDecimal(options.gamma, 3))});
      if (options.k >= 2 && options.gamma > 1 && options.epsilon0 > 0) {
        const RecordGuarantee record =
            BestRecordGuarantee(options.k, options.gamma, options.epsilon0, options.record_delta);
        out.numbers.push_back({tr("Per record"), costText(record.cost.epsilon, record.cost.delta)});
        if (!record.meets_delta) {
          out.warnings << tr("k = %1 is too small for the per-record δ: raise k or ε0.").arg(options.k);
        }
      }
    }
  }

  if (settings.reproducible) {
    out.warnings.prepend(tr("Reproducible mode (fixed seed %1): anyone who knows the seed can "
                            "recompute the noise. This is NOT a private release — for testing "
                            "only.")
                             .arg(settings.seed));
  }
  if (whole_release_epsilon > kWeakEpsilon) {
    out.warnings << tr("ε = %1 for the whole release is a weak guarantee: values above about 5 "
                       "protect individuals little.")
                        .arg(formatEpsilon(whole_release_epsilon));
  }
  const Schema& schema = session.schema();
  const RawTable& table = *session.data()->table;
  QStringList declared_bounds;
  QStringList declared_categories;
  for (std::size_t c = 0; c < schema.columns.size(); ++c) {
    const ColumnSchema& column = schema.columns[c];
    const PublicDomainCheck check = checkPublicDomain(table, c, column);
    out.warnings << check.suspicious;
    if (check.declares_bounds) declared_bounds << quoted(column.name);
    if (check.declares_categories) declared_categories << quoted(column.name);
    if (column.role == ColumnRole::kIdentifier) {
      out.notes << tr("%1 is an identifier: it is regenerated, never copied.")
                       .arg(quoted(column.name));
    }
  }
  if (!declared_bounds.isEmpty() || !declared_categories.isEmpty()) {
    QStringList parts;
    if (!declared_bounds.isEmpty()) parts << tr("the bounds of %1").arg(declared_bounds.join(QStringLiteral(", ")));
    if (!declared_categories.isEmpty()) {
      parts << tr("the categories of %1").arg(declared_categories.join(QStringLiteral(", ")));
    }
    out.warnings << tr("You declared public %1. That is private only if they are genuinely public "
                       "knowledge (a codebook, a standard), not read off the data.")
                        .arg(parts.join(tr(" and ")));
  }
  if (session.settings().rows == 0) {
    out.warnings << tr("The release has exactly as many rows as your input (%1), so it reveals "
                       "the input's size. If the size is sensitive, choose a round number of "
                       "rows on the Privacy step.")
                        .arg(formatCount(table.num_rows()));
  } else if (session.outputRows() == table.num_rows()) {
    // A number chosen without looking at the file reveals nothing, even when it happens to
    // equal the file's size; one copied from the file does.
    out.notes << tr("The number of released rows (%1) is public. It equals your input's size: "
                    "fine if you chose it without looking at your file, otherwise it reveals "
                    "the size.")
                     .arg(formatCount(session.outputRows()));
  } else {
    out.notes << tr("The number of released rows (%1) is public.")
                     .arg(formatCount(session.outputRows()));
  }
  return out;
}

}  // namespace deniable::ui
