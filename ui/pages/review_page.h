// SPDX-License-Identifier: Apache-2.0
// Step 5, Review: hosts the verdict (VerdictPanel, above the tabs) and the ReviewWidget (ui/review/, another module) with the last run's
// ReviewData, and says so plainly when those results are out of date. The views are filled
// when the page is shown (setActive), not when a run ends: building them for a million-row
// release takes tens of milliseconds of UI thread, which is better spent when the user looks.
#pragma once

#include <memory>

#include <QWidget>

namespace deniable::ui {

struct ReviewData;
struct AttackAnalysis;
struct RiskAnalysis;
class MessageBanner;
class ReviewWidget;
class VerdictPanel;
class Session;

class ReviewPage : public QWidget {
  Q_OBJECT

 public:
  explicit ReviewPage(Session* session, QWidget* parent = nullptr);
  ReviewWidget* reviewWidget() const { return review_; }
  VerdictPanel* verdictPanel() const { return verdict_; }
  // The main window calls this when the page becomes (or stops being) the current step.
  void setActive(bool active);

 signals:
  // The Disclosure risk tab finished a computation on `run` (the owner's report can show it).
  void riskAnalysed(std::shared_ptr<const deniable::ui::ReviewData> run,
                    std::shared_ptr<const deniable::ui::RiskAnalysis> analysis);
  // The Attacks tab's figures on `run` changed (null: none), or the owner's threshold did.
  void attacksAnalysed(std::shared_ptr<const deniable::ui::ReviewData> run,
                       std::shared_ptr<const deniable::ui::AttackAnalysis> analysis,
                       double threshold);
  // The Attacks tab's button: the owner wants to set up a control split (Privacy page).
  void controlSplitRequested();

 private:
  void onResultChanged();
  void onStateChanged();
  void applyPending();

  Session* session_;
  MessageBanner* banner_;
  VerdictPanel* verdict_;
  ReviewWidget* review_;
  std::shared_ptr<const ReviewData> shown_;  // the run the views show
  bool active_ = false;
  bool pending_ = false;
};

}  // namespace deniable::ui
