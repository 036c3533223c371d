// SPDX-License-Identifier: Apache-2.0
#include "ui/review/conditional_table_model.h"

#include "ui/review/color_scale.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

const ColumnSchema* schemaOf(const Description& description, const std::string& name) {
  const int index = description.schema.ColumnIndex(name);
  return index < 0 ? nullptr : &description.schema.columns[static_cast<std::size_t>(index)];
}

}  // namespace

ConditionalTableModel::ConditionalTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConditionalTableModel::setNode(const Description* description, int nodeIndex) {
  beginResetModel();
  description_ = description;
  node_ = nullptr;
  valueLabels_.clear();
  if (description_ != nullptr && nodeIndex >= 0 &&
      static_cast<std::size_t>(nodeIndex) < description_->network.nodes.size()) {
    node_ = &description_->network.nodes[static_cast<std::size_t>(nodeIndex)];
    const ColumnDomain& domain = description_->domains[static_cast<std::size_t>(node_->attribute)];
    const ColumnSchema* column = schemaOf(*description_, domain.name);
    for (std::uint32_t v = 0; v < node_->cardinality; ++v) {
      valueLabels_ << toQString(domain.CodeLabel(v, column));
    }
  }
  endResetModel();
}

QString ConditionalTableModel::bucketLabel(std::size_t parentIndex, std::uint32_t bucket) const {
  const int parent = node_->parents[parentIndex];
  const ColumnDomain& domain = description_->domains[static_cast<std::size_t>(parent)];
  const ColumnSchema* column = schemaOf(*description_, domain.name);
  const auto& map = node_->parent_buckets[parentIndex];
  if (map.empty()) return toQString(domain.CodeLabel(bucket, column));
  // A bucket of adjacent codes (CoarseBinBuckets): name its first and last code.
  QStringList codes;
  std::uint32_t first = 0, last = 0, count = 0;
  for (std::uint32_t code = 0; code < map.size(); ++code) {
    if (map[code] != bucket) continue;
    if (count == 0) first = code;
    last = code;
    ++count;
  }
  if (count == 0) return tr("(empty bucket)");
  if (count == 1) return toQString(domain.CodeLabel(first, column));
  return toQString(domain.CodeLabel(first, column)) + QStringLiteral(" … ") +
         toQString(domain.CodeLabel(last, column));
}

QString ConditionalTableModel::configurationLabel(int configuration) const {
  if (node_ == nullptr) return {};
  if (node_->parents.empty()) return tr("all rows");
  // Mixed radix, the first parent most significant (bayes_net.h).
  std::vector<std::uint32_t> buckets(node_->parents.size());
  auto c = static_cast<std::size_t>(configuration);
  for (std::size_t p = node_->parents.size(); p-- > 0;) {
    const std::uint32_t base = node_->parent_bucket_counts[p];
    buckets[p] = static_cast<std::uint32_t>(c % base);
    c /= base;
  }
  QStringList parts;
  for (std::size_t p = 0; p < node_->parents.size(); ++p) {
    const ColumnDomain& domain =
        description_->domains[static_cast<std::size_t>(node_->parents[p])];
    parts << toQString(domain.AttributeName()) + QStringLiteral(" = ") + bucketLabel(p, buckets[p]);
  }
  return parts.join(QStringLiteral(", "));
}

QString ConditionalTableModel::configurationHeader(int configuration) const {
  return configurationLabel(configuration).replace(QStringLiteral(", "), QStringLiteral("\n"));
}

double ConditionalTableModel::probability(int configuration, int value) const {
  if (node_ == nullptr) return 0.0;
  return node_->probabilities[static_cast<std::size_t>(configuration) * node_->cardinality +
                              static_cast<std::size_t>(value)];
}

int ConditionalTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || node_ == nullptr ? 0 : static_cast<int>(node_->configurations());
}

int ConditionalTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() || node_ == nullptr ? 0 : static_cast<int>(node_->cardinality);
}

QVariant ConditionalTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || node_ == nullptr) return {};
  const double p = probability(index.row(), index.column());
  switch (role) {
    case Qt::DisplayRole: return formatPercent(p);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole: return ColorScale::sequential(1.0).colorAt(p * 0.7);
    case Qt::ForegroundRole: return ColorScale::sequential(1.0).textColorAt(p * 0.7);
    case Qt::ToolTipRole:
      return tr("Pr{%1 = %2 | %3} = %4")
          .arg(toQString(description_->domains[static_cast<std::size_t>(node_->attribute)].AttributeName()),
               valueLabels_.value(index.column()), configurationLabel(index.row()),
               QString::number(p, 'g', 4));
    default: return {};
  }
}

QVariant ConditionalTableModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
  if (node_ == nullptr || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
  if (orientation == Qt::Horizontal) return valueLabels_.value(section);
  return role == Qt::DisplayRole ? configurationHeader(section) : configurationLabel(section);
}

}  // namespace deniable::ui
