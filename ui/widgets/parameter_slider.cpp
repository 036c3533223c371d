// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/parameter_slider.h"

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

namespace deniable::ui {

ParameterSlider::ParameterSlider(const Options& options, QWidget* parent)
    : QWidget(parent), options_(options), slider_(new QSlider(Qt::Horizontal, this)),
      spin_(new QDoubleSpinBox(this)) {
  slider_->setRange(0, options_.integer && !options_.logarithmic
                           ? static_cast<int>(options_.maximum - options_.minimum)
                           : kPositions);
  slider_->setPageStep(options_.integer ? 1 : kPositions / 20);
  spin_->setRange(options_.minimum, options_.maximum);
  spin_->setDecimals(options_.integer ? 0 : options_.decimals);
  spin_->setSingleStep(options_.step);
  spin_->setSuffix(options_.suffix);
  spin_->setKeyboardTracking(false);  // typing "1.5" is one edit, not three
  spin_->setMinimumWidth(90);

  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setVerticalSpacing(0);
  layout->addWidget(slider_, 0, 0, 1, 2);
  layout->addWidget(spin_, 0, 2);
  if (!options_.left_caption.isEmpty() || !options_.right_caption.isEmpty()) {
    auto* left = new QLabel(options_.left_caption, this);
    auto* right = new QLabel(options_.right_caption, this);
    right->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    for (QLabel* caption : {left, right}) {
      QFont font = caption->font();
      font.setPointSizeF(font.pointSizeF() * 0.85);
      caption->setFont(font);
      caption->setForegroundRole(QPalette::PlaceholderText);
    }
    layout->addWidget(left, 1, 0);
    layout->addWidget(right, 1, 1);
  }
  layout->setColumnStretch(0, 1);
  layout->setColumnStretch(1, 1);

  connect(slider_, &QSlider::sliderPressed, this, [this] {
    dragging_ = true;
    emit dragStarted();
  });
  connect(slider_, &QSlider::sliderReleased, this, [this] {
    dragging_ = false;
    emit dragFinished();
  });
  connect(slider_, &QSlider::valueChanged, this, &ParameterSlider::onSliderMoved);
  connect(spin_, &QDoubleSpinBox::valueChanged, this, &ParameterSlider::onSpinEdited);
  setValue(options_.minimum);
}

int ParameterSlider::positionOf(double value) const {
  const double lo = options_.minimum;
  const double hi = options_.maximum;
  value = std::clamp(value, lo, hi);
  if (options_.integer && !options_.logarithmic) return static_cast<int>(std::lround(value - lo));
  double t = options_.logarithmic ? std::log(value / lo) / std::log(hi / lo) : (value - lo) / (hi - lo);
  return static_cast<int>(std::lround(t * kPositions));
}

double ParameterSlider::valueAt(int position) const {
  const double lo = options_.minimum;
  const double hi = options_.maximum;
  if (options_.integer && !options_.logarithmic) return lo + position;
  const double t = static_cast<double>(position) / kPositions;
  double value = options_.logarithmic ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo);
  if (options_.integer) return std::round(value);
  // Round to what the spin box shows, with two significant digits on a log scale (ε = 0.37,
  // 1.2, 15), so dragging gives readable values.
  if (options_.logarithmic && value > 0) {
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)) - 1);
    value = std::round(value / magnitude) * magnitude;
  }
  const double scale = std::pow(10.0, options_.decimals);
  return std::clamp(std::round(value * scale) / scale, lo, hi);
}

void ParameterSlider::setValue(double value) {
  value_ = std::clamp(value, options_.minimum, options_.maximum);
  const QSignalBlocker block_slider(slider_);
  const QSignalBlocker block_spin(spin_);
  slider_->setValue(positionOf(value_));
  spin_->setValue(value_);
}

void ParameterSlider::onSliderMoved(int position) {
  const double value = valueAt(position);
  if (value == value_) return;
  value_ = value;
  {
    const QSignalBlocker block(spin_);
    spin_->setValue(value_);
  }
  emit valueEdited(value_);
}

void ParameterSlider::onSpinEdited(double value) {
  if (value == value_) return;
  value_ = value;
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(positionOf(value_));
  }
  emit valueEdited(value_);
}

void ParameterSlider::setControlToolTip(const QString& text) {
  slider_->setToolTip(text);
  spin_->setToolTip(text);
}

}  // namespace deniable::ui
