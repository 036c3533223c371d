// SPDX-License-Identifier: Apache-2.0
// Every page is usable at 1024 × 700 (issue 12, part 5), in the correlated, deniable and
// marginals modes (their Review tabs differ): with the demo dataset open and a run made, the
// window can be that small on every step and Review tab (no page's minimum size makes it grow),
// every control is inside the page or inside a scroll area that is (so it can be scrolled to),
// and no word-wrapped text outside a scroll area is cut off. Set DENIABLE_UI_GRABS=DIR to save
// each step's picture.
#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QTabBar>
#include <QToolButton>
#include <QTest>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/review_page.h"
#include "ui/review/review_widget.h"
#include "ui/session/session.h"

namespace deniable::ui {
namespace {

constexpr QSize kSmall(1024, 700);

QRect RectIn(const QWidget* widget, const QWidget* ancestor) {
  return QRect(widget->mapTo(ancestor, QPoint(0, 0)), widget->size());
}

// True when `widget` is inside a scroll area below `page`.
bool InScrollArea(const QWidget* widget, const QWidget* page) {
  for (const QWidget* up = widget->parentWidget(); up != nullptr && up != page; up = up->parentWidget()) {
    if (qobject_cast<const QScrollArea*>(up) != nullptr) return true;
  }
  return false;
}

// The visible word-wrapped labels of `page`, outside scroll areas, that are too short for
// their text (their last lines are cut off).
QStringList ClippedLabels(QWidget* page) {
  QStringList out;
  for (QLabel* label : page->findChildren<QLabel*>()) {
    if (!label->isVisibleTo(page) || !label->wordWrap() || label->text().isEmpty()) continue;
    if (InScrollArea(label, page)) continue;
    const int needed = label->heightForWidth(label->width());
    if (needed > label->height() + 2) {
      out << QStringLiteral("QLabel '%1…' %2 px high, needs %3")
                 .arg(label->text().left(40))
                 .arg(label->height())
                 .arg(needed);
    }
  }
  return out;
}

// The visible controls of `page` that lie outside it and outside every scroll area.
QStringList UnreachableControls(QWidget* page) {
  QStringList out;
  for (QWidget* control : page->findChildren<QWidget*>()) {
    const bool is_control = qobject_cast<QAbstractButton*>(control) != nullptr ||
                            qobject_cast<QAbstractSpinBox*>(control) != nullptr ||
                            (qobject_cast<QAbstractSlider*>(control) != nullptr &&
                             qobject_cast<QScrollBar*>(control) == nullptr) ||
                            qobject_cast<QComboBox*>(control) != nullptr ||
                            qobject_cast<QLineEdit*>(control) != nullptr;
    if (!is_control || !control->isVisibleTo(page) || control->size().isEmpty()) continue;
    if (qobject_cast<QLineEdit*>(control) != nullptr &&
        (qobject_cast<QAbstractSpinBox*>(control->parentWidget()) != nullptr ||
         qobject_cast<QComboBox*>(control->parentWidget()) != nullptr)) {
      continue;  // a spin box's or combo box's own editor: checked with it
    }
    // Inside a scroll area: reachable when the scroll area itself is on the page.
    const QWidget* outer = control;
    for (QWidget* up = control->parentWidget(); up != nullptr && up != page; up = up->parentWidget()) {
      if (qobject_cast<QScrollArea*>(up) != nullptr) outer = up;
    }
    const QRect rect = RectIn(outer, page);
    if (!page->rect().contains(rect)) {
      out << QStringLiteral("%1 '%2' at %3,%4 %5×%6")
                 .arg(QString::fromLatin1(control->metaObject()->className()),
                      control->objectName().isEmpty() && qobject_cast<QAbstractButton*>(control)
                          ? static_cast<QAbstractButton*>(control)->text()
                          : control->objectName())
                 .arg(rect.x())
                 .arg(rect.y())
                 .arg(rect.width())
                 .arg(rect.height());
    }
  }
  return out;
}

class SmallWindowTest : public ::testing::TestWithParam<SynthesisMode> {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_.resize(kSmall);
    window_.show();
    const auto opened = test_support::runJob(*window_.jobs(), [this] { window_.openDemo(); });
    ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
    PrivacySettings settings = window_.session()->settings();
    settings.rows = 500;
    settings.model.mode = GetParam();  // each mode's Review tabs show other things
    window_.session()->editSettings(settings, QStringLiteral("rows"));
    const auto run = test_support::runJob(*window_.jobs(), [this] { window_.jobs()->startRun(); });
    ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
  }

  static QString ModeName() { return QString::fromLatin1(SynthesisModeName(GetParam())); }

  void Check(const QString& name) {
    // Layouts settle: deliver the posted LayoutRequest events until none is left (a layout's
    // activation can post another one for its parent), whatever the machine's load; then the
    // short wait lets timers fire.
    for (int i = 0; i < 8; ++i) {
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      QCoreApplication::processEvents();
    }
    QTest::qWait(50);
    const QSize hint = window_.minimumSizeHint();
    EXPECT_LE(hint.width(), kSmall.width()) << name.toStdString();
    EXPECT_LE(hint.height(), kSmall.height()) << name.toStdString();
    window_.resize(kSmall);
    EXPECT_EQ(window_.size(), kSmall) << name.toStdString();
    auto* pages = window_.findChild<QStackedWidget*>();
    ASSERT_NE(pages, nullptr);
    const QStringList unreachable =
        UnreachableControls(pages->currentWidget()) + ClippedLabels(pages->currentWidget());
    EXPECT_TRUE(unreachable.isEmpty()) << name.toStdString() << ": "
                                       << unreachable.join(QStringLiteral("; ")).toStdString();
    if (const QByteArray dir = qgetenv("DENIABLE_UI_GRABS"); !dir.isEmpty()) {
      window_.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name + QStringLiteral(".png")));
    }
  }

  // Every Review tab is in view side by side: none hides behind the tab bar's scroll arrows
  // (issue 12, seven tabs at 1024 px).
  void CheckReviewTabsAllShown() {
    QTabBar* bar = window_.reviewPage()->reviewWidget()->tabBar();
    ASSERT_EQ(bar->count(), 7);
    EXPECT_EQ(bar->tabRect(0).left(), 0);
    EXPECT_LE(bar->tabRect(bar->count() - 1).right(), bar->width() - 1)
        << "tab bar " << bar->width() << " px wide, its tabs need "
        << bar->tabRect(bar->count() - 1).right() + 1;
    for (const QToolButton* arrow : bar->findChildren<QToolButton*>()) {
      EXPECT_FALSE(arrow->isVisible()) << "the tab bar shows a scroll arrow";
    }
  }

  MainWindow window_;
};

TEST_P(SmallWindowTest, EveryStepAndReviewTabFits) {
  for (int i = 0; i < kStepCount; ++i) {
    const Step step = static_cast<Step>(i);
    window_.showStep(step);
    ASSERT_EQ(window_.currentStep(), step);
    if (step != Step::kReview) {
      Check(QStringLiteral("%1-step-%2").arg(ModeName()).arg(i + 1));
      continue;
    }
    for (ReviewTab tab : kAllReviewTabs) {
      window_.reviewPage()->reviewWidget()->showTab(tab);
      Check(QStringLiteral("%1-review-%2").arg(ModeName(), reviewTabName(tab)));
      CheckReviewTabsAllShown();
    }
  }
}

std::string ModeTestName(const ::testing::TestParamInfo<SynthesisMode>& mode) {
  return SynthesisModeName(mode.param);
}

INSTANTIATE_TEST_SUITE_P(Modes, SmallWindowTest,
                         ::testing::Values(SynthesisMode::kCorrelated, SynthesisMode::kDeniable,
                                           SynthesisMode::kMarginals),
                         ModeTestName);

}  // namespace
}  // namespace deniable::ui
