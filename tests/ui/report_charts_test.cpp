// SPDX-License-Identifier: Apache-2.0
// #11: the release report in two halves — its charts drawn one by one (UI thread), its HTML
// assembled from them on a worker, byte for byte the single call's.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include <QThread>

#include "tests/ui/review_test_fixture.h"
#include "ui/report/release_report.h"
#include "ui/report/report_charts.h"

namespace deniable::ui {
namespace {

ReportContext FixedContext() {
  ReportContext context;
  context.input_path = QString::fromStdString(test_support::DemoDatasetPath());
  context.input_sha256 = QString(64, QLatin1Char('a'));
  context.outputs = {{QStringLiteral("Synthetic data"), QStringLiteral("/out/synthetic.csv"),
                      QString(64, QLatin1Char('b'))}};
  context.created = QDateTime(QDate(2025, 1, 2), QTime(3, 4), Qt::UTC);
  return context;
}

TEST(ReportChartsTest, HtmlAssembledOnAWorkerFromChartsDrawnOneByOneIsTheSingleCallsByteForByte) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  for (const ReportAudience audience : {ReportAudience::kShareable, ReportAudience::kOwner}) {
    ReportOptions options;
    options.audience = audience;
    options.histograms = 3;
    const QString single = BuildReleaseReportHtml(*data, FixedContext(), options);

    const std::vector<ReportChart> charts = ReportCharts(data, options);
    // The network; for the owner 3 histograms and the two heatmap pictures too.
    ASSERT_EQ(charts.size(), audience == ReportAudience::kOwner ? 1u + 3u + 2u : 1u);
    ReportImages images;
    for (const ReportChart& chart : charts) {
      EXPECT_FALSE(chart.title.isEmpty());
      chart.draw(images);
    }
    EXPECT_FALSE(images.network.isNull());
    // On a thread of its own (QFuture::result() may run a task that has not started in the
    // waiting thread).
    QString assembled;
    std::unique_ptr<QThread> worker(QThread::create([&] {
      assembled = BuildReleaseReportHtml(*data, FixedContext(), options, images);
    }));
    worker->start();
    ASSERT_TRUE(worker->wait(60'000));
    EXPECT_EQ(assembled.size(), single.size());
    EXPECT_TRUE(assembled == single) << "the split path's HTML differs from the single call's";
  }
}

TEST(ReportChartsTest, WorstColumnsAreByDecreasingTvdAndCapped) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const MetricReport& report = data->metrics;
  const std::vector<std::size_t> all = WorstColumns(report);
  ASSERT_EQ(all.size(), report.columns.size());
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_GE(report.columns[all[i - 1]].tvd, report.columns[all[i]].tvd);
  }
  const std::vector<std::size_t> three = WorstColumns(report, 3);
  EXPECT_EQ(three, std::vector<std::size_t>(all.begin(), all.begin() + 3));
  EXPECT_TRUE(WorstColumns(report, 0).empty());
}

}  // namespace
}  // namespace deniable::ui
