// SPDX-License-Identifier: Apache-2.0
// Every control a user can operate on the shell's pages explains itself with a tooltip (the
// Review views are another module's and have their own tests).
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/columns_page.h"
#include "ui/pages/data_page.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/pages/run_page.h"

namespace deniable::ui {
namespace {

bool IsControl(QWidget* widget) {
  if (qobject_cast<QScrollBar*>(widget) != nullptr) return false;  // part of a scroll area
  // The line edit inside a spin box or combo box is part of that control.
  if (qobject_cast<QLineEdit*>(widget) != nullptr &&
      (qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) != nullptr ||
       qobject_cast<QComboBox*>(widget->parentWidget()) != nullptr)) {
    return false;
  }
  return qobject_cast<QAbstractButton*>(widget) != nullptr ||
         qobject_cast<QAbstractSlider*>(widget) != nullptr ||
         qobject_cast<QAbstractSpinBox*>(widget) != nullptr ||
         qobject_cast<QComboBox*>(widget) != nullptr || qobject_cast<QLineEdit*>(widget) != nullptr ||
         qobject_cast<QAbstractItemView*>(widget) != nullptr ||
         qobject_cast<QPlainTextEdit*>(widget) != nullptr;
}

TEST(TooltipsTest, EveryControlOnTheShellsPagesHasATooltip) {
  QSettings().clear();
  MainWindow window;
  const test_support::JobOutcome opened = test_support::runJob(*window.jobs(), [&window] { window.openDemo(); });
  ASSERT_EQ(opened.end, JobController::End::kSucceeded);
  QStringList missing;
  for (QWidget* page : {static_cast<QWidget*>(window.dataPage()), static_cast<QWidget*>(window.columnsPage()),
                        static_cast<QWidget*>(window.privacyPage()), static_cast<QWidget*>(window.runPage()),
                        static_cast<QWidget*>(window.exportPage())}) {
    for (QWidget* widget : page->findChildren<QWidget*>()) {
      if (!IsControl(widget) || !widget->toolTip().isEmpty()) continue;
      // A header view's sections carry their own tooltips from the model.
      if (widget->parentWidget() != nullptr && qobject_cast<QAbstractItemView*>(widget->parentWidget())) continue;
      missing << QStringLiteral("%1 %2 (%3) on %4")
                     .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName(),
                          qobject_cast<QAbstractButton*>(widget) ? qobject_cast<QAbstractButton*>(widget)->text()
                                                                 : QString(),
                          QString::fromLatin1(page->metaObject()->className()));
    }
  }
  EXPECT_TRUE(missing.isEmpty()) << missing.join(QLatin1Char('\n')).toStdString();
}

}  // namespace
}  // namespace deniable::ui
