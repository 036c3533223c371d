// SPDX-License-Identifier: Apache-2.0
#include "app/cli/stderr_progress.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace deniable::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int) {
  if (g_interrupted.exchange(true)) std::_Exit(130);  // a second Ctrl-C quits at once
}

}  // namespace

void StderrProgress::InstallInterruptHandler() { std::signal(SIGINT, OnInterrupt); }

StderrProgress::StderrProgress(bool quiet)
    : quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_draw_() {}

StderrProgress::~StderrProgress() { Finish(); }

bool StderrProgress::IsCancelled() const { return g_interrupted.load(std::memory_order_relaxed); }

void StderrProgress::Report(double fraction, std::string_view stage) {
  if (quiet_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = Clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;  // short work stays silent
  const bool new_stage = stage != last_stage_;
  if (!new_stage && now - last_draw_ < std::chrono::milliseconds(tty_ ? 100 : 2000)) return;
  last_draw_ = now;
  const int percent = static_cast<int>(fraction * 100 + 0.5);
  const double seconds = std::chrono::duration<double>(now - start_).count();
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%.*s… %3d%%  (%.1f s)", static_cast<int>(stage.size()),
                 stage.data(), percent, seconds);
  } else {
    std::fprintf(stderr, "%.*s… %d%% (%.1f s)\n", static_cast<int>(stage.size()), stage.data(),
                 percent, seconds);
  }
  std::fflush(stderr);
  last_stage_ = std::string(stage);
  drew_ = true;
}

void StderrProgress::Finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (drew_ && tty_) std::fputs("\r\033[K", stderr);
  drew_ = false;
}

}  // namespace deniable::cli
