// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/domain_forecaster.h"

#include <QThread>

#include "ui/session/session.h"
#include "ui/tasks/run_in_background.h"
#include "ui/text/errors.h"

namespace deniable::ui {

DomainForecaster::DomainForecaster(Session* session, QObject* parent)
    : QObject(parent), session_(session) {
  pool_.setMaxThreadCount(1);
  // Lowest CPU priority (Linux: SCHED_IDLE): the forecast yields to the UI thread and to a run
  // that starts while it computes (it cannot be interrupted).
  pool_.setThreadPriority(QThread::IdlePriority);
  connect(&watcher_, &QFutureWatcher<DomainForecastOutcome>::finished, this,
          &DomainForecaster::onFinished);
  // A new input: forecasts of the previous one never apply again (the cache key holds the
  // input's address, which a later input may reuse).
  connect(session_, &Session::dataChanged, this, [this] {
    cache_.clear();
    cache_order_.clear();
    refresh();
  });
  connect(session_, &Session::schemaChanged, this, &DomainForecaster::refresh);
  connect(session_, &Session::settingsChanged, this, &DomainForecaster::refresh);
  refresh();
}

DomainForecaster::~DomainForecaster() {
  // A worker still running owns only values (the input, a schema, settings); its result is
  // dropped. The pool's destructor waits for it (at most one forecast: ~1 s on 1.5M rows).
  watcher_.cancel();
}

void DomainForecaster::setState(State state) {
  state_ = state;
  emit changed();
}

void DomainForecaster::refresh() {
  if (!session_->hasInput()) {
    pending_.reset();
    wanted_key_.clear();
    if (running_) watcher_.cancel();  // its input is gone: nothing of it is kept
    current_.reset();
    error_.clear();
    if (state_ != State::kNoInput) setState(State::kNoInput);
    return;
  }
  DomainForecastRequest request = makeForecastRequest(*session_);
  if (request.key == wanted_key_ && state_ != State::kNoInput) return;  // nothing changed
  wanted_key_ = request.key;
  error_.clear();
  if (const auto cached = cache_.find(request.key); cached != cache_.end()) {
    pending_.reset();  // a computation still running finishes into the cache, unseen
    current_ = cached.value();
    setState(State::kReady);
    return;
  }
  current_.reset();
  if (running_ && running_key_ == request.key) {
    pending_.reset();  // the running computation is the one wanted (again)
  } else if (running_ || paused_) {
    // ForecastDomains cannot be interrupted: the stale computation runs on (its result is
    // cached, never shown) and only the newest request waits for it.
    pending_ = std::move(request);
  } else {
    start(request);
  }
  setState(State::kComputing);
}

void DomainForecaster::setPaused(bool paused) {
  if (paused == paused_) return;
  paused_ = paused;
  if (!paused_ && !running_) startPending();
  emit changed();
}

void DomainForecaster::startPending() {
  if (!pending_) return;
  const DomainForecastRequest next = std::move(*pending_);
  pending_.reset();
  if (const auto cached = cache_.find(next.key); cached != cache_.end()) {
    if (next.key == wanted_key_) {
      current_ = cached.value();
      setState(State::kReady);
    }
  } else {
    start(next);
  }
}

void DomainForecaster::start(const DomainForecastRequest& request) {
  running_key_ = request.key;
  running_ = true;
  ++computations_;
  watcher_.setFuture(runInBackground<DomainForecastOutcome>(
      &pool_, nullptr,
      [request](Progress& progress) { return ComputeDomainForecast(request, progress); }));
}

void DomainForecaster::onFinished() {
  const QFuture<DomainForecastOutcome> future = watcher_.future();
  const QString key = running_key_;
  running_key_.clear();
  running_ = false;
  // A cancelled future holds no result.
  if (!future.isCanceled() && future.resultCount() > 0) {
    const DomainForecastOutcome outcome = future.result();
    if (outcome) {
      // Only results for the session's current input enter the cache (see dataChanged).
      if (outcome.value()->key.startsWith(
              QStringLiteral("%1|").arg(reinterpret_cast<quintptr>(session_->data().get())))) {
        cache_.insert(key, outcome.value());
        cache_order_.removeAll(key);
        cache_order_.append(key);
        while (cache_order_.size() > kCacheSize) cache_.remove(cache_order_.takeFirst());
      }
      if (key == wanted_key_) {
        current_ = outcome.value();
        setState(State::kReady);
      }
    } else if (key == wanted_key_) {
      error_ = describeError(outcome.error());
      setState(State::kFailed);
    }
  }
  if (!paused_) startPending();
}

void DomainForecaster::waitForWorker() { watcher_.waitForFinished(); }

}  // namespace deniable::ui
