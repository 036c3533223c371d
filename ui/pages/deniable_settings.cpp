// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/deniable_settings.h"

#include <algorithm>

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/format.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/setting_control.h"
#include "ui/widgets/pass_rate_grid.h"

namespace deniable::ui {

DeniableSettings::DeniableSettings(Session* session, JobController* jobs, QWidget* parent)
    : QGroupBox(tr("Plausible deniability"), parent), session_(session), jobs_(jobs) {
  // Ranges from the settings table (setting_control.h).
  k_ = settingSlider("k",
                     {.minimum = 0, .maximum = 1, .decimals = 0, .step = 1, .logarithmic = true,
                      .integer = true, .left_caption = tr("◀ faster"),
                      .right_caption = tr("more private ▶"), .suffix = {}},
                     this);
  k_->setControlToolTip(tr("k: every released row must be explainable by at least k real "
                           "records (the paper uses 50). Larger is more private and slower."));
  gamma_ = settingSlider("gamma",
                         {.minimum = 0, .maximum = 1, .decimals = 1, .step = 0.5,
                          .logarithmic = true, .integer = false,
                          .left_caption = tr("◀ more private"), .right_caption = tr("faster ▶"),
                          .suffix = {}},
                         this);
  gamma_->setControlToolTip(tr("γ: those k records must make the row about equally likely, "
                               "within a factor γ (the paper uses 4). Smaller is more private."));
  omega_min_ = new QSpinBox(this);
  omega_max_ = new QSpinBox(this);
  applySettingRange(omega_min_, "omega_min");
  applySettingRange(omega_max_, "omega_max");
  for (QSpinBox* omega : {omega_min_, omega_max_}) {
    omega->setSpecialValueText(tr("auto"));
    omega->setKeyboardTracking(false);
    omega->setToolTip(tr("ω: how many columns of a real seed record are re-drawn from the model "
                         "(a range: drawn per row; equal values fix it; auto = the engine's "
                         "default)"));
  }
  epsilon0_ = settingSlider("epsilon0",
                            {.minimum = 0, .maximum = 1, .decimals = 2, .step = 0.1,
                             .logarithmic = true, .integer = false,
                             .left_caption = tr("◀ more private"),
                             .right_caption = tr("more rows pass ▶"), .suffix = {}},
                            this);
  epsilon0_->setControlToolTip(tr("ε0: noise of the privacy test's threshold (the paper uses 1)"));
  maxcost_ = new QSpinBox(this);
  applySettingRange(maxcost_, "maxcost");
  maxcost_->setGroupSeparatorShown(true);
  maxcost_->setKeyboardTracking(false);
  maxcost_->setToolTip(tr("maxcost: at most this many parent combinations per column (the "
                          "paper's eq. 6). Larger keeps more relationships but each count gets "
                          "fewer records."));
  advise_ = new QPushButton(tr("Estimate pass rates"), this);
  advise_->setToolTip(tr("Ask the engine how many candidate rows would pass the privacy test "
                         "for several k and ω (runs in the background on your real data)"));
  pass_rate_ = new QLabel(this);
  pass_rate_->setWordWrap(true);
  grid_ = new PassRateGrid(this);
  grid_->setMinimumHeight(140);
  grid_->setVisible(false);
  auto* owner_only = new QLabel(tr("Pass rates are estimated on your real data: they are for your "
                                   "eyes only and are never part of a release."),
                                this);
  owner_only->setWordWrap(true);
  QFont small = owner_only->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  owner_only->setFont(small);

  auto* omega = new QHBoxLayout;
  omega->addWidget(omega_min_);
  omega->addWidget(new QLabel(tr("to"), this));
  omega->addWidget(omega_max_);
  omega->addStretch(1);
  auto* advice_row = new QHBoxLayout;
  advice_row->addWidget(advise_);
  advice_row->addWidget(pass_rate_, 1);
  auto* form = new QFormLayout(this);
  form->addRow(tr("k (plausible seeds):"), k_);
  form->addRow(tr("γ (likelihood ratio):"), gamma_);
  form->addRow(tr("ω (re-drawn columns):"), omega);
  form->addRow(tr("ε0 (test noise):"), epsilon0_);
  form->addRow(tr("maxcost:"), maxcost_);
  form->addRow(tr("Pass rate:"), advice_row);
  form->addRow(grid_);
  form->addRow(owner_only);

  // Every edit is one undo step of the privacy settings.
  auto edit = [this](void (*apply)(DeniableOptions&, double)) {
    return [this, apply](double value) {
      PrivacySettings next = session_->settings();
      apply(next.model.deniable, value);
      session_->editSettings(next, tr("Change plausible-deniability settings"));
    };
  };
  connect(k_, &ParameterSlider::valueEdited, this,
          edit([](DeniableOptions& o, double v) { o.k = static_cast<int>(v); }));
  connect(gamma_, &ParameterSlider::valueEdited, this,
          edit([](DeniableOptions& o, double v) { o.gamma = v; }));
  connect(epsilon0_, &ParameterSlider::valueEdited, this,
          edit([](DeniableOptions& o, double v) { o.epsilon0 = v; }));
  connect(omega_min_, &QSpinBox::valueChanged, this,
          edit([](DeniableOptions& o, double v) { o.omega_min = static_cast<int>(v); }));
  connect(omega_max_, &QSpinBox::valueChanged, this,
          edit([](DeniableOptions& o, double v) { o.omega_max = static_cast<int>(v); }));
  connect(maxcost_, &QSpinBox::valueChanged, this,
          edit([](DeniableOptions& o, double v) { o.maxcost = static_cast<std::uint64_t>(v); }));
  connect(grid_, &PassRateGrid::cellChosen, this, [this](int k, int omega_min, int omega_max) {
    PrivacySettings next = session_->settings();
    next.model.deniable.k = k;
    next.model.deniable.omega_min = omega_min;
    next.model.deniable.omega_max = omega_max;
    session_->editSettings(next, tr("Pick k = %1 and ω from the pass-rate grid").arg(k));
  });
  connect(advise_, &QPushButton::clicked, jobs_, &JobController::startAdvice);
  connect(jobs_, &JobController::started, this, [this] { advise_->setEnabled(false); });
  connect(jobs_, &JobController::finished, this, [this] { advise_->setEnabled(true); });
  for (auto signal : {&Session::settingsChanged, &Session::dataChanged, &Session::schemaChanged}) {
    connect(session_, signal, this, &DeniableSettings::refresh);
  }
  connect(session_, &Session::adviceChanged, this, &DeniableSettings::refreshAdvice);
  refresh();
}

void DeniableSettings::refresh() {
  const DeniableOptions& options = session_->settings().model.deniable;
  k_->setValue(options.k);
  gamma_->setValue(options.gamma);
  epsilon0_->setValue(options.epsilon0);
  const QSignalBlocker block_min(omega_min_);
  omega_min_->setValue(options.omega_min);
  const QSignalBlocker block_max(omega_max_);
  omega_max_->setValue(options.omega_max);
  const QSignalBlocker block_maxcost(maxcost_);
  const auto most = static_cast<std::uint64_t>(maxcost_->maximum());
  maxcost_->setValue(static_cast<int>(std::min<std::uint64_t>(options.maxcost, most)));
  setVisible(session_->settings().model.mode == SynthesisMode::kDeniable);
  refreshAdvice();
}

void DeniableSettings::refreshAdvice() {
  const auto& advice = session_->advice();
  grid_->setVisible(advice != nullptr);
  if (!advice) {
    pass_rate_->setText(tr("not estimated yet"));
    return;
  }
  grid_->setAdvice(advice->advice);
  const DeniableOptions& options = session_->settings().model.deniable;
  int modelled = 0;
  for (const ColumnSchema& column : session_->schema().columns) modelled += column.is_modelled() ? 1 : 0;
  const auto omega = ResolveOmega(options, modelled);  // "auto" as the engine resolves it
  std::optional<double> rate;
  if (omega) rate = grid_->markCurrent(options.k, omega->min, omega->max);
  QString text = rate ? tr("about %1 of candidates pass at k = %2, ω = %3")
                            .arg(formatPercent(*rate))
                            .arg(options.k)
                            .arg(omega->min == omega->max
                                     ? QString::number(omega->min)
                                     : QStringLiteral("%1–%2").arg(omega->min).arg(omega->max))
                      : tr("the grid has no estimate for these k and ω; click a cell");
  if (session_->adviceIsStale()) text += tr(" (estimated with earlier settings)");
  pass_rate_->setText(text);
}

QString DeniableSettings::passRateText() const { return pass_rate_->text(); }

QWidget* DeniableSettings::scrollTarget() {
  return grid_->isVisible() ? static_cast<QWidget*>(grid_) : static_cast<QWidget*>(this);
}

}  // namespace deniable::ui
