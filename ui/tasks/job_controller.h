// SPDX-License-Identifier: Apache-2.0
// JobController: starts the session's background jobs (load, run, export, the deniable mode's
// pass-rate advice), one at a time, on Qt Concurrent; watches them with QFutureWatchers; stores
// what they produce in the Session on the UI thread; reports progress, time left and the
// outcome. Cancel stops the engine at its next poll and leaves the session as it was (a
// cancelled future holds no result; nothing is written: the run writes no file, the export
// stages its files and commits them only at the end). An export with a release report draws
// the report's charts on the UI thread, one per event-loop turn, while its files are staged in
// the background; the report's HTML and PDF are then made on a worker (export_job.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "ui/tasks/export_job.h"
#include "ui/tasks/job_trace.h"
#include "ui/tasks/jobs.h"

class QTimer;

namespace deniable::ui {

class Session;

class JobController : public QObject {
  Q_OBJECT

 public:
  enum class Kind { kNone, kLoad, kRun, kExport, kAdvise };
  enum class End { kSucceeded, kCancelled, kFailed };
  Q_ENUM(Kind)
  Q_ENUM(End)

  explicit JobController(Session* session, QObject* parent = nullptr);
  ~JobController() override;

  bool busy() const { return kind_ != Kind::kNone; }
  Kind kind() const { return kind_; }
  // The running (or last) job's stages; never null.
  std::shared_ptr<const JobTrace> trace() const { return trace_; }

  // Each returns false (and starts nothing) while another job runs.
  bool startLoad(const LoadRequest& request, const PrivacySettings* settings = nullptr);
  bool startRun();
  bool startExport(const ExportRequest& request);
  // Deniable mode: the engine advisor's pass-rate sweep for the current settings.
  bool startAdvice();
  // Cancels the running job (no-op when idle). finished() follows once the worker stopped.
  void cancel();
  // Blocks until the running job's worker returned (tests and shutdown only; the UI waits for
  // finished()). The finished() signal still arrives through the event loop.
  void waitForWorker();

  // The run the next startRun() would make (for estimates and the CLI command).
  RunRequest nextRunRequest() const;

  const ExportReport& lastExport() const { return last_export_; }

 signals:
  void started(deniable::ui::JobController::Kind kind, const QString& title);
  // fraction in [0, 1]; seconds_left < 0 when unknown.
  void progressChanged(double fraction, const QString& stage, double seconds_left);
  void finished(deniable::ui::JobController::Kind kind, deniable::ui::JobController::End end,
                const QString& message);

 private:
  void begin(Kind kind, const QString& title);
  void end(End how, const QString& message);
  void emitProgress();
  void onLoadFinished();
  void onRunFinished();
  void onExportFinished();
  // The report's next chart (UI thread; Qt Widgets), then the next one a turn of the event
  // loop later: the window stays live, the progress names the chart and Cancel is honoured
  // between charts. After the last one, startReport once the files are staged.
  void drawNextChart();
  bool chartsDrawn() const { return next_chart_ >= report_charts_.size(); }
  void showChartStage();
  // The files are staged and the charts drawn: assembles the report's HTML from the pictures
  // and lays out its PDF on a worker (or discards everything when Cancel was pressed).
  void startReport();
  void onReportFinished();
  // The export's last step: moves the staged files into place (or discards them when Cancel
  // was pressed after the worker's last poll) and ends the job.
  void commitExport(StagedExport& staged);
  void onAdviceFinished();

  Session* session_;
  Kind kind_ = Kind::kNone;
  std::shared_ptr<JobTrace> trace_;
  QFutureWatcher<LoadOutcome> load_watcher_;
  QFutureWatcher<RunOutcome> run_watcher_;
  QFutureWatcher<StageOutcome> export_watcher_;
  // The release report's HTML and PDF, after its charts were drawn on the UI thread.
  QFutureWatcher<StageOutcome> report_watcher_;
  QFutureWatcher<AdviceOutcome> advice_watcher_;
  ExportRequest export_request_;
  // The export's report while its charts are drawn: what is left to draw, what was drawn, and
  // the staged files once StageExport returned.
  std::vector<ReportChart> report_charts_;
  std::size_t next_chart_ = 0;
  ReportImages report_images_;
  std::shared_ptr<StagedExport> staged_;
  QTimer* chart_timer_;
  QTimer* tick_;
  bool have_load_settings_ = false;
  PrivacySettings load_settings_;
  std::shared_ptr<std::atomic<bool>> export_stop_ = std::make_shared<std::atomic<bool>>(false);
  ExportReport last_export_;
};

}  // namespace deniable::ui
