// SPDX-License-Identifier: Apache-2.0
#include "ui/review/histogram_view.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/review/attribute_tvd_model.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/review_format.h"

namespace deniable::ui {

HistogramView::HistogramView(QWidget* parent)
    : QWidget(parent),
      model_(new AttributeTvdModel(this)),
      list_(new QTableView),
      summary_(new QLabel),
      chartView_(new QChartView) {
  list_->setModel(model_);
  list_->setSelectionBehavior(QAbstractItemView::SelectRows);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  list_->verticalHeader()->hide();
  list_->horizontalHeader()->setSectionResizeMode(AttributeTvdModel::kAttribute,
                                                  QHeaderView::Stretch);
  list_->horizontalHeader()->setSectionResizeMode(AttributeTvdModel::kKind,
                                                  QHeaderView::ResizeToContents);
  list_->horizontalHeader()->setSectionResizeMode(AttributeTvdModel::kTvd,
                                                  QHeaderView::ResizeToContents);
  list_->setToolTip(tr("Attributes sorted by total variation distance, worst first. Select one "
                       "to see its real and synthetic distributions."));
  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &HistogramView::onCurrentRowChanged);

  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(summary_);
  leftLayout->addWidget(list_, 1);

  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumSize(320, 240);
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(chartView_);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({300, 900});

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter);
  clear();
}

QChart* HistogramView::chart() const { return chartView_->chart(); }

QString HistogramView::summaryText() const { return summary_->text(); }

void HistogramView::setData(std::shared_ptr<const ReviewData> reviewData) {
  data_ = std::move(reviewData);
  if (!data_) {
    clear();
    return;
  }
  const MetricReport& report = data_->metrics;
  model_->setReport(&report);
  QString text = tr("Mean TVD over %1 attributes: <b>%2</b> (0 = identical distributions, "
                    "1 = disjoint).")
                     .arg(report.columns.size())
                     .arg(formatFraction(report.mean_column_tvd));
  if (!report.excluded.empty()) {
    QStringList excluded;
    for (const ExcludedColumn& column : report.excluded) {
      excluded << QStringLiteral("%1 (%2)").arg(toQString(column.name).toHtmlEscaped(),
                                                toQString(column.reason).toHtmlEscaped());
    }
    text += tr("<br>Not compared: %1.").arg(excluded.join(QStringLiteral(", ")));
  }
  summary_->setText(text);
  current_ = -1;
  if (model_->rowCount() > 0) {
    list_->setCurrentIndex(model_->index(0, 0));  // the worst attribute first
  } else {
    showAttribute(-1);
  }
}

void HistogramView::clear() {
  data_.reset();
  model_->setReport(nullptr);
  summary_->setText(tr("No results yet: run a synthesis first."));
  showAttribute(-1);
}

void HistogramView::onCurrentRowChanged() {
  const QModelIndex index = list_->currentIndex();
  if (!index.isValid()) return;
  showAttribute(model_->reportIndex(index.row()));
}

void HistogramView::showAttribute(int reportIndex) {
  const bool valid = data_ && reportIndex >= 0 &&
                     static_cast<std::size_t>(reportIndex) < data_->metrics.columns.size();
  if (valid) {
    for (int row = 0; row < model_->rowCount(); ++row) {
      if (model_->reportIndex(row) == reportIndex && list_->currentIndex().row() != row) {
        list_->setCurrentIndex(model_->index(row, 0));  // comes back here via the selection
        return;
      }
    }
  }
  QChart* old = chartView_->chart();
  QChart* chart = nullptr;
  if (valid) {
    current_ = reportIndex;
    chart = createHistogramChart(data_->metrics.columns[static_cast<std::size_t>(reportIndex)]);
  } else {
    current_ = -1;
    chart = new QChart;
    chart->setTitle(tr("No attribute selected"));
  }
  chartView_->setChart(chart);  // QChartView does not delete the chart it replaces
  delete old;
}

}  // namespace deniable::ui
