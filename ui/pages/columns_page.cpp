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
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/schema/datetime.h"
#include "engine/schema/schema_json.h"
#include "ui/models/choice_delegate.h"
#include "ui/models/schema_model.h"
#include "ui/session/guarantee_summary.h"
#include "ui/session/session.h"
#include "ui/util/errors.h"
#include "ui/util/format.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/page_header.h"

namespace deniable::ui {

ColumnsPage::ColumnsPage(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new SchemaModel(session, this)),
      banner_(new MessageBanner(this)), table_(new QTableView(this)) {
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
  header->resizeSection(SchemaModel::kSamples, 150);
  header->resizeSection(SchemaModel::kPublicDomain, 110);
  header->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->setToolTip(tr("One row per column of your file. Click a type or role to change it; "
                        "every change can be undone (Ctrl+Z)."));
  connect(model_, &SchemaModel::editFailed, this,
          [this](const QString& message) { banner_->showMessage(MessageBanner::Kind::kError, message); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ColumnsPage::showDetails);
  connect(session_, &Session::schemaChanged, this, &ColumnsPage::showDetails);
  connect(session_, &Session::dataChanged, this, [this] {
    banner_->hide();
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
  layout->addWidget(splitter, 1);
  layout->addLayout(buttons);
}

QWidget* ColumnsPage::buildDetails() {
  details_ = new QGroupBox(this);
  failed_ = new QTreeWidget(details_);
  failed_->setHeaderLabels({tr("Value"), tr("Cells"), tr("First line")});
  failed_->setRootIsDecorated(false);
  failed_->setToolTip(tr("Values of this column that do not read as its type, with the line of "
                         "the file where each first appears. They are treated as missing."));

  min_ = new QLineEdit(details_);
  max_ = new QLineEdit(details_);
  min_->setPlaceholderText(tr("e.g. 0"));
  max_->setPlaceholderText(tr("e.g. 120"));
  min_->setMinimumWidth(100);
  max_->setMinimumWidth(100);
  min_->setToolTip(tr("The smallest value this column can have, if that is public knowledge "
                      "(e.g. 0 for an age). Dates in the column's format."));
  max_->setToolTip(tr("The largest value this column can have, if that is public knowledge "
                      "(e.g. 120 for an age)."));
  apply_bounds_ = new QPushButton(tr("Declare public bounds"), details_);
  apply_bounds_->setToolTip(tr("Use these bounds instead of estimating them privately"));
  clear_bounds_ = new QPushButton(tr("Estimate privately"), details_);
  clear_bounds_->setToolTip(tr("Remove the public bounds: Deniable estimates them with "
                               "differential privacy"));
  bins_ = new QSpinBox(details_);
  bins_->setRange(0, 1000);
  bins_->setSpecialValueText(tr("default"));
  bins_->setMaximumWidth(120);
  bins_->setKeyboardTracking(false);
  bins_->setToolTip(tr("How many equal-width ranges the values are grouped into (0 = the "
                       "Privacy step's setting). More bins: finer detail, more noise per bin."));
  categories_ = new QPlainTextEdit(details_);
  categories_->setPlaceholderText(tr("one category per line"));
  categories_->setToolTip(tr("Every value this column can take, if the list is public knowledge "
                             "(e.g. all countries). One per line."));
  categories_->setMaximumHeight(90);
  apply_categories_ = new QPushButton(tr("Declare public categories"), details_);
  apply_categories_->setToolTip(tr("Use this list instead of selecting categories privately"));
  clear_categories_ = new QPushButton(tr("Select privately"), details_);
  clear_categories_->setToolTip(tr("Remove the list: Deniable selects the categories with "
                                   "differential privacy"));
  domain_warning_ = new QLabel(details_);
  domain_warning_->setWordWrap(true);

  connect(apply_bounds_, &QPushButton::clicked, this, &ColumnsPage::applyBounds);
  connect(clear_bounds_, &QPushButton::clicked, this, &ColumnsPage::clearBounds);
  connect(apply_categories_, &QPushButton::clicked, this, &ColumnsPage::applyCategories);
  connect(clear_categories_, &QPushButton::clicked, this, &ColumnsPage::clearCategories);
  connect(bins_, &QSpinBox::valueChanged, this, &ColumnsPage::applyBins);

  auto* bounds = new QHBoxLayout;
  bounds->addWidget(min_, 1);
  bounds->addWidget(new QLabel(tr("to"), details_));
  bounds->addWidget(max_, 1);
  auto* bound_buttons = new QHBoxLayout;
  bound_buttons->addWidget(apply_bounds_);
  bound_buttons->addWidget(clear_bounds_);
  bound_buttons->addStretch(1);
  auto* category_buttons = new QHBoxLayout;
  category_buttons->addWidget(apply_categories_);
  category_buttons->addWidget(clear_categories_);
  category_buttons->addStretch(1);
  auto* domain = new QFormLayout;
  domain->addRow(tr("Public bounds:"), bounds);
  domain->addRow(QString(), bound_buttons);
  domain->addRow(tr("Bins:"), bins_);
  domain->addRow(tr("Public categories:"), categories_);
  domain->addRow(QString(), category_buttons);
  domain->addRow(domain_warning_);
  auto* layout = new QHBoxLayout(details_);
  layout->addWidget(failed_, 1);
  layout->addLayout(domain, 2);
  return details_;
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
