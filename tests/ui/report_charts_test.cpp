// SPDX-License-Identifier: Apache-2.0
// #11: the release report in two halves — its charts drawn one by one (UI thread), its HTML
// assembled from them on a worker, byte for byte the single call's — and its tables in the
// PDF with fixed column widths that keep every column inside the page, the same in each part
// of a split table.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QThread>

#include "tests/ui/memory_pdf.h"
#include "tests/ui/review_test_fixture.h"
#include "ui/report/print_pages.h"
#include "ui/report/release_report.h"
#include "ui/report/report_charts.h"
#include "ui/report/report_pdf.h"

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
    std::unique_ptr<QThread> worker(QThread::create(
        [&] { assembled = BuildReleaseReportHtml(*data, FixedContext(), options, images); }));
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

// A wide table (7 columns, a SHA-256 that cannot wrap, intervals) long enough to split, whose
// first rows are short and whose last rows are long: QTextDocument alone sizes each part's
// columns from its own rows, and lets the hash push the other columns off the page.
// A short table first: where a table of the text's width ends.
QString WideTableHtml() {
  QString html = QStringLiteral(
      "<table><tr><td>short</td><td>table</td></tr></table>"
      "<h2>Attacks</h2><table><thead><tr><th>Attack</th><th>Risk [interval]</th>"
      "<th>Rows it was made from</th><th>Rows held out</th><th>Random guess</th>"
      "<th>SHA-256</th><th class=\"num\">Trials</th></tr></thead><tbody>");
  for (int row = 0; row < 120; ++row) {
    const bool long_text = row >= 60;
    html +=
        QStringLiteral(
            "<tr><td>%1</td><td>%2</td><td>%3</td><td>%3</td><td>%3</td>"
            "<td><span class=\"hash\">%4</span></td><td class=\"num\">%5</td></tr>")
            .arg(long_text ? QStringLiteral("Inference on the sensitive attribute, row %1").arg(row)
                           : QStringLiteral("Singling out"),
                 long_text ? QStringLiteral("0.0123 [0.0011, 0.0456]") : QStringLiteral("0.01"),
                 long_text ? QStringLiteral("12.3% [10.1%, 14.6%]") : QStringLiteral("1%"),
                 QString(64, QLatin1Char('f')), QString::number(2000 + row));
  }
  return html + QStringLiteral("</tbody></table>");
}

TEST(ReleaseReportPdfTest, AWideTableKeepsEveryColumnOnThePageAndItsWidthsInEachPart) {
  test_support::MemoryPdf pdf;
  PrintPages pages;
  const std::unique_ptr<QTextDocument> document =
      ReleaseReportPrintDocument(WideTableHtml(), pdf.writer, &pages);
  QAbstractTextDocumentLayout* layout = document->documentLayout();
  std::vector<QTextTable*> parts;
  for (QTextFrame* frame : document->rootFrame()->childFrames()) {
    if (auto* table = qobject_cast<QTextTable*>(frame)) parts.push_back(table);
  }
  ASSERT_GE(parts.size(), 3u) << "the wide table should span pages";
  const qreal right = layout->frameBoundingRect(parts.front()).right();
  parts.erase(parts.begin());
  std::vector<qreal> firstLefts;
  for (QTextTable* table : parts) {
    ASSERT_EQ(table->columns(), 7);
    EXPECT_LE(layout->frameBoundingRect(table).right(), right + 1);
    std::vector<qreal> lefts;
    for (int column = 0; column < table->columns(); ++column) {
      lefts.push_back(
          layout->blockBoundingRect(table->cellAt(0, column).firstCursorPosition().block()).left());
    }
    for (int row = 0; row < table->rows(); ++row) {
      for (int column = 0; column < table->columns(); ++column) {
        const QTextBlock block = table->cellAt(row, column).firstCursorPosition().block();
        const QRectF rect = layout->blockBoundingRect(block);
        // Each line's text within its cell: no word runs into the next column or off the page.
        for (int line = 0; line < block.layout()->lineCount(); ++line) {
          const QTextLine text = block.layout()->lineAt(line);
          EXPECT_LE(text.naturalTextWidth(), text.width() + 0.5)
              << "row " << row << ", column " << column << " overflows its cell";
          EXPECT_LE(rect.left() + text.x() + text.naturalTextWidth(), right + 1);
        }
      }
    }
    if (firstLefts.empty()) {
      firstLefts = lefts;
    } else {
      for (std::size_t c = 0; c < lefts.size(); ++c) {
        EXPECT_NEAR(lefts[c], firstLefts[c], 0.5) << "column " << c << " moved in a later part";
      }
    }
  }
}

}  // namespace
}  // namespace deniable::ui
