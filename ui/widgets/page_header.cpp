// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/page_header.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace deniable::ui {
namespace {
constexpr char kHelpKey[] = "ui/showStepHelp";
}

PageHeader::PageHeader(Step step, QWidget* parent)
    : QWidget(parent), help_(new QLabel(stepHelp(step), this)), toggle_(new QToolButton(this)) {
  auto* title = new QLabel(QStringLiteral("%1. %2").arg(static_cast<int>(step) + 1).arg(stepTitle(step)),
                           this);
  QFont font = title->font();
  font.setPointSizeF(font.pointSizeF() * 1.4);
  font.setBold(true);
  title->setFont(font);
  toggle_->setText(tr("What is this?"));
  toggle_->setCheckable(true);
  toggle_->setAutoRaise(true);
  toggle_->setToolTip(tr("Show or hide a short explanation of this step"));
  help_->setWordWrap(true);
  help_->setFrameShape(QFrame::StyledPanel);
  help_->setMargin(8);
  help_->setAutoFillBackground(true);
  help_->setBackgroundRole(QPalette::AlternateBase);
  help_->setWhatsThis(stepHelp(step));
  // Help > What is this? (Shift+F1), then a click anywhere on the page shows the same text.
  if (parent != nullptr) parent->setWhatsThis(stepHelp(step));
  auto* row = new QHBoxLayout;
  row->addWidget(title);
  row->addStretch(1);
  row->addWidget(toggle_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row);
  layout->addWidget(help_);
  const bool visible = QSettings().value(kHelpKey, true).toBool();
  toggle_->setChecked(visible);
  help_->setVisible(visible);
  connect(toggle_, &QToolButton::toggled, this, &PageHeader::setHelpVisible);
}

void PageHeader::setHelpVisible(bool visible) {
  help_->setVisible(visible);
  QSettings().setValue(kHelpKey, visible);
}

QString PageHeader::helpText() const { return help_->text(); }

}  // namespace deniable::ui
