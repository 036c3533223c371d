// SPDX-License-Identifier: Apache-2.0
// ConditionalTableModel: one network node's conditional distribution for a QTableView — one
// row per configuration of its parents (their buckets, labelled with ColumnDomain::CodeLabel),
// one column per value of the attribute, cells Pr{value | configuration} in percent, shaded by
// size. A node without parents has one row ("all rows").
//
// The tables are outputs of the DP model (noisy counts), part of the description file; showing
// them reveals nothing the release does not.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include "engine/model/description.h"

namespace deniable::ui {

class ConditionalTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit ConditionalTableModel(QObject* parent = nullptr);

  // Shows description.network.nodes[nodeIndex]; -1 (or out of range) shows nothing.
  void setNode(const Description* description, int nodeIndex);

  // Label of a parent configuration, e.g. "sex = Male, income = >50K".
  QString configurationLabel(int configuration) const;
  // The same, one parent per line (the table's row header).
  QString configurationHeader(int configuration) const;
  double probability(int configuration, int value) const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QString bucketLabel(std::size_t parentIndex, std::uint32_t bucket) const;

  const Description* description_ = nullptr;
  const BayesNode* node_ = nullptr;
  QStringList valueLabels_;
};

}  // namespace deniable::ui
