// SPDX-License-Identifier: Apache-2.0
#include "ui/review/review_layout.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>

namespace deniable::ui {

void setUpFactTable(QTableView* view) {
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
}

void fillWithScrollArea(QWidget* tab, QWidget* content) {
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);
  auto* outer = new QVBoxLayout(tab);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
}

QLabel* wrappedLabel(const QString& objectName) {
  auto* label = new QLabel;
  label->setObjectName(objectName);
  label->setWordWrap(true);
  label->setTextFormat(Qt::RichText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

void styleNote(QLabel* label, NoteStyle style) {
  const QString box = QStringLiteral(
      "#%1 { background: %2; border: 1px solid %3; border-radius: 6px; padding: %4px; "
      "color: %5; }");
  const QString name = label->objectName();
  switch (style) {
    case NoteStyle::kOwnerOnly:
      label->setStyleSheet(box.arg(name, QStringLiteral("#fef3f2"), QStringLiteral("#f3b4ad"),
                                   QStringLiteral("6"), QStringLiteral("#7a1a12")));
      break;
    case NoteStyle::kResult:
      label->setStyleSheet(box.arg(name, QStringLiteral("#eef4fb"), QStringLiteral("#b9cfe8"),
                                   QStringLiteral("8"), QStringLiteral("#1b2a3a")));
      break;
    case NoteStyle::kExplanation:
      label->setStyleSheet(box.arg(name, QStringLiteral("#fff8e6"), QStringLiteral("#e8cf8a"),
                                   QStringLiteral("8"), QStringLiteral("#3a2e10")));
      break;
    case NoteStyle::kScope:
      label->setStyleSheet(QStringLiteral("#%1 { color: #555; }").arg(name));
      break;
  }
}

QLabel* ownerOnlyNote(const QString& html) {
  QLabel* label = wrappedLabel(QStringLiteral("ownerOnly"));
  label->setText(html);
  styleNote(label, NoteStyle::kOwnerOnly);
  return label;
}

}  // namespace deniable::ui
