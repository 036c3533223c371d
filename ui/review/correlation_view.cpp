// SPDX-License-Identifier: Apache-2.0
#include "ui/review/correlation_view.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/review/color_bar.h"
#include "ui/review/heatmap_row.h"
#include "ui/review/heatmap_widget.h"
#include "ui/review/pair_table_model.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

// The difference scale never goes below this, so that noise-sized differences stay pale
// instead of being stretched to full colour.
constexpr double kMinDifferenceScale = 0.05;

double largestOffDiagonal(const HeatmapWidget::Matrix& m, bool absolute) {
  double largest = 0;
  for (std::size_t r = 0; r < m.size(); ++r) {
    for (std::size_t c = 0; c < m[r].size(); ++c) {
      if (r != c) largest = std::max(largest, absolute ? std::fabs(m[r][c]) : m[r][c]);
    }
  }
  return largest;
}

}  // namespace

CorrelationMatrices correlationMatrices(const MetricReport& report) {
  CorrelationMatrices m;
  for (const ColumnComparison& column : report.columns) m.labels << toQString(column.name);
  m.real = report.nmi_real;
  m.synthetic = report.nmi_synthetic;
  m.difference = report.nmi_synthetic;
  for (std::size_t r = 0; r < m.difference.size(); ++r) {
    for (std::size_t c = 0; c < m.difference[r].size(); ++c) {
      m.difference[r][c] -= report.nmi_real[r][c];
    }
  }
  m.nmiScale = ColorScale::sequential(
      std::max(largestOffDiagonal(m.real, false), largestOffDiagonal(m.synthetic, false)));
  m.differenceScale = ColorScale::diverging(
      std::max(kMinDifferenceScale, largestOffDiagonal(m.difference, true)));
  return m;
}

CorrelationView::CorrelationView(QWidget* parent)
    : QWidget(parent),
      real_(new HeatmapWidget),
      synthetic_(new HeatmapWidget),
      difference_(new HeatmapWidget),
      nmiBar_(new ColorBar),
      differenceBar_(new ColorBar),
      pairLabel_(new QLabel),
      pairView_(new QTableView),
      pairModel_(new PairTableModel(this)) {
  auto* intro = new QLabel(
      tr("Normalised mutual information between every pair of attributes: 0 means the two are "
         "independent, 1 that one determines the other. A faithful synthetic table has the same "
         "pattern as the real one. Hover a cell for its values; click it for the pair's 2-way "
         "table."));
  intro->setWordWrap(true);

  auto* maps = new HeatmapRow;
  maps->addHeatmap(real_);
  maps->addHeatmap(synthetic_);
  maps->addColorBar(nmiBar_);
  maps->addSpacing(16);
  maps->addHeatmap(difference_);
  maps->addColorBar(differenceBar_);
  // Same attribute order as the real heatmap's rows: one set of row labels, on the left, leaves
  // the three grids the width (hovering a cell outlines the pair and bolds its labels in all).
  synthetic_->setShowRowLabels(false);
  difference_->setShowRowLabels(false);
  for (HeatmapWidget* map : {real_, synthetic_, difference_}) {
    map->setToolTipProvider([this](int r, int c) { return cellToolTip(r, c); });
    connect(map, &HeatmapWidget::cellClicked, this, &CorrelationView::showPair);
    // Hovering a cell outlines the same pair in the other two heatmaps.
    for (HeatmapWidget* other : {real_, synthetic_, difference_}) {
      if (other != map) connect(map, &HeatmapWidget::cellHovered, other, &HeatmapWidget::setHoveredCell);
    }
  }

  auto* details = new QWidget;
  auto* detailsLayout = new QVBoxLayout(details);
  detailsLayout->setContentsMargins(0, 0, 0, 0);
  pairLabel_->setWordWrap(true);
  pairLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detailsLayout->addWidget(pairLabel_);
  pairView_->setModel(pairModel_);
  pairView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  pairView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  pairView_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  pairView_->setToolTip(tr("Each cell: share of all real rows | share of all synthetic rows. "
                           "Red: more synthetic rows than real ones; blue: fewer."));
  detailsLayout->addWidget(pairView_, 1);

  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(maps);
  splitter->addWidget(details);
  // The heatmaps get most of the height; the pair table grows once a cell is clicked.
  splitter->setStretchFactor(0, 4);
  splitter->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(splitter, 1);

  connect(&pairWatcher_, &QFutureWatcher<Result<PairTable>>::finished, this,
          &CorrelationView::onPairTableFinished);
  clear();
}

CorrelationView::~CorrelationView() = default;

void CorrelationView::setData(std::shared_ptr<const ReviewData> reviewData) {
  data_ = std::move(reviewData);
  if (!data_) {
    clear();
    return;
  }
  const CorrelationMatrices m = correlationMatrices(data_->metrics);
  real_->setMatrix(tr("Real data"), m.labels, m.real, m.nmiScale, true);
  synthetic_->setMatrix(tr("Synthetic data"), m.labels, m.synthetic, m.nmiScale, true);
  difference_->setMatrix(tr("Synthetic − real"), m.labels, m.difference,
                         m.differenceScale, true);
  nmiBar_->setScale(m.nmiScale, tr("NMI"));
  differenceBar_->setScale(m.differenceScale, tr("Δ NMI"));
  pairModel_->clear();
  pairLabel_->setText(m.labels.size() >= 2
                          ? tr("Click a cell of a heatmap to see that pair's 2-way table.")
                          : tr("Fewer than two attributes were compared: no pairs to show."));
}

void CorrelationView::clear() {
  data_.reset();
  real_->clear();
  synthetic_->clear();
  difference_->clear();
  nmiBar_->setScale(ColorScale::sequential(1.0), tr("NMI"));
  differenceBar_->setScale(ColorScale::diverging(kMinDifferenceScale), tr("Δ NMI"));
  pairModel_->clear();
  pairLabel_->setText(tr("No results yet: run a synthesis first."));
}

QString CorrelationView::cellToolTip(int row, int column) const {
  if (!data_) return {};
  const MetricReport& report = data_->metrics;
  const auto r = static_cast<std::size_t>(row), c = static_cast<std::size_t>(column);
  if (r >= report.columns.size() || c >= report.columns.size()) return {};
  const double real = report.nmi_real[r][c], synthetic = report.nmi_synthetic[r][c];
  QString text = QStringLiteral("<b>%1 × %2</b><br>").arg(toQString(report.columns[r].name).toHtmlEscaped(),
                                                         toQString(report.columns[c].name).toHtmlEscaped());
  text += tr("real NMI: %1<br>synthetic NMI: %2<br>difference: %3")
              .arg(formatFraction(real), formatFraction(synthetic),
                   formatFraction(synthetic - real));
  if (r != c && r < report.pair_tvd.size()) {
    text += tr("<br>2-way TVD: %1").arg(formatFraction(report.pair_tvd[r][c]));
  }
  return text;
}

QString CorrelationView::pairSummary() const { return pairLabel_->text(); }

void CorrelationView::showPair(int row, int column) {
  if (!data_ || !data_->real || !data_->synthetic) return;
  const MetricReport& report = data_->metrics;
  const auto r = static_cast<std::size_t>(row), c = static_cast<std::size_t>(column);
  if (row < 0 || column < 0 || r >= report.columns.size() || c >= report.columns.size()) return;
  for (HeatmapWidget* map : {real_, synthetic_, difference_}) map->setSelectedCell(row, column);
  const double real = report.nmi_real[r][c], synthetic = report.nmi_synthetic[r][c];
  QString text = tr("<b>%1 × %2</b>: real NMI %3, synthetic NMI %4 (difference %5)")
                     .arg(toQString(report.columns[r].name).toHtmlEscaped(),
                          toQString(report.columns[c].name).toHtmlEscaped(), formatFraction(real),
                          formatFraction(synthetic), formatFraction(synthetic - real));
  if (r < report.pair_tvd.size()) {
    text += tr(", 2-way TVD %1").arg(formatFraction(report.pair_tvd[r][c]));
  }
  pairText_ = text;
  pairModel_->clear();
  if (!synchronous_) {
    pairLabel_->setText(text + tr(". Counting the 2-way table…"));
    // Counting is O(rows): off the UI thread, on values only.
    auto snapshot = data_;
    pairWatcher_.setFuture(QtConcurrent::run([snapshot, row, column]() -> Result<PairTable> {
      try {
        return ComputePairTable(*snapshot->real, *snapshot->synthetic, snapshot->schema,
                                snapshot->metrics, row, column);
      } catch (const std::exception& e) {  // boundary: exceptions become Errors
        return Error{ErrorCode::kInternal, e.what()};
      }
    }));
    return;
  }
  showPairTable(ComputePairTable(*data_->real, *data_->synthetic, data_->schema, data_->metrics,
                                 row, column));
}

void CorrelationView::setSynchronous(bool synchronous) { synchronous_ = synchronous; }

void CorrelationView::onPairTableFinished() {
  if (pairWatcher_.isCanceled()) return;
  showPairTable(pairWatcher_.result());
}

void CorrelationView::showPairTable(const Result<PairTable>& result) {
  const QString& text = pairText_;
  if (!result) {
    pairLabel_->setText(text + tr(". The 2-way table could not be counted: %1")
                                   .arg(toQString(result.error().message).toHtmlEscaped()));
    return;
  }
  pairModel_->setTable(result.value());
  pairLabel_->setText(text + tr(". Rows: %1; columns: %2; each cell: real % | synthetic %.")
                                 .arg(toQString(result->row_name).toHtmlEscaped(),
                                      toQString(result->column_name).toHtmlEscaped()));
  emit pairTableReady();
}

}  // namespace deniable::ui
