// SPDX-License-Identifier: Apache-2.0
// DomainForecaster: keeps the domain forecast (domain_forecast.h) in step with the session —
// recomputed in the background whenever the input, the column settings or the privacy
// settings change, never on the UI thread.
//
//  * One computation at a time on Qt Concurrent. A change while one runs queues the newest
//    request only (replacing any older one waiting), so dragging the ε slider starts at most
//    one more computation, for where the slider stopped. The engine's ForecastDomains cannot
//    be interrupted: a stale computation runs to its end (~1 s on 1.5M rows) and its result
//    goes into the cache without being shown.
//  * Paused while a job (load, run, export, advice) runs (MainWindow: JobController::started
//    and finished): requests wait, so a forecast never competes with a run for the cores; and
//    its thread has the lowest priority, so one already computing when a run starts yields.
//  * Results are cached per (input, column settings, ε, δ, domain share): undo, redo and
//    moving a slider back show a known forecast at once.
//  * It is independent of the JobController: a forecast never blocks (or waits for) a load,
//    a run or an export. It runs on a pool of its own (one thread), never on Qt's global
//    pool: Qt's raster painting splits some image work over the global pool and waits for it
//    on the UI thread, so a forecast occupying a global thread beside a run froze the window
//    for seconds on a 1.5M-row file (deniable --measure-stall).
#pragma once

#include <memory>
#include <optional>

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QString>
#include <QStringList>

#include "ui/tasks/domain_forecast.h"

namespace deniable::ui {

class Session;

class DomainForecaster : public QObject {
  Q_OBJECT

 public:
  enum class State { kNoInput, kComputing, kReady, kFailed };
  Q_ENUM(State)

  // The cache holds at most this many forecasts (a few KB each).
  static constexpr int kCacheSize = 32;

  explicit DomainForecaster(Session* session, QObject* parent = nullptr);
  ~DomainForecaster() override;

  State state() const { return state_; }
  // The forecast for the session's current settings (null while computing or on failure).
  const std::shared_ptr<const DomainForecastRecord>& current() const { return current_; }
  QString error() const { return error_; }
  // True while a worker computes (the current request or a stale one being dropped).
  bool busy() const { return running_; }
  // How many computations were started (tests: caching and coalescing).
  int computations() const { return computations_; }

  // Brings the forecast up to date with the session (called on every session change).
  void refresh();
  // While paused no computation starts (a running one finishes); the newest request waits.
  void setPaused(bool paused);
  bool paused() const { return paused_; }
  // Blocks until the running computation's worker returned (tests and shutdown only; the
  // result still arrives through the event loop).
  void waitForWorker();

 signals:
  // state(), current() or error() changed.
  void changed();

 private:
  void start(const DomainForecastRequest& request);
  void startPending();
  void onFinished();
  void setState(State state);

  Session* session_;
  QThreadPool pool_;  // before the watcher: destroyed after it (its destructor waits)
  QFutureWatcher<DomainForecastOutcome> watcher_;
  // A computation was started and its finished() has not been handled yet. The watcher gets a
  // new future only when this is false, so no finished() signal is ever lost or misread.
  bool running_ = false;
  bool paused_ = false;
  QString running_key_;
  std::optional<DomainForecastRequest> pending_;
  QString wanted_key_;
  QHash<QString, std::shared_ptr<const DomainForecastRecord>> cache_;
  QStringList cache_order_;  // oldest first
  std::shared_ptr<const DomainForecastRecord> current_;
  QString error_;
  State state_ = State::kNoInput;
  int computations_ = 0;
};

}  // namespace deniable::ui
