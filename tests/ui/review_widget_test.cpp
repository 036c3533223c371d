// SPDX-License-Identifier: Apache-2.0
// ReviewWidget as a whole: its tabs, setData/clear, and offscreen renders of every tab (also
// written to /tmp/deniable-review-shots/ so that a person can look at them).
#include <gtest/gtest.h>

#include <QDir>
#include <QImage>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/attack_view.h"
#include "ui/review/correlation_view.h"
#include "ui/review/histogram_view.h"
#include "ui/review/network_scene.h"
#include "ui/review/network_view.h"
#include "ui/review/privacy_view.h"
#include "ui/review/ledger_model.h"
#include "ui/review/raw_table_model.h"
#include "ui/review/attack_view.h"
#include "ui/review/review_widget.h"
#include "ui/review/risk_view.h"
#include "ui/review/rows_view.h"

namespace deniable::ui {
namespace {

// Number of distinct colours in a sample of the image's pixels: a blank or single-colour
// render has 1; a real view has text, lines and fills.
int distinctColors(const QImage& image) {
  QSet<QRgb> colors;
  for (int y = 0; y < image.height(); y += 3) {
    for (int x = 0; x < image.width(); x += 3) colors.insert(image.pixel(x, y));
  }
  return static_cast<int>(colors.size());
}

TEST(ReviewWidgetTest, HasTheSevenTabsInWorkflowOrder) {
  ReviewWidget widget;
  ASSERT_EQ(widget.count(), 7);
  EXPECT_EQ(widget.widget(0), widget.histogramView());
  EXPECT_EQ(widget.widget(1), widget.correlationView());
  EXPECT_EQ(widget.widget(2), widget.networkView());
  EXPECT_EQ(widget.widget(3), widget.rowsView());
  EXPECT_EQ(widget.widget(4), widget.privacyView());
  EXPECT_EQ(widget.widget(5), widget.riskView());
  EXPECT_EQ(widget.widget(6), widget.attackView());
  EXPECT_EQ(reviewTabName(ReviewTab::kNetwork), QStringLiteral("network"));
  EXPECT_EQ(reviewTabName(ReviewTab::kAttacks), QStringLiteral("attacks"));
}

TEST(ReviewWidgetTest, SetDataFillsEveryTabAndClearEmptiesThem) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  ReviewWidget widget;
  widget.setData(data);
  EXPECT_EQ(widget.reviewData(), data);
  EXPECT_EQ(widget.histogramView()->currentAttribute() >= 0, true);
  EXPECT_EQ(widget.networkView()->scene()->nodeCount(),
            static_cast<int>(data->description.domains.size()));
  EXPECT_EQ(widget.rowsView()->realModel()->rowCount(), static_cast<int>(data->real->num_rows()));
  EXPECT_EQ(widget.privacyView()->ledgerModel()->rowCount(),
            static_cast<int>(data->description.privacy["entries"].size()));

  widget.clear();
  EXPECT_EQ(widget.reviewData(), nullptr);
  EXPECT_EQ(widget.histogramView()->currentAttribute(), -1);
  EXPECT_EQ(widget.networkView()->scene()->nodeCount(), 0);
  EXPECT_EQ(widget.rowsView()->realModel()->rowCount(), 0);
  EXPECT_EQ(widget.privacyView()->ledgerModel()->rowCount(), 0);
}

TEST(ReviewWidgetTest, RendersEveryTabOffscreenAtTheRequestedSize) {
  auto data = test_support::DemoDeniableReviewData(4, 7);
  ASSERT_NE(data, nullptr);
  ReviewWidget widget;
  widget.setData(data);
  const QString directory = QDir::temp().filePath(QStringLiteral("deniable-review-shots"));
  QDir().mkpath(directory);
  for (ReviewTab tab : kAllReviewTabs) {
    const QImage image = widget.renderTab(tab, QSize(1280, 800));
    EXPECT_EQ(image.size(), QSize(1280, 800)) << reviewTabName(tab).toStdString();
    EXPECT_GT(distinctColors(image), 20) << reviewTabName(tab).toStdString();
    image.save(directory + QStringLiteral("/") + reviewTabName(tab) + QStringLiteral(".png"));
  }
  // The visible widget was not disturbed by the renders.
  EXPECT_EQ(widget.currentIndex(), 0);
}

}  // namespace
}  // namespace deniable::ui
