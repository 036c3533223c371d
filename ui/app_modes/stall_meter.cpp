// SPDX-License-Identifier: Apache-2.0
#include "ui/app_modes/stall_meter.h"

#include <algorithm>
#include <cstdio>

#include <QApplication>
#include <QTimer>

#include "ui/main_window.h"
#include "ui/project/session_files.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/util/errors.h"

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
  if (now - last_poke_ns_ >= kPokeEveryNs && phase_ > 0) {
    // Switch among the steps that are open during a run, and resize: layouts and paints on the
    // UI thread while the engine works.
    last_poke_ns_ = now;
    ++poke_;
    const Step steps[] = {Step::kData, Step::kColumns, Step::kPrivacy, Step::kRun};
    window_->showStep(steps[poke_ % 4]);
    window_->resize(poke_ % 2 ? 1280 : 1200, poke_ % 2 ? 800 : 760);
  }
  if (phase_ == 2 && cancel_requested_ns_ < 0 && phase_clock_.nsecsElapsed() >= kCancelAfterNs) {
    cancel_requested_ns_ = clock_.nsecsElapsed();
    window_->jobs()->cancel();
  }
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
    phase_ = 1;
    beginPhase();
    window_->jobs()->startRun();
    return;
  }
  if (phase_ == 1) {
    report(how == JobController::End::kSucceeded ? "run" : "run (failed)");
    if (how != JobController::End::kSucceeded) std::fprintf(stderr, "%s\n", qPrintable(message));
    phase_ = 2;
    beginPhase();
    window_->jobs()->startRun();
    return;
  }
  report("cancelled run");
  const double latency_ms =
      static_cast<double>(clock_.nsecsElapsed() - cancel_requested_ns_) / 1e6;
  std::printf("cancel latency %.1f ms (Cancel to the job's end; %s)\n", latency_ms,
              qPrintable(message));
  std::printf("worst UI stall %.1f ms (target <= 100 ms)\n",
              static_cast<double>(worst_overall_ns_) / 1e6);
  QApplication::exit(worst_overall_ns_ <= 100'000'000 ? 0 : 2);
}

}  // namespace deniable::ui
