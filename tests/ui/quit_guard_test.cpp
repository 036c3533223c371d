// SPDX-License-Identifier: Apache-2.0
// No lost work on quit (issue 12, part 5): closing the window — the close button, File ▸ Quit,
// Ctrl+Q — asks first when a job runs, a run (whose ε is already spent) is not exported, or the
// project is not saved; Cancel keeps the window. The questions are real QMessageBoxes, answered
// by clicking one of their buttons from a timer while they are shown.
#include "ui/main_window.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/dialogs/quit_questions.h"
#include "ui/pages/export_page.h"
#include "ui/project/session_files.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"

namespace deniable::ui {
namespace {

using test_support::JobOutcome;
using test_support::runJob;

// Answers the quit questions as they appear, with the button of the given role each
// (AcceptRole: Save / Go to Export; DestructiveRole: Discard / Cancel the job and quit;
// RejectRole: Cancel / Keep working), and records their texts.
class Answerer {
 public:
  explicit Answerer(std::vector<QMessageBox::ButtonRole> roles) : roles_(std::move(roles)) {
    timer_.setInterval(10);
    QObject::connect(&timer_, &QTimer::timeout, [this] { answer(); });
    timer_.start();
  }
  const QStringList& texts() const { return texts_; }
  std::size_t answered() const { return next_; }

 private:
  void answer() {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (box == nullptr || box->objectName() != QStringLiteral("quitQuestion")) return;
    texts_ << box->text();
    if (next_ >= roles_.size()) {  // more questions than expected: keep the window open
      box->reject();
      ++next_;
      return;
    }
    const QMessageBox::ButtonRole role = roles_[next_++];
    for (QAbstractButton* button : box->buttons()) {
      if (box->buttonRole(button) == role) {
        button->click();
        return;
      }
    }
    ADD_FAILURE() << "no button with role " << role << " in: " << box->text().toStdString();
    box->reject();
  }

  std::vector<QMessageBox::ButtonRole> roles_;
  std::size_t next_ = 0;
  QStringList texts_;
  QTimer timer_;
};

class QuitGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1280, 800);
    window_->show();
  }

  void OpenDemo() {
    const JobOutcome opened = runJob(*window_->jobs(), [this] { window_->openDemo(); });
    ASSERT_TRUE(opened.arrived);
    ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
  }

  // A fast run (independent mode) whose settings are saved in a project, so that only the
  // unexported run is left to ask about.
  void RunFast() {
    PrivacySettings settings = window_->session()->settings();
    settings.model.mode = SynthesisMode::kIndependent;
    settings.rows = 500;
    window_->session()->editSettings(settings, QStringLiteral("fast"));
    const JobOutcome run = runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); });
    ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
  }

  void SaveProject() {
    ASSERT_TRUE(window_->files()->saveProject(dir_.filePath(QStringLiteral("demo.deniable"))));
    window_->session()->undoStack()->setClean();
  }

  QAction* QuitAction() const {
    for (QAction* action : window_->findChildren<QAction*>()) {
      if (action->shortcut() == QKeySequence(QStringLiteral("Ctrl+Q"))) return action;
    }
    return nullptr;
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(QuitGuardTest, NothingToLoseClosesWithoutAsking) {
  Answerer answerer({});
  EXPECT_TRUE(window_->close());
  EXPECT_TRUE(answerer.texts().isEmpty());
  OpenDemo();  // opened, unchanged: nothing to save
  window_->show();
  EXPECT_TRUE(window_->close());
  EXPECT_TRUE(answerer.texts().isEmpty());
}

TEST_F(QuitGuardTest, UnsavedProjectAsksAndCancelKeepsTheWindow) {
  OpenDemo();
  PrivacySettings settings = window_->session()->settings();
  settings.model.epsilon = 2.5;
  window_->session()->editSettings(settings, QStringLiteral("ε"));
  {
    Answerer answerer({QMessageBox::RejectRole});
    EXPECT_FALSE(window_->close());
    ASSERT_EQ(answerer.texts().size(), 1);
    EXPECT_TRUE(answerer.texts()[0].contains(QStringLiteral("changed since the project was last saved")))
        << answerer.texts()[0].toStdString();
    EXPECT_TRUE(window_->isVisible());
  }
  {  // Ctrl+Q (File ▸ Quit) goes through the same question.
    QAction* quit = QuitAction();
    ASSERT_NE(quit, nullptr);
    Answerer answerer({QMessageBox::RejectRole});
    quit->trigger();
    EXPECT_EQ(answerer.texts().size(), 1);
    EXPECT_TRUE(window_->isVisible());
  }
  {
    Answerer answerer({QMessageBox::DestructiveRole});  // Discard
    EXPECT_TRUE(window_->close());
    EXPECT_EQ(answerer.answered(), 1u);
    EXPECT_FALSE(window_->isVisible());
  }
}

TEST_F(QuitGuardTest, SaveAnswerSavesTheProjectThenCloses) {
  OpenDemo();
  SaveProject();
  PrivacySettings settings = window_->session()->settings();
  settings.model.epsilon = 3.25;
  window_->session()->editSettings(settings, QStringLiteral("ε"));
  Answerer answerer({QMessageBox::AcceptRole});  // Save (to the project last saved)
  EXPECT_TRUE(window_->close());
  EXPECT_TRUE(window_->session()->undoStack()->isClean());
  auto project = readProject(dir_.filePath(QStringLiteral("demo.deniable")));
  ASSERT_TRUE(project.has_value()) << project.error().message;
  EXPECT_EQ(project->settings.model.epsilon, 3.25);
}

TEST_F(QuitGuardTest, UnexportedRunAsksWithItsSpentEpsilonUntilExported) {
  OpenDemo();
  RunFast();
  SaveProject();
  {
    Answerer answerer({QMessageBox::RejectRole});
    EXPECT_FALSE(window_->close());
    ASSERT_EQ(answerer.texts().size(), 1);
    const QString& text = answerer.texts()[0];
    EXPECT_TRUE(text.contains(QStringLiteral("not exported"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("ε = 1, is already spent"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("that ε is lost"))) << text.toStdString();
    EXPECT_TRUE(window_->isVisible());
  }
  {  // "Go to Export": the window stays, on the Export step.
    Answerer answerer({QMessageBox::AcceptRole});
    EXPECT_FALSE(window_->close());
    EXPECT_EQ(answerer.answered(), 1u);
    EXPECT_EQ(window_->currentStep(), Step::kExport);
  }
  window_->exportPage()->setDirectory(dir_.path());
  const JobOutcome exported =
      runJob(*window_->jobs(), [this] { ASSERT_TRUE(window_->exportPage()->startExport()); });
  ASSERT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();
  Answerer answerer({});
  EXPECT_TRUE(window_->close());  // exported and saved: nothing to ask
  EXPECT_TRUE(answerer.texts().isEmpty()) << answerer.texts().join(QLatin1Char('|')).toStdString();
}

TEST_F(QuitGuardTest, DiscardingTheRunCloses) {
  OpenDemo();
  RunFast();
  SaveProject();
  Answerer answerer({QMessageBox::DestructiveRole});
  EXPECT_TRUE(window_->close());
  EXPECT_EQ(answerer.answered(), 1u);
}

TEST_F(QuitGuardTest, RunningJobAsksToCancelItFirst) {
  OpenDemo();
  // Two million synthetic rows: a run that lasts far longer than answering two questions.
  PrivacySettings settings = window_->session()->settings();
  settings.rows = 2'000'000;
  window_->session()->editSettings(settings, QStringLiteral("rows"));
  SaveProject();
  ASSERT_TRUE(window_->jobs()->startRun());
  {
    Answerer answerer({QMessageBox::RejectRole});  // Keep working
    EXPECT_FALSE(window_->close());
    ASSERT_GE(answerer.texts().size(), 1);
    EXPECT_TRUE(answerer.texts()[0].contains(QStringLiteral("Cancel the job and quit?")))
        << answerer.texts()[0].toStdString();
    EXPECT_TRUE(window_->isVisible());
  }
  ASSERT_TRUE(window_->jobs()->busy());
  Answerer answerer({QMessageBox::DestructiveRole});  // Cancel the job and quit
  EXPECT_TRUE(window_->close());
  EXPECT_EQ(answerer.answered(), 1u);
  EXPECT_FALSE(window_->isVisible());
}

TEST(QuitQuestions, NoneWithoutInput) {
  Session session;
  JobController jobs(&session);
  EXPECT_TRUE(quitQuestions(session, jobs).empty());
}

}  // namespace
}  // namespace deniable::ui
