// SPDX-License-Identifier: Apache-2.0
// ReviewWidget: the Review step — real versus synthetic, side by side, in seven tabs:
// Histograms, Correlations, Network, Rows, Privacy, Disclosure risk (of the real table, to
// choose ε), Attacks (on the release, against rows held out before the run). The main window hosts one and calls
// setData() after a run (clear() when results go stale); the --screenshots mode and the
// release report render its tabs offscreen with renderTab()/renderOffscreen().
//
// Example:
//   auto* review = new ReviewWidget(this);
//   review->setData(std::make_shared<const ReviewData>(std::move(data)));
//   review->renderTab(ReviewTab::kNetwork, QSize(1280, 800)).save("network.png");
#pragma once

#include <memory>

#include <QImage>
#include <QTabWidget>

#include "ui/review/review_data.h"

namespace deniable::ui {

class AttackView;
class CorrelationView;
class HistogramView;
class NetworkView;
class PrivacyView;
class RiskView;
class RowsView;

enum class ReviewTab { kHistograms, kCorrelations, kNetwork, kRows, kPrivacy, kRisk, kAttacks };
inline constexpr ReviewTab kAllReviewTabs[] = {
    ReviewTab::kHistograms, ReviewTab::kCorrelations, ReviewTab::kNetwork, ReviewTab::kRows,
    ReviewTab::kPrivacy,    ReviewTab::kRisk,         ReviewTab::kAttacks};
// "histograms", "correlations", "network", "rows", "privacy", "risk", "attacks" (file names,
// object names).
QString reviewTabName(ReviewTab tab);

class ReviewWidget : public QTabWidget {
  Q_OBJECT

 public:
  explicit ReviewWidget(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();
  const std::shared_ptr<const ReviewData>& reviewData() const { return data_; }

  void showTab(ReviewTab tab);
  HistogramView* histogramView() const { return histograms_; }
  CorrelationView* correlationView() const { return correlations_; }
  NetworkView* networkView() const { return network_; }
  RowsView* rowsView() const { return rows_; }
  PrivacyView* privacyView() const { return privacy_; }
  RiskView* riskView() const { return risk_; }
  AttackView* attackView() const { return attacks_; }

  // Renders one tab at `size` (logical pixels) in a separate, never-shown ReviewWidget with
  // the same data, so the visible one is left alone.
  QImage renderTab(ReviewTab tab, QSize size, qreal devicePixelRatio = 1.0) const;
  static QImage renderOffscreen(std::shared_ptr<const ReviewData> reviewData, ReviewTab tab, QSize size,
                                qreal devicePixelRatio = 1.0);

 private:
  std::shared_ptr<const ReviewData> data_;
  HistogramView* histograms_;
  CorrelationView* correlations_;
  NetworkView* network_;
  RowsView* rows_;
  PrivacyView* privacy_;
  RiskView* risk_;
  AttackView* attacks_;
};

}  // namespace deniable::ui
