// SPDX-License-Identifier: Apache-2.0
// Export: writes exactly the reviewed release (the decoded synthetic table with WriteRawTable,
// the description with WriteDescription), small text files (schema JSON, project file) and the
// release report, all or nothing, in two phases:
//  1. StageExport (worker thread): every file is written (atomically) to a hidden staging name
//     beside its destination and fingerprinted (SHA-256); the input is hashed again.
//  2. The release report (HTML, PDF or both), which needs the fingerprints: its charts need Qt
//     Widgets, so JobController draws them on the UI thread, one per event-loop turn, while
//     StageExport runs; then, on a worker, build_report_html assembles the HTML from those
//     pictures and the fingerprints and StageReport stages it and lays out its PDF.
//  3. CommitExport renames every staged file into place (rename(2): atomic per file), or
//     DiscardExport removes them.
// A failure or a Cancel before the commit leaves every destination as it was. No destination
// may be the input (CheckNotOverwritingInput) or another destination.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QByteArray>
#include <QString>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "ui/report/report_charts.h"
#include "ui/tasks/jobs.h"

namespace deniable::ui {

// What the control rows' file is called in an export (ExportRequest::control_path).
inline constexpr char kControlRowsLabel[] = "Control rows (CSV, owner only)";

struct TextFile {
  QString path;
  QString what;          // "Column settings (schema JSON)"
  std::string contents;
};

struct StagedExport;

struct ExportRequest {
  std::shared_ptr<const RunRecord> run;
  QString csv_path;          // empty: not written
  QString description_path;  // empty: not written
  // The run's control rows (real rows held out for the attack tests), owner-only (0600);
  // empty: not written. Never listed in a report: they are not part of the release.
  QString control_path;
  std::vector<TextFile> text_files;
  // The release report: written last, from the other files' fingerprints, in two halves
  // (report_charts.h) so that the window stays live. report_charts are drawn on the UI thread
  // (Qt Widgets), in order, one per event-loop turn; build_report_html then assembles the HTML
  // from their pictures and the staged files on a worker (it must touch no QObject), and
  // StageReport lays out the PDF there too.
  QString report_path;       // HTML; empty: none
  QString report_pdf_path;   // PDF; empty: none
  QString report_title;      // the PDF's document title
  std::vector<ReportChart> report_charts;
  std::function<Result<QString>(const StagedExport&, const ReportImages&)> build_report_html;
};

struct WrittenFile {
  QString path;
  QString what;
  QByteArray sha256;  // lower-case hex
  std::int64_t bytes = 0;
};

struct StagedFile {
  WrittenFile file;   // final path, what, fingerprint of the staged bytes
  QString staging;    // where the bytes are until CommitExport
};

struct StagedExport {
  std::vector<StagedFile> files;
  QByteArray input_sha256;        // of the input file now
  bool input_changed = false;     // it differs from the hash taken when it was loaded
};

struct ExportReport {
  std::vector<WrittenFile> files;
  QByteArray input_sha256;
  bool input_changed = false;
};

using StageOutcome = Result<std::shared_ptr<StagedExport>>;
using ExportOutcome = Result<ExportReport>;

// Phase 1 (any thread). On error or cancel nothing is left behind.
StageOutcome StageExport(const ExportRequest& request, Progress& progress);
// Stages one more file (the report) beside its destination.
Status StageText(StagedExport& staged, const QString& path, const QString& what,
                 const std::string& contents);
// Stages the release report (any thread: Qt's PDF writer and text layout, no widgets): the
// HTML at request.report_path and its PDF layout at request.report_pdf_path, each when set.
Status StageReport(StagedExport& staged, const ExportRequest& request, const QString& html);
// Phase 2: moves every staged file into place.
ExportOutcome CommitExport(StagedExport& staged);
void DiscardExport(StagedExport& staged);

// Both phases with no report (tests, and any caller without a UI thread).
ExportOutcome ExportFiles(const ExportRequest& request, Progress& progress);

}  // namespace deniable::ui
