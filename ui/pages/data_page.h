// SPDX-License-Identifier: Apache-2.0
// Step 1, Data: without an input, a welcome screen (drop zone, Open, the demo dataset, recent
// files); with one, the file's facts (rows, columns, delimiter, encoding, SHA-256), the values
// that did not fit their column's type with line numbers, and a preview of the rows.
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QStackedWidget;
class QTableView;
class QTreeWidget;

namespace deniable::ui {

class LineNumberedTableModel;
class Session;

class DataPage : public QWidget {
  Q_OBJECT

 public:
  explicit DataPage(Session* session, QWidget* parent = nullptr);
  void refreshRecentFiles();
  QTableView* previewView() const { return preview_; }

 signals:
  void openFileRequested();
  void openDemoRequested();
  void openProjectRequested();
  void openPathRequested(const QString& path);

 private:
  QWidget* buildWelcome();
  QWidget* buildLoaded();
  void onDataChanged();

  Session* session_;
  QStackedWidget* stack_;
  QListWidget* recent_;
  QLabel* facts_;
  QTreeWidget* problems_;
  QTableView* preview_;
  LineNumberedTableModel* model_;
};

}  // namespace deniable::ui
