// SPDX-License-Identifier: Apache-2.0
// AttackChart (Review → Attacks): each attack's success rate as horizontal bars with their 95%
// intervals — against the rows the release was made from, against the rows held out (which the
// model never saw: the baseline), and for a random guesser — so that a data owner sees at a
// glance whether the attacker does better on the real people in the release than on anyone.
// The risk with its interval is written beside each attack's name, red when its whole interval
// lies above the owner's threshold, amber when only its estimate does.
// Painted by hand (QPainter): its height follows the number of attacks, nothing is clipped at
// 1024 × 700.
#pragma once

#include <vector>

#include <QWidget>

#include "ui/review/attack_facts.h"

namespace deniable::ui {

class AttackChart : public QWidget {
  Q_OBJECT

 public:
  explicit AttackChart(QWidget* parent = nullptr);

  void setRows(std::vector<AttackRow> rows, double threshold);
  void clear();
  const std::vector<AttackRow>& rows() const { return rows_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int contentHeight() const;

  std::vector<AttackRow> rows_;
  double threshold_ = 0.1;
};

}  // namespace deniable::ui
