// SPDX-License-Identifier: Apache-2.0
// The workflow as a list of steps on the left: number, name, one line of state, an icon for
// done / needs attention / stale, the current step selected, locked steps disabled.
#pragma once

#include <array>

#include <QListWidget>

#include "ui/session/workflow_state.h"

namespace deniable::ui {

class StepList : public QListWidget {
  Q_OBJECT

 public:
  explicit StepList(QWidget* parent = nullptr);

  void setStates(const std::array<StepStatus, kStepCount>& states);
  const std::array<StepStatus, kStepCount>& states() const { return states_; }
  void setCurrentStep(Step step);
  Step currentStep() const;

 signals:
  void stepChosen(deniable::ui::Step step);

 private:
  std::array<StepStatus, kStepCount> states_{};
};

}  // namespace deniable::ui
