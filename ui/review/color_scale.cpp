// SPDX-License-Identifier: Apache-2.0
#include "ui/review/color_scale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace deniable::ui {
namespace {

// ColorBrewer (Cynthia Brewer, colorbrewer2.org) 9-class YlGnBu and 11-class RdBu (reversed).
constexpr std::array<QRgb, 9> kSequential = {0xffffd9, 0xedf8b1, 0xc7e9b4, 0x7fcdbb, 0x41b6c4,
                                             0x1d91c0, 0x225ea8, 0x253494, 0x081d58};
constexpr std::array<QRgb, 11> kDiverging = {0x053061, 0x2166ac, 0x4393c3, 0x92c5de,
                                             0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582,
                                             0xd6604d, 0xb2182b, 0x67001f};

template <std::size_t N>
QColor interpolate(const std::array<QRgb, N>& anchors, double t) {
  t = std::clamp(t, 0.0, 1.0) * static_cast<double>(N - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(t), N - 2);
  const double f = t - static_cast<double>(i);
  const QColor a(anchors[i]), b(anchors[i + 1]);
  auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
  return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

double positiveOrTiny(double max) { return max > 0 && std::isfinite(max) ? max : 1e-12; }

}  // namespace

ColorScale ColorScale::sequential(double max) { return ColorScale(Kind::kSequential, positiveOrTiny(max)); }

ColorScale ColorScale::diverging(double max) { return ColorScale(Kind::kDiverging, positiveOrTiny(max)); }

QColor ColorScale::colorAt(double value) const {
  if (kind_ == Kind::kSequential) return interpolate(kSequential, value / max_);
  return interpolate(kDiverging, (value / max_ + 1.0) / 2.0);
}

QColor ColorScale::textColorAt(double value) const {
  const QColor c = colorAt(value);
  // Relative luminance (ITU-R BT.709 weights) of the sRGB colour, roughly.
  const double luminance = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
  return luminance < 0.5 ? QColor(Qt::white) : QColor(Qt::black);
}

}  // namespace deniable::ui
