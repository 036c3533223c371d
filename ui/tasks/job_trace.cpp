// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/job_trace.h"

#include <algorithm>

namespace deniable::ui {

void JobTrace::report(double fraction, const QString& stage) {
  std::lock_guard lock(mutex_);
  const double now = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
  fraction_ = std::max(fraction_, std::clamp(fraction, 0.0, 1.0));
  if (stage.isEmpty()) return;
  if (!stages_.empty() && stages_.back().name == stage && stages_.back().end_seconds < 0) return;
  if (!stages_.empty() && stages_.back().end_seconds < 0) stages_.back().end_seconds = now;
  stages_.push_back(Stage{stage, now, -1});
}

void JobTrace::finish() {
  std::lock_guard lock(mutex_);
  const double now = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
  if (!stages_.empty() && stages_.back().end_seconds < 0) stages_.back().end_seconds = now;
}

std::vector<JobTrace::Stage> JobTrace::stages() const {
  std::lock_guard lock(mutex_);
  return stages_;
}

QString JobTrace::currentStage() const {
  std::lock_guard lock(mutex_);
  return stages_.empty() ? QString() : stages_.back().name;
}

double JobTrace::fraction() const {
  std::lock_guard lock(mutex_);
  return fraction_;
}

double JobTrace::elapsedSeconds() const {
  std::lock_guard lock(mutex_);
  return static_cast<double>(clock_.nsecsElapsed()) / 1e9;
}

double JobTrace::secondsLeft() const {
  std::lock_guard lock(mutex_);
  const double elapsed = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
  if (fraction_ < 0.03 || elapsed < 0.5) return -1;
  return elapsed * (1 - fraction_) / fraction_;
}

}  // namespace deniable::ui
