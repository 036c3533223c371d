// SPDX-License-Identifier: Apache-2.0
// A GUI control for a row of the settings table (engine/pipeline/settings_table.h): its range
// is the row's control range, and its object name "setting:NAME" lets tests (and anything else)
// find the control of each setting and check it against the table.
#pragma once

#include <algorithm>

#include <QAbstractSpinBox>
#include <QList>
#include <QObject>
#include <QSlider>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QString>
#include <QWidget>

#include "engine/pipeline/settings_table.h"
#include "ui/widgets/parameter_slider.h"

namespace deniable::ui {

inline QString settingControlName(const SettingSpec& spec) {
  return QStringLiteral("setting:") + QString::fromUtf8(spec.name);
}

// `options` with the row's range (the captions, step and scale stay the caller's).
inline ParameterSlider::Options withSettingRange(ParameterSlider::Options options,
                                                 const SettingSpec& spec) {
  options.minimum = spec.control_minimum;
  options.maximum = spec.control_maximum;
  options.integer = spec.kind == SettingKind::kInteger;
  return options;
}

// A slider for the row, named after it.
inline ParameterSlider* settingSlider(const char* setting, const ParameterSlider::Options& options,
                                      QWidget* parent) {
  const SettingSpec& spec = Setting(setting);
  auto* slider = new ParameterSlider(withSettingRange(options, spec), parent);
  slider->setObjectName(settingControlName(spec));
  return slider;
}

// A spin box with the row's range (QSpinBox: clamped to int), named after it.
inline void applySettingRange(QSpinBox* box, const char* setting) {
  const SettingSpec& spec = Setting(setting);
  constexpr double kMostInt = 2147483647.0;
  box->setRange(static_cast<int>(std::min(spec.control_minimum, kMostInt)),
                static_cast<int>(std::min(spec.control_maximum, kMostInt)));
  box->setObjectName(settingControlName(spec));
}
inline void applySettingRange(QDoubleSpinBox* box, const char* setting) {
  const SettingSpec& spec = Setting(setting);
  box->setRange(spec.control_minimum, spec.control_maximum);
  box->setObjectName(settingControlName(spec));
}

// The table's facts about a row, for its control's tooltip: the values allowed, the flag and
// the project file's key.
inline QString settingDetails(const SettingSpec& spec) {
  QString text = QObject::tr("Allowed: %1.").arg(QString::fromStdString(SettingBoundsText(spec)));
  if (*spec.cli_flag) {
    text += QLatin1Char(' ') +
            QObject::tr("Command line: %1.").arg(QString::fromUtf8(spec.cli_flag));
  }
  return text + QLatin1Char(' ') +
         QObject::tr("Project file: %1.").arg(QString::fromUtf8(spec.name));
}

// Appends settingDetails to the tooltip of every control under `root` named after a row (a
// slider's slider and spin box alike): call once, after the tooltips are set.
inline void addSettingDetails(QWidget* root) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    QWidget* control = root->findChild<QWidget*>(settingControlName(spec));
    if (control == nullptr) continue;
    const QString details = settingDetails(spec);
    QList<QWidget*> targets = {control};
    if (auto* slider = qobject_cast<ParameterSlider*>(control)) {
      targets = {slider->slider(), slider->spinBox()};
    }
    for (QWidget* target : targets) {
      target->setToolTip(target->toolTip().isEmpty()
                             ? details
                             : target->toolTip() + QStringLiteral("\n\n") + details);
    }
  }
}

}  // namespace deniable::ui
