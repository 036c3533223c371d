// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/data_page.h"

#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/app/app_settings.h"
#include "ui/models/line_numbered_table_model.h"
#include "ui/session/session.h"
#include "ui/text/format.h"
#include "ui/widgets/page_header.h"

namespace deniable::ui {
namespace {

QString delimiterName(char delimiter) {
  switch (delimiter) {
    case ',': return DataPage::tr("comma");
    case ';': return DataPage::tr("semicolon");
    case '\t': return DataPage::tr("tab");
    case '|': return DataPage::tr("vertical bar");
    default: return QStringLiteral("'%1'").arg(QChar(delimiter));
  }
}

}  // namespace

DataPage::DataPage(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), stack_(new QStackedWidget(this)),
      model_(new LineNumberedTableModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kData, this));
  stack_->addWidget(buildWelcome());
  stack_->addWidget(buildLoaded());
  layout->addWidget(stack_, 1);
  connect(session_, &Session::dataChanged, this, &DataPage::onDataChanged);
  onDataChanged();
}

QWidget* DataPage::buildWelcome() {
  auto* page = new QWidget(this);
  auto* drop = new QLabel(tr("<h2>Drop a CSV file here</h2>"
                             "<p>or use one of the buttons below. Your data stays on this "
                             "computer: nothing is uploaded.</p>"),
                          page);
  drop->setAlignment(Qt::AlignCenter);
  drop->setFrameShape(QFrame::StyledPanel);
  drop->setFrameShadow(QFrame::Sunken);
  drop->setMinimumHeight(160);
  drop->setToolTip(tr("Drag a .csv file (or a .deniable project) from your file manager onto "
                      "this window"));

  auto* open = new QPushButton(tr("Open a CSV file…"), page);
  open->setToolTip(tr("Choose the sensitive CSV file to turn into synthetic data (Ctrl+O)"));
  auto* demo = new QPushButton(tr("Try the demo dataset"), page);
  demo->setToolTip(tr("Open a 10,000-row sample of the public UCI Adult census dataset, to "
                      "try every step without your own data (the category lists published in "
                      "its codebook are declared public)"));
  auto* project = new QPushButton(tr("Open a project…"), page);
  project->setToolTip(tr("Reopen a saved session (.deniable file): settings and column "
                         "choices, without any data"));
  connect(open, &QPushButton::clicked, this, &DataPage::openFileRequested);
  connect(demo, &QPushButton::clicked, this, &DataPage::openDemoRequested);
  connect(project, &QPushButton::clicked, this, &DataPage::openProjectRequested);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(open);
  buttons->addWidget(demo);
  buttons->addWidget(project);
  buttons->addStretch(1);

  auto* recent_box = new QGroupBox(tr("Recent files"), page);
  recent_ = new QListWidget(recent_box);
  recent_->setToolTip(tr("Double-click to open again"));
  connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit openPathRequested(item->data(Qt::UserRole).toString());
  });
  auto* recent_layout = new QVBoxLayout(recent_box);
  recent_layout->addWidget(recent_);

  auto* layout = new QVBoxLayout(page);
  layout->addWidget(drop);
  layout->addLayout(buttons);
  layout->addWidget(recent_box, 1);
  refreshRecentFiles();
  return page;
}

QWidget* DataPage::buildLoaded() {
  auto* page = new QWidget(this);
  facts_ = new QLabel(page);
  facts_->setTextFormat(Qt::RichText);
  facts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  facts_->setWordWrap(true);
  // The SHA-256 (64 characters without a break) must not set the window's minimum width: in a
  // narrow window (1024 pixels) the line is clipped at its end instead.
  facts_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  facts_->setToolTip(tr("Facts about the file as read. The SHA-256 fingerprint identifies this "
                        "exact file; it goes into the project file and the release report."));
  auto* another = new QPushButton(tr("Open another file…"), page);
  another->setToolTip(tr("Replace this input with another CSV file (Ctrl+O)"));
  connect(another, &QPushButton::clicked, this, &DataPage::openFileRequested);

  problems_ = new QTreeWidget(page);
  problems_->setHeaderLabels({tr("Column"), tr("Value"), tr("Cells"), tr("First line")});
  problems_->setRootIsDecorated(false);
  problems_->setToolTip(tr("Values that do not read as their column's type. They are treated "
                           "as missing; fix the type on the Columns step if it is wrong."));
  auto* problems_box = new QGroupBox(tr("Values that do not fit their column's type"), page);
  auto* problems_layout = new QVBoxLayout(problems_box);
  problems_layout->addWidget(problems_);

  preview_ = new QTableView(page);
  preview_->setModel(model_);
  preview_->setToolTip(tr("Your data as read (for your eyes only). The row numbers are the "
                          "file's line numbers."));
  preview_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  preview_->verticalHeader()->setDefaultSectionSize(preview_->fontMetrics().height() + 6);
  // Fixed row heights: the view never measures rows, so a million-row preview resizes and
  // scrolls as fast as a small one.
  preview_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  preview_->verticalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
  auto* preview_box = new QGroupBox(tr("Preview"), page);
  auto* preview_layout = new QVBoxLayout(preview_box);
  preview_layout->addWidget(preview_);

  auto* top = new QHBoxLayout;
  top->addWidget(facts_, 1);
  top->addWidget(another, 0, Qt::AlignTop);
  auto* splitter = new QSplitter(Qt::Vertical, page);
  splitter->addWidget(problems_box);
  splitter->addWidget(preview_box);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);
  return page;
}

void DataPage::refreshRecentFiles() {
  recent_->clear();
  const QStringList files = AppSettings::recentFiles();
  for (const QString& path : files) {
    auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(QFileInfo(path).fileName(), path),
                                     recent_);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
  }
  if (files.isEmpty()) {
    auto* item = new QListWidgetItem(tr("No recent files yet"), recent_);
    item->setFlags(Qt::NoItemFlags);
  }
}

void DataPage::onDataChanged() {
  const auto& loaded = session_->data();
  if (!loaded) {
    model_->setTable(nullptr);
    refreshRecentFiles();
    stack_->setCurrentIndex(0);
    return;
  }
  const RawTable& table = *loaded->table;
  model_->setTable(loaded->table);
  const QString rows = formatCount(table.num_rows());
  facts_->setText(
      tr("<table cellspacing='3'>"
         "<tr><td>File:</td><td><b>%1</b></td></tr>"
         "<tr><td>Size:</td><td>%2</td></tr>"
         "<tr><td>Rows:</td><td><b>%3</b> &nbsp; Columns: <b>%4</b></td></tr>"
         "<tr><td>Format:</td><td>%5-separated, %6, %7 line ends</td></tr>"
         "<tr><td>SHA-256:</td><td><code>%8</code></td></tr></table>")
          .arg(loaded->path.toHtmlEscaped(), formatBytes(loaded->bytes), rows)
          .arg(table.num_columns())
          .arg(delimiterName(table.dialect.delimiter),
               table.dialect.had_bom ? tr("UTF-8 with byte-order mark") : tr("UTF-8"),
               table.dialect.crlf ? QStringLiteral("CR LF") : QStringLiteral("LF"),
               QString::fromLatin1(loaded->sha256)));
  problems_->clear();
  for (const ColumnSchema& column : loaded->inferred.columns) {
    for (const FailedValue& value : column.stats.failed_values) {
      auto* item = new QTreeWidgetItem(problems_);
      item->setText(0, QString::fromStdString(column.name));
      item->setText(1, QString::fromStdString(value.text));
      item->setText(2, formatCount(value.count));
      item->setText(3, formatCount(value.first_line));
      item->setToolTip(1, tr("Does not read as %1").arg(DataTypeName(column.type)));
    }
  }
  if (problems_->topLevelItemCount() == 0) {
    auto* item = new QTreeWidgetItem(problems_);
    item->setText(0, tr("None: every value reads as its column's type."));
    item->setFirstColumnSpanned(true);
  }
  problems_->resizeColumnToContents(0);
  stack_->setCurrentIndex(1);
}

}  // namespace deniable::ui
