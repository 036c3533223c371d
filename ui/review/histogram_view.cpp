// SPDX-License-Identifier: Apache-2.0
#include "ui/review/histogram_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QCheckBox>
#include <QVBoxLayout>

#include "ui/review/attribute_tvd_model.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/model_bins.h"
#include "ui/review/review_format.h"

namespace deniable::ui {

HistogramView::HistogramView(QWidget* parent)
    : QWidget(parent),
      model_(new AttributeTvdModel(this)),
      list_(new QTableView),
      summary_(new QLabel),
      chartView_(new QChartView),
      modelBins_(new QCheckBox),
      scale_(new QComboBox),
      binsNote_(new QLabel) {
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
  left->setMinimumWidth(220);  // the attribute names stay readable in a narrow window
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(summary_);
  leftLayout->addWidget(list_, 1);

  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumSize(320, 240);

  modelBins_->setText(tr("Model bins"));
  modelBins_->setToolTip(
      tr("Show this numeric column over the model's own bins instead of equal-width ones: the "
         "bins the release learnt privately (narrow where values crowd, a spike such as 0 on "
         "its own), each labelled with its range. The real counts per bin are for your eyes "
         "only."));
  scale_->addItem(tr("Share per bin"));
  scale_->addItem(tr("Density (widths to scale)"));
  scale_->setToolTip(tr("Share per bin: one bar pair per model bin. Density: bars as wide as "
                        "the bins on the column's axis, heights in share of rows per unit, so "
                        "the shape reads true."));
  binsNote_->setWordWrap(true);
  binsNote_->setTextFormat(Qt::PlainText);
  binsNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  connect(modelBins_, &QCheckBox::toggled, this, [this] { redraw(); });
  connect(scale_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(0, 0, 0, 0);
  bar->addWidget(modelBins_);
  bar->addWidget(scale_);
  bar->addStretch(1);
  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addLayout(bar);
  rightLayout->addWidget(binsNote_);
  rightLayout->addWidget(chartView_, 1);

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(right);
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
  current_ = valid ? reportIndex : -1;
  redraw();
}

void HistogramView::redraw() {
  QChart* old = chartView_->chart();
  QChart* chart = nullptr;
  const ColumnComparison* column =
      current_ >= 0 ? &data_->metrics.columns[static_cast<std::size_t>(current_)] : nullptr;
  std::optional<ModelBinHistogram> bins;
  if (column != nullptr) bins = countModelBins(*data_, column->name);
  modelBins_->setEnabled(bins.has_value());
  scale_->setEnabled(bins.has_value() && modelBins_->isChecked());
  showingModelBins_ = bins && modelBins_->isChecked();
  if (column == nullptr) {
    binsNote_->clear();
  } else if (!bins) {
    binsNote_->setText(tr("Model bins: only for number columns the model groups into ranges."));
  } else if (!showingModelBins_) {
    binsNote_->setText(tr("Equal-width bins over the real range. The model has %1 of its own: "
                          "tick Model bins to see them.")
                           .arg(bins->bins == 1 ? tr("1 bin") : tr("%1 bins").arg(bins->bins)));
  }
  if (showingModelBins_) {
    const ModelBinsScale scale =
        scale_->currentIndex() == 1 ? ModelBinsScale::kDensity : ModelBinsScale::kSharePerBin;
    QStringList lines;
    lines << tr("The release's %1 of ‘%2’, learnt privately (labels: the values each bin holds). "
                "Real counts per bin are for your eyes only.")
                 .arg(bins->bins == 1 ? tr("1 bin") : tr("%1 bins").arg(bins->bins),
                      toQString(column->name));
    lines << modelBinsNotes(*bins, scale);
    binsNote_->setText(lines.join(QLatin1Char('\n')));
    chart = createModelBinsChart(*bins, scale);
  } else if (column != nullptr) {
    chart = createHistogramChart(*column);
  } else {
    chart = new QChart;
    chart->setTitle(tr("No attribute selected"));
  }
  chartView_->setChart(chart);  // QChartView does not delete the chart it replaces
  delete old;
}

}  // namespace deniable::ui
