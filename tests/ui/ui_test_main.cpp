// SPDX-License-Identifier: Apache-2.0
// main() of ui_tests: a QApplication on the offscreen platform (set here when unset, because
// gtest_discover_tests runs this binary without the test's ENVIRONMENT), fonts registered so
// text renders, QSettings in test mode (the user's settings are never touched).
#include <cstdlib>

#include <QApplication>
#include <QLocale>
#include <QStandardPaths>
#include <gtest/gtest.h>

#include "ui/app/app_setup.h"

int main(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("DeniableTests"));
  QApplication::setApplicationName(QStringLiteral("ui_tests"));
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  deniable::ui::ensureFonts();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
