// SPDX-License-Identifier: Apache-2.0
#include "ui/review/ledger_model.h"

#include "ui/review/privacy_facts.h"
#include "ui/review/review_format.h"

namespace deniable::ui {

LedgerModel::LedgerModel(QObject* parent) : QAbstractTableModel(parent) {}

void LedgerModel::setLedger(std::vector<LedgerEntry> entries,
                            std::vector<PrivacyAccountant::Partition> partitions,
                            std::vector<std::string> names) {
  beginResetModel();
  names_ = std::move(names);
  entries_ = std::move(entries);
  partitions_ = std::move(partitions);
  endResetModel();
}

int LedgerModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int LedgerModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QString LedgerModel::partitionDescription(const std::string& name) const {
  for (const auto& partition : partitions_) {
    if (partition.name == name) return toQString(partition.description);
  }
  return {};
}

QString LedgerModel::columnTitle(int column) {
  switch (column) {
    case kWhat: return tr("What was released");
    case kMechanism: return tr("Mechanism");
    case kEpsilon: return tr("ε");
    case kDelta: return tr("δ");
    case kCount: return tr("Invocations");
    case kRows: return tr("Rows");
    case kReference: return tr("Reference");
    default: return {};
  }
}

QVariant LedgerModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const LedgerEntry& e = entries_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kWhat: return readableLedgerLabel(e.label, names_);
      case kMechanism: return toQString(e.mechanism);
      case kEpsilon: return ledgerCostColumns(e).first;
      case kDelta: return ledgerCostColumns(e).second;
      case kCount: return formatCount(e.count);
      case kRows: return toQString(e.partition);
      case kReference: return toQString(e.reference);
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole &&
      (index.column() == kEpsilon || index.column() == kDelta || index.column() == kCount)) {
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole) {
    switch (index.column()) {
      case kEpsilon:
      case kDelta:
      case kCount:
        if (e.rho_each > 0) {
          QString text =
              tr("%1 invocation(s), each ρ = %2 (zero-concentrated DP), sensitivity %3. The "
                 "ρ of all zCDP entries add up and are converted to (ε, δ) once, for the "
                 "whole block (Canonne, Kamath, Steinke 2020): see the total.")
                  .arg(formatCount(e.count), QString::number(e.rho_each, 'g', 4),
                       QString::number(e.sensitivity, 'g', 4));
          if (e.delta_each > 0) {
            text += tr(" Approximate zCDP: within total variation %1 of a ρ-zCDP mechanism "
                       "(values held by one person alone are dropped except with that "
                       "probability); the block's δ grows by e^ε times it.")
                        .arg(formatDelta(e.delta_each));
          }
          return text;
        }
        return tr("%1 invocation(s), each ε = %2, δ = %3, sensitivity %4; composed by %5 "
                  "composition: ε = %6, δ = %7")
            .arg(formatCount(e.count), formatEpsilon(e.epsilon_each), formatDelta(e.delta_each),
                 QString::number(e.sensitivity, 'g', 4), toQString(e.composition),
                 QString::number(e.cost.epsilon, 'g', 10), QString::number(e.cost.delta, 'g', 6));
      case kRows: return partitionDescription(e.partition);
      default: return data(index, Qt::DisplayRole);
    }
  }
  return {};
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return columnTitle(section);
}

}  // namespace deniable::ui
