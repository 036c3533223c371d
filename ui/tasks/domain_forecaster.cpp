// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/domain_forecaster.h"

#include "ui/session/session.h"
#include "ui/tasks/run_in_background.h"
#include "ui/util/errors.h"

namespace deniable::ui {

DomainForecaster::DomainForecaster(Session* session, QObject* parent)
    : QObject(parent), session_(session) {
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
  // A worker still running owns only values (the input, a schema, settings): it finishes on
  // its own and its result is dropped with the watcher.
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
    if (running_) watcher_.cancel();
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
    pending_.reset();
    if (running_) watcher_.cancel();  // stale: its result is dropped
    current_ = cached.value();
    setState(State::kReady);
    return;
  }
  current_.reset();
  if (running_) {
    if (running_key_ == request.key) {
      pending_.reset();  // the running computation is the one we want after all
    } else {
      watcher_.cancel();  // stale; the newest request waits for the worker to stop
      pending_ = std::move(request);
    }
  } else {
    start(request);
  }
  setState(State::kComputing);
}

void DomainForecaster::start(const DomainForecastRequest& request) {
  running_key_ = request.key;
  running_ = true;
  ++computations_;
  watcher_.setFuture(runInBackground<DomainForecastOutcome>(
      nullptr, [request](Progress& progress) { return ComputeDomainForecast(request, progress); }));
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
  if (pending_) {
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
}

void DomainForecaster::waitForWorker() { watcher_.waitForFinished(); }

}  // namespace deniable::ui
