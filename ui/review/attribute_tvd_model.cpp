// SPDX-License-Identifier: Apache-2.0
#include "ui/review/attribute_tvd_model.h"

#include <algorithm>
#include <numeric>

#include <QColor>

#include "ui/review/review_format.h"

namespace deniable::ui {

AttributeTvdModel::AttributeTvdModel(QObject* parent) : QAbstractTableModel(parent) {}

void AttributeTvdModel::setReport(const MetricReport* report) {
  beginResetModel();
  report_ = report;
  order_.clear();
  if (report_ != nullptr) {
    order_.resize(report_->columns.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(), [this](int a, int b) {
      return report_->columns[static_cast<std::size_t>(a)].tvd >
             report_->columns[static_cast<std::size_t>(b)].tvd;
    });
  }
  endResetModel();
}

int AttributeTvdModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(order_.size());
}

int AttributeTvdModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant AttributeTvdModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || report_ == nullptr) return {};
  const int reportRow = reportIndex(index.row());
  const ColumnComparison& column = report_->columns[static_cast<std::size_t>(reportRow)];
  if (role == kReportIndexRole) return reportRow;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kAttribute: return toQString(column.name);
      case kKind:
        return column.kind == ComparisonKind::kBinned
                   ? tr("%1 bins").arg(column.histogram.labels.size())
                   : tr("%1 values").arg(column.histogram.labels.size());
      case kTvd: return formatFraction(column.tvd);
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() == kTvd) {
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole) {
    return tr("Total variation distance between the real and the synthetic distribution of "
              "%1: half the summed absolute differences of the bars, 0 = identical, 1 = "
              "disjoint.")
        .arg(toQString(column.name));
  }
  return {};
}

QVariant AttributeTvdModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kAttribute: return tr("Attribute");
    case kKind: return tr("Categories");
    case kTvd: return tr("TVD");
    default: return {};
  }
}

}  // namespace deniable::ui
