// SPDX-License-Identifier: Apache-2.0
// Progress on stderr for the CLI: silent for work that finishes within a second, then the
// stage and percentage (redrawn in place on a terminal, one line per stage otherwise).
// SIGINT (Ctrl-C) sets the cancellation flag: the engine stops at its next check and nothing
// is written.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/core/progress.h"

namespace deniable::cli {

class StderrProgress final : public Progress {
 public:
  explicit StderrProgress(bool quiet);
  ~StderrProgress() override;
  void Report(double fraction, std::string_view stage) override;
  bool IsCancelled() const override;
  void Finish();  // ends the progress line

  // Installs the SIGINT handler that cancels every StderrProgress.
  static void InstallInterruptHandler();

 private:
  using Clock = std::chrono::steady_clock;
  bool quiet_;
  bool tty_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  std::string last_stage_;
  bool drew_ = false;
  std::mutex mutex_;
};

}  // namespace deniable::cli
