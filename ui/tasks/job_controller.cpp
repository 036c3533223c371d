// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/job_controller.h"

#include <QFileInfo>
#include <QTimer>

#include "ui/app/app_settings.h"
#include "ui/session/session.h"
#include "ui/tasks/run_in_background.h"
#include "ui/text/errors.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

// An export's progress with a report: the files are staged (to kStagedShare) while the charts
// are drawn (from kStagedShare to kChartsDrawn, the two overlap), then the report is assembled
// and laid out.
constexpr double kStagedShare = 0.4;
constexpr double kChartsDrawn = 0.8;

// Cancellation by a flag instead of QFuture::cancel, for the export: its future must always
// deliver a result, because once the files are moved into place a late Cancel must not be
// reported as "nothing written".
class FlagProgress final : public Progress {
 public:
  FlagProgress(Progress& parent, const std::atomic<bool>& stop) : parent_(parent), stop_(stop) {}
  void Report(double fraction, std::string_view stage) override { parent_.Report(fraction, stage); }
  bool IsCancelled() const override { return stop_.load() || parent_.IsCancelled(); }

 private:
  Progress& parent_;
  const std::atomic<bool>& stop_;
};

}  // namespace

JobController::JobController(Session* session, QObject* parent)
    : QObject(parent),
      session_(session),
      trace_(std::make_shared<JobTrace>()),
      chart_timer_(new QTimer(this)),
      tick_(new QTimer(this)) {
  for (QFutureWatcherBase* watcher :
       {static_cast<QFutureWatcherBase*>(&load_watcher_),
        static_cast<QFutureWatcherBase*>(&run_watcher_),
        static_cast<QFutureWatcherBase*>(&export_watcher_),
        static_cast<QFutureWatcherBase*>(&report_watcher_),
        static_cast<QFutureWatcherBase*>(&advice_watcher_)}) {
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, &JobController::emitProgress);
  }
  connect(&load_watcher_, &QFutureWatcherBase::finished, this, &JobController::onLoadFinished);
  connect(&run_watcher_, &QFutureWatcherBase::finished, this, &JobController::onRunFinished);
  connect(&export_watcher_, &QFutureWatcherBase::finished, this, &JobController::onExportFinished);
  connect(&report_watcher_, &QFutureWatcherBase::finished, this, &JobController::onReportFinished);
  connect(&advice_watcher_, &QFutureWatcherBase::finished, this, &JobController::onAdviceFinished);
  // One chart per turn of the event loop: what is queued (paints, input, Cancel) runs between.
  chart_timer_->setSingleShot(true);
  chart_timer_->setInterval(0);
  connect(chart_timer_, &QTimer::timeout, this, &JobController::drawNextChart);
  // Progress signals can be sparse (a long stage reports rarely): refresh the time left.
  tick_->setInterval(250);
  connect(tick_, &QTimer::timeout, this, &JobController::emitProgress);
}

JobController::~JobController() {
  // Never leave a worker running into a destroyed session: cancel and wait (it stops within a
  // fraction of a second at the engine's next poll).
  cancel();
  waitForWorker();
}

void JobController::begin(Kind kind, const QString& title) {
  kind_ = kind;
  trace_ = std::make_shared<JobTrace>();
  tick_->start();
  emit started(kind, title);
  emit progressChanged(0, title, -1);
}

void JobController::end(End how, const QString& message) {
  const Kind kind = kind_;
  kind_ = Kind::kNone;
  tick_->stop();
  chart_timer_->stop();
  report_charts_.clear();
  report_images_ = ReportImages{};
  staged_.reset();
  export_request_ = ExportRequest{};
  emit finished(kind, how, message);
}

void JobController::emitProgress() {
  if (!busy()) return;
  emit progressChanged(trace_->fraction(), trace_->currentStage(), trace_->secondsLeft());
}

bool JobController::startLoad(const LoadRequest& request, const PrivacySettings* settings) {
  if (busy()) return false;
  have_load_settings_ = settings != nullptr;
  if (settings != nullptr) load_settings_ = *settings;
  begin(Kind::kLoad, tr("Opening %1").arg(QFileInfo(request.path).fileName()));
  load_watcher_.setFuture(runInBackground<LoadOutcome>(
      trace_, [request](Progress& progress) { return LoadData(request, progress); }));
  return true;
}

RunRequest JobController::nextRunRequest() const {
  RunRequest request;
  request.data = session_->data();
  request.schema = session_->schema();
  request.settings = session_->settings();
  request.rows = session_->outputRows();
  request.settings.model.threads = AppSettings::engineThreads();
  return request;
}

bool JobController::startRun() {
  if (busy() || !session_->hasInput()) return false;
  const RunRequest request = nextRunRequest();
  begin(Kind::kRun, tr("Synthesizing %1").arg(formatRows(request.rows)));
  run_watcher_.setFuture(runInBackground<RunOutcome>(
      trace_, [request](Progress& progress) { return RunSynthesis(request, progress); }));
  return true;
}

bool JobController::startExport(const ExportRequest& request) {
  if (busy()) return false;
  begin(Kind::kExport, tr("Exporting"));
  export_request_ = request;
  report_charts_ = std::move(export_request_.report_charts);
  export_request_.report_charts.clear();
  const bool report = (!request.report_path.isEmpty() || !request.report_pdf_path.isEmpty()) &&
                      request.build_report_html;
  if (!report) report_charts_.clear();
  next_chart_ = 0;
  export_stop_ = std::make_shared<std::atomic<bool>>(false);
  export_watcher_.setFuture(runInBackground<StageOutcome>(
      trace_, [request = export_request_, stop = export_stop_,
               share = report ? kStagedShare : 1.0](Progress& progress) {
        FlagProgress flagged(progress, *stop);
        SubProgress staging(flagged, 0.0, share);
        return StageExport(request, staging);
      }));
  // The charts are drawn meanwhile, here: the staging needs no UI thread.
  if (!chartsDrawn()) {
    showChartStage();
    chart_timer_->start();
  }
  return true;
}

bool JobController::startAdvice() {
  if (busy() || !session_->hasInput()) return false;
  const RunRequest request = nextRunRequest();
  begin(Kind::kAdvise, tr("Estimating pass rates"));
  advice_watcher_.setFuture(runInBackground<AdviceOutcome>(
      trace_, [request](Progress& progress) { return AdviseSynthesis(request, progress); }));
  return true;
}

void JobController::cancel() {
  switch (kind_) {
    case Kind::kLoad: load_watcher_.cancel(); break;
    case Kind::kRun: run_watcher_.cancel(); break;
    case Kind::kExport: export_stop_->store(true); break;
    case Kind::kAdvise: advice_watcher_.cancel(); break;
    case Kind::kNone: break;
  }
}

void JobController::waitForWorker() {
  load_watcher_.waitForFinished();
  run_watcher_.waitForFinished();
  export_watcher_.waitForFinished();
  report_watcher_.waitForFinished();
  advice_watcher_.waitForFinished();
}

void JobController::onLoadFinished() {
  if (load_watcher_.isCanceled()) {  // a cancelled future holds no result
    end(End::kCancelled, tr("Opening cancelled: nothing changed."));
    return;
  }
  const LoadOutcome outcome = load_watcher_.result();
  if (!outcome) {
    end(outcome.error().code == ErrorCode::kCancelled ? End::kCancelled : End::kFailed,
        describeError(outcome.error()));
    return;
  }
  session_->setData(outcome.value(), have_load_settings_ ? &load_settings_ : nullptr);
  end(End::kSucceeded, tr("Opened %1: %2, %3 columns")
                           .arg(QFileInfo(outcome.value()->path).fileName(),
                                formatRows(outcome.value()->table->num_rows()))
                           .arg(outcome.value()->table->num_columns()));
}

void JobController::onRunFinished() {
  if (run_watcher_.isCanceled()) {
    end(End::kCancelled, tr("Run cancelled: the previous results are unchanged."));
    return;
  }
  const RunOutcome outcome = run_watcher_.result();
  if (!outcome) {
    if (outcome.error().code == ErrorCode::kCancelled) {
      end(End::kCancelled, tr("Run cancelled: the previous results are unchanged."));
      return;
    }
    const QString message = describeError(outcome.error());
    session_->setRunError(message);
    end(End::kFailed, message);
    return;
  }
  session_->setResult(outcome.value());
  end(End::kSucceeded, tr("Synthesized %1 in %2")
                           .arg(formatRows(outcome.value()->request.rows),
                                formatSeconds(outcome.value()->seconds)));
}

void JobController::onExportFinished() {
  const StageOutcome outcome = export_watcher_.result();
  if (!outcome) {
    if (outcome.error().code == ErrorCode::kCancelled) {
      end(End::kCancelled, tr("Export cancelled: no file was written."));
    } else {
      end(End::kFailed, describeError(outcome.error()));
    }
    return;
  }
  staged_ = outcome.value();
  const ExportRequest& request = export_request_;
  if ((request.report_path.isEmpty() && request.report_pdf_path.isEmpty()) ||
      !request.build_report_html || export_stop_->load()) {
    commitExport(*staged_);  // discards instead when Cancel was pressed
    return;
  }
  if (chartsDrawn()) startReport();  // else drawNextChart starts it after the last chart
}

void JobController::showChartStage() {
  const double drawn =
      static_cast<double>(next_chart_) / static_cast<double>(report_charts_.size());
  trace_->report(kStagedShare + (kChartsDrawn - kStagedShare) * drawn,
                 tr("Drawing the report's charts (%1 of %2): %3")
                     .arg(next_chart_ + 1)
                     .arg(report_charts_.size())
                     .arg(report_charts_[next_chart_].title));
  emitProgress();
}

void JobController::drawNextChart() {
  if (kind_ != Kind::kExport || chartsDrawn()) return;
  if (export_stop_->load()) {
    next_chart_ = report_charts_.size();  // Cancel: draw no more
  } else {
    report_charts_[next_chart_].draw(report_images_);
    ++next_chart_;
    if (!chartsDrawn()) {
      showChartStage();
      chart_timer_->start();
      return;
    }
  }
  if (staged_) startReport();  // else onExportFinished starts it once the files are staged
}

void JobController::startReport() {
  std::shared_ptr<StagedExport> staged = std::move(staged_);
  staged_.reset();
  if (export_stop_->load()) {
    commitExport(*staged);  // discards
    return;
  }
  // The HTML (the pictures' PNG encoding, the verdict's utility baselines) and its PDF layout
  // (about 2 s for the demo's owner report) in the background like the rest of the export.
  report_watcher_.setFuture(runInBackground<StageOutcome>(
      trace_,
      [staged, request = std::move(export_request_), images = std::move(report_images_),
       stop = export_stop_](Progress& progress) -> StageOutcome {
        progress.Report(kChartsDrawn, "Assembling the release report");
        auto html = request.build_report_html(*staged, images);
        if (!html) {
          DiscardExport(*staged);
          return html.error();
        }
        if (!stop->load()) {
          progress.Report(0.85, "Laying out the release report");
          if (Status s = StageReport(*staged, request, html.value()); !s) {
            DiscardExport(*staged);
            return s.error();
          }
        }
        if (stop->load()) {
          DiscardExport(*staged);
          return Cancelled("export cancelled");
        }
        return staged;
      }));
  export_request_ = ExportRequest{};
  report_images_ = ReportImages{};
}

void JobController::onReportFinished() {
  const StageOutcome outcome = report_watcher_.result();
  if (!outcome) {  // the worker discarded the staged files
    if (outcome.error().code == ErrorCode::kCancelled) {
      end(End::kCancelled, tr("Export cancelled: no file was written."));
    } else {
      end(End::kFailed, describeError(outcome.error()));
    }
    return;
  }
  commitExport(*outcome.value());
}

void JobController::commitExport(StagedExport& staged) {
  if (export_stop_->load()) {  // Cancel pressed after the worker's last poll
    DiscardExport(staged);
    end(End::kCancelled, tr("Export cancelled: no file was written."));
    return;
  }
  auto committed = CommitExport(staged);
  if (!committed) {
    end(End::kFailed, describeError(committed.error()));
    return;
  }
  last_export_ = committed.value();
  session_->markExported();
  end(End::kSucceeded, tr("Exported %1").arg(countOf(last_export_.files.size(), tr("file"),
                                                     tr("files"))));
}

void JobController::onAdviceFinished() {
  if (advice_watcher_.isCanceled()) {
    end(End::kCancelled, tr("Estimate cancelled."));
    return;
  }
  const AdviceOutcome outcome = advice_watcher_.result();
  if (!outcome) {
    end(outcome.error().code == ErrorCode::kCancelled ? End::kCancelled : End::kFailed,
        describeError(outcome.error()));
    return;
  }
  session_->setAdvice(outcome.value());
  end(End::kSucceeded, tr("Pass rates estimated (for your eyes only)"));
}

}  // namespace deniable::ui
