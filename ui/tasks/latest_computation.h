// SPDX-License-Identifier: Apache-2.0
// LatestComputation: the background computation of a Review tab whose settings the owner edits
// (Disclosure risk, Attacks). One computation at a time, on a pool of its own (one thread); a
// new request while one runs cancels it, waits for its worker to stop and then starts (the
// replaced one's end is not reported); cancel() stops the running one and reports it as
// cancelled; drop() stops it without a report (the tab was cleared or shows a problem instead).
// The work runs through runInBackground (values in, values out, exceptions become errors), or,
// when synchronous (offscreen renders, tests), on the calling thread: finished() is then
// called before start() returns.
//
// Example:
//   computation_ = std::make_unique<LatestComputation<Request, Outcome>>(
//       this, [](const Request& r, Progress& p) { return compute(r, p); },
//       LatestComputation<Request, Outcome>::Hooks{
//           .started = [this] { setBusy(true); },
//           .stopped = [this] { setBusy(false); },
//           .finished = [this](const Outcome* outcome) { outcome ? apply(*outcome) : cancelled(); }});
//   connect(&computation_->watcher(), &QFutureWatcherBase::progressValueChanged, bar, ...);
#pragma once

#include <functional>
#include <optional>
#include <utility>

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include "engine/core/progress.h"
#include "ui/tasks/run_in_background.h"

namespace deniable::ui {

template <typename Request, typename Outcome>
class LatestComputation {
 public:
  using Work = std::function<Outcome(const Request&, Progress&)>;
  struct Hooks {
    std::function<void()> started;  // a worker starts (also a pending request's)
    std::function<void()> stopped;  // a worker ended, before anything else is done
    // The computation ended: its outcome, or null when the user cancelled it. Not called for
    // a computation replaced by a newer request or dropped.
    std::function<void(const Outcome*)> finished;
  };

  LatestComputation(QObject* context, Work work, Hooks hooks)
      : work_(std::move(work)), hooks_(std::move(hooks)) {
    pool_.setMaxThreadCount(1);
    QObject::connect(&watcher_, &QFutureWatcherBase::finished, context,
                     [this] { onWorkerEnded(); });
  }
  // The worker owns only values; its result is dropped. The pool's destructor waits for it.
  ~LatestComputation() { watcher_.cancel(); }
  LatestComputation(const LatestComputation&) = delete;
  LatestComputation& operator=(const LatestComputation&) = delete;

  void setSynchronous(bool synchronous) { synchronous_ = synchronous; }

  void start(const Request& request) {
    if (synchronous_ && !running_) {
      clearUpperVectorState();  // the UI thread's may be dirty (run_in_background.h)
      NullProgress progress;
      const Outcome outcome = work_(request, progress);
      if (hooks_.finished) hooks_.finished(&outcome);
      return;
    }
    if (running_) {  // the newest request waits for the running one to stop
      pending_ = request;
      drop_ = true;
      watcher_.cancel();
      return;
    }
    running_ = true;
    drop_ = false;
    if (hooks_.started) hooks_.started();
    watcher_.setFuture(runInBackground<Outcome>(
        &pool_, nullptr,
        [work = work_, request](Progress& progress) { return work(request, progress); }));
  }
  // Stops the running computation; finished(nullptr) follows.
  void cancel() {
    pending_.reset();
    if (running_) watcher_.cancel();
  }
  // Stops the running computation without a report.
  void drop() {
    pending_.reset();
    if (running_) {
      drop_ = true;
      watcher_.cancel();
    }
  }
  bool running() const { return running_; }
  // Blocks until the running worker returned (its end still arrives through the event loop).
  void waitForWorker() { watcher_.waitForFinished(); }
  // For the progress signals.
  QFutureWatcher<Outcome>& watcher() { return watcher_; }

 private:
  void onWorkerEnded() {
    const QFuture<Outcome> future = watcher_.future();
    running_ = false;
    if (hooks_.stopped) hooks_.stopped();
    if (pending_) {
      const Request next = std::move(*pending_);
      pending_.reset();
      start(next);
      return;
    }
    if (drop_) {
      drop_ = false;
      return;
    }
    // A cancelled future holds no result.
    if (future.isCanceled() || future.resultCount() == 0) {
      if (hooks_.finished) hooks_.finished(nullptr);
      return;
    }
    const Outcome outcome = future.result();
    if (hooks_.finished) hooks_.finished(&outcome);
  }

  Work work_;
  Hooks hooks_;
  bool synchronous_ = false;
  bool running_ = false;
  bool drop_ = false;  // the running computation was replaced or dropped: ignore its end
  std::optional<Request> pending_;
  QThreadPool pool_;  // before the watcher: destroyed after it (its destructor waits)
  QFutureWatcher<Outcome> watcher_;
};

}  // namespace deniable::ui
