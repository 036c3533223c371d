// SPDX-License-Identifier: Apache-2.0
// CorrelationView (Review → Correlations): the real and the synthetic normalised-mutual-
// information heatmaps side by side on ONE colour scale with its colour bar, and their
// difference (synthetic − real) on a diverging scale with its own bar. Hovering any cell shows
// the pair and all three values; clicking one shows the pair's values and its 2-way table
// (counted off the UI thread).
#pragma once

#include <memory>
#include <vector>

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include "engine/core/result.h"
#include "ui/review/color_scale.h"
#include "ui/review/pair_table.h"
#include "ui/review/review_data.h"

class QLabel;
class QTableView;

namespace deniable::ui {

class ColorBar;
class HeatmapWidget;
class PairTableModel;

// The three matrices of the Correlations tab and their scales: real and synthetic NMI on one
// sequential scale (up to the largest off-diagonal value of either), their difference on a
// diverging scale (at least ±0.05, so noise-sized differences stay pale).
struct CorrelationMatrices {
  QStringList labels;
  std::vector<std::vector<double>> real, synthetic, difference;
  ColorScale nmiScale = ColorScale::sequential(1.0);
  ColorScale differenceScale = ColorScale::diverging(1.0);
};
CorrelationMatrices correlationMatrices(const MetricReport& report);

class CorrelationView : public QWidget {
  Q_OBJECT

 public:
  explicit CorrelationView(QWidget* parent = nullptr);
  ~CorrelationView() override;

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // Shows the details of a pair (indices into MetricReport::columns), as a click does.
  void showPair(int row, int column);
  // Count 2-way tables on the calling thread (offscreen renders); default: on a worker.
  void setSynchronous(bool synchronous);

  HeatmapWidget* realHeatmap() const { return real_; }
  HeatmapWidget* syntheticHeatmap() const { return synthetic_; }
  HeatmapWidget* differenceHeatmap() const { return difference_; }
  ColorBar* nmiColorBar() const { return nmiBar_; }
  ColorBar* differenceColorBar() const { return differenceBar_; }
  const PairTableModel* pairModel() const { return pairModel_; }
  QString pairSummary() const;  // the text above the 2-way table

  // The tooltip of a cell (the same in all three heatmaps).
  QString cellToolTip(int row, int column) const;

 signals:
  void pairTableReady();  // the 2-way table of the last showPair() is in pairModel()

 private:
  void onPairTableFinished();
  void showPairTable(const Result<PairTable>& result);

  std::shared_ptr<const ReviewData> data_;
  HeatmapWidget* real_;
  HeatmapWidget* synthetic_;
  HeatmapWidget* difference_;
  ColorBar* nmiBar_;
  ColorBar* differenceBar_;
  QLabel* pairLabel_;
  QTableView* pairView_;
  PairTableModel* pairModel_;
  QFutureWatcher<Result<PairTable>> pairWatcher_;
  QString pairText_;
  bool synchronous_ = false;  // the clicked pair's values, shown above its table
};

}  // namespace deniable::ui
