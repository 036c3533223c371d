// SPDX-License-Identifier: Apache-2.0
// ComputeBar and ComputedTab (ui/review/compute_bar.h), the part the Risk and Attacks tabs
// share: when a tab recomputes (at once for new data, after a pause for an edit, when shown if
// hidden), the bar's busy state, the cancelled status, and a computation's end through the
// mixin (issue 11).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "engine/core/result.h"
#include "ui/review/compute_bar.h"

namespace deniable::ui {
namespace {

TEST(ComputeBarTest, NewDataComputesAtOnceAndAnEditAfterThePause) {
  QWidget tab;
  auto* bar = new ComputeBar(&tab, QStringLiteral("again"), QStringLiteral("testStatus"), &tab);
  tab.show();
  QSignalSpy requested(bar, &ComputeBar::computeRequested);
  bar->dataChanged();
  EXPECT_TRUE(bar->stale());
  ASSERT_TRUE(requested.wait(1000));
  EXPECT_EQ(requested.count(), 1);
  bar->beginCompute();
  EXPECT_FALSE(bar->stale());

  // An edit waits for the pause, also after the immediate start above (QTimer::start(0) sets
  // the interval: the pause must be named again).
  bar->inputsChanged();
  EXPECT_TRUE(bar->pausing());
  QTest::qWait(ComputeBar::kPauseMs / 2);
  EXPECT_EQ(requested.count(), 1);
  ASSERT_TRUE(requested.wait(2000));
  EXPECT_EQ(requested.count(), 2);

  // Compute pressed asks too; stopPause ends a pending pause and leaves the figures stale.
  bar->computeButton()->click();
  EXPECT_EQ(requested.count(), 3);
  bar->inputsChanged();
  bar->stopPause();
  EXPECT_FALSE(bar->pausing());
  EXPECT_TRUE(bar->stale());
  QTest::qWait(ComputeBar::kPauseMs + 100);
  EXPECT_EQ(requested.count(), 3);
}

TEST(ComputeBarTest, AHiddenTabComputesWhenShown) {
  QWidget tab;
  auto* bar = new ComputeBar(&tab, QStringLiteral("again"), QStringLiteral("testStatus"), &tab);
  QSignalSpy requested(bar, &ComputeBar::computeRequested);
  bar->dataChanged();
  bar->inputsChanged();
  EXPECT_TRUE(bar->stale());
  EXPECT_FALSE(bar->pausing());
  bar->tabShown();
  EXPECT_TRUE(bar->pausing());
  ASSERT_TRUE(requested.wait(1000));
  EXPECT_EQ(requested.count(), 1);
  bar->beginCompute();
  bar->tabShown();  // nothing stale: nothing to do
  EXPECT_FALSE(bar->pausing());
  bar->dataChanged();
  bar->reset();  // the data went away
  EXPECT_FALSE(bar->stale());
  bar->tabShown();
  EXPECT_FALSE(bar->pausing());
}

TEST(ComputeBarTest, BusyShowsProgressAndCancelAndIdleAsksTheOwner) {
  QWidget tab;
  auto* bar = new ComputeBar(&tab, QStringLiteral("again"), QStringLiteral("testStatus"), &tab);
  bool allowed = false;
  bar->setCanCompute([&allowed] { return allowed; });
  tab.show();
  auto* progress = bar->findChild<QProgressBar*>();
  ASSERT_NE(progress, nullptr);
  EXPECT_EQ(bar->findChild<QLabel*>(QStringLiteral("testStatus")) != nullptr, true);
  EXPECT_EQ(bar->computeButton()->toolTip(), QStringLiteral("again"));

  bar->setBusy(false);
  EXPECT_FALSE(bar->computeButton()->isEnabled());
  EXPECT_FALSE(bar->cancelButton()->isVisible());
  EXPECT_FALSE(progress->isVisible());
  allowed = true;
  bar->setBusy(false);
  EXPECT_TRUE(bar->computeButton()->isEnabled());

  progress->setValue(700);
  bar->start(QStringLiteral("Working…"));
  EXPECT_EQ(bar->status(), QStringLiteral("Working…"));
  EXPECT_EQ(progress->value(), 0);
  EXPECT_TRUE(progress->isVisible());
  EXPECT_TRUE(bar->cancelButton()->isVisible());
  EXPECT_FALSE(bar->computeButton()->isEnabled());

  bar->showCancelled(QString());
  EXPECT_EQ(bar->status(), QStringLiteral("Cancelled. Press Compute to start again."));
  bar->showCancelled(QStringLiteral("The figures below are older."));
  EXPECT_EQ(bar->status(), QStringLiteral("Cancelled. The figures below are older."));
  bar->reset();
  EXPECT_EQ(bar->status(), QString());
  EXPECT_FALSE(bar->cancelButton()->isVisible());
}

// A tab that doubles a number on a worker; -1 when it notices it was cancelled.
class DoublingTab : public QWidget, public ComputedTab<int, Result<int>> {
 public:
  DoublingTab() {
    setUpComputation(
        this, QStringLiteral("again"), QStringLiteral("doublingStatus"),
        [this](const int& request, Progress& progress) -> Result<int> {
          progress.Report(0.5, "halfway");
          while (request < 0 && !progress.IsCancelled()) {  // negative: runs until cancelled
            running_ = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
          return request < 0 ? -1 : 2 * request;
        },
        QStringLiteral("Doubling…"), [this] { ++started_; },
        [this](const Result<int>* outcome) { ends_.push_back(outcome ? outcome->value() : 0); },
        /*withText=*/true);
  }
  void start(int request) { computation_->start(request); }
  ComputeBar* bar() const { return bar_; }

  std::atomic<bool> running_ = false;
  int started_ = 0;
  std::vector<int> ends_;  // 0: cancelled
};

TEST(ComputedTabTest, ABackgroundComputationEndsThroughTheBar) {
  DoublingTab tab;
  tab.start(21);
  EXPECT_EQ(tab.started_, 1);
  EXPECT_TRUE(tab.busy());
  EXPECT_EQ(tab.statusText(), QStringLiteral("Doubling…"));
  EXPECT_FALSE(tab.computeButton()->isEnabled());
  tab.waitForWorker();
  ASSERT_TRUE(QTest::qWaitFor([&tab] { return !tab.busy(); }, 5000));
  ASSERT_EQ(tab.ends_, std::vector<int>({42}));
  EXPECT_TRUE(tab.computeButton()->isEnabled());
  EXPECT_EQ(tab.statusText(), QStringLiteral("halfway"));  // the worker's stage text

  // Cancel (the button) stops a running computation; finished reports it as cancelled.
  tab.start(-1);
  ASSERT_TRUE(QTest::qWaitFor([&tab] { return tab.running_.load(); }, 5000));
  tab.cancelButton()->click();
  tab.waitForWorker();
  ASSERT_TRUE(QTest::qWaitFor([&tab] { return !tab.busy(); }, 5000));
  EXPECT_EQ(tab.ends_, std::vector<int>({42, 0}));
  EXPECT_EQ(tab.started_, 2);

  // Synchronous: finished before start returns, without the bar turning busy.
  tab.setSynchronous(true);
  tab.start(5);
  EXPECT_EQ(tab.ends_, std::vector<int>({42, 0, 10}));
  EXPECT_FALSE(tab.busy());
}

}  // namespace
}  // namespace deniable::ui
