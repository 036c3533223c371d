// SPDX-License-Identifier: Apache-2.0
// Histograms tab: attributes sorted by TVD (worst first), the chart of the selected attribute,
// and how many categories and which labels the chart shows.
#include <gtest/gtest.h>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/attribute_tvd_model.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/histogram_view.h"

namespace deniable::ui {
namespace {

TEST(AttributeTvdModelTest, ListsEveryComparedAttributeWorstFirst) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const MetricReport& report = data->metrics;
  AttributeTvdModel model;
  model.setReport(&report);
  ASSERT_EQ(model.rowCount(), static_cast<int>(report.columns.size()));
  std::vector<bool> seen(report.columns.size(), false);
  for (int row = 0; row < model.rowCount(); ++row) {
    const int index = model.reportIndex(row);
    seen[static_cast<std::size_t>(index)] = true;
    EXPECT_EQ(model.data(model.index(row, AttributeTvdModel::kAttribute)).toString().toStdString(),
              report.columns[static_cast<std::size_t>(index)].name);
    EXPECT_EQ(model.data(model.index(row, 0), AttributeTvdModel::kReportIndexRole).toInt(), index);
    if (row > 0) {
      EXPECT_GE(report.columns[static_cast<std::size_t>(model.reportIndex(row - 1))].tvd,
                report.columns[static_cast<std::size_t>(index)].tvd);
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), static_cast<long>(seen.size()));
}

TEST(HistogramViewTest, ShowsTheWorstAttributeFirstWithItsTvdAndBothDistributions) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const MetricReport& report = data->metrics;
  HistogramView view;
  view.setData(data);
  const auto worst = std::max_element(
      report.columns.begin(), report.columns.end(),
      [](const ColumnComparison& a, const ColumnComparison& b) { return a.tvd < b.tvd; });
  ASSERT_EQ(view.currentAttribute(), static_cast<int>(worst - report.columns.begin()));
  QChart* chart = view.chart();
  EXPECT_TRUE(chart->title().contains(QString::fromStdString(worst->name)));
  EXPECT_TRUE(chart->title().contains(QStringLiteral("TVD %1").arg(worst->tvd, 0, 'f', 3)));
  ASSERT_EQ(chart->series().size(), 1);
  auto* series = qobject_cast<QBarSeries*>(chart->series().front());
  ASSERT_NE(series, nullptr);
  ASSERT_EQ(series->barSets().size(), 2);
  const ColumnHistogram& h = worst->histogram;
  ASSERT_EQ(series->barSets()[0]->count(), static_cast<int>(h.labels.size()));
  for (int i = 0; i < series->barSets()[0]->count(); ++i) {
    EXPECT_DOUBLE_EQ(series->barSets()[0]->at(i), h.real[static_cast<std::size_t>(i)] * 100);
    EXPECT_DOUBLE_EQ(series->barSets()[1]->at(i), h.synthetic[static_cast<std::size_t>(i)] * 100);
  }
  EXPECT_EQ(series->barSets()[0]->label(), QStringLiteral("Real"));
  EXPECT_EQ(series->barSets()[1]->label(), QStringLiteral("Synthetic"));

  view.showAttribute(0);  // the picker
  EXPECT_EQ(view.currentAttribute(), 0);
  EXPECT_TRUE(view.chart()->title().contains(QString::fromStdString(report.columns[0].name)));
  view.clear();
  EXPECT_EQ(view.currentAttribute(), -1);
}

TEST(HistogramBarsTest, KeepsTheMostFrequentCategoriesInDisplayOrderWithUniqueLabels) {
  ColumnComparison column;
  column.name = "city";
  const int n = 100;
  for (int i = 0; i < n; ++i) {
    // Two labels that collide once elided to 18 characters; category i has weight i + 1.
    column.histogram.labels.push_back(i < 2 ? "A very long category name " + std::to_string(i)
                                            : "c" + std::to_string(i));
    column.histogram.real.push_back((i + 1) / 5050.0);
    column.histogram.synthetic.push_back(i < 2 ? 1.0 : 0.0);  // the colliding two are frequent
  }
  const HistogramBars bars = prepareHistogramBars(column, /*maxCategories=*/10, /*maxLabelLength=*/18);
  ASSERT_EQ(bars.labels.size(), 10);
  EXPECT_EQ(bars.hidden, 90);
  // Kept: the two colliding ones (synthetic weight 1) and categories 92..99, in display order.
  EXPECT_EQ(bars.fullLabels[0], QStringLiteral("A very long category name 0"));
  EXPECT_EQ(bars.fullLabels[1], QStringLiteral("A very long category name 1"));
  EXPECT_EQ(bars.fullLabels[2], QStringLiteral("c92"));
  EXPECT_EQ(bars.fullLabels[9], QStringLiteral("c99"));
  EXPECT_NE(bars.labels[0], bars.labels[1]);
  EXPECT_LE(bars.labels[0].size(), 18);
  EXPECT_DOUBLE_EQ(bars.real[9], 100.0 * 100 / 5050.0);
  EXPECT_DOUBLE_EQ(bars.synthetic[0], 100.0);
}

TEST(HistogramBarsTest, ChartCategoryAxisHoldsTheShownLabels) {
  ColumnComparison column;
  column.name = "sex";
  column.tvd = 0.25;
  column.histogram = {{"Female", "Male", "(missing)"}, {0.5, 0.4, 0.1}, {0.25, 0.65, 0.1}};
  std::unique_ptr<QChart> chart(createHistogramChart(column));
  const auto axes = chart->axes(Qt::Horizontal);
  ASSERT_EQ(axes.size(), 1);
  auto* axis = qobject_cast<QBarCategoryAxis*>(axes.front());
  ASSERT_NE(axis, nullptr);
  EXPECT_EQ(axis->categories(),
            QStringList({QStringLiteral("Female"), QStringLiteral("Male"), QStringLiteral("(missing)")}));
  EXPECT_EQ(histogramTitle(column), QStringLiteral("sex — TVD 0.250"));
}

}  // namespace
}  // namespace deniable::ui
