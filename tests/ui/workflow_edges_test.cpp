// SPDX-License-Identifier: Apache-2.0
// The window's edges: drag and drop, recent files, engine errors shown as messages (the step
// needs attention, nothing else changes), Esc cancels, stale results are marked.
#include <QAction>
#include <QDropEvent>
#include <QMimeData>
#include <QSettings>
#include <QUndoStack>
#include <QUrl>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/app/app_settings.h"
#include "ui/main_window.h"
#include "ui/session/session.h"
#include "ui/widgets/step_list.h"

namespace deniable::ui {
namespace {

using test_support::JobOutcome;
using test_support::runJob;

class WorkflowEdgesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_ = std::make_unique<MainWindow>();
  }
  StepState State(Step step) const {
    return window_->stepList()->states()[static_cast<std::size_t>(step)].state;
  }
  std::unique_ptr<MainWindow> window_;
};

TEST_F(WorkflowEdgesTest, DroppingACsvOpensItAndMakesItRecent) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(test_support::demoDataset())});
  // Qt delivers a drop only to a widget that accepted the drag's enter event.
  QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(window_.get(), &enter);
  ASSERT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  const JobOutcome opened = runJob(*window_->jobs(), [this, &drop] {
    QCoreApplication::sendEvent(window_.get(), &drop);
  }, 60'000);
  ASSERT_TRUE(opened.arrived);
  ASSERT_EQ(opened.end, JobController::End::kSucceeded);
  EXPECT_EQ(window_->session()->data()->path, QFileInfo(test_support::demoDataset()).absoluteFilePath());
  EXPECT_EQ(AppSettings::recentFiles().value(0), QFileInfo(test_support::demoDataset()).absoluteFilePath());
}

TEST_F(WorkflowEdgesTest, TheDemoOpensWithItsCodebookCategoriesDeclaredPublic) {
  ASSERT_EQ(runJob(*window_->jobs(), [this] { window_->openDemo(); }).end, JobController::End::kSucceeded);
  const Session& session = *window_->session();
  const ColumnSchema& workclass =
      session.schema().columns[static_cast<std::size_t>(session.schema().ColumnIndex("workclass"))];
  ASSERT_TRUE(workclass.public_categories.has_value());
  EXPECT_EQ(workclass.public_categories->size(), 8u);  // adult.names lists 8 work classes
  EXPECT_FALSE(session.data()->inferred.columns[1].public_categories.has_value());
  EXPECT_FALSE(session.corrections()["columns"].empty());  // a project keeps them
  EXPECT_EQ(session.undoStack()->count(), 0);              // part of opening, not an edit
}

TEST_F(WorkflowEdgesTest, AnEngineErrorIsAMessageAndLeavesTheResultAlone) {
  ASSERT_EQ(runJob(*window_->jobs(), [this] { window_->openDemo(); }).end, JobController::End::kSucceeded);
  Session& session = *window_->session();
  PrivacySettings small = session.settings();
  small.rows = 300;
  session.editSettings(small, "rows");
  ASSERT_EQ(runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); }).end,
            JobController::End::kSucceeded);
  const auto before = session.result();
  nlohmann::json ignore_all = {{"columns", nlohmann::json::array()}};
  for (const ColumnSchema& column : session.schema().columns) {
    ignore_all["columns"].push_back({{"name", column.name}, {"role", "ignore"}});
  }
  ASSERT_TRUE(session.editColumns(ignore_all, "ignore all"));
  EXPECT_EQ(State(Step::kColumns), StepState::kAttention);
  EXPECT_EQ(State(Step::kReview), StepState::kStale);
  const JobOutcome failed = runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); });
  ASSERT_EQ(failed.end, JobController::End::kFailed);
  EXPECT_TRUE(failed.message.contains(QStringLiteral("no column is modelled"))) << failed.message.toStdString();
  EXPECT_EQ(session.result(), before);
  EXPECT_EQ(State(Step::kRun), StepState::kAttention);
  EXPECT_EQ(session.runError(), failed.message);
}

TEST_F(WorkflowEdgesTest, EscapeCancelsTheRunningJob) {
  ASSERT_EQ(runJob(*window_->jobs(), [this] { window_->openDemo(); }).end, JobController::End::kSucceeded);
  QAction* escape = nullptr;
  for (QAction* action : window_->findChildren<QAction*>()) {
    if (action->shortcut() == QKeySequence(Qt::Key_Escape)) escape = action;
  }
  ASSERT_NE(escape, nullptr);
  EXPECT_FALSE(escape->isEnabled());  // nothing to cancel
  const JobOutcome cancelled = runJob(*window_->jobs(), [this, escape] {
    ASSERT_TRUE(window_->jobs()->startRun());
    ASSERT_TRUE(escape->isEnabled());
    escape->trigger();
  });
  EXPECT_EQ(cancelled.end, JobController::End::kCancelled);
  EXPECT_EQ(window_->session()->result(), nullptr);
  EXPECT_FALSE(escape->isEnabled());
}

TEST_F(WorkflowEdgesTest, ASecondJobIsRefusedWhileOneRuns) {
  ASSERT_EQ(runJob(*window_->jobs(), [this] { window_->openDemo(); }).end, JobController::End::kSucceeded);
  const JobOutcome run = runJob(*window_->jobs(), [this] {
    ASSERT_TRUE(window_->jobs()->startRun());
    EXPECT_FALSE(window_->jobs()->startRun());
    EXPECT_FALSE(window_->jobs()->startAdvice());
  });
  EXPECT_EQ(run.end, JobController::End::kSucceeded);
}

}  // namespace
}  // namespace deniable::ui
