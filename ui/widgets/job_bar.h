// SPDX-License-Identifier: Apache-2.0
// The bottom bar: the background job's stage, a progress bar, the time left and Cancel (Esc).
// Shows the last outcome ("Run cancelled: the previous results are unchanged.") when idle.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace deniable::ui {

class JobBar : public QWidget {
  Q_OBJECT

 public:
  explicit JobBar(QWidget* parent = nullptr);

  void showStarted(const QString& title);
  void showProgress(double fraction, const QString& stage, double seconds_left);
  void showFinished(const QString& message);
  QPushButton* cancelButton() const { return cancel_; }
  QString stageText() const;

 signals:
  void cancelRequested();

 private:
  QLabel* stage_;
  QProgressBar* bar_;
  QLabel* left_;
  QPushButton* cancel_;
};

}  // namespace deniable::ui
