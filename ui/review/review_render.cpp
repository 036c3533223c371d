// SPDX-License-Identifier: Apache-2.0
#include "ui/review/review_render.h"

#include <algorithm>
#include <cmath>

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLayout>
#include <QPainter>
#include <QWidget>

#include "ui/review/color_bar.h"
#include "ui/review/correlation_view.h"
#include "ui/review/heatmap_row.h"
#include "ui/review/heatmap_widget.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/network_scene.h"

namespace deniable::ui {
namespace {

QImage blankImage(QSize size, qreal devicePixelRatio) {
  QImage image(QSize(static_cast<int>(std::ceil(size.width() * devicePixelRatio)),
                     static_cast<int>(std::ceil(size.height() * devicePixelRatio))),
               QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(devicePixelRatio);
  image.fill(Qt::white);
  return image;
}

}  // namespace

QImage renderWidget(QWidget& widget, QSize size, qreal devicePixelRatio) {
  widget.setAttribute(Qt::WA_DontShowOnScreen, true);
  widget.resize(size);
  if (!widget.isVisible()) widget.show();  // polishes and lays out; never on screen
  // Deliver the pending layout requests and resize events (no user input is processed).
  for (int round = 0; round < 3; ++round) {
    if (widget.layout() != nullptr) widget.layout()->activate();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents(&widget);
  }
  QImage image = blankImage(size, devicePixelRatio);
  widget.render(&image);
  return image;
}

QImage renderHistogramImage(const ColumnComparison& column, QSize size, qreal devicePixelRatio) {
  // Small pictures: shorter labels, so vertical ones are not cut off.
  QChart* chart = createHistogramChart(column, size.height() < 420 ? 13 : 18);
  chart->setBackgroundRoundness(0);  // a flat picture for documents
  chart->setBackgroundBrush(Qt::white);
  QChartView view(chart);  // the view owns the chart
  view.setRenderHint(QPainter::Antialiasing);
  view.setFrameShape(QFrame::NoFrame);
  view.setBackgroundBrush(Qt::white);
  return renderWidget(view, size, devicePixelRatio);
}

QImage renderCorrelationImage(const MetricReport& report, QSize size, qreal devicePixelRatio,
                              CorrelationParts parts) {
  // The Correlations tab's heatmaps and colour bars, without its text and 2-way table.
  const CorrelationMatrices m = correlationMatrices(report);
  HeatmapRow canvas;
  canvas.setAutoFillBackground(true);
  QPalette palette = canvas.palette();
  palette.setColor(QPalette::Window, Qt::white);
  palette.setColor(QPalette::Base, Qt::white);
  palette.setColor(QPalette::Text, Qt::black);
  palette.setColor(QPalette::WindowText, Qt::black);
  canvas.setPalette(palette);
  auto heatmap = [&canvas](const QString& title, const QStringList& labels,
                           const HeatmapWidget::Matrix& matrix, const ColorScale& scale,
                           bool rowLabels) {
    auto* map = new HeatmapWidget;
    map->setMatrix(title, labels, matrix, scale, true);
    map->setShowRowLabels(rowLabels);
    canvas.addHeatmap(map);
  };
  auto bar = [&canvas](const ColorScale& scale, const QString& caption) {
    auto* legend = new ColorBar;
    legend->setScale(scale, caption);
    canvas.addColorBar(legend);
  };
  if (parts != CorrelationParts::kDifference) {
    heatmap(QObject::tr("Real data"), m.labels, m.real, m.nmiScale, true);
    heatmap(QObject::tr("Synthetic data"), m.labels, m.synthetic, m.nmiScale, false);
    bar(m.nmiScale, QObject::tr("NMI"));
  }
  if (parts == CorrelationParts::kAll) canvas.addSpacing(16);
  if (parts != CorrelationParts::kRealAndSynthetic) {
    // Beside the other two it shares the real heatmap's row labels (as on the tab).
    heatmap(QObject::tr("Difference (synthetic − real)"), m.labels, m.difference,
            m.differenceScale, parts == CorrelationParts::kDifference);
    bar(m.differenceScale, QObject::tr("Δ NMI"));
  }
  return renderWidget(canvas, size, devicePixelRatio);
}

QImage renderNetworkImage(const ReviewData& data, QSize maxSize, qreal devicePixelRatio) {
  NetworkScene scene;
  (void)scene.setData(data);  // on failure the scene holds the message, which is drawn
  const QRectF source = scene.sceneRect().isEmpty() ? scene.itemsBoundingRect() : scene.sceneRect();
  if (source.isEmpty()) return blankImage(QSize(1, 1), devicePixelRatio);
  const double scale = std::min({1.0, maxSize.width() / source.width(),
                                 maxSize.height() / source.height()});
  const QSize size(static_cast<int>(std::ceil(source.width() * scale)),
                   static_cast<int>(std::ceil(source.height() * scale)));
  QImage image = blankImage(size, devicePixelRatio);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), source, Qt::KeepAspectRatio);
  return image;
}

QByteArray pngBytes(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

}  // namespace deniable::ui
