// SPDX-License-Identifier: Apache-2.0
// JobTrace: the stages a background job went through and when, written by the worker thread
// (through PromiseProgress) and read by the UI thread (the Run page's stage list, the bottom
// bar's time left). Thread-safe; not a QObject.
//
// Why not just QFuture's progress text: QPromise drops a text that arrives with an unchanged
// progress value, and Qt throttles progress signals, so short stages would vanish.
#pragma once

#include <mutex>
#include <vector>

#include <QElapsedTimer>
#include <QString>

namespace deniable::ui {

class JobTrace {
 public:
  struct Stage {
    QString name;
    double start_seconds = 0;
    double end_seconds = -1;  // -1 while it runs
  };

  JobTrace() { clock_.start(); }

  // Worker thread: records `fraction` and, when `stage` differs from the current one, closes
  // the current stage and opens a new one.
  void report(double fraction, const QString& stage);
  // Worker thread: closes the last stage (the job returned).
  void finish();

  // UI thread (any thread).
  std::vector<Stage> stages() const;
  QString currentStage() const;
  double fraction() const;
  double elapsedSeconds() const;
  // Seconds left, extrapolated from the elapsed time and fraction; negative when unknown
  // (too early to tell: under 3 % done or under half a second).
  double secondsLeft() const;

 private:
  mutable std::mutex mutex_;
  QElapsedTimer clock_;
  std::vector<Stage> stages_;
  double fraction_ = 0;
};

}  // namespace deniable::ui
