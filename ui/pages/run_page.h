// SPDX-License-Identifier: Apache-2.0
// Step 4, Run: the engine's estimate of time and memory before starting, Run and Cancel, the
// stages with their times as they happen, a log, and the outcome (the engine's summary, or its
// error as a readable message). The work itself runs in the JobController's background job.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace deniable::ui {

class JobController;
class MessageBanner;
class Session;

class RunPage : public QWidget {
  Q_OBJECT

 public:
  RunPage(Session* session, JobController* jobs, QWidget* parent = nullptr);

  QPushButton* runButton() const { return run_; }
  QString estimateText() const;
  QString logText() const;

 private:
  void refresh();
  void onStarted();
  void onProgress(double fraction, const QString& stage);
  void onFinished(int kind, int end, const QString& message);
  void showStages();
  void log(const QString& line);

  Session* session_;
  JobController* jobs_;
  MessageBanner* banner_;
  QLabel* plan_;
  QLabel* estimate_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* bar_;
  QLabel* stage_;
  QTreeWidget* stages_;
  QPlainTextEdit* log_;
  QLabel* summary_;
  bool tracking_ = false;
};

}  // namespace deniable::ui
