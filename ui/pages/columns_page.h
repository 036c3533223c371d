// SPDX-License-Identifier: Apache-2.0
// Step 2, Columns (the attribute typing wizard): the schema as a table (SchemaModel), and for
// the selected column its values that do not fit the type (with line numbers), its review
// (warnings and notes: a non-unique identifier, the two-digit-year window, rare target
// classes...), its formats (decimals, two-digit-year window), its public domain (bounds,
// categories, a public vocabulary from the suggestions, bins) and, for a target, its classes
// with their counts, with a plain warning that bounds read off the data are not private. The
// result is the CLI's schema JSON: saved and loaded from here.
//
// Beside each column: what the Privacy step's ε will keep of it (a forecast computed in the
// background by a DomainForecaster: which values merge into Other, how fine the private bins
// get, what a public declaration saves), with the fixes when values would be lost. The
// forecast reads the real data: the page says it is for the owner's eyes only.
#pragma once

#include <QString>
#include <QWidget>

#include <nlohmann/json_fwd.hpp>

#include "engine/core/result.h"
#include "engine/schema/schema.h"

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QScrollArea;
class QPushButton;
class QSpinBox;
class QTableView;
class QTreeWidget;
class QGroupBox;

namespace deniable::ui {

class DomainForecaster;
class MessageBanner;
class SchemaModel;
class Session;
class TargetClassesPanel;
class VocabularyPicker;

class ColumnsPage : public QWidget {
  Q_OBJECT

 public:
  explicit ColumnsPage(Session* session, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  // What the chosen ε keeps of each column (computed in the background).
  DomainForecaster* forecaster() const { return forecaster_; }
  // The forecast's header line (settings, how ε is split) and the selected column's forecast.
  QString forecastHeaderText() const;
  QString forecastDetailsText() const;
  SchemaModel* model() const { return model_; }
  // File actions (also used by the buttons after their file dialogs).
  Status saveSchema(const QString& path);
  Status loadSchema(const QString& path);
  void selectColumn(int column);
  // The selected column's values that do not fit its type (value, cells, first line).
  QTreeWidget* failedValuesView() const { return failed_; }
  // The selected column's review: warnings and notes (column_review.h).
  QLabel* reviewLabel() const { return review_; }
  QSpinBox* decimalsBox() const { return decimals_; }
  QSpinBox* twoDigitYearBox() const { return two_digit_year_; }
  VocabularyPicker* vocabularyPicker() const { return vocabulary_; }
  TargetClassesPanel* targetPanel() const { return target_; }
  // Shows column's classes with their counts and the button that declares them public and
  // makes it the target (what choosing role "target" in the table does).
  void requestTarget(int column);
  // The target panel's button: role target with the observed classes declared public.
  void declareTargetClasses();
  // The vocabulary row's button: "public": {"vocabulary": id, "case": ...}.
  void declareVocabulary(const QString& id, int letter_case);

 signals:
  // A forecast's "Privacy step" link: show that step (ε, δ, the domain share).
  void privacyStepRequested();

 private:
  QWidget* buildDetails();
  QWidget* buildDomainForm();
  void showDetails();
  void showFormats(const ColumnSchema& column);
  void showReview(int c, const ColumnSchema& column);
  void showForecast();
  void applyBounds();
  void clearBounds();
  void applyCategories();
  void clearCategories();
  void applyBins(int bins);
  void applyDecimals(int decimals);
  void applyTwoDigitYearStart(int start);
  void edit(const nlohmann::json& column_change, const QString& description);
  int currentColumn() const;

  Session* session_;
  DomainForecaster* forecaster_;
  SchemaModel* model_;
  QLabel* forecast_header_;
  QLabel* forecast_details_;
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
  QLabel* review_;
  QFormLayout* form_;
  QScrollArea* form_scroll_;
  QSpinBox* decimals_;
  QSpinBox* two_digit_year_;
  QLabel* two_digit_year_range_;
  VocabularyPicker* vocabulary_;
  TargetClassesPanel* target_;
  int target_requested_ = -1;  // the column whose target panel was asked for
};

}  // namespace deniable::ui
