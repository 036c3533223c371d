// SPDX-License-Identifier: Apache-2.0
#include "ui/review/raw_table_model.h"

#include <QColor>
#include <QFont>

#include "ui/review/review_format.h"

namespace deniable::ui {

RawTableModel::RawTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RawTableModel::setTable(std::shared_ptr<const RawTable> table) {
  beginResetModel();
  table_ = std::move(table);
  order_.reset();
  endResetModel();
}

void RawTableModel::setRowOrder(std::shared_ptr<const std::vector<std::uint32_t>> order) {
  beginResetModel();
  order_ = std::move(order);
  endResetModel();
}

int RawTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !table_) return 0;
  return static_cast<int>(order_ ? order_->size() : table_->num_rows());
}

int RawTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !table_) return 0;
  return static_cast<int>(table_->num_columns());
}

QVariant RawTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !table_) return {};
  const RawColumn& column = table_->columns[static_cast<std::size_t>(index.column())];
  const std::uint32_t code = column.codes[tableRow(index.row())];
  const bool missing = code == kMissingCode;
  switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
      return missing ? tr("(missing)") : toQString(column.dictionary[code]);
    case Qt::ForegroundRole:
      return missing ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::FontRole: {
      if (!missing) return {};
      QFont italic;
      italic.setItalic(true);
      return italic;
    }
    default: return {};
  }
}

QVariant RawTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (!table_ || role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) {
    if (section < 0 || static_cast<std::size_t>(section) >= table_->num_columns()) return {};
    return toQString(table_->columns[static_cast<std::size_t>(section)].name);
  }
  // The row's number in its table (1-based), so a sorted or filtered row can be found again.
  return static_cast<qulonglong>(tableRow(section)) + 1;
}

}  // namespace deniable::ui
