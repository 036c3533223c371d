// SPDX-License-Identifier: Apache-2.0
// The Privacy step's plausible-deniability settings (shown in the deniable mode): k, γ, ω
// (fixed or a range), ε0 and maxcost as undoable edits, and the engine advisor's pass-rate grid
// (the paper's Figure 6) whose cells pick k and ω. The pass rates come from the real data: for
// the owner's eyes only, and the box says so.
#pragma once

#include <QGroupBox>

class QLabel;
class QPushButton;
class QSpinBox;

namespace deniable::ui {

class JobController;
class ParameterSlider;
class PassRateGrid;
class Session;

class DeniableSettings : public QGroupBox {
  Q_OBJECT

 public:
  DeniableSettings(Session* session, JobController* jobs, QWidget* parent = nullptr);

  PassRateGrid* passRateGrid() const { return grid_; }
  QString passRateText() const;
  // The widget to scroll to: the grid when it is shown, else the box.
  QWidget* scrollTarget();

 private:
  void refresh();
  void refreshAdvice();

  Session* session_;
  JobController* jobs_;
  ParameterSlider* k_;
  ParameterSlider* gamma_;
  QSpinBox* omega_min_;
  QSpinBox* omega_max_;
  ParameterSlider* epsilon0_;
  QSpinBox* maxcost_;
  QPushButton* advise_;
  QLabel* pass_rate_;
  PassRateGrid* grid_;
};

}  // namespace deniable::ui
