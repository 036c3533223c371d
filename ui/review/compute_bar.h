// SPDX-License-Identifier: Apache-2.0
// ComputeBar: the run row of a Review tab that computes on a worker (Risk, Attacks) and the
// rule for when such a tab recomputes, written once for both.
//
// The row: Compute, then while a computation runs a progress bar and Cancel, and a status line.
// The rule: new data makes the figures stale and computes at once while the tab is visible; an
// edited input makes them stale and computes after a short pause (so that typing "0.05" or
// paging through a list asks for one computation, not three); a hidden tab computes when it is
// next shown. The owner says when it computes (beginCompute) and what Compute needs
// (setCanCompute); computeRequested asks it to compute, cancelRequested to cancel.
//
// ComputedTab (below) gives a tab its bar and its LatestComputation (ui/tasks/
// latest_computation.h), the bar following the computation's progress and busy state. Not for
// one-shot jobs of the workflow (the run, the export): those go through JobController.
//
// Example:
//   class RiskView : public QWidget, public ComputedTab<RiskRequest, RiskOutcome> { ... };
//   // constructor:
//   setUpComputation(this, tr("Compute again"), QStringLiteral("riskStatus"), computeRisk,
//                    tr("Computing…"), [this] { state_ = State::kComputing; },
//                    [this](const RiskOutcome* outcome) { onFinished(outcome); });
//   connect(bar_, &ComputeBar::computeRequested, this, &RiskView::compute);
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include <QWidget>

#include "ui/tasks/latest_computation.h"

QT_BEGIN_NAMESPACE
class QFutureWatcherBase;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
QT_END_NAMESPACE

namespace deniable::ui {

class ComputeBar : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kPauseMs = 400;  // after an edit, before computing

  // `tab`: the widget whose visibility decides whether to compute now or when shown (the bar
  // itself may be hidden). `computeTip`: Compute's tooltip. `statusName`: the status line's
  // object name.
  ComputeBar(QWidget* tab, const QString& computeTip, const QString& statusName,
             QWidget* parent = nullptr);

  // Whether Compute may be pressed while nothing runs (default: always).
  void setCanCompute(std::function<bool()> canCompute) { canCompute_ = std::move(canCompute); }
  // Shows `watcher`'s progress; with `withText`, its stage texts as the status too.
  void follow(const QFutureWatcherBase& watcher, bool withText);

  // A computation started: an empty progress bar, `status`, Cancel.
  void start(const QString& status);
  // Progress bar and Cancel shown while busy; Compute enabled when idle and allowed.
  void setBusy(bool busy);
  // The user cancelled. `keptFigures`: what the figures on screen are, when there are any.
  void showCancelled(const QString& keptFigures);
  void setStatus(const QString& text);
  QString status() const;

  // No data: no pause pending, nothing stale, no status, idle.
  void reset();
  // New data: stale; computes now when the tab is visible.
  void dataChanged();
  // An input changed: stale; computes after the pause when the tab is visible.
  void inputsChanged();
  // The tab was shown: computes now when stale and no pause is pending.
  void tabShown();
  // The owner computes (or decides it cannot): the pause ends, nothing is stale.
  void beginCompute();
  // Ends a pending pause; stale figures stay stale.
  void stopPause();
  bool stale() const { return stale_; }
  bool pausing() const;

  QPushButton* computeButton() const { return computeButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }

 signals:
  // Compute was pressed, or the pause after an edit ended.
  void computeRequested();
  void cancelRequested();

 private:
  QWidget* tab_;  // the bar's ancestor: it outlives the bar
  std::function<bool()> canCompute_;
  bool stale_ = false;  // the data or an input changed since the last computation started
  QPushButton* computeButton_;
  QProgressBar* progress_;
  QPushButton* cancelButton_;
  QLabel* status_;
  QTimer* pause_;
};

// The part of a tab computed on a worker (RiskView, AttackView) that does not depend on what
// it computes: its ComputeBar, its LatestComputation, and the public calls on them. A mixin
// beside QWidget (not a QObject: Q_OBJECT classes cannot be templates); the tab calls
// setUpComputation in its constructor and connects computeRequested to its own compute().
template <typename Request, typename Outcome>
class ComputedTab {
 public:
  using Computation = LatestComputation<Request, Outcome>;

  // Compute on the calling thread (offscreen renders); default: on a worker.
  void setSynchronous(bool synchronous) { computation_->setSynchronous(synchronous); }
  // Stops the running computation; the figures computed before stay.
  void cancel() {
    bar_->stopPause();
    computation_->cancel();
  }
  // Blocks until the running computation's worker returned (tests; the result still arrives
  // through the event loop).
  void waitForWorker() { computation_->waitForWorker(); }
  bool busy() const { return computation_->running(); }
  QString statusText() const { return bar_->status(); }
  QPushButton* computeButton() const { return bar_->computeButton(); }
  QPushButton* cancelButton() const { return bar_->cancelButton(); }

 protected:
  ComputedTab() = default;
  ~ComputedTab() = default;  // the computation's destructor waits for its worker
  ComputedTab(const ComputedTab&) = delete;
  ComputedTab& operator=(const ComputedTab&) = delete;

  // Makes the bar (see ComputeBar's constructor) and the computation: `started` runs first
  // when a worker starts (the tab's state), then the bar shows `status` and Cancel; the bar is
  // idle again when the worker ends, before `finished` (null: cancelled by the user). With
  // `withText`, the worker's stage texts replace the status.
  void setUpComputation(QWidget* tab, const QString& computeTip, const QString& statusName,
                        typename Computation::Work work, const QString& status,
                        std::function<void()> started,
                        std::function<void(const Outcome*)> finished, bool withText = false) {
    ComputeBar* bar = bar_ = new ComputeBar(tab, computeTip, statusName);
    computation_ = std::make_unique<Computation>(
        tab, std::move(work),
        typename Computation::Hooks{.started =
                                        [bar, status, started = std::move(started)] {
                                          if (started) started();
                                          bar->start(status);
                                        },
                                    .stopped = [bar] { bar->setBusy(false); },
                                    .finished = std::move(finished)});
    bar_->follow(computation_->watcher(), withText);
    QObject::connect(bar_, &ComputeBar::cancelRequested, tab, [this] { cancel(); });
  }

  ComputeBar* bar_ = nullptr;  // in the tab's layout (Qt parent ownership)
  std::unique_ptr<Computation> computation_;
};

}  // namespace deniable::ui
