// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/mode_card.h"

#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QRadioButton>
#include <QVBoxLayout>

namespace deniable::ui {

ModeCard::ModeCard(const QString& title, const QString& protects, const QString& costs,
                   QWidget* parent)
    : QFrame(parent), radio_(new QRadioButton(title, this)), details_(new QLabel(this)) {
  setFrameShape(QFrame::StyledPanel);
  setFrameShadow(QFrame::Raised);
  setAutoFillBackground(true);
  QFont bold = radio_->font();
  bold.setBold(true);
  radio_->setFont(bold);
  details_->setText(tr("<b>Protects:</b> %1<br><b>Costs:</b> %2").arg(protects, costs));
  details_->setWordWrap(true);
  details_->setTextFormat(Qt::RichText);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(radio_);
  layout->addWidget(details_);
  layout->addStretch(1);
  setToolTip(tr("%1 — protects: %2; costs: %3").arg(title, protects, costs));
  radio_->setToolTip(toolTip());
  connect(radio_, &QRadioButton::toggled, this, [this](bool on) {
    updateFrame();
    if (on) emit chosen();
  });
  updateFrame();
}

bool ModeCard::isChecked() const { return radio_->isChecked(); }

void ModeCard::setChecked(bool checked) { radio_->setChecked(checked); }

void ModeCard::mousePressEvent(QMouseEvent* event) {
  if (isEnabled() && event->button() == Qt::LeftButton) radio_->setChecked(true);
  QFrame::mousePressEvent(event);
}

void ModeCard::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::EnabledChange) {
    updateFrame();
  }
  QFrame::changeEvent(event);
}

void ModeCard::updateFrame() {
  // The chosen card stands out with the palette's highlight colour (system palette, no custom
  // chrome): a thicker frame line in the highlight colour.
  QPalette palette = this->palette();
  const bool on = radio_->isChecked();
  setLineWidth(on ? 2 : 1);
  setFrameShadow(on ? QFrame::Sunken : QFrame::Raised);
  palette.setColor(QPalette::Window, on ? QPalette().color(QPalette::AlternateBase)
                                        : QPalette().color(QPalette::Window));
  setPalette(palette);
}

}  // namespace deniable::ui
