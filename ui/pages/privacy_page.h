// SPDX-License-Identifier: Apache-2.0
// Step 3, Privacy: the mode as four cards, the parameters as sliders with spin boxes (ε on a
// log scale; degree and bins where they apply; for the deniable mode k, γ, ω, ε0), the number
// of rows to release, and — updated live beside them — what the settings guarantee, from the
// engine. Every change is one undo step; one slider drag is one undo step.
#pragma once

#include <array>

#include <QWidget>

#include "engine/pipeline/synthesis_job.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QToolButton;

namespace deniable::ui {

class DeniableSettings;
class JobController;
class ModeCard;
class ParameterSlider;
class PassRateGrid;
class Session;
struct PrivacySettings;

class PrivacyPage : public QWidget {
  Q_OBJECT

 public:
  PrivacyPage(Session* session, JobController* jobs, QWidget* parent = nullptr);

  ParameterSlider* epsilonSlider() const { return epsilon_; }
  ParameterSlider* degreeSlider() const { return degree_; }
  ModeCard* modeCard(SynthesisMode mode) const { return cards_[static_cast<std::size_t>(mode)]; }
  QComboBox* mechanismBox() const { return mechanism_; }
  QSpinBox* rowsSpinBox() const { return rows_; }
  QCheckBox* reproducibleCheckBox() const { return reproducible_; }
  // The share of ε for domains; its minimum reads "Automatic" (domain_fraction unset).
  QDoubleSpinBox* domainShareSpinBox() const { return domain_share_; }
  // Opens "More settings" (δ, the shares of ε) and scrolls it into view.
  void showMoreSettings();
  QString guaranteeText() const;
  PassRateGrid* passRateGrid() const;
  QString passRateText() const;
  // Scrolls the deniable mode's settings into view.
  void showDeniableSettings();
  // The control split (ModelSettings::control_fraction): Off, 5 %, 10 %, 20 % (and a project
  // file's other value); item data = the fraction.
  QComboBox* controlFractionBox() const { return control_; }
  // Scrolls the control split into view and gives it the focus (the Attacks tab's link).
  void showControlSplit();

 private:
  QWidget* buildModes();
  QWidget* buildParameters();
  QWidget* buildRelease();
  void connectSlider(ParameterSlider* slider, const QString& what,
                     void (*apply)(PrivacySettings&, double));
  void edit(const PrivacySettings& settings, const QString& description, int gesture = 0);
  void refresh();
  int automaticBins() const;  // what the engine's rule picks for the current settings

  Session* session_;
  JobController* jobs_;
  std::array<ModeCard*, 5> cards_{};
  ParameterSlider* epsilon_;
  ParameterSlider* degree_;
  ParameterSlider* bins_;
  QCheckBox* auto_bins_;
  QComboBox* mechanism_;
  QComboBox* delta_;
  QDoubleSpinBox* domain_share_;
  QToolButton* more_;
  QDoubleSpinBox* structure_share_;
  DeniableSettings* deniable_;
  QScrollArea* scroll_;
  QSpinBox* rows_;
  QCheckBox* same_rows_;
  QLabel* rows_note_;
  QCheckBox* reproducible_;
  QSpinBox* seed_;
  QComboBox* control_;
  QLabel* control_note_;
  QLabel* guarantee_;
  int gesture_ = 0;
};

}  // namespace deniable::ui
