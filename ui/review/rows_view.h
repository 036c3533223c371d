// SPDX-License-Identifier: Apache-2.0
// RowsView (Review → Rows): the real and the synthetic rows side by side, with ONE filter
// (a text, in one named column or in any) and ONE sort (click a column header in either
// table: both tables sort by that column name) applied to both. Filtering and sorting run on
// worker threads (row_order.h), so a 1,000,000-row table never blocks the UI.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include "engine/core/result.h"
#include "ui/review/review_data.h"
#include "ui/review/row_order.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
QT_END_NAMESPACE

namespace deniable::ui {

class RawTableModel;

class RowsView : public QWidget {
  Q_OBJECT

 public:
  explicit RowsView(QWidget* parent = nullptr);
  ~RowsView() override;

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // What a header click and the filter bar do. `column` is a column NAME (present in either
  // table); an empty name in setFilter means "any column".
  void sortBy(const QString& column, Qt::SortOrder order);
  void setFilter(const QString& column, const QString& text);

  const RawTableModel* realModel() const { return realModel_; }
  const RawTableModel* syntheticModel() const { return syntheticModel_; }
  QTableView* realView() const { return realView_; }
  QTableView* syntheticView() const { return syntheticView_; }
  bool isBusy() const { return real_.running || synthetic_.running; }
  QString statusText() const;

 signals:
  void rowsUpdated();  // both tables show the current filter and sort

 private:
  struct Side {
    RawTableModel* model = nullptr;
    QTableView* view = nullptr;
    QFutureWatcher<Result<std::shared_ptr<const std::vector<std::uint32_t>>>>* watcher = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel;
    int generation = 0;         // bumped by every query
    int watchedGeneration = 0;  // the query the watcher's future answers
    bool running = false;
  };
  void apply();
  void applyTo(Side& side);
  void onFinished(Side& side);
  void onHeaderClicked(QTableView* view, int section);
  void updateStatus();

  std::shared_ptr<const ReviewData> data_;
  RawTableModel* realModel_;
  RawTableModel* syntheticModel_;
  QTableView* realView_;
  QTableView* syntheticView_;
  QLabel* realTitle_;
  QLabel* syntheticTitle_;
  QComboBox* filterColumn_;
  QLineEdit* filterText_;
  QLabel* status_;
  QTimer filterDelay_;
  Side real_, synthetic_;
  QString sortColumn_;
  Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
  QString filterColumnName_;
  QString filterTextValue_;
};

}  // namespace deniable::ui
