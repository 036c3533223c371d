// SPDX-License-Identifier: Apache-2.0
// A parameter as a slider with a spin box beside it and, under it, which way is which
// ("more private ◀ ▶ more faithful"). Linear or logarithmic scale (ε spans 0.01 to 100).
//
// Signals tell a drag from single changes, so that the page can make one drag one undo step:
// dragStarted(), then valueEdited() for every value, then dragFinished(). setValue() (from the
// session, e.g. on undo) emits nothing.
#pragma once

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace deniable::ui {

class ParameterSlider : public QWidget {
  Q_OBJECT

 public:
  struct Options {
    double minimum = 0;
    double maximum = 1;
    int decimals = 2;
    double step = 0.1;         // the spin box's single step
    bool logarithmic = false;  // slider position ~ log(value)
    bool integer = false;
    QString left_caption;      // under the slider's left end, e.g. "◀ more private"
    QString right_caption;
    QString suffix;
  };

  ParameterSlider(const Options& options, QWidget* parent = nullptr);

  double value() const { return value_; }
  void setValue(double value);  // emits nothing
  bool dragging() const { return dragging_; }
  void setControlToolTip(const QString& text);
  QSlider* slider() const { return slider_; }
  QDoubleSpinBox* spinBox() const { return spin_; }

 signals:
  void dragStarted();
  void valueEdited(double value);
  void dragFinished();

 private:
  int positionOf(double value) const;
  double valueAt(int position) const;
  void onSliderMoved(int position);
  void onSpinEdited(double value);

  static constexpr int kPositions = 1000;
  Options options_;
  QSlider* slider_;
  QDoubleSpinBox* spin_;
  double value_ = 0;
  bool dragging_ = false;
};

}  // namespace deniable::ui
