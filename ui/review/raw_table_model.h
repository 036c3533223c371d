// SPDX-License-Identifier: Apache-2.0
// RawTableModel: a RawTable for a QTableView, read lazily — a cell's text is looked up in its
// column's dictionary only when the view paints it, so a 1,000,000-row table costs nothing
// until shown. An optional row order (filter and sort from row_order.h, computed off the UI
// thread) maps view rows to table rows.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "engine/core/table.h"

namespace deniable::ui {

class RawTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit RawTableModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const RawTable> table);
  // nullptr = every row in file order.
  void setRowOrder(std::shared_ptr<const std::vector<std::uint32_t>> order);
  const RawTable* table() const { return table_.get(); }
  // The table row shown at a view row.
  std::uint32_t tableRow(int viewRow) const {
    return order_ ? (*order_)[static_cast<std::size_t>(viewRow)] : static_cast<std::uint32_t>(viewRow);
  }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const RawTable> table_;
  std::shared_ptr<const std::vector<std::uint32_t>> order_;
};

}  // namespace deniable::ui
