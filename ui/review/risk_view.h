// SPDX-License-Identifier: Apache-2.0
// RiskView (Review → Disclosure risk, issue #11 part 1): McClure & Reiter's record-level
// disclosure risk of the real table, to choose ε. The owner picks the sensitive attribute and
// the quasi-identifiers that form the cells (preset from the schema's roles), an ε (preset to
// the run's) and the acceptable region (RR ≤ a while R ≤ b, RR ≤ c above); the engine
// (engine/risk/table_risk.h) computes R_j and RR_j of every record over the prior grid, on a
// worker thread with progress and Cancel; the view draws the RR × R plot (risk_chart.h), says in
// a sentence whether the records stay inside and which ε is the largest that keeps them all
// inside, and lists the riskiest (cell, value) groups.
//
// Any edit recomputes (after a short pause) while the tab is visible; a hidden tab computes
// when it is next shown. A new request while one computes stops the running one. Cancel keeps
// the previous figures on screen (the scope line under the verdict names the settings they
// were computed with). It reads the real data: for the owner's eyes only, like the whole
// Review.
#pragma once

#include <memory>
#include <optional>

#include <QWidget>

#include "ui/review/review_data.h"
#include "ui/review/risk_facts.h"
#include "ui/review/compute_bar.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QStandardItemModel;
class QTableView;
QT_END_NAMESPACE

namespace deniable::ui {

class RiskChartView;

class RiskView : public QWidget, public ComputedTab<RiskRequest, RiskOutcome> {
  Q_OBJECT

 public:
  enum class State { kEmpty, kNeedsInput, kComputing, kReady, kCancelled, kFailed };
  Q_ENUM(State)
  static constexpr int kWorstRows = 50;

  explicit RiskView(QWidget* parent = nullptr);
  ~RiskView() override;

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // Starts a computation for the controls' current values now (or shows why it cannot).
  void compute();

  State state() const { return state_; }
  // The figures on screen (null when none).
  const std::shared_ptr<const RiskAnalysis>& analysis() const { return analysis_; }
  // The computation the current controls ask for (values only).
  RiskRequest currentRequest() const;

  QString verdictText() const;
  QString scopeText() const;
  QComboBox* sensitiveBox() const { return sensitive_; }
  QListWidget* quasiList() const { return quasi_; }
  QDoubleSpinBox* epsilonBox() const { return epsilon_; }
  QDoubleSpinBox* maxRelativeBox() const { return maxRelative_; }
  QDoubleSpinBox* maxAbsoluteBox() const { return maxAbsolute_; }
  QDoubleSpinBox* maxRelativeAboveBox() const { return maxRelativeAbove_; }
  RiskChartView* chartView() const { return chart_; }
  const QStandardItemModel* worstModel() const { return worstModel_; }

 signals:
  // A computation ended (succeeded, failed or cancelled by the user); not emitted for one
  // replaced by a newer request.
  void computationFinished();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void onInputsChanged();
  void onSensitiveChanged();
  void onFinished(const RiskOutcome* outcome);  // null: cancelled
  void apply(const RiskOutcome& outcome);
  void showAnalysis();
  void showProblem(const QString& problem);

  std::shared_ptr<const ReviewData> data_;
  std::shared_ptr<const RiskAnalysis> analysis_;
  State state_ = State::kEmpty;

  QLabel* ownerNote_;
  QComboBox* sensitive_;
  QListWidget* quasi_;
  QDoubleSpinBox* epsilon_;
  QLabel* runEpsilon_;
  QDoubleSpinBox* maxRelative_;
  QDoubleSpinBox* maxAbsolute_;
  QDoubleSpinBox* maxRelativeAbove_;
  QLabel* verdict_;
  QLabel* scope_;
  QWidget* results_;
  RiskChartView* chart_;
  QTableView* worstView_;
  QStandardItemModel* worstModel_;
};

}  // namespace deniable::ui
