// SPDX-License-Identifier: Apache-2.0
// A fixture for the workflow tests: a fresh main window (the app's settings cleared) with the
// bundled demo dataset open.
#pragma once

#include <memory>

#include <QSettings>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"

namespace deniable::ui::test_support {

class DemoWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_ = std::make_unique<MainWindow>();
    const JobOutcome opened = runJob(*window_->jobs(), [this] { window_->openDemo(); });
    ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
  }
  std::unique_ptr<MainWindow> window_;
};

}  // namespace deniable::ui::test_support
