// SPDX-License-Identifier: Apache-2.0
#include "ui/review/risk_chart.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QCursor>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QToolTip>

#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

const QColor kInside(52, 101, 164);
const QColor kOutside(204, 0, 0);
const QColor kRegion(78, 154, 6);

double decadeBelow(double value) { return std::pow(10.0, std::floor(std::log10(value))); }

bool drawable(const QPointF& p) {
  return std::isfinite(p.x()) && std::isfinite(p.y()) && p.x() > 0 && p.y() > 0;
}

QLogValueAxis* logAxis(const QString& title, double low, double high) {
  auto* axis = new QLogValueAxis;
  axis->setBase(10);
  // A hair below the decade: Qt rounds log10(0.001) to −2.99… and would drop its label.
  axis->setRange(low * (1 - 1e-9), high);
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setMinorTickCount(8);  // 2..9 of each decade
  axis->setMinorGridLineColor(QColor(235, 235, 235));
  axis->setTitleText(title);
  return axis;
}

}  // namespace

RiskRegion riskRegionOf(const TableRiskOptions& options) {
  return {options.max_relative_risk, options.max_absolute_risk, options.max_relative_risk_above};
}

RiskAxes riskAxes(const std::vector<RiskCurve>& curves, const RiskRegion& region) {
  double minX = region.maxAbsolute, minY = std::min(1.0, region.maxRelativeAbove);
  double maxY = std::max(region.maxRelative, region.maxRelativeAbove);
  for (const RiskCurve& curve : curves) {
    for (const QPointF& p : curve.points) {
      if (!drawable(p)) continue;
      minX = std::min(minX, p.x());
      minY = std::min(minY, p.y());
      maxY = std::max(maxY, p.y());
    }
  }
  RiskAxes axes;
  // Below 10⁻⁴ on either axis a record is far from any region a data owner would draw.
  axes.xMin = std::max(1e-4, decadeBelow(std::min(minX, region.maxAbsolute / 2)));
  axes.xMax = 1;
  axes.yMin = minY >= 0.5 ? 0.5 : std::max(1e-2, decadeBelow(minY));
  axes.yMax = maxY * 2;
  return axes;
}

QVector<QPointF> riskRegionEdge(const RiskRegion& region, double xMin) {
  const double top = std::max(region.maxRelative, region.maxRelativeAbove);
  return {QPointF(xMin, top), QPointF(region.maxAbsolute, top),
          QPointF(region.maxAbsolute, region.maxRelativeAbove),
          QPointF(1.0, region.maxRelativeAbove)};
}

RiskChartView::RiskChartView(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(320, 240);
  showMessage(QString());
}

void RiskChartView::replaceChart(QChart* chart) {
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setMargins(QMargins(4, 4, 4, 4));
  QChart* old = this->chart();
  setChart(chart);  // the view owns the new chart and releases the old one
  delete old;
}

void RiskChartView::showMessage(const QString& message) {
  curves_.clear();
  auto* chart = new QChart;
  chart->setTitle(message.toHtmlEscaped());
  chart->legend()->hide();
  replaceChart(chart);
}

void RiskChartView::setAnalysis(const RiskAnalysis& analysis) {
  curves_ = riskCurves(analysis);
  region_ = riskRegionOf(analysis.options);
  axes_ = riskAxes(curves_, region_);
  sensitive_ = toQString(analysis.options.sensitive);
  auto* chart = new QChart;
  const EpsilonRisk& level = analysis.shown();
  chart->setTitle(
      level.records_outside == 0
          ? tr("<b>RR × R at ε = %1</b> — every record inside the acceptable region")
                .arg(formatEpsilon(analysis.epsilon))
          : tr("<b>RR × R at ε = %1</b> — <span style='color:#cc0000'>%2 outside</span>")
                .arg(formatEpsilon(analysis.epsilon),
                     level.records_outside == 1
                         ? tr("1 record")
                         : tr("%1 records").arg(formatCount(
                               static_cast<std::uint64_t>(level.records_outside)))));
  auto* x = logAxis(tr("R: the intruder's probability of the true %1 (absolute risk)")
                        .arg(sensitive_),
                    axes_.xMin, axes_.xMax);
  auto* y = logAxis(tr("RR = R ÷ prior (relative risk)"), axes_.yMin, axes_.yMax);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  auto attach = [&](QAbstractSeries* series) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  };

  // The acceptable region, shaded, under everything else.
  // An area series does not own its boundary lines (only the area is added to the chart, and
  // the chart owns what it is given): the chart owns them as plain QObject children, which it
  // deletes after its series.
  const QVector<QPointF> edge = riskRegionEdge(region_, axes_.xMin);
  auto* upper = new QLineSeries(chart);
  upper->append(QList<QPointF>(edge.begin(), edge.end()));
  auto* lower = new QLineSeries(chart);
  lower->append(axes_.xMin, axes_.yMin);
  lower->append(1.0, axes_.yMin);
  auto* area = new QAreaSeries(upper, lower);
  area->setName(tr("acceptable: RR ≤ %1 while R ≤ %2, RR ≤ %3 above")
                    .arg(QString::number(region_.maxRelative, 'g', 3),
                         QString::number(region_.maxAbsolute, 'g', 3),
                         QString::number(region_.maxRelativeAbove, 'g', 3)));
  QColor fill = kRegion;
  fill.setAlpha(45);
  area->setBrush(fill);
  area->setPen(QPen(kRegion.darker(110), 1.5, Qt::DashLine));
  attach(area);

  auto* insideDots = new QScatterSeries;
  auto* outsideDots = new QScatterSeries;
  insideDots->setName(tr("records inside"));
  outsideDots->setName(tr("records outside (a line per likelihood ratio; dot: its worst prior)"));
  for (auto [dots, color] : {std::pair{insideDots, kInside}, std::pair{outsideDots, kOutside}}) {
    dots->setColor(color);
    dots->setBorderColor(color.darker(130));
    dots->setMarkerSize(7);
  }
  std::vector<QLineSeries*> lines;
  for (const RiskCurve& curve : curves_) {
    auto* line = new QLineSeries;
    for (const QPointF& p : curve.points) {
      if (drawable(p)) line->append(p);
    }
    // Opaque and light: overlapping translucent segments would show their joints as dots.
    const QColor color = curve.inside ? kInside.lighter(150) : kOutside.lighter(130);
    line->setPen(QPen(color, 1.2));
    attach(line);
    lines.push_back(line);
    if (drawable(curve.worst)) (curve.inside ? insideDots : outsideDots)->append(curve.worst);
  }
  attach(insideDots);
  attach(outsideDots);
  connect(insideDots, &QScatterSeries::hovered, this, &RiskChartView::onDotHovered);
  connect(outsideDots, &QScatterSeries::hovered, this, &RiskChartView::onDotHovered);

  // The legend names the region and the two kinds of records, not every line.
  for (QLineSeries* line : lines) {
    for (QLegendMarker* marker : chart->legend()->markers(line)) marker->setVisible(false);
  }
  for (QScatterSeries* dots : {insideDots, outsideDots}) {
    if (dots->count() > 0) continue;
    for (QLegendMarker* marker : chart->legend()->markers(dots)) marker->setVisible(false);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->legend()->setVisible(true);
  replaceChart(chart);
}

QString RiskChartView::curveToolTip(int index) const {
  if (index < 0 || index >= static_cast<int>(curves_.size())) return {};
  const RiskCurve& curve = curves_[static_cast<std::size_t>(index)];
  return tr("%1 in %2 (cell, value) group(s), likelihood ratio %3\n"
            "worst prior: R = %4, RR = %5 — %6")
      .arg(curve.records == 1 ? tr("1 record")
                              : tr("%1 records").arg(formatCount(
                                    static_cast<std::uint64_t>(curve.records))))
      .arg(curve.groups)
      .arg(QString::number(std::exp(curve.logLikelihoodRatio), 'g', 4),
           QString::number(curve.worst.x(), 'g', 3), QString::number(curve.worst.y(), 'g', 3),
           curve.inside ? tr("inside the region") : tr("outside the region"));
}

void RiskChartView::onDotHovered(const QPointF& point, bool state) {
  if (!state) {
    QToolTip::hideText();
    return;
  }
  // The dot is the curve whose worst point it is (the nearest one, in log coordinates).
  int best = -1;
  double bestDistance = 0;
  for (std::size_t i = 0; i < curves_.size(); ++i) {
    const QPointF& w = curves_[i].worst;
    if (!drawable(w)) continue;
    const double d = std::hypot(std::log(w.x() / point.x()), std::log(w.y() / point.y()));
    if (best < 0 || d < bestDistance) {
      best = static_cast<int>(i);
      bestDistance = d;
    }
  }
  if (best >= 0) QToolTip::showText(QCursor::pos(), curveToolTip(best), this);
}

}  // namespace deniable::ui
