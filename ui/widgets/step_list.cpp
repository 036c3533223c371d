// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/step_list.h"

#include <QSignalBlocker>
#include <QStyle>

namespace deniable::ui {
namespace {

QString stateWord(StepState state) {
  switch (state) {
    case StepState::kLocked: return StepList::tr("not available yet");
    case StepState::kTodo: return StepList::tr("to do");
    case StepState::kDone: return StepList::tr("done");
    case StepState::kAttention: return StepList::tr("needs attention");
    case StepState::kStale: return StepList::tr("out of date");
  }
  return {};
}

}  // namespace

StepList::StepList(QWidget* parent) : QListWidget(parent) {
  setSelectionMode(QAbstractItemView::SingleSelection);
  setIconSize(QSize(20, 20));
  setSpacing(2);
  setWordWrap(true);
  setTextElideMode(Qt::ElideRight);
  setMinimumWidth(185);
  setMaximumWidth(240);
  setToolTip(tr("The steps from your CSV to a safe release. Click a step to go there "
                "(Ctrl+1 … Ctrl+6)."));
  for (int i = 0; i < kStepCount; ++i) {
    auto* item = new QListWidgetItem(this);
    item->setSizeHint(QSize(0, 48));
  }
  connect(this, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0) emit stepChosen(static_cast<Step>(row));
  });
}

void StepList::setStates(const std::array<StepStatus, kStepCount>& states) {
  states_ = states;
  for (int i = 0; i < kStepCount; ++i) {
    const StepStatus& status = states[static_cast<std::size_t>(i)];
    QListWidgetItem* it = item(i);
    const Step step = static_cast<Step>(i);
    it->setText(QStringLiteral("%1  %2\n%3").arg(i + 1).arg(stepTitle(step), status.note));
    it->setToolTip(QStringLiteral("%1 (%2): %3 — Ctrl+%4")
                       .arg(stepTitle(step), stateWord(status.state), status.note)
                       .arg(i + 1));
    QIcon icon;
    switch (status.state) {
      case StepState::kDone: icon = style()->standardIcon(QStyle::SP_DialogApplyButton); break;
      case StepState::kAttention: icon = style()->standardIcon(QStyle::SP_MessageBoxWarning); break;
      case StepState::kStale: icon = style()->standardIcon(QStyle::SP_BrowserReload); break;
      case StepState::kTodo: icon = style()->standardIcon(QStyle::SP_ArrowRight); break;
      case StepState::kLocked: break;
    }
    it->setIcon(icon);
    Qt::ItemFlags flags = Qt::ItemIsSelectable;
    if (status.state != StepState::kLocked) flags |= Qt::ItemIsEnabled;
    it->setFlags(flags);
  }
}

void StepList::setCurrentStep(Step step) {
  const QSignalBlocker block(this);
  setCurrentRow(static_cast<int>(step));
}

Step StepList::currentStep() const {
  return currentRow() < 0 ? Step::kData : static_cast<Step>(currentRow());
}

}  // namespace deniable::ui
