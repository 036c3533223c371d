// SPDX-License-Identifier: Apache-2.0
// Progress reporting and cancellation: the engine defines the interface; the CLI, the GUI and
// the tests adapt it (StderrProgress, PromiseProgress, FakeProgress). No Qt here.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace deniable {

class Progress {
 public:
  virtual ~Progress() = default;
  // fraction in [0, 1] of the whole job; stage is a short human-readable label
  // ("Reading adult.csv", "Learning structure"). Called from the worker thread.
  virtual void Report(double fraction, std::string_view stage) = 0;
  // Polled at safe points (every ~1,024 rows, per network node); when it turns true the engine
  // returns ErrorCode::kCancelled promptly (well under a second) and writes nothing.
  virtual bool IsCancelled() const = 0;
};

// Reports nothing, never cancels.
class NullProgress final : public Progress {
 public:
  void Report(double, std::string_view) override {}
  bool IsCancelled() const override { return false; }
};

// Maps a sub-task's [0, 1] onto [begin, end] of a parent's progress, so that stages compose:
//   SubProgress read(progress, 0.0, 0.2);  ReadCsv(path, options, read);
class SubProgress final : public Progress {
 public:
  SubProgress(Progress& parent, double begin, double end)
      : parent_(parent), begin_(begin), end_(end) {}
  void Report(double fraction, std::string_view stage) override {
    parent_.Report(begin_ + (end_ - begin_) * std::clamp(fraction, 0.0, 1.0), stage);
  }
  bool IsCancelled() const override { return parent_.IsCancelled(); }

 private:
  Progress& parent_;
  double begin_;
  double end_;
};

}  // namespace deniable
