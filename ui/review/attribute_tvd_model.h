// SPDX-License-Identifier: Apache-2.0
// AttributeTvdModel: the compared attributes of a MetricReport, worst (highest TVD) first —
// the Histograms tab's attribute picker. Columns: attribute, how it was compared, TVD.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "engine/metrics/metric_report.h"

namespace deniable::ui {

class AttributeTvdModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kAttribute, kKind, kTvd, kColumnCount };
  // Qt::UserRole on any column: the index into MetricReport::columns.
  static constexpr int kReportIndexRole = Qt::UserRole;

  explicit AttributeTvdModel(QObject* parent = nullptr);

  void setReport(const MetricReport* report);  // not owned; must outlive the model's use
  // Index into MetricReport::columns of a row (rows are sorted by TVD, descending; ties by the
  // report's order).
  int reportIndex(int row) const { return order_[static_cast<std::size_t>(row)]; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const MetricReport* report_ = nullptr;
  std::vector<int> order_;
};

}  // namespace deniable::ui
