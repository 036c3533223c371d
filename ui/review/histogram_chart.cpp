// SPDX-License-Identifier: Apache-2.0
#include "ui/review/histogram_chart.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QSet>
#include <QValueAxis>

#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

QString elide(const QString& text, int maxLength) {
  if (text.size() <= maxLength) return text;
  return text.left(maxLength - 1) + QChar(u'…');
}

}  // namespace

HistogramBars prepareHistogramBars(const ColumnComparison& column, int maxCategories,
                                   int maxLabelLength) {
  const ColumnHistogram& h = column.histogram;
  const std::size_t n = h.labels.size();
  std::vector<bool> shown(n, true);
  HistogramBars bars;
  if (n > static_cast<std::size_t>(maxCategories)) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&h](std::size_t a, std::size_t b) {
      return h.real[a] + h.synthetic[a] > h.real[b] + h.synthetic[b];
    });
    shown.assign(n, false);
    for (int i = 0; i < maxCategories; ++i) shown[order[static_cast<std::size_t>(i)]] = true;
    bars.hidden = static_cast<int>(n) - maxCategories;
  }
  QSet<QString> used;
  for (std::size_t i = 0; i < n; ++i) {
    if (!shown[i]) continue;
    const QString full = toQString(h.labels[i]);
    QString label = elide(full, maxLabelLength);
    for (int copy = 2; used.contains(label); ++copy) {
      label = elide(full, maxLabelLength - 3) + QStringLiteral(" #%1").arg(copy);
    }
    used.insert(label);
    bars.labels << label;
    bars.fullLabels << full;
    bars.real << h.real[i] * 100.0;
    bars.synthetic << h.synthetic[i] * 100.0;
  }
  return bars;
}

qreal niceTickStep(qreal top) {
  const qreal rough = std::max<qreal>(top, 1e-12) / 5;
  const qreal power = std::pow(10.0, std::floor(std::log10(rough)));
  for (qreal factor : {1.0, 2.0, 2.5, 5.0}) {
    if (power * factor >= rough) return power * factor;
  }
  return power * 5;  // rough in (5, 10) powers: 6 to 10 intervals
}

QString histogramTitle(const ColumnComparison& column) {
  return QStringLiteral("%1 — TVD %2").arg(toQString(column.name), formatFraction(column.tvd));
}

QChart* createHistogramChart(const ColumnComparison& column, int maxLabelLength) {
  const HistogramBars bars = prepareHistogramBars(column, kMaxHistogramCategories, maxLabelLength);
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  QString title = QStringLiteral("<b>%1</b> — TVD %2")
                      .arg(toQString(column.name).toHtmlEscaped(), formatFraction(column.tvd));
  if (bars.hidden > 0) {
    title += QObject::tr(" <span style='color:#666'>(the %1 most frequent of %2 categories)</span>")
                 .arg(bars.labels.size())
                 .arg(bars.labels.size() + bars.hidden);
  }
  chart->setTitle(title);
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  chart->setTitleFont(titleFont);

  auto* real = new QBarSet(QObject::tr("Real"));
  auto* synthetic = new QBarSet(QObject::tr("Synthetic"));
  real->append(bars.real);
  synthetic->append(bars.synthetic);
  real->setColor(realColor());
  real->setBorderColor(realColor().darker(115));
  synthetic->setColor(syntheticColor());
  synthetic->setBorderColor(syntheticColor().darker(115));
  auto* series = new QBarSeries;
  series->append(real);
  series->append(synthetic);
  series->setBarWidth(0.8);
  chart->addSeries(series);

  auto* x = new QBarCategoryAxis;
  x->append(bars.labels);
  int longest = 0;
  for (const QString& label : bars.labels) longest = std::max(longest, static_cast<int>(label.size()));
  // Horizontal labels only when they fit side by side; otherwise vertical (Qt Charts centres a
  // rotated label on its tick, so slanted labels would run into their neighbours).
  const bool crowded = bars.labels.size() * std::max(longest, 3) > 60;
  x->setLabelsAngle(crowded ? -90 : 0);
  x->setTruncateLabels(false);
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);

  qreal top = 0;
  for (int i = 0; i < bars.real.size(); ++i) top = std::max({top, bars.real[i], bars.synthetic[i]});
  // A "nice" tick step giving about five intervals, and the axis ending at the first tick
  // above the tallest bar.
  const qreal step = niceTickStep(std::max<qreal>(top, 0.1));
  int intervals = std::max(1, static_cast<int>(std::ceil(top * 1.02 / step - 1e-9)));
  // Shares never exceed 100 %: end the axis there rather than at the next tick.
  if (step * intervals > 100.0 && top <= 100.0) intervals = static_cast<int>(std::ceil(100.0 / step - 1e-9));
  auto* y = new QValueAxis;
  y->setRange(0, std::min(step * intervals, std::max<qreal>(100.0, top)));
  y->setTickCount(intervals + 1);
  y->setLabelFormat(step >= 1 ? QStringLiteral("%.0f %%") : QStringLiteral("%.1f %%"));
  y->setTitleText(QObject::tr("share of rows"));
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(y);

  chart->legend()->setAlignment(Qt::AlignTop);
  chart->legend()->setVisible(true);
  chart->setMargins(QMargins(4, 4, 4, 4));
  return chart;
}

}  // namespace deniable::ui
