// SPDX-License-Identifier: Apache-2.0
#include "ui/review/compute_bar.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

#include "ui/review/review_layout.h"

namespace deniable::ui {

ComputeBar::ComputeBar(QWidget* tab, const QString& computeTip, const QString& statusName,
                       QWidget* parent)
    : QWidget(parent),
      tab_(tab),
      computeButton_(new QPushButton(tr("Compute"))),
      progress_(new QProgressBar),
      cancelButton_(new QPushButton(tr("Cancel"))),
      status_(wrappedLabel(statusName)),
      pause_(new QTimer(this)) {
  computeButton_->setToolTip(computeTip);
  cancelButton_->setToolTip(tr("Stop the computation; the figures computed before stay"));
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  progress_->setMaximumWidth(200);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(computeButton_);
  layout->addWidget(progress_);
  layout->addWidget(cancelButton_);
  layout->addWidget(status_, 1);

  pause_->setSingleShot(true);
  pause_->setInterval(kPauseMs);
  connect(pause_, &QTimer::timeout, this, &ComputeBar::computeRequested);
  connect(computeButton_, &QPushButton::clicked, this, &ComputeBar::computeRequested);
  connect(cancelButton_, &QPushButton::clicked, this, &ComputeBar::cancelRequested);
}

void ComputeBar::follow(const QFutureWatcherBase& watcher, bool withText) {
  connect(&watcher, &QFutureWatcherBase::progressValueChanged, progress_,
          &QProgressBar::setValue);
  if (withText) {
    connect(&watcher, &QFutureWatcherBase::progressTextChanged, status_, &QLabel::setText);
  }
}

void ComputeBar::start(const QString& status) {
  progress_->setValue(0);
  status_->setText(status);
  setBusy(true);
}

void ComputeBar::setBusy(bool busy) {
  progress_->setVisible(busy);
  cancelButton_->setVisible(busy);
  computeButton_->setEnabled(!busy && (!canCompute_ || canCompute_()));
}

void ComputeBar::showCancelled(const QString& keptFigures) {
  status_->setText(keptFigures.isEmpty() ? tr("Cancelled. Press Compute to start again.")
                                         : tr("Cancelled. %1").arg(keptFigures));
}

void ComputeBar::setStatus(const QString& text) { status_->setText(text); }

QString ComputeBar::status() const { return status_->text(); }

void ComputeBar::reset() {
  pause_->stop();
  stale_ = false;
  status_->clear();
  setBusy(false);
}

void ComputeBar::dataChanged() {
  stale_ = true;
  if (tab_->isVisible()) pause_->start(0);
}

void ComputeBar::inputsChanged() {
  stale_ = true;
  // The interval is named: start(0) above made it the timer's interval.
  if (tab_->isVisible()) pause_->start(kPauseMs);
}

void ComputeBar::tabShown() {
  if (stale_ && !pause_->isActive()) pause_->start(0);
}

void ComputeBar::beginCompute() {
  pause_->stop();
  stale_ = false;
}

void ComputeBar::stopPause() { pause_->stop(); }

bool ComputeBar::pausing() const { return pause_->isActive(); }

}  // namespace deniable::ui
