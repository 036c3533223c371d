// SPDX-License-Identifier: Apache-2.0
// Adapts the engine's Progress interface (engine/core/progress.h) to a QPromise, so that a
// QFutureWatcher on the UI thread sees the engine's fraction and stage, and a Cancel on the UI
// thread (QFuture::cancel) reaches the engine's IsCancelled() polls. Stages also go to a
// JobTrace (optional), which keeps every stage with its time.
//
// Runs on the worker thread; touches no QObject. Qt throttles the progress signals itself.
#pragma once

#include <algorithm>
#include <string_view>

#include <QPromise>
#include <QString>

#include "engine/core/progress.h"
#include "ui/tasks/job_trace.h"

namespace deniable::ui {

template <typename T>
class PromiseProgress final : public Progress {
 public:
  static constexpr int kSteps = 1000;

  explicit PromiseProgress(QPromise<T>& promise, JobTrace* trace = nullptr)
      : promise_(promise), trace_(trace) {
    promise_.setProgressRange(0, kSteps);
  }
  void Report(double fraction, std::string_view stage) override {
    fraction = std::clamp(fraction, 0.0, 1.0);
    const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
    if (trace_ != nullptr) trace_->report(fraction, text);
    // QPromise ignores a value that does not increase (and its text with it).
    last_value_ = std::max(last_value_, static_cast<int>(fraction * kSteps));
    promise_.setProgressValueAndText(last_value_, text);
  }
  bool IsCancelled() const override { return promise_.isCanceled(); }

 private:
  QPromise<T>& promise_;
  JobTrace* trace_;
  int last_value_ = 0;
};

}  // namespace deniable::ui
