// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>

namespace deniable::ui {

void WheelGuard::install() {
  QCoreApplication* app = QCoreApplication::instance();
  if (app == nullptr || app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
  app->installEventFilter(new WheelGuard(app));
}

bool WheelGuard::guards(const QWidget* widget) {
  return qobject_cast<const QAbstractSpinBox*>(widget) != nullptr ||
         qobject_cast<const QAbstractSlider*>(widget) != nullptr ||
         qobject_cast<const QComboBox*>(widget) != nullptr;
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::Polish && event->type() != QEvent::Wheel) return false;
  auto* widget = qobject_cast<QWidget*>(watched);
  if (widget == nullptr || !guards(widget)) return false;
  if (event->type() == QEvent::Polish) {
    if (widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  // A scroll bar scrolls whatever the focus: moving it is what the wheel is for, and it holds
  // no setting. Its parent scroll area's scrolling goes through it.
  if (widget->hasFocus() || widget->inherits("QScrollBar")) return false;
  event->ignore();  // QApplication offers an ignored wheel event to the parents
  return true;
}

}  // namespace deniable::ui
