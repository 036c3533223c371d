// SPDX-License-Identifier: Apache-2.0
#include "ui/review/review_layout.h"

#include <QHeaderView>
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

}  // namespace deniable::ui
