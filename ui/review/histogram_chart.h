// SPDX-License-Identifier: Apache-2.0
// The real-vs-synthetic bar chart of one compared attribute (Qt Charts), shared by the
// Histograms tab and the owner part of the release report.
#pragma once

#include <QList>
#include <QStringList>

#include "engine/metrics/metric_report.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace deniable::ui {

// What the chart plots: at most `maxCategories` categories in the report's display order (the
// most frequent ones, real plus synthetic, when there are more; `hidden` counts the others),
// shares in percent, labels elided to `maxLabelLength` characters and made unique (Qt's
// category axis needs unique labels).
struct HistogramBars {
  QStringList labels;
  QStringList fullLabels;  // unelided, for tooltips
  QList<qreal> real;       // percent of real rows
  QList<qreal> synthetic;  // percent of synthetic rows
  int hidden = 0;
};
inline constexpr int kMaxHistogramCategories = 40;
HistogramBars prepareHistogramBars(const ColumnComparison& column,
                                   int maxCategories = kMaxHistogramCategories,
                                   int maxLabelLength = 18);

// A new chart (caller owns it) titled "name — TVD x": real and synthetic bars side by side,
// the y axis in percent of rows, category labels rotated when they would collide. Animations
// are off so that renders are repeatable.
QChart* createHistogramChart(const ColumnComparison& column, int maxLabelLength = 18);

// A "nice" axis tick step (1, 2, 2.5 or 5 times a power of ten) giving about five intervals
// from 0 to `top` (> 0).
qreal niceTickStep(qreal top);

// The chart's title text, e.g. "age — TVD 0.034".
QString histogramTitle(const ColumnComparison& column);

}  // namespace deniable::ui
