// SPDX-License-Identifier: Apache-2.0
#include "ui/models/line_numbered_table_model.h"

namespace deniable::ui {

QVariant LineNumberedTableModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const {
  const RawTable* raw = table();
  if (orientation == Qt::Horizontal || raw == nullptr || section < 0 ||
      static_cast<std::size_t>(section) >= raw->num_rows()) {
    return RawTableModel::headerData(section, orientation, role);
  }
  const auto line = static_cast<qulonglong>(raw->row_line[tableRow(section)]);
  if (role == Qt::DisplayRole) return line;
  if (role == Qt::ToolTipRole) return tr("Row %1 starts on line %2 of the file").arg(section + 1).arg(line);
  return {};
}

}  // namespace deniable::ui
