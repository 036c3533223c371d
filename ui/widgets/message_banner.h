// SPDX-License-Identifier: Apache-2.0
// An inline message (information, warning or error) with an icon, shown at the top of a page
// instead of a modal dialog: readable, selectable, never in the way of the workflow.
#pragma once

#include <QFrame>

class QLabel;

namespace deniable::ui {

class MessageBanner : public QFrame {
  Q_OBJECT

 public:
  enum class Kind { kInfo, kWarning, kError };

  explicit MessageBanner(QWidget* parent = nullptr);
  void showMessage(Kind kind, const QString& text);
  QString text() const;
  Kind kind() const { return kind_; }

 private:
  QLabel* icon_;
  QLabel* text_;
  Kind kind_ = Kind::kInfo;
};

}  // namespace deniable::ui
