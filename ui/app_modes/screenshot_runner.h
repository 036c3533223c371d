// SPDX-License-Identifier: Apache-2.0
// `deniable --screenshots DIR`: opens the demo dataset in a 1280×800 main window (or
// --screenshot-size), performs a real run (holding out 10 % of the rows for the Attacks tab), exports to a temporary folder, and renders every
// step and every review tab to DIR/NN-name.png (QWidget::grab) — plus the Columns step's
// domain forecast on a column that loses values, the Privacy step's "More settings" (the
// Automatic domain share) and the Histograms tab over the model's bins — then quits. Works offscreen. Driven by signals and timers,
// never processEvents.
#pragma once

#include <functional>
#include <vector>

#include <QObject>
#include <QSize>
#include <QString>
#include <QTemporaryDir>

namespace deniable::ui {

class MainWindow;

class ScreenshotRunner : public QObject {
  Q_OBJECT

 public:
  ScreenshotRunner(MainWindow* window, QString directory, QObject* parent = nullptr);
  // Starts; the application quits with 0 when every picture was written, else 1.
  void start();
  const QStringList& written() const { return written_; }
  // The window size the pictures are taken at (default 1280×800).
  void setSize(QSize size) { size_ = size; }

 private:
  void next();
  void grab(const QString& name);
  void fail(const QString& why);
  // Runs `step` after the event loop has settled layouts and paints.
  void then(std::function<void()> step, int delay_ms = 250);
  // Runs `step` once the Columns step's domain forecast is no longer computing.
  void whenForecastReady(std::function<void()> step);
  // Runs `step` once the Review's Attacks tab is not computing.
  void whenAttacksReady(std::function<void()> step);

  MainWindow* window_;
  QSize size_{1280, 800};
  QString directory_;
  QTemporaryDir export_dir_;
  std::vector<std::function<void()>> steps_;
  std::size_t next_step_ = 0;
  int counter_ = 0;
  QStringList written_;
};

}  // namespace deniable::ui
