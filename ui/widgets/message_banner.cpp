// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/message_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace deniable::ui {

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent), icon_(new QLabel(this)), text_(new QLabel(this)) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::AlternateBase);
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* close = new QToolButton(this);
  close->setAutoRaise(true);
  close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  close->setToolTip(tr("Hide this message"));
  connect(close, &QToolButton::clicked, this, &QWidget::hide);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(icon_, 0, Qt::AlignTop);
  layout->addWidget(text_, 1);
  layout->addWidget(close, 0, Qt::AlignTop);
  setVisible(false);
}

void MessageBanner::showMessage(Kind kind, const QString& text) {
  kind_ = kind;
  const QStyle::StandardPixmap pixmap =
      kind == Kind::kError     ? QStyle::SP_MessageBoxCritical
      : kind == Kind::kWarning ? QStyle::SP_MessageBoxWarning
                               : QStyle::SP_MessageBoxInformation;
  const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
  icon_->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
  text_->setText(text);
  setVisible(!text.isEmpty());
}

QString MessageBanner::text() const { return text_->text(); }

}  // namespace deniable::ui
