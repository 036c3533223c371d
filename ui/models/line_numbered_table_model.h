// SPDX-License-Identifier: Apache-2.0
// The Data step's preview: the review's RawTableModel (lazy, fast for millions of rows) with
// the CSV line each row starts on in the vertical header — the line numbers that parse errors
// and failed values refer to.
#pragma once

#include "ui/review/raw_table_model.h"

namespace deniable::ui {

class LineNumberedTableModel : public RawTableModel {
  Q_OBJECT

 public:
  using RawTableModel::RawTableModel;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
};

}  // namespace deniable::ui
