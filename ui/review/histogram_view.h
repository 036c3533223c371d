// SPDX-License-Identifier: Apache-2.0
// HistogramView (Review → Histograms): the compared attributes sorted by TVD, worst first, on
// the left; the selected attribute's real and synthetic distributions as bars on the right.
#pragma once

#include <memory>

#include <QWidget>

#include "ui/review/review_data.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLabel;
class QTableView;
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

 private:
  void onCurrentRowChanged();

  std::shared_ptr<const ReviewData> data_;
  AttributeTvdModel* model_;
  QTableView* list_;
  QLabel* summary_;
  QChartView* chartView_;
  int current_ = -1;
};

}  // namespace deniable::ui
