// SPDX-License-Identifier: Apache-2.0
// The release report: one self-contained HTML file (CSS inline, charts as base64 PNG images
// rendered offscreen) that documents a release — its guarantees, parameters, privacy ledger,
// domains' provenance, model, and the SHA-256 of every output.
//
// What it may contain (a privacy engineer's checklist). A report is part of a release, so by
// default (ReportAudience::kShareable) it holds ONLY what the release itself already reveals:
// the description file's content (parameters, ledger, guarantees, DP/public domains, the DP
// network) and facts about the output files. It holds NO statistic of the real data: no real
// rows, no real min/max or category lists, no real-vs-synthetic histograms or heatmaps, no
// utility metrics (they are exact functions of the real data), no input row count, and not
// even the input's path or SHA-256 (a hash of the input lets anyone who knows all records but
// one test guesses of the last one).
// ReportAudience::kOwner adds a second part, visibly marked "owner only — contains statistics
// of the real data; do not publish": the input's path and SHA-256, the CLI command, the utility
// metrics, the worst-TVD histograms and the mutual-information heatmaps (and, when computed, the
// Disclosure risk analysis and the attacks on the release).
//
// The same report is written as HTML or as PDF (report_pdf.h: the HTML laid out on A4).
//
// Its charts are rendered with Qt Widgets: what draws them (report_charts.h, and the functions
// here that take no ReportImages) needs a QApplication and the UI thread. Assembling the HTML
// from already drawn images (the overload that takes ReportImages) is text work, for any thread.
#pragma once

#include <memory>
#include <vector>

#include <QDateTime>
#include <QString>

#include "engine/core/result.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

struct ReportOutputFile {
  QString label;   // "Synthetic data", "Description file"
  QString path;    // only its file name appears in a shareable report
  QString sha256;  // lowercase hex
};

struct ReportContext {
  QString input_path;
  QString input_sha256;
  std::vector<ReportOutputFile> outputs;
  QString cli_command;  // "deniable-cli synthesize ..." reproducing the run
  QString app_version = QStringLiteral(DENIABLE_VERSION);
  QDateTime created = QDateTime::currentDateTimeUtc();
};

enum class ReportAudience {
  kShareable,  // only what the release already reveals (the default)
  kOwner,      // plus the owner-only part with statistics of the real data
};

struct RiskAnalysis;    // ui/review/risk_facts.h
struct AttackAnalysis;  // ui/review/attack_facts.h

struct ReportOptions {
  ReportAudience audience = ReportAudience::kShareable;
  int histograms = 4;  // owner part: this many worst-TVD attributes get a chart
  // Owner part only: the Disclosure risk analysis of the real table (McClure & Reiter), when
  // one was computed — its verdict, recommended ε, share of records outside the acceptable
  // region, riskiest groups and RR × R plot. A shareable report never shows it.
  std::shared_ptr<const RiskAnalysis> risk;
  // Owner part only: the Attacks tab's figures, when computed (attacks against the rows held
  // out, copies, closest records, ML utility), judged at `attack_threshold`; they join the
  // owner's verdict. A shareable report never shows them.
  std::shared_ptr<const AttackAnalysis> attacks;
  double attack_threshold = 0.1;
};

enum class ReportFormat { kHtml, kPdf };

// The format a report's file name asks for: ".pdf" (any case) is kPdf, anything else kHtml.
ReportFormat ReportFormatOf(const QString& path);

struct ReportImages;  // ui/report/report_charts.h

// The report's HTML (UI thread): draws its charts (DrawReportImages), then assembles it.
QString BuildReleaseReportHtml(const ReviewData& data, const ReportContext& context,
                               const ReportOptions& options = {});
// The report's HTML from the charts of ReportCharts(data, options), already drawn (any thread:
// no widget is touched). The same bytes as the overload above.
QString BuildReleaseReportHtml(const ReviewData& data, const ReportContext& context,
                               const ReportOptions& options, const ReportImages& images);

// Builds the report (UI thread) and writes it atomically (engine/core/atomic_file.h) as HTML or PDF
// (ReportFormatOf(path)); refuses to write over the input. Errors name the path.
Status WriteReleaseReport(const QString& path, const ReviewData& data,
                          const ReportContext& context, const ReportOptions& options = {});

// SHA-256 of a file's bytes, lowercase hex (for ReportContext); errors name the path.
Result<QString> FileSha256(const QString& path);

}  // namespace deniable::ui
