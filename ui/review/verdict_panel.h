// SPDX-License-Identifier: Apache-2.0
// VerdictPanel: the plain-language verdict the Review opens with (issue 11, part 4), above the
// tabs. One coloured line — "Fit to share", "Share with care" or "Not fit to share" with the
// worst finding's headline — and, behind a Details toggle (collapsed by default so the tabs
// keep their room in a 1024 × 700 window), every finding: headline in bold, reason and what to
// change in smaller text. The guarantee findings appear at once; the utility finding when the
// baselines (engine/metrics/utility_baselines.h) come back from a worker; the risk finding when
// the Disclosure risk tab has figures (setRisk); the attack finding when the Attacks tab has
// (setAttacks). Owner's eyes only (real-data statistics).
#pragma once

#include <memory>
#include <optional>

#include <QFrame>
#include <QFutureWatcher>
#include <QThreadPool>

#include "engine/evaluate/verdict.h"
#include "engine/metrics/utility_baselines.h"
#include "ui/review/review_data.h"

class QLabel;
class QToolButton;
class QVBoxLayout;

namespace deniable::ui {

struct AttackAnalysis;
struct RiskAnalysis;

class VerdictPanel : public QFrame {
  Q_OBJECT

 public:
  explicit VerdictPanel(QWidget* parent = nullptr);
  ~VerdictPanel() override;

  void setData(std::shared_ptr<const ReviewData> reviewData);
  void clear();
  void setRisk(std::shared_ptr<const RiskAnalysis> risk);
  // The Attacks tab's figures (null: none) judged at the owner's threshold.
  void setAttacks(std::shared_ptr<const AttackAnalysis> attacks, double threshold);
  // Tests and offscreen renders: compute the baselines on the calling thread.
  void setSynchronous(bool synchronous) { synchronous_ = synchronous; }
  void waitForWorker();

  const Verdict& verdict() const { return verdict_; }
  QString answerText() const;
  bool expanded() const;
  void setExpanded(bool expanded);

 signals:
  void verdictChanged();

 private:
  using Outcome = Result<UtilityBaselines>;
  void onFinished();
  void refresh();

  std::shared_ptr<const ReviewData> data_;
  std::shared_ptr<const RiskAnalysis> risk_;
  std::shared_ptr<const AttackAnalysis> attacks_;
  double attackThreshold_ = kAttackRiskThreshold;
  std::optional<UtilityBaselines> baselines_;
  Verdict verdict_;
  bool synchronous_ = false;
  QThreadPool pool_;
  QFutureWatcher<Outcome> watcher_;
  QLabel* answer_;
  QToolButton* toggle_;
  QWidget* details_;
  QVBoxLayout* findings_;
};

}  // namespace deniable::ui
