// SPDX-License-Identifier: Apache-2.0
// A Progress for tests: records reports and can cancel after N of them.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/progress.h"

namespace deniable::test_support {

class FakeProgress final : public Progress {
 public:
  // cancel_after_reports = 0: never cancels.
  explicit FakeProgress(std::size_t cancel_after_reports = 0)
      : cancel_after_(cancel_after_reports) {}
  void Report(double fraction, std::string_view stage) override {
    ++reports_;
    last_fraction_ = fraction;
    last_stage_ = std::string(stage);
  }
  bool IsCancelled() const override { return cancel_after_ != 0 && reports_ >= cancel_after_; }
  std::size_t reports() const { return reports_; }
  double last_fraction() const { return last_fraction_; }
  const std::string& last_stage() const { return last_stage_; }

 private:
  std::size_t cancel_after_;
  std::atomic<std::size_t> reports_{0};
  double last_fraction_ = 0;
  std::string last_stage_;
};

}  // namespace deniable::test_support
