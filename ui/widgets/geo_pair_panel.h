// SPDX-License-Identifier: Apache-2.0
// The Columns step's geo pair panel (engine/schema/geo_pairs.h): for the selected number
// column, whether it is half of a latitude/longitude pair modelled jointly as one attribute (a
// private quadtree over the points), with a check box that confirms or undoes the pair — one
// undo step either way, through Session::editColumns and the engine's ApplySchemaJson — and,
// for a column in no pair, the longitude column to pair it with. Hidden for other columns.
// It follows the page's current row and the session's schema on its own, so the page only has
// to place it.
#pragma once

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QItemSelectionModel;
class QLabel;

namespace deniable::ui {

class Session;

class GeoPairPanel : public QGroupBox {
  Q_OBJECT

 public:
  // `selection`: the column table's selection (its current row is the selected column).
  GeoPairPanel(Session* session, QItemSelectionModel* selection, QWidget* parent = nullptr);

  QCheckBox* pairBox() const { return pair_; }
  QComboBox* longitudeBox() const { return longitude_; }
  QLabel* note() const { return note_; }

 private:
  void refresh();
  void toggle(bool checked);

  Session* session_;
  QItemSelectionModel* selection_;
  QCheckBox* pair_;
  QComboBox* longitude_;
  QLabel* note_;
  QLabel* error_;
  QString latitude_;  // the pair's latitude column ("" when the selected column is in none)
};

}  // namespace deniable::ui
