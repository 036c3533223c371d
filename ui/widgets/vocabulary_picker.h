// SPDX-License-Identifier: Apache-2.0
// The Columns step's public-vocabulary row: the vocabularies that hold the selected column's
// values (suggestions, best first, with how many entries were seen and which values fall
// outside), then every other built-in vocabulary, and a button that declares the chosen one.
// Suggestions are for the owner's eyes; nothing is declared until the button is pressed.
#pragma once

#include <vector>

#include <QWidget>

#include "engine/schema/schema.h"
#include "engine/schema/vocabularies.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace deniable::ui {

class VocabularyPicker : public QWidget {
  Q_OBJECT

 public:
  explicit VocabularyPicker(QWidget* parent = nullptr);

  // The selected column and its suggestions (MatchVocabularies). A column that already
  // declares a vocabulary shows it; one that cannot hold a vocabulary (not a modelled String
  // or Integer column) disables the row.
  void setColumn(const ColumnSchema& column, const std::vector<VocabularyMatch>& suggestions);

  QComboBox* combo() const { return combo_; }
  QPushButton* declareButton() const { return declare_; }
  QLabel* detail() const { return detail_; }
  // How many entries of the combo are suggestions (they come first).
  int suggestionCount() const { return suggestions_; }

 signals:
  // The owner declares vocabulary `id` written in `letter_case` (a LetterCase value).
  void declareRequested(const QString& id, int letter_case);

 private:
  void showDetail();

  QComboBox* combo_;
  QPushButton* declare_;
  QLabel* detail_;
  std::vector<VocabularyMatch> matches_;
  int suggestions_ = 0;
};

}  // namespace deniable::ui
