// SPDX-License-Identifier: Apache-2.0
// Colour scales of the heatmaps: one scale object is shared by the real and the synthetic
// heatmap (and their colour bar), so equal colours mean equal values.
#pragma once

#include <QColor>
#include <QString>

namespace deniable::ui {

class ColorScale {
 public:
  enum class Kind {
    kSequential,  // light (low) to dark blue (high), ColorBrewer YlGnBu
    kDiverging,   // blue (negative) – white (0) – red (positive), ColorBrewer RdBu reversed
  };

  // Sequential over [0, max]; diverging over [-max, max]. max <= 0 is treated as a tiny
  // positive number (an all-zero matrix is drawn in the lowest colour).
  static ColorScale sequential(double max);
  static ColorScale diverging(double max);

  Kind kind() const { return kind_; }
  double minimum() const { return kind_ == Kind::kSequential ? 0.0 : -max_; }
  double maximum() const { return max_; }
  // The colour of `value` (clamped into the scale's range).
  QColor colorAt(double value) const;
  // Black or white, whichever reads better on colorAt(value).
  QColor textColorAt(double value) const;

 private:
  ColorScale(Kind kind, double max) : kind_(kind), max_(max) {}
  Kind kind_;
  double max_;
};

}  // namespace deniable::ui
