// SPDX-License-Identifier: Apache-2.0
// PairTableModel: a PairTable (2-way table of one attribute pair) for a QTableView. Each cell
// reads "real % | synthetic %" of all rows, coloured by the difference (blue: the synthetic
// data has fewer rows there, red: more); the tooltip gives the counts.
#pragma once

#include <QAbstractTableModel>

#include "ui/review/color_scale.h"
#include "ui/review/pair_table.h"

namespace deniable::ui {

class PairTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit PairTableModel(QObject* parent = nullptr);

  void setTable(PairTable table);
  void clear();
  const PairTable& table() const { return table_; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  PairTable table_;
  ColorScale scale_ = ColorScale::diverging(1.0);
};

}  // namespace deniable::ui
