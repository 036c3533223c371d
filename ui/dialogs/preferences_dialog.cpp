// SPDX-License-Identifier: Apache-2.0
#include "ui/dialogs/preferences_dialog.h"

#include <algorithm>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>

namespace deniable::ui {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent), threads_(new QSpinBox(this)), directory_(new QLineEdit(this)),
      help_(new QCheckBox(tr("Show the “What is this?” text on every step"), this)) {
  setWindowTitle(tr("Preferences"));
  const Preferences current = AppSettings::preferences();
  threads_->setRange(0, 1024);
  threads_->setSpecialValueText(tr("automatic (%1: all cores but one, kept for the window)")
                                    .arg(std::max(1, QThread::idealThreadCount() - 1)));
  threads_->setValue(static_cast<int>(current.threads));
  threads_->setToolTip(tr("How many processor cores the engine may use. Results do not depend "
                          "on it."));
  directory_->setText(current.export_directory);
  directory_->setPlaceholderText(tr("beside the input file"));
  directory_->setToolTip(tr("Where the Export step proposes to write files"));
  help_->setChecked(current.show_step_help);
  help_->setToolTip(tr("Takes effect for pages opened after this"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  browse->setToolTip(tr("Choose the default export folder"));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Export folder"), directory_->text());
    if (!directory.isEmpty()) directory_->setText(directory);
  });
  auto* folder = new QHBoxLayout;
  folder->addWidget(directory_, 1);
  folder->addWidget(browse);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Worker threads:"), threads_);
  form->addRow(tr("Export folder:"), folder);
  form->addRow(QString(), help_);
  form->addRow(buttons);
}

Preferences PreferencesDialog::preferences() const {
  Preferences out;
  out.threads = static_cast<unsigned>(threads_->value());
  out.export_directory = directory_->text().trimmed();
  out.show_step_help = help_->isChecked();
  return out;
}

}  // namespace deniable::ui
