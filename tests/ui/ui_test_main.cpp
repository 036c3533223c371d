// SPDX-License-Identifier: Apache-2.0
// main() of ui_tests: a QApplication on the offscreen platform (unless the caller chose one), so
// that widgets, Qt Charts and rendering work without a display, also when gtest_discover_tests
// runs the binary at build time without the test's environment.
#include <gtest/gtest.h>

#include <cstdlib>

#include <QApplication>

int main(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
