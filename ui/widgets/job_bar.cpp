// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/job_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include "ui/text/format.h"

namespace deniable::ui {

JobBar::JobBar(QWidget* parent)
    : QWidget(parent), stage_(new QLabel(this)), bar_(new QProgressBar(this)),
      left_(new QLabel(this)), cancel_(new QPushButton(tr("Cancel"), this)) {
  bar_->setRange(0, 1000);
  bar_->setTextVisible(true);
  bar_->setFormat(QStringLiteral("%p %"));
  bar_->setMaximumWidth(320);
  bar_->setToolTip(tr("Progress of the background job"));
  stage_->setToolTip(tr("What the engine is doing now"));
  left_->setToolTip(tr("Estimated time left, from the progress so far"));
  cancel_->setToolTip(tr("Stop the background job (Esc). Nothing is changed or written."));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 0, 6, 0);
  layout->addWidget(stage_, 1);
  layout->addWidget(bar_);
  layout->addWidget(left_);
  layout->addWidget(cancel_);
  connect(cancel_, &QPushButton::clicked, this, &JobBar::cancelRequested);
  showFinished(tr("Ready"));
}

void JobBar::showStarted(const QString& title) {
  stage_->setText(title);
  bar_->setValue(0);
  bar_->setVisible(true);
  left_->clear();
  cancel_->setVisible(true);
  cancel_->setEnabled(true);
}

void JobBar::showProgress(double fraction, const QString& stage, double seconds_left) {
  if (!stage.isEmpty()) stage_->setText(stage + QStringLiteral("…"));
  bar_->setValue(static_cast<int>(fraction * 1000));
  left_->setText(seconds_left < 0 ? QString()
                                  : tr("about %1 left").arg(formatSeconds(seconds_left)));
}

void JobBar::showFinished(const QString& message) {
  stage_->setText(message);
  bar_->setVisible(false);
  left_->clear();
  cancel_->setVisible(false);
}

QString JobBar::stageText() const { return stage_->text(); }

}  // namespace deniable::ui
