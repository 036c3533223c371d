// SPDX-License-Identifier: Apache-2.0
// A page's title and its "What is this?" text for a non-expert (from stepHelp()), which the
// user can fold away (remembered in QSettings for all pages).
#pragma once

#include <QWidget>

#include "ui/session/workflow_state.h"

class QLabel;
class QToolButton;

namespace deniable::ui {

class PageHeader : public QWidget {
  Q_OBJECT

 public:
  PageHeader(Step step, QWidget* parent = nullptr);
  QString helpText() const;

 private:
  void setHelpVisible(bool visible);

  QLabel* help_;
  QToolButton* toggle_;
};

}  // namespace deniable::ui
