// SPDX-License-Identifier: Apache-2.0
// Offscreen rendering of the Review's pictures, for the release report and the --screenshots
// mode. Needs a QApplication (widgets, Qt Charts); works on the offscreen platform. Call from
// the UI thread.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>

#include "engine/metrics/metric_report.h"
#include "ui/review/review_data.h"

class QWidget;

namespace deniable::ui {

// Lays `widget` out at `size` without showing it on screen and paints it into an image
// (white background where the widget paints none).
QImage renderWidget(QWidget& widget, QSize size, qreal devicePixelRatio = 1.0);

// One attribute's real-vs-synthetic bars (the Histograms tab's chart).
QImage renderHistogramImage(const ColumnComparison& column, QSize size,
                            qreal devicePixelRatio = 1.0);

// The real and synthetic NMI heatmaps on one scale with its colour bar, and/or their
// difference with its own bar.
enum class CorrelationParts { kAll, kRealAndSynthetic, kDifference };
QImage renderCorrelationImage(const MetricReport& report, QSize size,
                              qreal devicePixelRatio = 1.0,
                              CorrelationParts parts = CorrelationParts::kAll);

// The network laid out by Graphviz with its legend, at its natural size scaled down to fit
// within `maxSize` (never up).
QImage renderNetworkImage(const ReviewData& data, QSize maxSize, qreal devicePixelRatio = 1.0);

// PNG bytes of an image (for embedding as base64).
QByteArray pngBytes(const QImage& image);

}  // namespace deniable::ui
