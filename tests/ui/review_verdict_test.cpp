// SPDX-License-Identifier: Apache-2.0
// The Review's verdict panel (#11 part 4): for the seeded demo run it answers "Not fit to
// share" (a seeded run is not a private release), shows the utility finding once the baselines
// come back from the worker — judged by the engine's rule against the exact perfect
// independent model —, the risk finding when the Disclosure risk tab has figures, and stays a
// one-line panel until expanded. Renders the panel above the tabs at 1024 × 700
// ($DENIABLE_SCREENSHOT_DIR/review-verdict*.png when set).
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QVBoxLayout>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/review_widget.h"
#include "ui/review/verdict_facts.h"
#include "ui/review/verdict_panel.h"

namespace deniable::ui {
namespace {

const VerdictFinding* FindingOf(const Verdict& verdict, VerdictTopic topic) {
  for (const VerdictFinding& f : verdict.findings) {
    if (f.topic == topic) return &f;
  }
  return nullptr;
}

TEST(ReviewVerdictTest, SeededDemoRunIsNotFitToShareAndHasTheUtilityFinding) {
  auto data = test_support::DemoReviewData(SynthesisMode::kCorrelated);
  ASSERT_NE(data, nullptr);
  VerdictPanel panel;
  panel.setData(data);  // on the worker
  panel.waitForWorker();
  const Verdict& verdict = panel.verdict();
  EXPECT_EQ(verdict.overall, VerdictLevel::kProblem);
  EXPECT_TRUE(panel.answerText().contains(QStringLiteral("Not fit to share")));
  EXPECT_TRUE(panel.answerText().contains(QStringLiteral("fixed seed")));
  const VerdictFinding* guarantee = FindingOf(verdict, VerdictTopic::kGuarantee);
  ASSERT_NE(guarantee, nullptr);
  EXPECT_EQ(guarantee->headline, "Not a private release: it was made with a fixed seed.");

  // The utility finding follows the engine's rule on the same figures.
  NullProgress progress;
  auto baselines = computeBaselines(*data, progress);
  ASSERT_TRUE(baselines.has_value()) << baselines.error().message;
  EXPECT_GT(baselines->perfect_independent, baselines->floor);
  // The yardstick is the independent model drawn with the release's 2,000 rows: its sampling
  // noise puts it above the exact model's figure.
  EXPECT_GT(baselines->perfect_independent_at_rows, baselines->perfect_independent);
  const VerdictFinding* utility = FindingOf(verdict, VerdictTopic::kUtility);
  ASSERT_NE(utility, nullptr);
  const double ratio = *data->metrics.mean_pair_tvd / baselines->perfect_independent_at_rows;
  EXPECT_EQ(utility->level, ratio <= 1      ? VerdictLevel::kGood
                            : ratio <= 1.5 ? VerdictLevel::kCaution
                                           : VerdictLevel::kProblem);
  EXPECT_EQ(FindingOf(verdict, VerdictTopic::kRisk), nullptr);  // no risk figures yet
  EXPECT_FALSE(panel.expanded());
}

TEST(ReviewVerdictTest, UnseededCopyOfTheRunIsJudgedOnUtilityAndGuarantee) {
  auto demo = test_support::DemoReviewData(SynthesisMode::kCorrelated);
  ASSERT_NE(demo, nullptr);
  auto data = std::make_shared<ReviewData>(*demo);
  data->description.reproducible_not_private = false;
  VerdictPanel panel;
  panel.setSynchronous(true);
  panel.setData(data);
  const Verdict& verdict = panel.verdict();
  const VerdictFinding* guarantee = FindingOf(verdict, VerdictTopic::kGuarantee);
  ASSERT_NE(guarantee, nullptr);
  EXPECT_EQ(guarantee->level, VerdictLevel::kGood);  // ε = 1, δ ≤ 1/n
  const VerdictFinding* utility = FindingOf(verdict, VerdictTopic::kUtility);
  ASSERT_NE(utility, nullptr);
  EXPECT_EQ(verdict.overall, utility->level);
  EXPECT_TRUE(panel.answerText().contains(overallAnswer(verdict.overall)));
  panel.clear();
  EXPECT_TRUE(panel.verdict().findings.empty());
}

TEST(ReviewVerdictTest, RenderAboveTheTabsAt1024x700) {
  auto data = test_support::DemoReviewData(SynthesisMode::kCorrelated);
  ASSERT_NE(data, nullptr);
  QWidget page;
  auto* layout = new QVBoxLayout(&page);
  auto* panel = new VerdictPanel(&page);
  panel->setSynchronous(true);
  auto* review = new ReviewWidget(&page);
  layout->addWidget(panel);
  layout->addWidget(review, 1);
  panel->setData(data);
  review->setData(data);
  page.resize(1024, 700);
  page.show();
  QCoreApplication::processEvents();
  // Collapsed: one line; the tabs keep nearly all the height.
  EXPECT_LT(panel->height(), 80);
  EXPECT_GT(review->height(), 560);
  const QString dir = qEnvironmentVariable("DENIABLE_SCREENSHOT_DIR");
  if (!dir.isEmpty()) page.grab().save(QDir(dir).filePath("review-verdict.png"));
  panel->setExpanded(true);
  QCoreApplication::processEvents();
  EXPECT_TRUE(panel->expanded());
  EXPECT_GT(review->height(), 300);  // the tabs still have room with every finding shown
  for (QLabel* label : panel->findChildren<QLabel*>()) {
    EXPECT_GE(label->height(), label->heightForWidth(label->width())) << label->text().toStdString();
  }
  if (!dir.isEmpty()) page.grab().save(QDir(dir).filePath("review-verdict-expanded.png"));
}

}  // namespace
}  // namespace deniable::ui
