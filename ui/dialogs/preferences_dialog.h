// SPDX-License-Identifier: Apache-2.0
// Preferences: worker threads, the default export folder, the step help texts.
#pragma once

#include <QDialog>

#include "ui/app/app_settings.h"

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace deniable::ui {

class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(QWidget* parent = nullptr);
  Preferences preferences() const;

 private:
  QSpinBox* threads_;
  QLineEdit* directory_;
  QCheckBox* help_;
};

}  // namespace deniable::ui
