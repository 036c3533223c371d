// SPDX-License-Identifier: Apache-2.0
// One synthesis mode as a card: a radio button with the mode's name, then one line on what it
// protects and what it costs. Clicking anywhere on the card selects it.
#pragma once

#include <QFrame>

class QLabel;
class QRadioButton;

namespace deniable::ui {

class ModeCard : public QFrame {
  Q_OBJECT

 public:
  ModeCard(const QString& title, const QString& protects, const QString& costs,
           QWidget* parent = nullptr);

  QRadioButton* radio() const { return radio_; }
  bool isChecked() const;
  void setChecked(bool checked);

 signals:
  void chosen();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void updateFrame();

  QRadioButton* radio_;
  QLabel* details_;
};

}  // namespace deniable::ui
