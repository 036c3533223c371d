// SPDX-License-Identifier: Apache-2.0
// The wheel never changes a value the user did not focus (issue 12, part 5): over an unfocused
// spin box, slider or combo box it scrolls the page instead; once the control has the focus
// (a click, Tab) the wheel changes it as usual. Wheel events are delivered as the window system
// delivers them (spontaneous, through QApplication::notify, as QTest delivers key events), so
// Qt's focus-on-wheel and propagation to the parents take part.
#include "ui/widgets/wheel_guard.h"

#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSpontaneKeyEvent>
#include <QTest>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/privacy_page.h"
#include "ui/session/session.h"
#include "ui/widgets/parameter_slider.h"

namespace deniable::ui {
namespace {

// One notch of the wheel turned towards the user (scrolls down; steps a spin box down) over
// the centre of `widget`.
void WheelDown(QWidget* widget) {
  const QPointF local = QRectF(widget->rect()).center();
  QWheelEvent event(local, widget->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QSpontaneKeyEvent::setSpontaneous(&event);
  qApp->notify(widget, &event);
}

class WheelGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WheelGuard::install();
    content_ = new QWidget;
    auto* layout = new QVBoxLayout(content_);
    spin_ = new QSpinBox(content_);
    spin_->setRange(0, 100);
    spin_->setValue(50);
    slider_ = new QSlider(Qt::Horizontal, content_);
    slider_->setRange(0, 100);
    slider_->setValue(50);
    combo_ = new QComboBox(content_);
    combo_->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    combo_->setCurrentIndex(1);
    layout->addWidget(spin_);
    layout->addWidget(slider_);
    layout->addWidget(combo_);
    layout->addSpacing(2000);  // taller than the view: the area scrolls
    area_.setWidget(content_);
    area_.setWidgetResizable(true);
    area_.resize(300, 200);
    area_.show();
    QApplication::setActiveWindow(&area_);
    ASSERT_TRUE(QTest::qWaitForWindowActive(&area_));
    area_.setFocus();
  }

  QScrollArea area_;
  QWidget* content_ = nullptr;
  QSpinBox* spin_ = nullptr;
  QSlider* slider_ = nullptr;
  QComboBox* combo_ = nullptr;
};

TEST_F(WheelGuardTest, UnfocusedControlsKeepTheirValueAndThePageScrolls) {
  QScrollBar* bar = area_.verticalScrollBar();
  ASSERT_GT(bar->maximum(), 0);
  int scrolled = bar->value();
  for (QWidget* control : {static_cast<QWidget*>(spin_), static_cast<QWidget*>(slider_),
                           static_cast<QWidget*>(combo_)}) {
    EXPECT_EQ(control->focusPolicy(), Qt::StrongFocus) << control->metaObject()->className();
    WheelDown(control);
    EXPECT_FALSE(control->hasFocus()) << control->metaObject()->className();
    EXPECT_GT(bar->value(), scrolled) << control->metaObject()->className();
    bar->setValue(0);  // back, so that every control stays under the pointer
    scrolled = 0;
  }
  EXPECT_EQ(spin_->value(), 50);
  EXPECT_EQ(slider_->value(), 50);
  EXPECT_EQ(combo_->currentIndex(), 1);
}

TEST_F(WheelGuardTest, AFocusedControlTakesTheWheel) {
  QScrollBar* bar = area_.verticalScrollBar();
  spin_->setFocus(Qt::MouseFocusReason);
  ASSERT_TRUE(spin_->hasFocus());
  WheelDown(spin_);
  EXPECT_EQ(spin_->value(), 49);
  EXPECT_EQ(bar->value(), 0);
  combo_->setFocus(Qt::TabFocusReason);
  ASSERT_TRUE(combo_->hasFocus());
  WheelDown(combo_);
  EXPECT_EQ(combo_->currentIndex(), 2);
  EXPECT_EQ(spin_->value(), 49);  // it lost the focus: unchanged
}

// The reported case: scrolling the Privacy page at 1024 × 700 with the pointer over ε (a
// slider and a spin box) scrolls the page and leaves ε alone.
TEST(WheelGuardPrivacyPage, ScrollingOverEpsilonLeavesItAlone) {
  QSettings().clear();
  MainWindow window;
  window.resize(1024, 700);
  window.show();
  const auto opened = test_support::runJob(*window.jobs(), [&window] { window.openDemo(); });
  ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
  window.showStep(Step::kPrivacy);
  QApplication::setActiveWindow(&window);
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  auto* scroll = window.privacyPage()->findChild<QScrollArea*>();
  ASSERT_NE(scroll, nullptr);
  QScrollBar* bar = scroll->verticalScrollBar();
  ASSERT_GT(bar->maximum(), 0) << "the Privacy page fits without scrolling: nothing to test";
  const double epsilon = window.session()->settings().model.epsilon;
  const int undo_steps = window.session()->undoStack()->count();
  ParameterSlider* slider = window.privacyPage()->epsilonSlider();
  for (QWidget* control : {static_cast<QWidget*>(slider->slider()),
                           static_cast<QWidget*>(slider->spinBox())}) {
    bar->setValue(0);
    WheelDown(control);
    EXPECT_GT(bar->value(), 0) << control->metaObject()->className();
  }
  EXPECT_EQ(window.session()->settings().model.epsilon, epsilon);
  EXPECT_EQ(window.session()->undoStack()->count(), undo_steps);
}

}  // namespace
}  // namespace deniable::ui
