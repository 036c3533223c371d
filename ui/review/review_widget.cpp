// SPDX-License-Identifier: Apache-2.0
#include "ui/review/review_widget.h"

#include "ui/review/attack_view.h"
#include "ui/review/correlation_view.h"
#include "ui/review/histogram_view.h"
#include "ui/review/network_view.h"
#include "ui/review/privacy_view.h"
#include "ui/review/review_render.h"
#include "ui/review/risk_view.h"
#include "ui/review/rows_view.h"

namespace deniable::ui {

QString reviewTabName(ReviewTab tab) {
  switch (tab) {
    case ReviewTab::kHistograms: return QStringLiteral("histograms");
    case ReviewTab::kCorrelations: return QStringLiteral("correlations");
    case ReviewTab::kNetwork: return QStringLiteral("network");
    case ReviewTab::kRows: return QStringLiteral("rows");
    case ReviewTab::kPrivacy: return QStringLiteral("privacy");
    case ReviewTab::kRisk: return QStringLiteral("risk");
    case ReviewTab::kAttacks: return QStringLiteral("attacks");
  }
  return {};
}

ReviewWidget::ReviewWidget(QWidget* parent)
    : QTabWidget(parent),
      histograms_(new HistogramView),
      correlations_(new CorrelationView),
      network_(new NetworkView),
      rows_(new RowsView),
      privacy_(new PrivacyView),
      risk_(new RiskView),
      attacks_(new AttackView) {
  setDocumentMode(true);
  // Short titles, so that the seven tabs fit side by side without scroll arrows in a
  // 1024-pixel window (beside the navigation and the Guarantee panel); each tab's tooltip
  // says the rest. A tab hidden behind an arrow is a tab nobody finds.
  addTab(histograms_, tr("&Histograms"));
  addTab(correlations_, tr("&Correlations"));
  addTab(network_, tr("&Network"));
  addTab(rows_, tr("Ro&ws"));
  addTab(privacy_, tr("&Privacy"));
  addTab(risk_, tr("Ris&k"));
  addTab(attacks_, tr("&Attacks"));
  setTabToolTip(0, tr("Each attribute's distribution, real against synthetic, worst first."));
  setTabToolTip(1, tr("How strongly attributes depend on each other, real against synthetic."));
  setTabToolTip(2, tr("The model that generated the synthetic data."));
  setTabToolTip(3, tr("The real and the synthetic rows side by side."));
  setTabToolTip(4, tr("What the release guarantees and what each step cost."));
  setTabToolTip(5, tr("Disclosure risk: how sure an intruder could become of a record's "
                      "sensitive value, per ε (for your eyes only: computed from your real "
                      "data)."));
  setTabToolTip(6, tr("Attacks on the release against rows held out before the run, copies, "
                      "closest records and machine-learning utility (for your eyes only)."));
  for (ReviewTab tab : kAllReviewTabs) {
    widget(static_cast<int>(tab))->setObjectName(reviewTabName(tab) + QStringLiteral("View"));
  }
}

void ReviewWidget::setData(std::shared_ptr<const ReviewData> reviewData) {
  data_ = std::move(reviewData);
  if (!data_) {
    clear();
    return;
  }
  histograms_->setData(data_);
  correlations_->setData(data_);
  network_->setData(data_);
  rows_->setData(data_);
  privacy_->setData(data_);
  risk_->setData(data_);
  attacks_->setData(data_);
}

void ReviewWidget::clear() {
  data_.reset();
  histograms_->clear();
  correlations_->clear();
  network_->clear();
  rows_->clear();
  privacy_->clear();
  risk_->clear();
  attacks_->clear();
}

void ReviewWidget::showTab(ReviewTab tab) { setCurrentIndex(static_cast<int>(tab)); }

QImage ReviewWidget::renderTab(ReviewTab tab, QSize size, qreal devicePixelRatio) const {
  return renderOffscreen(data_, tab, size, devicePixelRatio);
}

QImage ReviewWidget::renderOffscreen(std::shared_ptr<const ReviewData> reviewData, ReviewTab tab,
                                     QSize size, qreal devicePixelRatio) {
  ReviewWidget widget;
  widget.correlations_->setSynchronous(true);
  widget.risk_->setSynchronous(true);
  widget.attacks_->setSynchronous(true);
  widget.setData(reviewData);
  widget.showTab(tab);
  if (tab == ReviewTab::kRisk) widget.risk_->compute();
  if (tab == ReviewTab::kAttacks) widget.attacks_->compute();
  // A picture of the Correlations tab shows the worst pair's 2-way table opened.
  if (tab == ReviewTab::kCorrelations && reviewData && reviewData->metrics.columns.size() >= 2) {
    const auto& tvd = reviewData->metrics.pair_tvd;
    int worstRow = 0, worstColumn = 1;
    for (std::size_t r = 0; r < tvd.size(); ++r) {
      for (std::size_t c = r + 1; c < tvd[r].size(); ++c) {
        if (tvd[r][c] > tvd[static_cast<std::size_t>(worstRow)][static_cast<std::size_t>(worstColumn)]) {
          worstRow = static_cast<int>(r);
          worstColumn = static_cast<int>(c);
        }
      }
    }
    widget.correlations_->showPair(worstRow, worstColumn);
  }
  return renderWidget(widget, size, devicePixelRatio);
}

}  // namespace deniable::ui
