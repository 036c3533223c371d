// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/columns_page.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/schema/column_review.h"
#include "engine/schema/datetime.h"
#include "engine/schema/schema_json.h"
#include "ui/models/choice_delegate.h"
#include "ui/models/schema_model.h"
#include "ui/session/guarantee_summary.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecaster.h"
#include "ui/text/errors.h"
#include "ui/text/format.h"
#include "ui/widgets/geo_pair_panel.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/page_header.h"
#include "ui/widgets/target_classes_panel.h"
#include "ui/widgets/vocabulary_picker.h"

namespace deniable::ui {
namespace {

// Rows of the details form, in the order buildDomainForm adds them.
enum FormRow {
  kDecimalsRow = 0,
  kTwoDigitYearRow,
  kBoundsRow,
  kBoundButtonsRow,
  kBinsRow,
  kTargetRow,
  kVocabularyRow,
  kCategoriesRow,
  kCategoryButtonsRow,
  kWarningRow,
};

}  // namespace

ColumnsPage::ColumnsPage(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), forecaster_(new DomainForecaster(session, this)),
      model_(new SchemaModel(session, this)), banner_(new MessageBanner(this)),
      table_(new QTableView(this)) {
  auto* warning = new QLabel(
      tr("⚠ Public bounds and category lists are only private if they are genuinely public "
         "knowledge (e.g. “age 0–120”, the list of all countries). Bounds typed in from looking "
         "at your data are not private. When you leave them empty, Deniable estimates them with "
         "differential privacy."),
      this);
  warning->setWordWrap(true);

  table_->setModel(model_);
  table_->setItemDelegateForColumn(SchemaModel::kType,
                                   new ChoiceDelegate(SchemaModel::typeNames(), table_));
  table_->setItemDelegateForColumn(SchemaModel::kRole,
                                   new ChoiceDelegate(SchemaModel::columnRoleNames(), table_));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::AllEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 10);
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  for (int c : {SchemaModel::kName, SchemaModel::kType, SchemaModel::kCategorical,
                SchemaModel::kRole, SchemaModel::kMissing, SchemaModel::kDistinct}) {
    header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  }
  header->resizeSection(SchemaModel::kSamples, 120);
  header->resizeSection(SchemaModel::kPublicDomain, 110);
  header->resizeSection(SchemaModel::kForecast, 165);
  header->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->setToolTip(tr("One row per column of your file. Click a type or role to change it; "
                        "every change can be undone (Ctrl+Z)."));
  connect(model_, &SchemaModel::editFailed, this,
          [this](const QString& message) { banner_->showMessage(MessageBanner::Kind::kError, message); });
  connect(model_, &SchemaModel::targetRequested, this, &ColumnsPage::requestTarget);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
    showDetails();
    form_scroll_->verticalScrollBar()->setValue(0);  // another column: its details from the top
  });
  connect(session_, &Session::schemaChanged, this, &ColumnsPage::showDetails);

  forecast_header_ = new QLabel(this);
  forecast_header_->setWordWrap(true);
  forecast_header_->setTextFormat(Qt::RichText);
  forecast_header_->setToolTip(
      tr("What the privacy budget keeps of your columns, for the settings of the Privacy step. "
         "The forecast reads your data, so it is for your eyes only; it spends nothing and is "
         "not part of the release. The run itself uses a private row count, so it may differ "
         "slightly."));
  connect(forecast_header_, &QLabel::linkActivated, this, &ColumnsPage::privacyStepRequested);
  connect(forecaster_, &DomainForecaster::changed, this, &ColumnsPage::showForecast);
  connect(session_, &Session::dataChanged, this, [this] {
    banner_->hide();
    target_requested_ = -1;
    if (model_->rowCount() > 0) selectColumn(0);
  });

  auto* save = new QPushButton(tr("Save column settings…"), this);
  save->setToolTip(tr("Write these column settings as a schema JSON file, the format "
                      "deniable-cli takes with --schema"));
  auto* load = new QPushButton(tr("Load column settings…"), this);
  load->setToolTip(tr("Apply a schema JSON file (from 'deniable-cli inspect' or saved here)"));
  auto* reset = new QPushButton(tr("Reset to inferred"), this);
  reset->setToolTip(tr("Forget every change and go back to what Deniable inferred (undoable)"));
  connect(save, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save column settings"),
                                                      QString(), tr("Schema JSON (*.json)"));
    if (path.isEmpty()) return;
    if (auto s = saveSchema(path); !s) {
      banner_->showMessage(MessageBanner::Kind::kError, describeError(s.error()));
    } else {
      banner_->showMessage(MessageBanner::Kind::kInfo, tr("Column settings saved to %1").arg(path));
    }
  });
  connect(load, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load column settings"), QString(),
                                                      tr("Schema JSON (*.json)"));
    if (path.isEmpty()) return;
    if (auto s = loadSchema(path); !s) {
      banner_->showMessage(MessageBanner::Kind::kError, describeError(s.error()));
    }
  });
  connect(reset, &QPushButton::clicked, session_, &Session::resetColumns);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(save);
  buttons->addWidget(load);
  buttons->addWidget(reset);
  buttons->addStretch(1);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(table_);
  splitter->addWidget(buildDetails());
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kColumns, this));
  layout->addWidget(banner_);
  layout->addWidget(warning);
  layout->addWidget(forecast_header_);
  layout->addWidget(splitter, 1);
  layout->addLayout(buttons);
  showForecast();
}

QWidget* ColumnsPage::buildDetails() {
  details_ = new QGroupBox(this);
  failed_ = new QTreeWidget(details_);
  failed_->setHeaderLabels({tr("Value"), tr("Cells"), tr("First line")});
  failed_->setRootIsDecorated(false);
  failed_->setToolTip(tr("Values of this column that do not read as its type, with the line of "
                         "the file where each first appears. They are treated as missing."));
  review_ = new QLabel(details_);
  review_->setWordWrap(true);
  review_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  review_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  review_->setToolTip(tr("What to check in this column before a release (for your eyes only: "
                         "it quotes your data)"));
  auto* left = new QVBoxLayout;
  left->addWidget(failed_, 1);
  left->addWidget(review_);

  form_scroll_ = new QScrollArea(details_);
  form_scroll_->setWidgetResizable(true);
  form_scroll_->setFrameShape(QFrame::NoFrame);
  form_scroll_->setWidget(buildDomainForm());
  auto* layout = new QHBoxLayout(details_);
  layout->addLayout(left, 1);
  layout->addWidget(form_scroll_, 2);
  return details_;
}

QWidget* ColumnsPage::buildDomainForm() {
  auto* form = new QWidget(details_);
  forecast_details_ = new QLabel(form);
  forecast_details_->setWordWrap(true);
  forecast_details_->setTextFormat(Qt::RichText);
  forecast_details_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  forecast_details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  forecast_details_->setToolTip(tr("What the privacy budget keeps of this column (a forecast for "
                                   "your eyes only: it reads your data; nothing is spent)"));
  connect(forecast_details_, &QLabel::linkActivated, this, &ColumnsPage::privacyStepRequested);
  min_ = new QLineEdit(form);
  max_ = new QLineEdit(form);
  min_->setPlaceholderText(tr("e.g. 0"));
  max_->setPlaceholderText(tr("e.g. 120"));
  min_->setMinimumWidth(100);
  max_->setMinimumWidth(100);
  min_->setToolTip(tr("The smallest value this column can have, if that is public knowledge "
                      "(e.g. 0 for an age). Dates in the column's format."));
  max_->setToolTip(tr("The largest value this column can have, if that is public knowledge "
                      "(e.g. 120 for an age)."));
  apply_bounds_ = new QPushButton(tr("Declare public bounds"), form);
  apply_bounds_->setToolTip(tr("Use these bounds instead of estimating them privately"));
  clear_bounds_ = new QPushButton(tr("Estimate privately"), form);
  clear_bounds_->setToolTip(tr("Remove the public bounds: Deniable estimates them with "
                               "differential privacy"));
  bins_ = new QSpinBox(form);
  bins_->setRange(0, 1000);
  bins_->setSpecialValueText(tr("default"));
  bins_->setMaximumWidth(120);
  bins_->setKeyboardTracking(false);
  bins_->setToolTip(tr("At most how many bins the values are grouped into (0 = the Privacy "
                       "step's setting). Deniable places them privately where the data is; "
                       "they are equal-width only with public bounds and no share of ε for "
                       "domains. More bins: finer detail, more noise per bin."));
  decimals_ = new QSpinBox(form);
  decimals_->setRange(-1, 15);
  decimals_->setSpecialValueText(tr("shortest"));
  decimals_->setMaximumWidth(120);
  decimals_->setKeyboardTracking(false);
  decimals_->setToolTip(tr("Digits after the point in the output: the precision your values "
                           "carry (inferred from what at least 99% of them have)."));
  two_digit_year_ = new QSpinBox(form);
  two_digit_year_->setRange(kMinTwoDigitYearStart, kMaxTwoDigitYearStart);
  two_digit_year_->setMaximumWidth(120);
  two_digit_year_->setKeyboardTracking(false);
  two_digit_year_->setToolTip(tr("Two-digit years are read and written in the 100 years from "
                                 "this one: with 1930, ‘47’ is 1947 and ‘29’ is 2029."));
  two_digit_year_range_ = new QLabel(form);
  categories_ = new QPlainTextEdit(form);
  categories_->setPlaceholderText(tr("one category per line"));
  categories_->setToolTip(tr("Every value this column can take, if the list is public knowledge "
                             "(e.g. all countries). One per line."));
  categories_->setMaximumHeight(90);
  apply_categories_ = new QPushButton(tr("Declare public categories"), form);
  apply_categories_->setToolTip(tr("Use this list instead of selecting categories privately"));
  clear_categories_ = new QPushButton(tr("Select privately"), form);
  clear_categories_->setToolTip(tr("Remove the list: Deniable selects the categories with "
                                   "differential privacy"));
  vocabulary_ = new VocabularyPicker(form);
  target_ = new TargetClassesPanel(form);
  domain_warning_ = new QLabel(form);
  domain_warning_->setWordWrap(true);

  connect(apply_bounds_, &QPushButton::clicked, this, &ColumnsPage::applyBounds);
  connect(clear_bounds_, &QPushButton::clicked, this, &ColumnsPage::clearBounds);
  connect(apply_categories_, &QPushButton::clicked, this, &ColumnsPage::applyCategories);
  connect(clear_categories_, &QPushButton::clicked, this, &ColumnsPage::clearCategories);
  connect(bins_, &QSpinBox::valueChanged, this, &ColumnsPage::applyBins);
  connect(decimals_, &QSpinBox::valueChanged, this, &ColumnsPage::applyDecimals);
  connect(two_digit_year_, &QSpinBox::valueChanged, this, &ColumnsPage::applyTwoDigitYearStart);
  connect(vocabulary_, &VocabularyPicker::declareRequested, this, &ColumnsPage::declareVocabulary);
  connect(target_, &TargetClassesPanel::declareRequested, this, &ColumnsPage::declareTargetClasses);

  auto* bounds = new QHBoxLayout;
  bounds->addWidget(min_, 1);
  bounds->addWidget(new QLabel(tr("to"), form));
  bounds->addWidget(max_, 1);
  auto* bound_buttons = new QHBoxLayout;
  bound_buttons->addWidget(apply_bounds_);
  bound_buttons->addWidget(clear_bounds_);
  bound_buttons->addStretch(1);
  auto* two_digit_field = new QWidget(form);  // one field, so that the row can be hidden
  auto* two_digit = new QHBoxLayout(two_digit_field);
  two_digit->setContentsMargins(0, 0, 0, 0);
  two_digit->addWidget(two_digit_year_);
  two_digit->addWidget(two_digit_year_range_, 1);
  auto* category_buttons = new QHBoxLayout;
  category_buttons->addWidget(apply_categories_);
  category_buttons->addWidget(clear_categories_);
  category_buttons->addStretch(1);
  auto* outer = new QVBoxLayout(form);  // rows at the top, whichever are hidden
  outer->setContentsMargins(0, 0, 0, 0);
  // Above the form, not a row of it: Qt 6.4's QFormLayout writes out of bounds computing the
  // height of a word-wrapped row while other rows are hidden (valgrind, QTBUG-class bug).
  outer->addWidget(forecast_details_);
  form_ = new QFormLayout;
  outer->addLayout(form_);
  outer->addWidget(new GeoPairPanel(session_, table_->selectionModel(), form));
  outer->addStretch(1);
  form_->addRow(tr("Decimals:"), decimals_);
  form_->addRow(tr("Two-digit years from:"), two_digit_field);
  form_->addRow(tr("Public bounds:"), bounds);
  form_->addRow(QString(), bound_buttons);
  form_->addRow(tr("Bins:"), bins_);
  form_->addRow(tr("Target classes:"), target_);
  form_->addRow(tr("Public vocabulary:"), vocabulary_);
  form_->addRow(tr("Public categories:"), categories_);
  form_->addRow(QString(), category_buttons);
  form_->addRow(domain_warning_);
  Q_ASSERT(form_->rowCount() == kWarningRow + 1);
  return form;
}

int ColumnsPage::currentColumn() const {
  const QModelIndex index = table_->currentIndex();
  return index.isValid() ? index.row() : -1;
}

void ColumnsPage::selectColumn(int column) {
  table_->setCurrentIndex(model_->index(column, SchemaModel::kName));
  showDetails();
}

void ColumnsPage::showDetails() {
  const int c = currentColumn();
  const Schema& schema = session_->schema();
  details_->setEnabled(c >= 0 && c < static_cast<int>(schema.columns.size()));
  if (!details_->isEnabled()) {
    details_->setTitle(tr("Select a column"));
    return;
  }
  const ColumnSchema& column = schema.columns[static_cast<std::size_t>(c)];
  details_->setTitle(tr("Column ‘%1’ (%2)")
                         .arg(QString::fromStdString(column.name), DataTypeName(column.type)));
  failed_->clear();
  for (const FailedValue& value : column.stats.failed_values) {
    auto* item = new QTreeWidgetItem(failed_);
    item->setText(0, QString::fromStdString(value.text));
    item->setText(1, formatCount(value.count));
    item->setText(2, formatCount(value.first_line));
  }
  if (column.stats.failed_distinct > column.stats.failed_values.size()) {
    auto* item = new QTreeWidgetItem(failed_);
    item->setText(0, tr("… and %1 more distinct values")
                         .arg(formatCount(column.stats.failed_distinct - column.stats.failed_values.size())));
    item->setFirstColumnSpanned(true);
  }
  if (column.stats.failed_count == 0) {
    auto* item = new QTreeWidgetItem(failed_);
    item->setText(0, tr("Every value reads as %1.").arg(DataTypeName(column.type)));
    item->setFirstColumnSpanned(true);
  }

  const bool numeric = column.is_numeric() && column.is_modelled();
  auto bound = [&column](const std::optional<double>& value) -> QString {
    if (!value) return {};
    if (column.type == DataType::kDateTime) {
      std::string text;
      FormatDateTime(*value, column.datetime_format, text);
      return QString::fromStdString(text);
    }
    return QLocale::c().toString(*value, 'g', 15);
  };
  min_->setText(bound(column.public_min));
  max_->setText(bound(column.public_max));
  for (QWidget* widget : {static_cast<QWidget*>(min_), static_cast<QWidget*>(max_),
                          static_cast<QWidget*>(apply_bounds_), static_cast<QWidget*>(clear_bounds_)}) {
    widget->setEnabled(numeric);
  }
  clear_bounds_->setEnabled(numeric && (column.public_min || column.public_max));
  {
    const QSignalBlocker block(bins_);
    bins_->setValue(column.bins);
  }
  bins_->setEnabled(numeric && !column.categorical);
  QStringList categories;
  if (column.public_categories) {
    for (const std::string& category : *column.public_categories) {
      categories << QString::fromStdString(category);
    }
  }
  categories_->setPlainText(categories.join(QLatin1Char('\n')));
  const bool categorical = column.categorical && column.is_modelled();
  categories_->setEnabled(categorical);
  apply_categories_->setEnabled(categorical);
  clear_categories_->setEnabled(categorical && column.public_categories.has_value());
  const QStringList warnings =
      publicDomainWarnings(*session_->data()->table, static_cast<std::size_t>(c), column);
  domain_warning_->setText(warnings.isEmpty() ? QString()
                                              : QStringLiteral("⚠ ") + warnings.join(QStringLiteral("\n⚠ ")));
  showFormats(column);
  showReview(c, column);
  showForecast();
}

void ColumnsPage::showForecast() {
  using State = DomainForecaster::State;
  const State state = forecaster_->state();
  const auto& record = forecaster_->current();
  model_->setForecast(record, state == State::kComputing, forecaster_->error());
  if (!session_->hasInput()) {
    forecast_header_->clear();
    forecast_details_->clear();
    return;
  }
  const PrivacySettings& settings = session_->settings();
  const QString where =
      tr("<b>What ε = %1 keeps</b> (δ = %2, set on the <a href=\"privacy\">Privacy step</a>)")
          .arg(formatEpsilon(settings.model.epsilon), formatDelta(settings.model.delta));
  const QString owner = tr("A forecast for your eyes only: it reads your data; nothing is spent.");
  switch (state) {
    case State::kNoInput: forecast_header_->clear(); break;
    case State::kComputing:
      forecast_header_->setText(forecaster_->paused()
                                    ? tr("%1: computing… (after the running job)").arg(where)
                                    : tr("%1: computing…").arg(where));
      break;
    case State::kFailed:
      forecast_header_->setText(tr("%1: no forecast (%2)")
                                    .arg(where, forecaster_->error().toHtmlEscaped()));
      break;
    case State::kReady:
      forecast_header_->setText(tr("%1 — how ε is split: %2. %3")
                                    .arg(where, record->rule.toHtmlEscaped(), owner));
      break;
  }
  const int c = currentColumn();
  const Schema& schema = session_->schema();
  if (c < 0 || c >= static_cast<int>(schema.columns.size())) {
    forecast_details_->clear();
    return;
  }
  const auto column = static_cast<std::size_t>(c);
  QString body;
  if (state == State::kReady && column < record->columns.size()) {
    body = forecastDetailsHtml(record->columns[column], *record, schema.columns[column]);
  } else if (state == State::kComputing) {
    body = tr("computing…");
  } else {
    body = forecaster_->error().toHtmlEscaped();
  }
  forecast_details_->setText(tr("<b>What ε keeps (forecast):</b> %1").arg(body));
}

QString ColumnsPage::forecastHeaderText() const { return forecast_header_->text(); }

QString ColumnsPage::forecastDetailsText() const { return forecast_details_->text(); }

void ColumnsPage::showFormats(const ColumnSchema& column) {
  const bool real = column.type == DataType::kFloat;
  const bool two_digit = column.type == DataType::kDateTime && HasTwoDigitYear(column.datetime_format);
  form_->setRowVisible(decimals_, real);
  form_->setRowVisible(two_digit_year_->parentWidget(), two_digit);
  // Rows that cannot apply to this column are hidden rather than greyed out (the panel is
  // small): bounds and bins for numbers, category lists for categorical and text columns.
  const bool numeric = column.is_numeric() && column.is_modelled();
  for (int row : {kBoundsRow, kBoundButtonsRow}) form_->setRowVisible(row, numeric);
  form_->setRowVisible(kBinsRow, numeric && !column.categorical);
  const bool listable =
      column.is_modelled() && (column.categorical || column.type == DataType::kString);
  for (int row : {kCategoriesRow, kCategoryButtonsRow}) form_->setRowVisible(row, listable);
  const QSignalBlocker block_decimals(decimals_);
  const QSignalBlocker block_years(two_digit_year_);
  decimals_->setValue(real ? column.decimals : -1);
  two_digit_year_->setValue(column.two_digit_year_start);
  const int start = column.two_digit_year_start;
  two_digit_year_range_->setText(tr("years %1–%2 (‘%3’ is %4)")
                                     .arg(start)
                                     .arg(start + 99)
                                     .arg(47, 2, 10, QLatin1Char('0'))
                                     .arg(start + (47 - start % 100 + 100) % 100));
}

void ColumnsPage::showReview(int c, const ColumnSchema& column) {
  const RawColumn& raw = session_->data()->table->columns[static_cast<std::size_t>(c)];
  const ColumnReview review = ReviewColumn(column, raw);
  QStringList lines;
  for (const std::string& warning : review.warnings) {
    lines << QStringLiteral("⚠ ") + QString::fromStdString(warning).toHtmlEscaped();
  }
  for (const std::string& note : review.notes) {
    lines << QStringLiteral("ℹ ") + QString::fromStdString(note).toHtmlEscaped();
  }
  review_->setText(lines.join(QStringLiteral("<br>")));
  review_->setVisible(!lines.isEmpty());
  vocabulary_->setColumn(column, review.vocabularies);
  form_->setRowVisible(vocabulary_, column.is_modelled() &&
                                        (column.type == DataType::kString ||
                                         (column.type == DataType::kInteger && column.categorical)));
  const bool is_target = column.role == ColumnRole::kTarget;
  const bool show_target = is_target || target_requested_ == c;
  form_->setRowVisible(target_, show_target);
  if (show_target) {
    target_->setClasses(QString::fromStdString(column.name),
                        is_target ? review.classes : ObservedValues(raw, column), is_target);
  }
}

void ColumnsPage::requestTarget(int column) {
  if (column < 0 || column >= static_cast<int>(session_->schema().columns.size())) return;
  target_requested_ = column;
  selectColumn(column);
  banner_->showMessage(MessageBanner::Kind::kInfo,
                       tr("A target needs its class list declared public: check the classes "
                          "and their counts below, then declare them."));
}

void ColumnsPage::declareTargetClasses() {
  const int c = currentColumn();
  if (c < 0) return;
  const ColumnSchema& column = session_->schema().columns[static_cast<std::size_t>(c)];
  const RawColumn& raw = session_->data()->table->columns[static_cast<std::size_t>(c)];
  nlohmann::json classes = nlohmann::json::array();
  for (const CountedValue& value : ObservedValues(raw, column)) classes.push_back(value.text);
  const QString name = QString::fromStdString(column.name);
  edit({{"role", "target"}, {"categorical", true}, {"public", {{"categories", classes}}}},
       tr("Make %1 the target with %2 public")
           .arg(name, countOf(classes.size(), tr("class"), tr("classes"))));
  if (session_->schema().columns[static_cast<std::size_t>(c)].role == ColumnRole::kTarget) {
    target_requested_ = -1;
  }
}

void ColumnsPage::declareVocabulary(const QString& id, int letter_case) {
  nlohmann::json declaration = {{"vocabulary", id.toStdString()}};
  if (letter_case != static_cast<int>(LetterCase::kAsListed)) {
    declaration["case"] = LetterCaseName(static_cast<LetterCase>(letter_case));
  }
  // A vocabulary is a category list: the column becomes categorical with it.
  edit({{"categorical", true}, {"public", declaration}}, tr("Declare vocabulary %1").arg(id));
}

void ColumnsPage::applyDecimals(int decimals) {
  edit({{"decimals", decimals}}, tr("Change decimals to %1").arg(decimals));
}

void ColumnsPage::applyTwoDigitYearStart(int start) {
  edit({{"two_digit_year_start", start}},
       tr("Read two-digit years in %1–%2").arg(start).arg(start + 99));
}

void ColumnsPage::edit(const nlohmann::json& column_change, const QString& description) {
  nlohmann::json change = column_change;
  change["name"] = session_->schema().columns[static_cast<std::size_t>(currentColumn())].name;
  if (auto s = session_->editColumns(nlohmann::json{{"columns", nlohmann::json::array({change})}},
                                     description);
      !s) {
    banner_->showMessage(MessageBanner::Kind::kError, describeError(s.error()));
  } else {
    banner_->hide();
  }
}

void ColumnsPage::applyBounds() {
  const int c = currentColumn();
  if (c < 0) return;
  const ColumnSchema& column = session_->schema().columns[static_cast<std::size_t>(c)];
  auto value = [&column](const QLineEdit* edit) -> Result<nlohmann::json> {
    const QString text = edit->text().trimmed();
    if (text.isEmpty()) return nlohmann::json(nullptr);
    if (column.type == DataType::kDateTime) return nlohmann::json(text.toStdString());
    bool ok = false;
    const double number = QLocale::c().toDouble(text, &ok);
    if (!ok) return InvalidArgument("‘" + text.toStdString() + "’ is not a number");
    if (column.type == DataType::kInteger && number == static_cast<double>(static_cast<long long>(number))) {
      return nlohmann::json(static_cast<long long>(number));
    }
    return nlohmann::json(number);
  };
  auto lo = value(min_);
  auto hi = value(max_);
  if (!lo || !hi) {
    banner_->showMessage(MessageBanner::Kind::kError,
                         describeError(!lo ? lo.error() : hi.error()));
    return;
  }
  edit({{"public", {{"min", lo.value()}, {"max", hi.value()}}}},
       tr("Declare public bounds of %1").arg(QString::fromStdString(column.name)));
}

void ColumnsPage::clearBounds() {
  edit({{"public", {{"min", nullptr}, {"max", nullptr}}}}, tr("Remove public bounds"));
}

void ColumnsPage::applyCategories() {
  nlohmann::json list = nlohmann::json::array();
  for (const QString& line : categories_->toPlainText().split(QLatin1Char('\n'))) {
    if (!line.isEmpty()) list.push_back(line.toStdString());
  }
  edit({{"public", {{"categories", list}}}}, tr("Declare public categories"));
}

void ColumnsPage::clearCategories() {
  edit({{"public", {{"categories", nullptr}}}}, tr("Remove public categories"));
}

void ColumnsPage::applyBins(int bins) { edit({{"bins", bins}}, tr("Change bins to %1").arg(bins)); }


Status ColumnsPage::saveSchema(const QString& path) {
  if (!session_->hasInput()) return FailedPrecondition("no input is open");
  const std::string destination = path.toStdString();
  if (auto s = CheckNotOverwritingInput(destination, {session_->data()->path.toStdString()}); !s) {
    return s.error();
  }
  return WriteFileAtomically(destination, SchemaJsonText(session_->schema(), /*include_stats=*/false));
}

Status ColumnsPage::loadSchema(const QString& path) {
  auto json = ReadJsonFile(path.toStdString());
  if (!json) return json.error();
  return session_->loadSchemaJson(json.value(), QFileInfo(path).fileName().toStdString(),
                                  tr("Load column settings from %1").arg(QFileInfo(path).fileName()));
}

}  // namespace deniable::ui
