// SPDX-License-Identifier: Apache-2.0
#include "ui/models/choice_delegate.h"

#include <QComboBox>

namespace deniable::ui {

ChoiceDelegate::ChoiceDelegate(QStringList choices, QObject* parent)
    : QStyledItemDelegate(parent), choices_(std::move(choices)) {}

QWidget* ChoiceDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                      const QModelIndex&) const {
  auto* combo = new QComboBox(parent);
  combo->addItems(choices_);
  combo->setToolTip(tr("Pick a value; it applies at once (Ctrl+Z undoes it)"));
  connect(combo, &QComboBox::activated, this, [this, combo] {
    auto* self = const_cast<ChoiceDelegate*>(this);
    emit self->commitData(combo);
    emit self->closeEditor(combo);
  });
  return combo;
}

void ChoiceDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  auto* combo = static_cast<QComboBox*>(editor);
  combo->setCurrentIndex(std::max(0, static_cast<int>(choices_.indexOf(index.data(Qt::EditRole).toString()))));
}

void ChoiceDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                  const QModelIndex& index) const {
  model->setData(index, static_cast<QComboBox*>(editor)->currentText(), Qt::EditRole);
}

}  // namespace deniable::ui
