// SPDX-License-Identifier: Apache-2.0
// Correlations tab: heatmap cells are the MetricReport's NMI values, one colour scale for real
// and synthetic, hover text, and a click opening the pair's 2-way table.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/color_bar.h"
#include "ui/review/color_scale.h"
#include "ui/review/correlation_view.h"
#include "ui/review/heatmap_widget.h"
#include "ui/review/pair_table.h"
#include "ui/review/pair_table_model.h"

namespace deniable::ui {
namespace {

TEST(ColorScaleTest, SequentialAndDivergingEndsAreTheColorBrewerAnchors) {
  const ColorScale sequential = ColorScale::sequential(0.5);
  EXPECT_EQ(sequential.colorAt(0.0), QColor(0xff, 0xff, 0xd9));
  EXPECT_EQ(sequential.colorAt(0.5), QColor(0x08, 0x1d, 0x58));
  EXPECT_EQ(sequential.colorAt(7.0), QColor(0x08, 0x1d, 0x58));  // clamped
  const ColorScale diverging = ColorScale::diverging(0.2);
  EXPECT_EQ(diverging.colorAt(0.0), QColor(0xf7, 0xf7, 0xf7));
  EXPECT_EQ(diverging.colorAt(-0.2), QColor(0x05, 0x30, 0x61));
  EXPECT_EQ(diverging.colorAt(0.2), QColor(0x67, 0x00, 0x1f));
  EXPECT_EQ(diverging.minimum(), -0.2);
  EXPECT_EQ(sequential.textColorAt(0.5), QColor(Qt::white));
  EXPECT_EQ(sequential.textColorAt(0.0), QColor(Qt::black));
}

TEST(CorrelationViewTest, HeatmapCellsAreTheReportsNmiOnOneScale) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const MetricReport& report = data->metrics;
  CorrelationView view;
  view.setData(data);
  const std::size_t k = report.columns.size();
  ASSERT_EQ(view.realHeatmap()->labels().size(), static_cast<qsizetype>(k));
  double largest = 0;
  for (std::size_t r = 0; r < k; ++r) {
    EXPECT_EQ(view.realHeatmap()->labels()[static_cast<qsizetype>(r)].toStdString(),
              report.columns[r].name);
    for (std::size_t c = 0; c < k; ++c) {
      EXPECT_EQ(view.realHeatmap()->matrix()[r][c], report.nmi_real[r][c]);
      EXPECT_EQ(view.syntheticHeatmap()->matrix()[r][c], report.nmi_synthetic[r][c]);
      EXPECT_DOUBLE_EQ(view.differenceHeatmap()->matrix()[r][c],
                       report.nmi_synthetic[r][c] - report.nmi_real[r][c]);
      if (r != c) largest = std::max({largest, report.nmi_real[r][c], report.nmi_synthetic[r][c]});
    }
  }
  // One scale: both heatmaps and the legend, up to the largest off-diagonal value of either.
  EXPECT_EQ(view.realHeatmap()->scale().maximum(), largest);
  EXPECT_EQ(view.syntheticHeatmap()->scale().maximum(), largest);
  EXPECT_EQ(view.nmiColorBar()->scale().maximum(), largest);
  EXPECT_EQ(view.differenceHeatmap()->scale().kind(), ColorScale::Kind::kDiverging);
  EXPECT_EQ(view.differenceColorBar()->scale().maximum(), view.differenceHeatmap()->scale().maximum());
}

// At 1280×800 the three heatmaps share about 740 px: one set of row labels (the real one's,
// same attribute order in all three) leaves the grids the width, and they stay equal and aligned.
TEST(CorrelationViewTest, ThreeEqualGridsInOneRowShareTheRealHeatmapsRowLabels) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  CorrelationView view;
  view.setData(data);
  view.resize(760, 640);
  view.show();
  QCoreApplication::processEvents();
  const HeatmapWidget* maps[] = {view.realHeatmap(), view.syntheticHeatmap(),
                                 view.differenceHeatmap()};
  const QRect real = maps[0]->gridRect().translated(maps[0]->mapTo(&view, QPoint(0, 0)));
  EXPECT_GT(maps[0]->horizontalOverhead(), maps[1]->horizontalOverhead());  // labels on the real
  EXPECT_EQ(maps[1]->horizontalOverhead(), maps[2]->horizontalOverhead());
  int previous_right = real.right();
  for (const HeatmapWidget* map : {maps[1], maps[2]}) {
    const QRect grid = map->gridRect().translated(map->mapTo(&view, QPoint(0, 0)));
    EXPECT_EQ(grid.size(), real.size());
    EXPECT_EQ(grid.top(), real.top());
    EXPECT_GT(grid.left(), previous_right);  // left to right, not overlapping
    previous_right = grid.right();
  }
  // 15 attributes: the grids get at least 9 px cells in this width (7 px with three label sets).
  EXPECT_GE(real.width(), 15 * 9);
}

TEST(CorrelationViewTest, TooltipNamesThePairAndItsValues) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  CorrelationView view;
  view.setData(data);
  const MetricReport& report = data->metrics;
  const QString tip = view.cellToolTip(0, 1);
  EXPECT_TRUE(tip.contains(QString::fromStdString(report.columns[0].name)));
  EXPECT_TRUE(tip.contains(QString::fromStdString(report.columns[1].name)));
  EXPECT_TRUE(tip.contains(QStringLiteral("real NMI: %1").arg(report.nmi_real[0][1], 0, 'f', 3)));
  EXPECT_TRUE(tip.contains(
      QStringLiteral("synthetic NMI: %1").arg(report.nmi_synthetic[0][1], 0, 'f', 3)));
  EXPECT_TRUE(tip.contains(QStringLiteral("2-way TVD: %1").arg(report.pair_tvd[0][1], 0, 'f', 3)));
}

TEST(CorrelationViewTest, HoveringACellEmitsItsPair) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  CorrelationView view;
  view.setData(data);
  HeatmapWidget* map = view.realHeatmap();
  map->resize(400, 400);
  QSignalSpy hovered(map, &HeatmapWidget::cellHovered);
  const QPointF at(map->cellCenter(2, 4));
  QMouseEvent move(QEvent::MouseMove, at, map->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QCoreApplication::sendEvent(map, &move);
  ASSERT_GE(hovered.count(), 1);
  EXPECT_EQ(hovered.last()[0].toInt(), 2);
  EXPECT_EQ(hovered.last()[1].toInt(), 4);
  // The other heatmaps mirror the hover (their cell is outlined; checked through the signal
  // wiring: hovering them back to nothing reports (-1, -1)).
  QSignalSpy mirrored(view.syntheticHeatmap(), &HeatmapWidget::cellHovered);
  QEvent leave(QEvent::Leave);
  QCoreApplication::sendEvent(map, &leave);
  EXPECT_EQ(hovered.last()[0].toInt(), -1);
  EXPECT_EQ(mirrored.count(), 0);  // mirroring does not echo back
  EXPECT_EQ(map->cellAt(map->cellCenter(2, 4)), std::make_optional(std::make_pair(2, 4)));
  EXPECT_EQ(map->cellAt(QPoint(0, 0)), std::nullopt);  // the labels' corner
}

TEST(CorrelationViewTest, ClickingACellOpensThatPairsTwoWayTable) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  CorrelationView view;
  view.resize(1280, 800);
  view.setData(data);
  HeatmapWidget* map = view.syntheticHeatmap();
  map->resize(400, 400);
  const int row = 1, column = 3;  // workclass x education in the demo data
  QSignalSpy clicked(map, &HeatmapWidget::cellClicked);
  QSignalSpy ready(&view, &CorrelationView::pairTableReady);
  QTest::mouseClick(map, Qt::LeftButton, {}, map->cellCenter(row, column));
  ASSERT_EQ(clicked.count(), 1);
  EXPECT_EQ(clicked[0][0].toInt(), row);
  EXPECT_EQ(clicked[0][1].toInt(), column);
  ASSERT_TRUE(ready.count() == 1 || ready.wait(10000));
  const PairTable& table = view.pairModel()->table();
  const MetricReport& report = data->metrics;
  EXPECT_EQ(table.row_name, report.columns[row].name);
  EXPECT_EQ(table.column_name, report.columns[column].name);
  EXPECT_EQ(table.real_rows, report.real_rows);
  EXPECT_EQ(table.synthetic_rows, report.synthetic_rows);
  // Same categories as the report: the table's margins are the report's histograms.
  ASSERT_EQ(table.row_labels, report.columns[row].histogram.labels);
  for (std::size_t r = 0; r < table.row_labels.size(); ++r) {
    std::uint64_t real = 0, synthetic = 0;
    for (std::size_t c = 0; c < table.column_labels.size(); ++c) {
      real += table.real_counts[r][c];
      synthetic += table.synthetic_counts[r][c];
    }
    EXPECT_NEAR(static_cast<double>(real) / table.real_rows, report.columns[row].histogram.real[r], 1e-12);
    EXPECT_NEAR(static_cast<double>(synthetic) / table.synthetic_rows,
                report.columns[row].histogram.synthetic[r], 1e-12);
  }
  // And the same 2-way TVD as the report's matrix (same categories, same rows).
  EXPECT_NEAR(table.tvd, report.pair_tvd[row][column], 1e-12);
  EXPECT_EQ(view.pairModel()->rowCount(), static_cast<int>(table.row_labels.size()));
  EXPECT_TRUE(view.pairSummary().contains(QString::fromStdString(table.row_name)));
}

TEST(PairTableTest, MergesCategoriesBeyondTheLimitAndNamesMissingColumns) {
  RawTable real, synthetic;
  Schema schema;
  for (RawTable* table : {&real, &synthetic}) {
    table->columns.resize(2);
    table->columns[0].name = "id";
    table->columns[1].name = "g";
  }
  // "id" has 60 distinct values (not all distinct: each twice), "g" two.
  for (int i = 0; i < 120; ++i) {
    for (RawTable* table : {&real, &synthetic}) {
      RawColumn& id = table->columns[0];
      RawColumn& g = table->columns[1];
      const std::string text = "v" + std::to_string(i % 60);
      auto found = std::find(id.dictionary.begin(), id.dictionary.end(), text);
      if (found == id.dictionary.end()) {
        id.dictionary.push_back(text);
        id.counts.push_back(0);
        id.first_row.push_back(static_cast<std::uint32_t>(i));
        found = id.dictionary.end() - 1;
      }
      const auto code = static_cast<std::uint32_t>(found - id.dictionary.begin());
      id.codes.push_back(code);
      ++id.counts[code];
      if (g.dictionary.empty()) g.dictionary = {"a", "b"}, g.counts = {0, 0}, g.first_row = {0, 1};
      g.codes.push_back(static_cast<std::uint32_t>(i % 2));
      ++g.counts[static_cast<std::size_t>(i % 2)];
      table->row_line.push_back(static_cast<std::uint64_t>(i) + 2);
    }
  }
  schema.columns.resize(2);
  schema.columns[0].name = "id";
  schema.columns[1].name = "g";
  MetricReport report;
  report.columns.resize(2);
  report.columns[0].name = "id";
  report.columns[1].name = "g";
  report.max_distinct_for_values = 20;
  auto table = ComputePairTable(real, synthetic, schema, report, 0, 1);
  ASSERT_TRUE(table.has_value()) << table.error().message;
  ASSERT_EQ(table->row_labels.size(), kMaxPairCategories);
  EXPECT_EQ(table->row_labels.back(), "(21 more)");
  std::uint64_t total = 0;
  for (const auto& row : table->real_counts) total = std::accumulate(row.begin(), row.end(), total);
  EXPECT_EQ(total, 120u);
  EXPECT_EQ(table->tvd, 0.0);  // identical tables

  report.columns[1].name = "absent";
  auto missing = ComputePairTable(real, synthetic, schema, report, 0, 1);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("'absent'"), std::string::npos);
}

}  // namespace
}  // namespace deniable::ui
