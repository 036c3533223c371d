// SPDX-License-Identifier: Apache-2.0
// HistogramView (Review → Histograms): the compared attributes sorted by TVD, worst first, on
// the left; the selected attribute's real and synthetic distributions as bars on the right —
// over the metrics' equal-width bins (the default), or, with the "Model bins" toggle, over the
// model's own bins of a numeric column (model_bins.h: non-uniform, spikes on their own), as
// shares per bin or as a density with bar widths to scale.
#pragma once

#include <memory>

#include <QWidget>

#include "ui/review/review_data.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QTableView;
class QCheckBox;
QT_END_NAMESPACE

namespace deniable::ui {

class AttributeTvdModel;

class HistogramView : public QWidget {
  Q_OBJECT

 public:
  explicit HistogramView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // Shows report.columns[reportIndex] and selects it in the list.
  void showAttribute(int reportIndex);
  int currentAttribute() const { return current_; }  // -1 when none

  const AttributeTvdModel* attributeModel() const { return model_; }
  QChart* chart() const;
  QString summaryText() const;

  // The "Model bins" toggle (enabled for numeric columns with model bins) and its scale
  // (0: share per bin, 1: density with widths to scale).
  QCheckBox* modelBinsButton() const { return modelBins_; }
  QComboBox* modelBinsScaleBox() const { return scale_; }
  bool showingModelBins() const { return showingModelBins_; }

 private:
  void onCurrentRowChanged();
  void redraw();

  std::shared_ptr<const ReviewData> data_;
  AttributeTvdModel* model_;
  QTableView* list_;
  QLabel* summary_;
  QChartView* chartView_;
  QCheckBox* modelBins_;
  QComboBox* scale_;
  QLabel* binsNote_;
  int current_ = -1;
  bool showingModelBins_ = false;
};

}  // namespace deniable::ui
