// SPDX-License-Identifier: Apache-2.0
// The Privacy page's controls take their ranges from the settings table (issue 12, part 7):
// each control named after its row offers exactly the row's control range, and the bins
// slider reaches the 1,000 bins the CLI and the project file accept (it stopped at 100).
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>
#include <gtest/gtest.h>

#include "engine/pipeline/settings_table.h"
#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/privacy_page.h"
#include "ui/session/session.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/setting_control.h"

namespace deniable::ui {
namespace {

TEST(SettingsControlsTest, EachControlOffersItsRowsRange) {
  QSettings().clear();
  MainWindow window;
  PrivacyPage* page = window.privacyPage();
  int found = 0;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    QWidget* control = page->findChild<QWidget*>(settingControlName(spec));
    if (control == nullptr) continue;
    ++found;
    SCOPED_TRACE(spec.name);
    double minimum = 0, maximum = 0;
    bool automatic_below = false;
    if (auto* slider = qobject_cast<ParameterSlider*>(control)) {
      minimum = slider->spinBox()->minimum();
      maximum = slider->spinBox()->maximum();
    } else if (auto* box = qobject_cast<QSpinBox*>(control)) {
      minimum = box->minimum();
      maximum = box->maximum();
    } else if (auto* real = qobject_cast<QDoubleSpinBox*>(control)) {
      minimum = real->minimum();
      maximum = real->maximum();
      // A minimum below the range that reads as "Automatic" stands for the auto value.
      automatic_below = spec.has_auto && !real->specialValueText().isEmpty();
    } else if (auto* choices = qobject_cast<QComboBox*>(control)) {
      // A list of values (the control split): its first and last items are the range's ends.
      ASSERT_GT(choices->count(), 0);
      minimum = choices->itemData(0).toDouble();
      maximum = choices->itemData(choices->count() - 1).toDouble();
    } else {
      ADD_FAILURE() << "unexpected control kind";
      continue;
    }
    if (automatic_below) {
      EXPECT_LT(minimum, spec.control_minimum);
    } else {
      EXPECT_DOUBLE_EQ(minimum, spec.control_minimum);
    }
    EXPECT_DOUBLE_EQ(maximum, spec.control_maximum);
  }
  // ε, bins, degree, the two shares, k, γ, ω (2), ε0, maxcost and the control split.
  EXPECT_EQ(found, 12);
}

TEST(SettingsControlsTest, TooltipsGiveTheTablesBoundsFlagAndKey) {
  QSettings().clear();
  MainWindow window;
  auto* bins = window.privacyPage()->findChild<ParameterSlider*>(
      settingControlName(Setting("bins")));
  ASSERT_NE(bins, nullptr);
  const QString tip = bins->spinBox()->toolTip();
  EXPECT_TRUE(tip.startsWith(QStringLiteral("At most this many bins"))) << tip.toStdString();
  EXPECT_TRUE(tip.endsWith(QStringLiteral("Allowed: between 2 and 1000, or 0 / auto for "
                                          "automatic. Command line: --bins. Project file: bins.")))
      << tip.toStdString();
  EXPECT_EQ(bins->slider()->toolTip(), tip);
  auto* omega_max = window.privacyPage()->findChild<QSpinBox*>(
      settingControlName(Setting("omega_max")));
  ASSERT_NE(omega_max, nullptr);
  EXPECT_TRUE(omega_max->toolTip().endsWith(
      QStringLiteral("Allowed: between 0 and 10000, or auto. Project file: omega_max.")))
      << omega_max->toolTip().toStdString();
}

TEST(SettingsControlsTest, BinsSliderReachesTheTablesMaximum) {
  QSettings().clear();
  MainWindow window;
  auto* bins = window.privacyPage()->findChild<ParameterSlider*>(
      settingControlName(Setting("bins")));
  ASSERT_NE(bins, nullptr);
  PrivacySettings settings = window.session()->settings();
  settings.model.bins = 1000;
  window.session()->editSettings(settings, QStringLiteral("bins"));
  EXPECT_EQ(bins->value(), 1000);
  settings.model.bins = 2;
  window.session()->editSettings(settings, QStringLiteral("bins"));
  EXPECT_EQ(bins->value(), 2);
}

}  // namespace
}  // namespace deniable::ui
