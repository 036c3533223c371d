// SPDX-License-Identifier: Apache-2.0
#include "ui/app_modes/stall_meter.h"

#include <algorithm>
#include <cstdio>

#include <QApplication>
#include <QTimer>
#include <QUndoStack>
#include <nlohmann/json.hpp>

#include "ui/main_window.h"
#include "ui/pages/review_page.h"
#include "ui/project/session_files.h"
#include "ui/review/review_widget.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/errors.h"

namespace deniable::ui {
namespace {
constexpr int kTickMs = 10;
constexpr qint64 kPokeEveryNs = 100'000'000;  // what a busy user does: every 100 ms
constexpr qint64 kCancelAfterNs = 1'000'000'000;
}  // namespace

StallMeter::StallMeter(MainWindow* window, QString path, QObject* parent)
    : QObject(parent), window_(window), path_(std::move(path)), tick_(new QTimer(this)) {
  tick_->setInterval(kTickMs);
  tick_->setTimerType(Qt::PreciseTimer);
  connect(tick_, &QTimer::timeout, this, &StallMeter::onTick);
  connect(window_->jobs(), &JobController::finished, this,
          [this](JobController::Kind kind, JobController::End end, const QString& message) {
            onFinished(static_cast<int>(kind), static_cast<int>(end), message);
          });
}

void StallMeter::start() {
  window_->resize(1280, 800);
  window_->show();
  clock_.start();
  beginPhase();
  tick_->start();
  if (auto s = window_->files()->openCsv(path_); !s) {
    std::fprintf(stderr, "deniable --measure-stall: %s\n", qPrintable(describeError(s.error())));
    QApplication::exit(1);
  }
}

void StallMeter::beginPhase() {
  phase_clock_.start();
  last_tick_ns_ = clock_.nsecsElapsed();
  max_gap_ns_ = 0;
  ticks_ = 0;
}

void StallMeter::onTick() {
  const qint64 now = clock_.nsecsElapsed();
  max_gap_ns_ = std::max(max_gap_ns_, now - last_tick_ns_);
  last_tick_ns_ = now;
  ++ticks_;
  const bool poke = qEnvironmentVariableIsEmpty("DENIABLE_STALL_NO_POKE");
  if (poke && now - last_poke_ns_ >= kPokeEveryNs && phase_ > 0) {
    // Switch among the steps that are open during a run, and resize: layouts and paints on the
    // UI thread while the engine works.
    last_poke_ns_ = now;
    ++poke_;
    const Step steps[] = {Step::kData, Step::kColumns, Step::kPrivacy, Step::kRun};
    QElapsedTimer timer;
    timer.start();
    window_->showStep(steps[poke_ % 4]);
    window_->resize(poke_ % 2 ? 1280 : 1200, poke_ % 2 ? 800 : 760);
    slowest_poke_ns_ = std::max(slowest_poke_ns_, timer.nsecsElapsed());
  }
  if (phase_ == 2 && cancel_requested_ns_ < 0 && phase_clock_.nsecsElapsed() >= kCancelAfterNs) {
    cancel_requested_ns_ = clock_.nsecsElapsed();
    cancel_stage_ = window_->jobs()->trace()->currentStage();
    window_->jobs()->cancel();
  }
}

void StallMeter::timeColumnEdit() {
  // A column edit runs on the UI thread (the engine's ApplySchemaJson recomputes the column's
  // stats for a new type): time a type change and its undo on the first numeric column.
  Session* session = window_->session();
  for (const ColumnSchema& column : session->schema().columns) {
    if (column.type != DataType::kInteger) continue;
    QElapsedTimer timer;
    timer.start();
    const nlohmann::json change = {
        {"columns", nlohmann::json::array({{{"name", column.name}, {"type", "Float"}}})}};
    const Status status = session->editColumns(change, QStringLiteral("timing"));
    const double edit_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    session->undoStack()->undo();
    const double undo_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    std::printf("column edit    %s -> Float: %.1f ms, undo %.1f ms%s\n", column.name.c_str(),
                edit_ms, undo_ms, status ? "" : " (refused)");
    return;
  }
}

void StallMeter::timePaints() {
  // Showing a step and painting the whole window (grab() lays out and paints synchronously).
  std::printf("show + paint  ");
  for (Step step : {Step::kData, Step::kColumns, Step::kPrivacy, Step::kRun}) {
    QElapsedTimer timer;
    timer.start();
    window_->showStep(step);
    (void)window_->grab();
    const double paint_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    window_->resize(1200, 760);
    window_->resize(1280, 800);
    std::printf(" %s %.1f ms (2 resizes %.1f ms)", qPrintable(stepTitle(step)), paint_ms,
                static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  std::printf("\n");
}

void StallMeter::timeHandOver() {
  // What the UI thread does with a finished run, piece by piece (the review views are another
  // module's; the rest is the shell's).
  Session* session = window_->session();
  const auto result = session->result();
  QElapsedTimer timer;
  timer.start();
  window_->reviewPage()->reviewWidget()->setData(result->review);
  const double review_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  timer.restart();
  emit session->stateChanged();  // step list, guarantee panel, pages
  const double shell_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  std::printf("hand-over      review views %.1f ms, shell (steps, guarantee, pages) %.1f ms\n",
              review_ms, shell_ms);
}

void StallMeter::report(const char* phase) {
  // The job's result was just applied on the UI thread (session, pages, review views): that
  // time since the last tick is a stall too.
  max_gap_ns_ = std::max(max_gap_ns_, clock_.nsecsElapsed() - last_tick_ns_);
  worst_overall_ns_ = std::max(worst_overall_ns_, max_gap_ns_);
  std::printf("%-14s %8.2f s  longest UI stall %7.1f ms  (%lld ticks of %d ms)\n", phase,
              static_cast<double>(phase_clock_.nsecsElapsed()) / 1e9,
              static_cast<double>(max_gap_ns_) / 1e6, static_cast<long long>(ticks_), kTickMs);
  std::fflush(stdout);
}

void StallMeter::onFinished(int kind, int end, const QString& message) {
  const auto how = static_cast<JobController::End>(end);
  if (static_cast<JobController::Kind>(kind) == JobController::Kind::kLoad) {
    if (how != JobController::End::kSucceeded) {
      std::fprintf(stderr, "deniable --measure-stall: %s\n", qPrintable(message));
      QApplication::exit(1);
      return;
    }
    report("load");
    timeColumnEdit();
    timePaints();
    phase_ = 1;
    beginPhase();
    window_->jobs()->startRun();
    return;
  }
  if (phase_ == 1) {
    report(how == JobController::End::kSucceeded ? "run" : "run (failed)");
    if (how == JobController::End::kSucceeded) timeHandOver();
    if (how != JobController::End::kSucceeded) std::fprintf(stderr, "%s\n", qPrintable(message));
    phase_ = 2;
    beginPhase();
    window_->jobs()->startRun();
    return;
  }
  report("cancelled run");
  const double latency_ms =
      static_cast<double>(clock_.nsecsElapsed() - cancel_requested_ns_) / 1e6;
  std::printf("cancel latency %.1f ms (Cancel during \"%s\" to the job's end; %s)\n", latency_ms,
              qPrintable(cancel_stage_), qPrintable(message));
  std::printf("slowest step switch + resize %.1f ms (the switch itself; the layout and paint it "
              "triggers follow in the event loop)\n",
              static_cast<double>(slowest_poke_ns_) / 1e6);
  std::printf("worst UI stall %.1f ms (target <= 100 ms)\n",
              static_cast<double>(worst_overall_ns_) / 1e6);
  QApplication::exit(worst_overall_ns_ <= 100'000'000 ? 0 : 2);
}

}  // namespace deniable::ui
