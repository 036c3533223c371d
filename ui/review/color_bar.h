// SPDX-License-Identifier: Apache-2.0
// ColorBar: the legend of a heatmap's colour scale — a vertical gradient with tick values.
#pragma once

#include <QWidget>

#include "ui/review/color_scale.h"

namespace deniable::ui {

class ColorBar : public QWidget {
  Q_OBJECT

 public:
  explicit ColorBar(QWidget* parent = nullptr);

  // `caption` is drawn above the bar (e.g. "NMI", "synthetic − real").
  void setScale(const ColorScale& scale, const QString& caption);
  const ColorScale& scale() const { return scale_; }
  const QString& caption() const { return caption_; }

  // The gradient's first and last pixel rows (the caption is above, the last tick label
  // half below).
  int gradientTop() const;
  int gradientBottom() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  ColorScale scale_ = ColorScale::sequential(1.0);
  QString caption_;
};

}  // namespace deniable::ui
