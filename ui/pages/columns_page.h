// SPDX-License-Identifier: Apache-2.0
// Step 2, Columns (the attribute typing wizard): the schema as a table (SchemaModel), and for
// the selected column its values that do not fit the type (with line numbers) and its public
// domain (bounds, categories, bins), with a plain warning that bounds read off the data are not
// private. The result is the CLI's schema JSON: saved and loaded from here.
#pragma once

#include <QString>
#include <QWidget>

#include <nlohmann/json_fwd.hpp>

#include "engine/core/result.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTreeWidget;
class QGroupBox;

namespace deniable::ui {

class MessageBanner;
class SchemaModel;
class Session;

class ColumnsPage : public QWidget {
  Q_OBJECT

 public:
  explicit ColumnsPage(Session* session, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  SchemaModel* model() const { return model_; }
  // File actions (also used by the buttons after their file dialogs).
  Status saveSchema(const QString& path);
  Status loadSchema(const QString& path);
  void selectColumn(int column);
  // The selected column's values that do not fit its type (value, cells, first line).
  QTreeWidget* failedValuesView() const { return failed_; }

 private:
  QWidget* buildDetails();
  void showDetails();
  void applyBounds();
  void clearBounds();
  void applyCategories();
  void clearCategories();
  void applyBins(int bins);
  void edit(const nlohmann::json& column_change, const QString& description);
  int currentColumn() const;

  Session* session_;
  SchemaModel* model_;
  MessageBanner* banner_;
  QTableView* table_;
  QGroupBox* details_;
  QTreeWidget* failed_;
  QLineEdit* min_;
  QLineEdit* max_;
  QPushButton* apply_bounds_;
  QPushButton* clear_bounds_;
  QPlainTextEdit* categories_;
  QPushButton* apply_categories_;
  QPushButton* clear_categories_;
  QSpinBox* bins_;
  QLabel* domain_warning_;
};

}  // namespace deniable::ui
