// SPDX-License-Identifier: Apache-2.0
// The owner-only part of the release report: the one place that reads statistics of the real
// data (MetricReport) and the input's identity. Only ReportAudience::kOwner includes it.
#include <algorithm>
#include <cassert>

#include "ui/report/report_html.h"
#include "ui/report/report_sections.h"
#include "ui/review/attack_facts.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/review_format.h"
#include "ui/review/risk_facts.h"

namespace deniable::ui::report_sections {
namespace {

using report_html::escape;

constexpr int kRiskGroupRows = 10;  // the riskiest (cell, value) groups listed

QString utilityTables(const MetricReport& report) {
  QList<QPair<QString, QString>> means;
  means << qMakePair(QObject::tr("Mean 1-way TVD (per attribute)"),
                     formatFraction(report.mean_column_tvd));
  means << qMakePair(QObject::tr("Mean 2-way TVD (per attribute pair)"),
                     report.mean_pair_tvd ? formatFraction(*report.mean_pair_tvd)
                                          : QObject::tr("n/a (fewer than two attributes)"));
  means << qMakePair(QObject::tr("Rows compared (real / synthetic)"),
                     QObject::tr("%1 / %2").arg(formatCount(report.real_rows),
                                                formatCount(report.synthetic_rows)));
  QString html = report_html::keyValueTable(means);
  QList<QStringList> rows;
  for (std::size_t i : WorstColumns(report)) {
    const ColumnComparison& column = report.columns[i];
    rows << QStringList{toQString(column.name),
                        QObject::tr("%1 %2")
                            .arg(column.histogram.labels.size())
                            .arg(column.kind == ComparisonKind::kBinned ? QObject::tr("bins")
                                                                        : QObject::tr("values")),
                        formatFraction(column.tvd)};
  }
  html += report_html::table({QObject::tr("Attribute"), QObject::tr("Compared over"),
                              QObject::tr("TVD")},
                             rows);
  if (!report.excluded.empty()) {
    QStringList excluded;
    for (const ExcludedColumn& column : report.excluded) {
      excluded << QStringLiteral("%1 (%2)").arg(toQString(column.name), toQString(column.reason));
    }
    html += QStringLiteral("<p class=\"note\">%1</p>")
                .arg(escape(QObject::tr("Not compared: %1.").arg(excluded.join(QStringLiteral("; ")))));
  }
  return html;
}

// `pictures`: ReportImages::histograms, the charts of WorstColumns(report, count).
QString histogramFigures(const MetricReport& report, int count,
                         const std::vector<QImage>& pictures) {
  const std::vector<std::size_t> shown = WorstColumns(report, count);
  assert(pictures.size() == shown.size() && "the histograms of ReportCharts for these options");
  QString html = QStringLiteral("<div class=\"grid2\">");
  for (std::size_t i = 0; i < shown.size(); ++i) {
    html += report_html::figure(pictures[i], histogramTitle(report.columns[shown[i]]), QString());
  }
  return html + QStringLiteral("</div>");
}

// The Disclosure risk tab's findings (ui/review/risk_view.h): the verdict with the recommended
// ε, the share of records outside the acceptable region at every ε tested, the RR × R plot and
// the riskiest groups. Statistics of the real data: owner part only.
QString riskPart(const RiskAnalysis& analysis, double runEpsilon, const QImage& plot) {
  QString html = QStringLiteral("<h3>%1</h3>")
                     .arg(escape(QObject::tr("Disclosure risk (McClure & Reiter)")));
  html += QStringLiteral("<p>%1</p>").arg(escape(riskVerdict(analysis, runEpsilon)));
  html += QStringLiteral("<p class=\"note\">%1</p>").arg(escape(riskScope(analysis)));
  const TableRiskReport& report = analysis.report;
  const double rows = static_cast<double>(std::max<std::int64_t>(report.rows, 1));
  QList<QPair<QString, QString>> facts;
  facts << qMakePair(QObject::tr("Recommended ε (largest with every record inside)"),
                     report.recommended_epsilon ? formatEpsilon(*report.recommended_epsilon)
                                                : QObject::tr("none of the ε tested"));
  facts << qMakePair(QObject::tr("Records outside the region at ε = %1")
                         .arg(formatEpsilon(analysis.epsilon)),
                     QObject::tr("%1 of %2 (%3)")
                         .arg(formatCount(static_cast<std::uint64_t>(
                                  analysis.shown().records_outside)),
                              formatCount(static_cast<std::uint64_t>(report.rows)),
                              formatPercent(static_cast<double>(analysis.shown().records_outside) /
                                            rows)));
  html += report_html::keyValueTable(facts);
  QList<QStringList> levels;
  for (const EpsilonRisk& level : report.per_epsilon) {
    levels << QStringList{formatEpsilon(level.epsilon),
                          formatCount(static_cast<std::uint64_t>(level.records_outside)),
                          formatPercent(static_cast<double>(level.records_outside) / rows),
                          QString::number(level.max_relative, 'g', 3)};
  }
  html += report_html::table({QObject::tr("ε"), QObject::tr("Records outside"),
                              QObject::tr("Share outside"), QObject::tr("Largest RR")},
                             levels);
  html += report_html::figure(
      plot, QObject::tr("Relative against absolute risk"),
      escape(QObject::tr("Each line: the records sharing a likelihood ratio, as the intruder's "
                         "prior belief grows; blue inside the acceptable region (green), red "
                         "outside. ε = %1.")
                 .arg(formatEpsilon(analysis.epsilon))));
  QList<QStringList> groups;
  for (const RiskGroupRow& row : worstGroups(analysis, kRiskGroupRows)) {
    groups << QStringList{row.cell, row.value, formatCount(static_cast<std::uint64_t>(row.records)),
                          QString::number(row.maxRelative, 'g', 3),
                          QString::number(row.absoluteAtWorst, 'g', 3),
                          row.inside ? QObject::tr("inside") : QObject::tr("outside")};
  }
  html += QStringLiteral("<p>%1</p>").arg(escape(
      QObject::tr("The riskiest (cell, value) groups at ε = %1:").arg(formatEpsilon(analysis.epsilon))));
  html += report_html::table({QObject::tr("Cell"), QObject::tr("Sensitive value"),
                              QObject::tr("Records"), QObject::tr("Largest RR"),
                              QObject::tr("R at the worst prior"), QObject::tr("Region")},
                             groups);
  return html;
}

// The Attacks tab's figures (ui/review/attack_view.h): the finding at the owner's threshold,
// what was attacked, the success-rate chart, the attacks' table, copies and closest records,
// and the ML utility. Computed from real rows: owner part only.
QString attacksPart(const AttackAnalysis& analysis, double threshold, const QImage& chart) {
  const EvaluateReport& r = analysis.report;
  QString html = QStringLiteral("<h3>%1</h3>")
                     .arg(escape(QObject::tr("Attacks on the release (against held-out rows)")));
  const VerdictFinding finding = attackFinding(r, threshold);
  html += QStringLiteral("<p><b>%1</b></p>").arg(escape(toQString(finding.headline)));
  html += QStringLiteral("<p>%1</p>").arg(escape(toQString(finding.reason)));
  html += QStringLiteral("<p class=\"note\">%1</p>").arg(escape(attackScope(r)));
  html += report_html::figure(
      chart, QObject::tr("Success rates of the attacks"),
      escape(QObject::tr("Each attack against the rows the release was made from, against rows "
                         "held out before the run (never seen by the model) and as a random "
                         "guess; whiskers: 95% intervals.")));
  QList<QStringList> attacks;
  for (const AttackRow& row : attackRows(r)) {
    attacks << QStringList{row.name, riskWithInterval(row.risk), rateWithInterval(row.risk.train),
                           rateWithInterval(row.risk.control), rateWithInterval(row.risk.naive),
                           formatCount(row.trials)};
  }
  html += report_html::table({QObject::tr("Attack"), QObject::tr("Risk [interval]"),
                              QObject::tr("Rows it was made from"), QObject::tr("Rows held out"),
                              QObject::tr("Random guess"), QObject::tr("Trials")},
                             attacks);
  html += QStringLiteral("<p>%1</p>").arg(escape(closenessSummary(r)));
  html += QStringLiteral("<p>%1</p>").arg(escape(mlSummary(r)));
  if (r.utility) {
    QList<QStringList> importances;
    for (const FeatureImportance& f : r.utility->importances) {
      importances << QStringList{toQString(f.name), formatPercent(f.real, 1),
                                 formatPercent(f.synthetic, 1)};
    }
    html += report_html::table({QObject::tr("Feature"), QObject::tr("Importance (real)"),
                                QObject::tr("Importance (synthetic)")},
                               importances);
  }
  return html;
}

}  // namespace

QString ownerSection(const ReviewData& data, const ReportContext& context,
                     const ReportOptions& options, const PrivacyFacts& privacy,
                     const ReportImages& images) {
  QString body = QStringLiteral("<p class=\"owner-banner\">%1</p><p>%2</p>")
                     .arg(escape(QObject::tr("Owner only — contains statistics of the real data. "
                                             "Do not publish this part.")),
                          escape(QObject::tr(
                              "Everything below is computed exactly from the real data, without "
                              "privacy protection, for the data owner's own review: remove this "
                              "part (or export the shareable report) before sharing.")));
  QList<QPair<QString, QString>> input;
  input << qMakePair(QObject::tr("Input file"), context.input_path);
  input << qMakePair(QObject::tr("Input SHA-256"), context.input_sha256);
  if (data.real) input << qMakePair(QObject::tr("Input rows"), formatCount(data.real->num_rows()));
  body += QStringLiteral("<h3>%1</h3>").arg(escape(QObject::tr("Input")));
  body += report_html::keyValueTable(input);
  if (!context.cli_command.isEmpty()) {
    body += QStringLiteral("<p>%1</p><p><code>%2</code></p>")
                .arg(escape(QObject::tr("The same run from the command line:")),
                     escape(context.cli_command));
  }
  QString warnings;
  for (const ReviewWarning& warning : privacy.warnings) {
    if (warning.owner_only) warnings += QStringLiteral("<li>%1</li>").arg(escape(warning.text));
  }
  if (!warnings.isEmpty()) {
    body += QStringLiteral("<ul class=\"warnings\">%1</ul>").arg(warnings);
  }
  const MetricReport& report = data.metrics;
  body += QStringLiteral("<h3>%1</h3>").arg(escape(QObject::tr("Utility: real against synthetic")));
  body += QStringLiteral("<p>%1</p>").arg(escape(QObject::tr(
      "Total variation distance (TVD) between the real and the synthetic distributions: 0 = "
      "identical, 1 = disjoint. The 2-way TVD compares the joint distributions of attribute "
      "pairs.")));
  body += utilityTables(report);
  if (!report.columns.empty() && options.histograms > 0) {
    body += QStringLiteral("<h3>%1</h3>").arg(escape(QObject::tr("The attributes that differ most")));
    body += histogramFigures(report, options.histograms, images.histograms);
  }
  if (report.columns.size() >= 2) {
    body += QStringLiteral("<h3>%1</h3>").arg(escape(QObject::tr("Dependence between attributes")));
    body += report_html::figure(
        images.heatmaps, QObject::tr("Normalised mutual information heatmaps"),
        escape(QObject::tr("Normalised mutual information of every attribute pair in the real "
                           "and the synthetic data, on one colour scale.")));
    body += report_html::figure(
        images.heatmap_difference, QObject::tr("Difference of the mutual information heatmaps"),
        escape(QObject::tr("Synthetic minus real: red where the synthetic data ties a pair more "
                           "strongly than the real data, blue where less.")));
  }
  if (options.risk && !options.risk->report.per_epsilon.empty()) {
    body += riskPart(*options.risk, data.settings.epsilon, images.risk_plot);
  }
  if (options.attacks) {
    body += attacksPart(*options.attacks, options.attack_threshold, images.attack_chart);
  }
  return report_html::section(QStringLiteral("owner-only"), QObject::tr("Owner's review"), body,
                              QStringLiteral("owner-only"));
}

}  // namespace deniable::ui::report_sections
