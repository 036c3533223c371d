// SPDX-License-Identifier: Apache-2.0
#include "ui/review/risk_facts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>

#include <QObject>

#include "engine/risk/disclosure_risk.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

// Three significant digits, no exponent for the ranges the tab shows (RR up to ~1000).
QString number(double value) { return QString::number(value, 'g', 3); }

QString joinNames(const std::vector<std::string>& names) {
  QStringList list;
  for (const std::string& name : names) list << toQString(name);
  return list.join(QStringLiteral(", "));
}

// The prior grid of the engine (w_i = i/(points + 1)) sampled for drawing: `count` values from
// its first to its last point, evenly spaced in log(w / (1 − w)) so both ends are resolved.
std::vector<double> drawnPriors(int points, int count) {
  const double first = 1.0 / (points + 1);
  const double last = static_cast<double>(points) / (points + 1);
  if (points == 1 || count < 2) return {first};
  const double a = std::log(first / (1 - first));
  const double b = std::log(last / (1 - last));
  std::vector<double> priors;
  for (int i = 0; i < count; ++i) {
    const double logit = a + (b - a) * i / (count - 1);
    priors.push_back(1 / (1 + std::exp(-logit)));
  }
  return priors;
}

// Curves of one side of the region, merged into at most `maxCurves` buckets of log Λ; each
// bucket is drawn as its most extreme curve (largest |log Λ|: the riskiest for Λ > 1).
std::vector<RiskCurve> mergeCurves(std::vector<RiskCurve> curves, int maxCurves) {
  if (static_cast<int>(curves.size()) <= maxCurves) return curves;
  const double low = curves.front().logLikelihoodRatio;
  const double high = curves.back().logLikelihoodRatio;
  const double width = (high - low) / maxCurves;
  std::vector<RiskCurve> merged;
  int bucket = -1;
  for (RiskCurve& curve : curves) {
    const int b = std::min(maxCurves - 1,
                           static_cast<int>((curve.logLikelihoodRatio - low) / width));
    if (b != bucket || merged.empty()) {
      merged.push_back(std::move(curve));
      bucket = b;
      continue;
    }
    RiskCurve& kept = merged.back();
    const std::int64_t records = kept.records + curve.records;
    const int groups = kept.groups + curve.groups;
    if (std::abs(curve.logLikelihoodRatio) > std::abs(kept.logLikelihoodRatio)) {
      kept = std::move(curve);
    }
    kept.records = records;
    kept.groups = groups;
  }
  return merged;
}

}  // namespace

RiskColumns riskColumnsOf(const Schema& schema) {
  RiskColumns columns;
  for (const ColumnSchema& column : schema.columns) {
    if (!column.is_modelled()) continue;
    const QString name = toQString(column.name);
    columns.candidates << name;
    if (column.role == ColumnRole::kSensitive && columns.sensitive.isEmpty()) {
      columns.sensitive = name;
    }
    if (column.role == ColumnRole::kQuasiIdentifier) columns.quasi << name;
  }
  return columns;
}

TableRiskOptions riskOptions(const QString& sensitive, const QStringList& quasi, double epsilon,
                             double maxRelative, double maxAbsolute, double maxRelativeAbove) {
  TableRiskOptions options;
  options.sensitive = sensitive.toStdString();
  for (const QString& name : quasi) {
    if (name != sensitive) options.quasi_identifiers.push_back(name.toStdString());
  }
  options.epsilons = DefaultRiskEpsilons();
  options.epsilons.push_back(epsilon);  // the engine sorts and removes duplicates
  options.max_relative_risk = maxRelative;
  options.max_absolute_risk = maxAbsolute;
  options.max_relative_risk_above = maxRelativeAbove;
  return options;
}

QString riskRequestProblem(const RawTable& table, const TableRiskOptions& options) {
  if (options.sensitive.empty()) {
    return QObject::tr("Choose the sensitive attribute: the column an intruder would like to "
                       "learn about someone (a diagnosis, an income). Mark it \"sensitive\" "
                       "in step 2 to have it chosen here.");
  }
  const int index = table.ColumnIndex(options.sensitive);
  if (index < 0) {
    return QObject::tr("'%1' is not a column of the real table.")
        .arg(toQString(options.sensitive));
  }
  if (table.num_rows() < 2) {
    return QObject::tr("The real table has %1: the analysis compares each record with the "
                       "others, so it needs at least two.")
        .arg(table.num_rows() == 1 ? QObject::tr("one record") : QObject::tr("no record"));
  }
  const RawColumn& column = table.columns[static_cast<std::size_t>(index)];
  const std::size_t values = column.distinct() + (column.missing_count > 0 ? 1 : 0);
  if (values < 2) {
    const QString only = column.distinct() == 1 ? QStringLiteral("'%1'").arg(
                                                      toQString(column.dictionary[0]))
                                                : QObject::tr("missing");
    return QObject::tr("'%1' has the same value in every record (%2): there is nothing an "
                       "intruder could learn about one record that the others do not already "
                       "tell. Choose a column with at least two values.")
        .arg(toQString(options.sensitive), only);
  }
  return {};
}

RiskOutcome computeRisk(const RiskRequest& request, Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  auto report = AnalyseTableRisk(*request.table, request.options, progress);
  if (!report) return report.error();
  auto analysis = std::make_shared<RiskAnalysis>();
  analysis->options = request.options;
  analysis->epsilon = request.epsilon;
  analysis->report = std::move(report.value());
  const auto& levels = analysis->report.per_epsilon;
  const auto it = std::find_if(levels.begin(), levels.end(), [&](const EpsilonRisk& level) {
    return level.epsilon == request.epsilon;
  });
  if (it == levels.end()) {
    return InternalError("the risk analysis did not compute epsilon " +
                         std::to_string(request.epsilon));
  }
  analysis->level = static_cast<std::size_t>(it - levels.begin());
  analysis->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::shared_ptr<const RiskAnalysis>(std::move(analysis));
}

std::vector<RiskCurve> riskCurves(const RiskAnalysis& analysis, int maxCurves,
                                  int pointsPerCurve) {
  const EpsilonRisk& level = analysis.shown();
  std::map<double, RiskCurve> byRatio;
  for (std::size_t g = 0; g < level.groups.size(); ++g) {
    const GroupRisk& risk = level.groups[g];
    RiskCurve& curve = byRatio[risk.log_likelihood_ratio];
    if (curve.groups == 0) {
      curve.logLikelihoodRatio = risk.log_likelihood_ratio;
      curve.inside = risk.inside;
      const RecordRisk worst = RiskFromLogLikelihoodRatio(risk.log_likelihood_ratio,
                                                          risk.worst_prior);
      curve.worst = QPointF(worst.absolute, worst.relative);
    }
    curve.records += analysis.report.groups[g].records;
    ++curve.groups;
  }
  std::vector<RiskCurve> inside, outside;
  for (auto& entry : byRatio) (entry.second.inside ? inside : outside).push_back(entry.second);
  std::vector<RiskCurve> curves = mergeCurves(std::move(inside), maxCurves);
  for (RiskCurve& curve : mergeCurves(std::move(outside), maxCurves)) {
    curves.push_back(std::move(curve));
  }
  const std::vector<double> priors =
      drawnPriors(analysis.options.prior_points, pointsPerCurve);
  for (RiskCurve& curve : curves) {
    for (double w : priors) {
      const RecordRisk r = RiskFromLogLikelihoodRatio(curve.logLikelihoodRatio, w);
      curve.points.append(QPointF(r.absolute, r.relative));
    }
  }
  std::sort(curves.begin(), curves.end(), [](const RiskCurve& a, const RiskCurve& b) {
    return a.logLikelihoodRatio < b.logLikelihoodRatio;
  });
  return curves;
}

std::vector<RiskGroupRow> worstGroups(const RiskAnalysis& analysis, int limit) {
  const EpsilonRisk& level = analysis.shown();
  const auto& groups = analysis.report.groups;
  std::vector<std::size_t> order(groups.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const GroupRisk& x = level.groups[a];
    const GroupRisk& y = level.groups[b];
    if (x.inside != y.inside) return !x.inside;
    if (x.max_relative != y.max_relative) return x.max_relative > y.max_relative;
    return groups[a].records > groups[b].records;
  });
  if (static_cast<int>(order.size()) > limit) order.resize(static_cast<std::size_t>(limit));
  std::vector<RiskGroupRow> rows;
  for (std::size_t g : order) {
    const GroupRisk& risk = level.groups[g];
    RiskGroupRow row;
    QStringList cell;
    for (const std::string& value : groups[g].cell) {
      cell << (value.empty() ? QObject::tr("(missing)") : toQString(value));
    }
    row.cell = cell.isEmpty() ? QObject::tr("all records") : cell.join(QStringLiteral(", "));
    row.value = groups[g].value.empty() ? QObject::tr("(missing)") : toQString(groups[g].value);
    row.records = groups[g].records;
    row.cellRecords = groups[g].cell_records;
    row.maxRelative = risk.max_relative;
    row.worstPrior = risk.worst_prior;
    row.absoluteAtWorst =
        RiskFromLogLikelihoodRatio(risk.log_likelihood_ratio, risk.worst_prior).absolute;
    row.absoluteAtHalf = risk.absolute_at_half;
    row.inside = risk.inside;
    rows.push_back(row);
  }
  return rows;
}

QString riskVerdict(const RiskAnalysis& analysis, std::optional<double> runEpsilon) {
  const EpsilonRisk& level = analysis.shown();
  const QString sensitive = toQString(analysis.options.sensitive);
  const QString which = runEpsilon && *runEpsilon == analysis.epsilon
                            ? QObject::tr(" (your run's ε)")
                            : QString();
  QString text;
  if (level.records_outside == 0) {
    text = QObject::tr("At ε = %1%2, every record stays inside the acceptable region: whatever "
                       "an intruder believed beforehand, the synthetic %3 values would not make "
                       "them too sure of anyone's %3.")
               .arg(formatEpsilon(analysis.epsilon), which, sensitive);
  } else {
    text = QObject::tr("At ε = %1%2, %3 of %4 records (%5) fall outside the acceptable region: "
                       "for some prior belief, an intruder who knows all the other records "
                       "would become too sure of their %6.")
               .arg(formatEpsilon(analysis.epsilon), which,
                    formatCount(static_cast<std::uint64_t>(level.records_outside)),
                    formatCount(static_cast<std::uint64_t>(analysis.report.rows)),
                    formatPercent(static_cast<double>(level.records_outside) /
                                  static_cast<double>(analysis.report.rows)),
                    sensitive);
  }
  const auto& levels = analysis.report.per_epsilon;
  const QString smallest = formatEpsilon(levels.front().epsilon);
  const QString largest = formatEpsilon(levels.back().epsilon);
  if (const auto& recommended = analysis.report.recommended_epsilon) {
    text += QStringLiteral(" ") +
            QObject::tr("Recommended: ε = %1, the largest ε tested (%2 to %3) at which every "
                        "record stays inside.")
                .arg(formatEpsilon(*recommended), smallest, largest);
  } else {
    text += QStringLiteral(" ") +
            QObject::tr("No ε tested, down to %1, keeps every record inside: use fewer or "
                        "coarser quasi-identifiers, or widen the acceptable region.")
                .arg(smallest);
  }
  return text;
}

QString riskScope(const RiskAnalysis& analysis) {
  const TableRiskOptions& o = analysis.options;
  const TableRiskReport& r = analysis.report;
  const QString cells =
      o.quasi_identifiers.empty()
          ? QObject::tr("no quasi-identifier (one cell)")
          : QObject::tr("cells from %1: %2").arg(joinNames(o.quasi_identifiers),
                                                 formatCount(static_cast<std::uint64_t>(r.cells)));
  return QObject::tr("%1 (%2 values) · %3 · %4 (cell, value) groups · %5 records · acceptable: "
                     "RR ≤ %6 while R ≤ %7, RR ≤ %8 above · %9 priors · R at the %10 quantile "
                     "of the release")
      .arg(toQString(o.sensitive))
      .arg(r.categories)
      .arg(cells, formatCount(r.groups.size()),
           formatCount(static_cast<std::uint64_t>(r.rows)), number(o.max_relative_risk),
           number(o.max_absolute_risk), number(o.max_relative_risk_above),
           formatCount(static_cast<std::uint64_t>(o.prior_points)))
      .arg(formatPercent(o.quantile, 0));
}

}  // namespace deniable::ui
