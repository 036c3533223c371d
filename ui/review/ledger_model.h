// SPDX-License-Identifier: Apache-2.0
// LedgerModel: the privacy ledger (the accountant's entries, in the order they were spent) for
// a QTableView: what was released, the mechanism, ε and δ (per invocation and composed), how
// many invocations, on which rows (partition), and the paper reference.
#pragma once

#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "engine/dp/privacy_accountant.h"

namespace deniable::ui {

class LedgerModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kWhat,
    kMechanism,
    kEpsilon,      // composed ε of the entry
    kDelta,        // composed δ of the entry
    kCount,        // invocations (with ε each / δ each in the tooltip)
    kRows,         // partition
    kReference,
    kColumnCount
  };

  explicit LedgerModel(QObject* parent = nullptr);

  // `names`: the attributes' names, for labels that name attributes by index.
  void setLedger(std::vector<LedgerEntry> entries,
                 std::vector<PrivacyAccountant::Partition> partitions,
                 std::vector<std::string> names = {});
  const std::vector<LedgerEntry>& entries() const { return entries_; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // Header texts, shared with the release report's ledger table.
  static QString columnTitle(int column);

 private:
  QString partitionDescription(const std::string& name) const;

  std::vector<LedgerEntry> entries_;
  std::vector<PrivacyAccountant::Partition> partitions_;
  std::vector<std::string> names_;
};

}  // namespace deniable::ui
