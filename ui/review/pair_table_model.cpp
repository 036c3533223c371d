// SPDX-License-Identifier: Apache-2.0
#include "ui/review/pair_table_model.h"

#include <algorithm>
#include <cmath>

#include "ui/review/review_format.h"

namespace deniable::ui {

PairTableModel::PairTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PairTableModel::setTable(PairTable table) {
  beginResetModel();
  table_ = std::move(table);
  double largest = 0;
  for (std::size_t r = 0; r < table_.row_labels.size(); ++r) {
    for (std::size_t c = 0; c < table_.column_labels.size(); ++c) {
      largest = std::max(largest, std::fabs(table_.syntheticFraction(r, c) -
                                            table_.realFraction(r, c)));
    }
  }
  // Full colour at the largest difference, so that the pattern shows even when all are small.
  scale_ = ColorScale::diverging(largest);
  endResetModel();
}

void PairTableModel::clear() { setTable(PairTable{}); }

int PairTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.row_labels.size());
}

int PairTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.column_labels.size());
}

QVariant PairTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const auto r = static_cast<std::size_t>(index.row());
  const auto c = static_cast<std::size_t>(index.column());
  const double real = table_.realFraction(r, c), synthetic = table_.syntheticFraction(r, c);
  switch (role) {
    case Qt::DisplayRole:
      return formatPercent(real) + QStringLiteral(" | ") + formatPercent(synthetic);
    case Qt::BackgroundRole:
      // Lightened so the text stays readable on the strongest colours.
      return scale_.colorAt(synthetic - real).lighter(115);
    case Qt::ForegroundRole:
      return QColor(Qt::black);
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::AlignCenter);
    case Qt::ToolTipRole:
      return tr("%1 = %2, %3 = %4\nreal: %5 of %6 rows (%7)\nsynthetic: %8 of %9 rows (%10)")
          .arg(toQString(table_.row_name), toQString(table_.row_labels[r]),
               toQString(table_.column_name), toQString(table_.column_labels[c]),
               formatCount(table_.real_counts[r][c]), formatCount(table_.real_rows),
               formatPercent(real, 2), formatCount(table_.synthetic_counts[r][c]),
               formatCount(table_.synthetic_rows))
          .arg(formatPercent(synthetic, 2));
    default:
      return {};
  }
}

QVariant PairTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const auto& labels = orientation == Qt::Horizontal ? table_.column_labels : table_.row_labels;
  if (section < 0 || static_cast<std::size_t>(section) >= labels.size()) return {};
  const QString label = toQString(labels[static_cast<std::size_t>(section)]);
  if (role == Qt::ToolTipRole) {
    return toQString(orientation == Qt::Horizontal ? table_.column_name : table_.row_name) +
           QStringLiteral(" = ") + label;
  }
  return label;
}

}  // namespace deniable::ui
