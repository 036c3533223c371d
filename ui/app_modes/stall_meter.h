// SPDX-License-Identifier: Apache-2.0
// `deniable --measure-stall FILE`: a benchmark (not a test) of the UI thread's responsiveness.
// It opens FILE in a main window, runs a synthesis with the default settings, and meanwhile
// ticks a 10 ms QTimer on the UI thread and keeps the UI busy the way a user would (switching
// steps, resizing the window every 100 ms). It reports the longest gap between ticks — the
// longest the UI froze — for the load and for the run, and the time from Cancel to the job's
// end for a second, cancelled run. Target: no stall over 100 ms. Diagnostics printed along the
// way: a column edit's time, each step's show + paint and resize times, the run's hand-over
// (review views vs the shell). DENIABLE_STALL_NO_POKE=1 measures without the simulated user.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QTimer;

namespace deniable::ui {

class MainWindow;

class StallMeter : public QObject {
  Q_OBJECT

 public:
  StallMeter(MainWindow* window, QString path, QObject* parent = nullptr);
  void start();

 private:
  void onTick();
  void onFinished(int kind, int end, const QString& message);
  void report(const char* phase);
  void beginPhase();
  void timeColumnEdit();
  void timeHandOver();
  void timePaints();

  MainWindow* window_;
  QString path_;
  QTimer* tick_;
  QElapsedTimer clock_;
  QElapsedTimer phase_clock_;
  qint64 last_tick_ns_ = 0;
  qint64 max_gap_ns_ = 0;
  qint64 ticks_ = 0;
  qint64 last_poke_ns_ = 0;
  int poke_ = 0;
  int phase_ = 0;  // 0 load, 1 run, 2 cancelled run
  qint64 cancel_requested_ns_ = -1;
  qint64 worst_overall_ns_ = 0;
  qint64 slowest_poke_ns_ = 0;
  QString cancel_stage_;
};

}  // namespace deniable::ui
