// SPDX-License-Identifier: Apache-2.0
// A delegate that edits a cell with a combo box of fixed choices (type, role) and commits as
// soon as a choice is picked.
#pragma once

#include <QStringList>
#include <QStyledItemDelegate>

namespace deniable::ui {

class ChoiceDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  ChoiceDelegate(QStringList choices, QObject* parent = nullptr);

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model,
                    const QModelIndex& index) const override;

 private:
  QStringList choices_;
};

}  // namespace deniable::ui
