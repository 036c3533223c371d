// SPDX-License-Identifier: Apache-2.0
#include "ui/review/rows_view.h"

#include <exception>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/review/raw_table_model.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

using OrderResult = Result<std::shared_ptr<const std::vector<std::uint32_t>>>;
constexpr int kFilterDelayMs = 250;  // typing pauses this long before the filter runs

QTableView* makeTableView(QAbstractItemModel* model) {
  auto* view = new QTableView;
  view->setModel(model);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setWordWrap(false);
  view->setAlternatingRowColors(true);
  // Fixed row heights: QHeaderView never measures a million rows.
  view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setSectionsClickable(true);
  view->horizontalHeader()->setSortIndicatorShown(true);
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  view->horizontalHeader()->setDefaultSectionSize(110);
  return view;
}

}  // namespace

RowsView::RowsView(QWidget* parent)
    : QWidget(parent),
      realModel_(new RawTableModel(this)),
      syntheticModel_(new RawTableModel(this)),
      realView_(makeTableView(realModel_)),
      syntheticView_(makeTableView(syntheticModel_)),
      realTitle_(new QLabel),
      syntheticTitle_(new QLabel),
      filterColumn_(new QComboBox),
      filterText_(new QLineEdit),
      status_(new QLabel) {
  real_.model = realModel_;
  real_.view = realView_;
  real_.watcher = new QFutureWatcher<OrderResult>(this);
  synthetic_.model = syntheticModel_;
  synthetic_.view = syntheticView_;
  synthetic_.watcher = new QFutureWatcher<OrderResult>(this);
  connect(real_.watcher, &QFutureWatcherBase::finished, this, [this] { onFinished(real_); });
  connect(synthetic_.watcher, &QFutureWatcherBase::finished, this,
          [this] { onFinished(synthetic_); });

  filterText_->setPlaceholderText(tr("Filter rows containing…"));
  filterText_->setClearButtonEnabled(true);
  filterText_->setToolTip(tr("Shows only the rows of both tables whose chosen column contains "
                             "this text (not case-sensitive)."));
  filterColumn_->setToolTip(tr("The column the filter looks in."));
  filterDelay_.setSingleShot(true);
  filterDelay_.setInterval(kFilterDelayMs);
  connect(filterText_, &QLineEdit::textChanged, &filterDelay_, qOverload<>(&QTimer::start));
  connect(&filterDelay_, &QTimer::timeout, this, [this] {
    setFilter(filterColumn_->currentData().toString(), filterText_->text());
  });
  connect(filterColumn_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filterText_->text().isEmpty()) {
      setFilter(filterColumn_->currentData().toString(), filterText_->text());
    }
  });
  for (QTableView* view : {realView_, syntheticView_}) {
    connect(view->horizontalHeader(), &QHeaderView::sectionClicked, this,
            [this, view](int section) { onHeaderClicked(view, section); });
  }

  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Filter:")));
  bar->addWidget(filterColumn_);
  bar->addWidget(filterText_, 1);
  bar->addWidget(status_, 2);

  auto side = [](QLabel* title, QTableView* view) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(view, 1);
    return box;
  };
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(side(realTitle_, realView_));
  splitter->addWidget(side(syntheticTitle_, syntheticView_));

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(splitter, 1);
  clear();
}

RowsView::~RowsView() {
  for (Side* side : {&real_, &synthetic_}) {
    if (side->cancel) side->cancel->store(true);
  }
}

void RowsView::clear() {
  data_.reset();
  for (Side* side : {&real_, &synthetic_}) {
    if (side->cancel) side->cancel->store(true);
    ++side->generation;
    side->running = false;
    side->model->setTable(nullptr);
  }
  filterColumn_->clear();
  filterColumn_->addItem(tr("any column"), QString());
  realTitle_->setText(tr("<b>Real</b>"));
  syntheticTitle_->setText(tr("<b>Synthetic</b>"));
  status_->setText(tr("No results yet: run a synthesis first."));
}

void RowsView::setData(std::shared_ptr<const ReviewData> reviewData) {
  clear();
  if (!reviewData) return;
  data_ = std::move(reviewData);
  realModel_->setTable(data_->real);
  syntheticModel_->setTable(data_->synthetic);
  const QSignalBlocker blocker(filterColumn_);
  QStringList names;
  for (const auto& table : {data_->real, data_->synthetic}) {
    if (!table) continue;
    for (const RawColumn& column : table->columns) {
      const QString name = toQString(column.name);
      if (!names.contains(name)) names << name;
    }
  }
  for (const QString& name : names) filterColumn_->addItem(name, name);
  const int selected = filterColumn_->findData(filterColumnName_);
  filterColumn_->setCurrentIndex(selected < 0 ? 0 : selected);
  if (selected < 0) filterColumnName_.clear();
  if (!sortColumn_.isEmpty() && !names.contains(sortColumn_)) sortColumn_.clear();
  apply();
}

void RowsView::sortBy(const QString& column, Qt::SortOrder order) {
  sortColumn_ = column;
  sortOrder_ = order;
  apply();
}

void RowsView::setFilter(const QString& column, const QString& text) {
  filterColumnName_ = column;
  filterTextValue_ = text;
  if (filterText_->text() != text) {
    const QSignalBlocker blocker(filterText_);
    filterText_->setText(text);
  }
  const int index = filterColumn_->findData(column);
  if (index >= 0 && index != filterColumn_->currentIndex()) {
    const QSignalBlocker blocker(filterColumn_);
    filterColumn_->setCurrentIndex(index);
  }
  apply();
}

void RowsView::onHeaderClicked(QTableView* view, int section) {
  auto* model = static_cast<RawTableModel*>(view->model());
  if (model->table() == nullptr) return;
  const QString name = toQString(model->table()->columns[static_cast<std::size_t>(section)].name);
  // First click sorts ascending, the next one descending, and so on.
  const Qt::SortOrder order = name == sortColumn_ && sortOrder_ == Qt::AscendingOrder
                                  ? Qt::DescendingOrder
                                  : Qt::AscendingOrder;
  sortBy(name, order);
}

void RowsView::apply() {
  for (Side* side : {&real_, &synthetic_}) {
    const RawTable* table = side->model->table();
    // The sort indicator follows the shared sort in both headers.
    const int section = table ? table->ColumnIndex(sortColumn_.toStdString()) : -1;
    const QSignalBlocker blocker(side->view->horizontalHeader());
    side->view->horizontalHeader()->setSortIndicator(section, sortOrder_);
    applyTo(*side);
  }
  updateStatus();
}

void RowsView::applyTo(Side& side) {
  if (side.cancel) side.cancel->store(true);  // a newer query supersedes a running one
  ++side.generation;
  side.running = false;
  std::shared_ptr<const RawTable> table =
      &side == &real_ ? (data_ ? data_->real : nullptr) : (data_ ? data_->synthetic : nullptr);
  if (!table) return;
  RowQuery query;
  query.sort_column = sortColumn_.isEmpty() ? -1 : table->ColumnIndex(sortColumn_.toStdString());
  query.descending = sortOrder_ == Qt::DescendingOrder;
  query.filter_text = filterTextValue_.toStdString();
  if (!filterColumnName_.isEmpty()) {
    query.filter_column = table->ColumnIndex(filterColumnName_.toStdString());
    // A column this table does not have: nothing in it can match.
    if (query.filter_column < 0 && !query.filter_text.empty()) {
      side.model->setRowOrder(std::make_shared<const std::vector<std::uint32_t>>());
      return;
    }
  }
  if (query.IsIdentity()) {
    side.model->setRowOrder(nullptr);
    return;
  }
  side.cancel = std::make_shared<std::atomic<bool>>(false);
  auto cancel = side.cancel;
  side.watchedGeneration = side.generation;
  side.running = true;
  side.watcher->setFuture(QtConcurrent::run([table, query, cancel]() -> OrderResult {
    try {
      auto order = ComputeRowOrder(*table, query, cancel.get());
      if (!order) return order.error();
      return std::make_shared<const std::vector<std::uint32_t>>(std::move(order.value()));
    } catch (const std::exception& e) {  // boundary: exceptions become Errors
      return Error{ErrorCode::kInternal, e.what()};
    }
  }));
}

void RowsView::onFinished(Side& side) {
  if (side.watchedGeneration != side.generation) return;  // a stale query's answer
  side.running = false;
  if (!side.watcher->isCanceled() && side.watcher->future().resultCount() > 0) {
    const OrderResult result = side.watcher->result();
    if (result) side.model->setRowOrder(result.value());
  }
  updateStatus();
}

void RowsView::updateStatus() {
  auto describe = [](const RawTableModel* model) {
    const RawTable* table = model->table();
    if (table == nullptr) return tr("no rows");
    const auto total = static_cast<std::uint64_t>(table->num_rows());
    const auto shown = static_cast<std::uint64_t>(model->rowCount());
    return shown == total ? tr("%1 rows").arg(formatCount(total))
                          : tr("%1 of %2 rows").arg(formatCount(shown), formatCount(total));
  };
  realTitle_->setText(tr("<b>Real</b> — %1").arg(describe(realModel_)));
  syntheticTitle_->setText(tr("<b>Synthetic</b> — %1").arg(describe(syntheticModel_)));
  QString text = isBusy() ? tr("Updating…") : QString();
  if (!sortColumn_.isEmpty()) {
    text += (text.isEmpty() ? QString() : QStringLiteral(" ")) +
            tr("Sorted by %1 (%2).")
                .arg(sortColumn_, sortOrder_ == Qt::AscendingOrder ? tr("ascending")
                                                                   : tr("descending"));
  } else if (text.isEmpty()) {
    text = tr("Click a column header to sort both tables by it.");
  }
  status_->setText(text);
  if (!isBusy()) emit rowsUpdated();
}

QString RowsView::statusText() const { return status_->text(); }

}  // namespace deniable::ui
