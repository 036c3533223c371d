// SPDX-License-Identifier: Apache-2.0
// The Columns step's target panel: the classes of the selected column with their row counts
// and shares (rare ones marked), so that the owner can judge whether the class list is public
// knowledge, and a button that declares the observed classes public and makes the column the
// release's target (role target; schema.h). For the owner's eyes: the counts come from the data.
#pragma once

#include <vector>

#include <QWidget>

#include "engine/schema/infer_schema.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace deniable::ui {

class TargetClassesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TargetClassesPanel(QWidget* parent = nullptr);

  // `column`'s observed classes (ObservedValues). `is_target`: the column already has role
  // target (with its public list); then the panel only shows the counts.
  void setClasses(const QString& column, const std::vector<CountedValue>& classes, bool is_target);

  QTreeWidget* classes() const { return classes_; }
  QPushButton* declareButton() const { return declare_; }
  QLabel* note() const { return note_; }

 signals:
  void declareRequested();

 private:
  QLabel* note_;
  QTreeWidget* classes_;
  QPushButton* declare_;
};

}  // namespace deniable::ui
