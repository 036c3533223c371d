// SPDX-License-Identifier: Apache-2.0
// NetworkView (Review → Network): the learned network (NetworkScene, laid out by Graphviz) on
// the left; on the right, for the clicked attribute, its parents, its place in σ and whether
// candidates re-sample it (deniable mode), what its tables cost (from the ledger) and its
// conditional distribution table.
#pragma once

#include <memory>

#include <QWidget>

#include "ui/review/privacy_facts.h"
#include "ui/review/review_data.h"

QT_BEGIN_NAMESPACE
class QGraphicsView;
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace deniable::ui {

class ConditionalTableModel;
class NetworkScene;

class NetworkView : public QWidget {
  Q_OBJECT

 public:
  explicit NetworkView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // Shows an attribute's details (index into Description::domains), as a click on it does.
  void showAttribute(int attribute);
  int currentAttribute() const { return current_; }

  NetworkScene* scene() const { return scene_; }
  const ConditionalTableModel* conditionalModel() const { return tableModel_; }
  QString orderText() const;    // the σ line above the graph
  QString detailsText() const;  // the text above the conditional table
  QString costText() const;     // the ledger lines of the current attribute

 private:
  std::shared_ptr<const ReviewData> data_;
  PrivacyFacts privacy_;
  NetworkScene* scene_;
  QGraphicsView* view_;
  QLabel* order_;
  QLabel* title_;
  QLabel* details_;
  QLabel* cost_;
  QTableView* table_;
  ConditionalTableModel* tableModel_;
  int current_ = -1;
};

}  // namespace deniable::ui
