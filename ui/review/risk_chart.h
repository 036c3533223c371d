// SPDX-License-Identifier: Apache-2.0
// RiskChartView: McClure & Reiter's RR × R plot (§4, Figs. 3–4) for the Disclosure risk tab.
// x = the absolute risk R_j, y = the relative risk RR_j, both on log axes; one line per
// likelihood ratio (the records sharing it: their (R_j, RR_j) as the intruder's prior runs over
// the grid), blue inside the acceptable region, red outside, with a dot at each line's worst
// prior (hover it for its records); the acceptable region (RR ≤ a while R ≤ b, RR ≤ c above)
// shaded green. Derived from the real data: for the owner's eyes only.
#pragma once

#include <vector>

#include <QChartView>
#include <QPointF>
#include <QString>
#include <QVector>

#include "ui/review/risk_facts.h"

namespace deniable::ui {

// The acceptable region of §4, as the engine tests it (table_risk.h).
struct RiskRegion {
  double maxRelative = 10;       // a: RR ≤ a while R ≤ b
  double maxAbsolute = 0.1;      // b
  double maxRelativeAbove = 1.05;  // c: RR ≤ c anywhere
};
RiskRegion riskRegionOf(const TableRiskOptions& options);

struct RiskAxes {
  double xMin = 1e-3, xMax = 1, yMin = 0.1, yMax = 100;
};
// Log axes that hold the region's corners and the curves' riskier parts (points far below
// are clipped: they are the safe ends).
RiskAxes riskAxes(const std::vector<RiskCurve>& curves, const RiskRegion& region);

// The region's upper edge from x = xMin to 1: (xMin, max(a, c)), (b, max(a, c)), (b, c), (1, c).
QVector<QPointF> riskRegionEdge(const RiskRegion& region, double xMin);

class RiskChartView : public QChartView {
  Q_OBJECT

 public:
  explicit RiskChartView(QWidget* parent = nullptr);

  // Draws the curves of `analysis` at its shown ε, and its region.
  void setAnalysis(const RiskAnalysis& analysis);
  // An empty plot (no axes) with `message` as its title.
  void showMessage(const QString& message);

  const std::vector<RiskCurve>& curves() const { return curves_; }
  const RiskAxes& axes() const { return axes_; }
  const RiskRegion& region() const { return region_; }
  // The text a hover over the dot of curve `index` shows.
  QString curveToolTip(int index) const;

 private:
  void replaceChart(QChart* chart);
  void onDotHovered(const QPointF& point, bool state);

  std::vector<RiskCurve> curves_;
  RiskAxes axes_;
  RiskRegion region_;
  QString sensitive_;
};

}  // namespace deniable::ui
