// SPDX-License-Identifier: Apache-2.0
// WheelGuard: one application-wide rule for the mouse wheel over value controls. A spin box,
// slider or combo box (QAbstractSpinBox, QAbstractSlider, QComboBox) changes its value on the
// wheel only while it has the keyboard focus; otherwise the wheel event passes on to its
// parents, so a page scrolls under the pointer instead of k, ε or a column's type changing.
//
// How: such a control's focus policy Qt::WheelFocus becomes Qt::StrongFocus when it is
// polished (so that the wheel no longer gives it the focus; a click or Tab still does), and a
// wheel event that reaches it unfocused is ignored before it sees it (QApplication then
// offers the event to the parent widgets, e.g. a QScrollArea's viewport).
#pragma once

#include <QObject>

class QWidget;

namespace deniable::ui {

class WheelGuard final : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

  // Installs one guard on the application (idempotent). Call after creating the QApplication.
  static void install();
  // True when `widget` is a control whose value the wheel changes (see above).
  static bool guards(const QWidget* widget);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace deniable::ui
