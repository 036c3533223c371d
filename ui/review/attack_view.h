// SPDX-License-Identifier: Apache-2.0
// AttackView (Review → Attacks, issue #11 parts 2 and 3): attacks on the actual release in the
// manner of Anonymeter (singling out, linkability, attribute inference; Giomi et al. PETS 2023)
// against the rows it was made from, with the rows held out before the run (the control split,
// Privacy page) as the baseline; exact copies and distances to the closest record; and, for an
// ML target the owner picks (preset from the schema's role "target"), machine-learning utility
// with XGBoost (train on synthetic / test on real against train on real, the models' agreement,
// the distinguishing game, feature importances side by side). The engine
// (engine/evaluate/evaluate.h) runs on a worker with progress and Cancel.
//
// Without control rows nothing can be compared (EvaluateRelease needs them): the tab says why
// and offers a button that takes the owner to the setting (controlSplitRequested).
// A new target recomputes (after a short pause) while the tab is visible; a hidden tab computes
// when it is next shown. The threshold only re-judges the figures on screen. Cancel keeps the
// previous figures. Everything shown is computed from real rows: for the owner's eyes only.
#pragma once

#include <memory>

#include <QWidget>

#include "ui/review/attack_facts.h"
#include "ui/review/review_data.h"
#include "ui/review/compute_bar.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;
QT_END_NAMESPACE

namespace deniable::ui {

class AttackChart;

class AttackView : public QWidget, public ComputedTab<AttackRequest, AttackOutcome> {
  Q_OBJECT

 public:
  enum class State { kEmpty, kNoControl, kComputing, kReady, kCancelled, kFailed };
  Q_ENUM(State)

  explicit AttackView(QWidget* parent = nullptr);
  ~AttackView() override;

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  // Starts a computation for the current target now (or shows why it cannot).
  void compute();

  State state() const { return state_; }
  const std::shared_ptr<const AttackAnalysis>& analysis() const { return analysis_; }
  double threshold() const;
  AttackRequest currentRequest() const;

  QString summaryText() const;
  QString problemText() const;
  QComboBox* targetBox() const { return target_; }
  QDoubleSpinBox* thresholdBox() const { return threshold_; }
  QPushButton* setUpButton() const { return setUpButton_; }
  AttackChart* chart() const { return chart_; }
  const QStandardItemModel* attackModel() const { return attackModel_; }
  const QStandardItemModel* closenessModel() const { return closenessModel_; }
  const QStandardItemModel* mlModel() const { return mlModel_; }
  const QStandardItemModel* importanceModel() const { return importanceModel_; }

 signals:
  // The figures on screen or the threshold changed (the verdict follows them).
  void figuresChanged();
  // A computation ended (succeeded, failed or cancelled by the user); not emitted for one
  // replaced by a newer request.
  void computationFinished();
  // The owner asked to set up a control split (the main window shows the Privacy page).
  void controlSplitRequested();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void onTargetChanged();
  void onFinished(const AttackOutcome* outcome);  // null: cancelled
  void apply(const AttackOutcome& outcome);
  void showAnalysis();
  void showSummary();
  void showProblem(const QString& problem, State state);

  std::shared_ptr<const ReviewData> data_;
  std::shared_ptr<const AttackAnalysis> analysis_;
  State state_ = State::kEmpty;

  QLabel* ownerNote_;
  QWidget* noControl_;
  QLabel* problem_;
  QPushButton* setUpButton_;
  QWidget* controls_;
  QComboBox* target_;
  QDoubleSpinBox* threshold_;
  QLabel* summary_;
  QLabel* scope_;
  QWidget* results_;
  AttackChart* chart_;
  QTableView* attackView_;
  QStandardItemModel* attackModel_;
  QLabel* closeness_;
  QTableView* closenessView_;
  QStandardItemModel* closenessModel_;
  QLabel* ml_;
  QTableView* mlView_;
  QStandardItemModel* mlModel_;
  QTableView* importanceView_;
  QStandardItemModel* importanceModel_;
};

}  // namespace deniable::ui
