// SPDX-License-Identifier: Apache-2.0
#include "ui/review/color_bar.h"

#include <QPainter>

namespace deniable::ui {
namespace {

constexpr int kBarWidth = 16;
constexpr int kTicks = 5;
constexpr int kMargin = 6;

}  // namespace

ColorBar::ColorBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

void ColorBar::setScale(const ColorScale& scale, const QString& caption) {
  scale_ = scale;
  caption_ = caption;
  updateGeometry();
  update();
}

QSize ColorBar::sizeHint() const {
  const QFontMetrics metrics(font());
  const int labels = metrics.horizontalAdvance(QStringLiteral("−0.000")) + kMargin;
  const int width = std::max(kBarWidth + 6 + labels, metrics.horizontalAdvance(caption_)) +
                    2 * kMargin;
  return QSize(width, 200);
}

int ColorBar::gradientTop() const { return kMargin + fontMetrics().height() * 2; }

int ColorBar::gradientBottom() const { return height() - fontMetrics().height(); }

QSize ColorBar::minimumSizeHint() const { return QSize(sizeHint().width(), 80); }

void ColorBar::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().base());
  const QFontMetrics metrics(font());
  const int top = gradientTop();
  const int bottom = gradientBottom();
  if (bottom - top < 20) return;
  painter.setPen(palette().text().color());
  painter.drawText(QRect(0, kMargin, width(), metrics.height() * 2),
                   Qt::AlignHCenter | Qt::AlignVCenter, caption_);
  const QRect bar(kMargin, top, kBarWidth, bottom - top);
  for (int y = bar.top(); y <= bar.bottom(); ++y) {
    const double t = 1.0 - static_cast<double>(y - bar.top()) / std::max(1, bar.height() - 1);
    const double value = scale_.minimum() + t * (scale_.maximum() - scale_.minimum());
    painter.setPen(scale_.colorAt(value));
    painter.drawLine(bar.left(), y, bar.right(), y);
  }
  painter.setPen(palette().mid().color());
  painter.drawRect(bar.adjusted(0, 0, -1, -1));
  painter.setPen(palette().text().color());
  const int decimals = scale_.maximum() >= 0.1 ? 2 : 3;
  for (int i = 0; i < kTicks; ++i) {
    const double t = static_cast<double>(i) / (kTicks - 1);
    const double value = scale_.minimum() + t * (scale_.maximum() - scale_.minimum());
    const int y = bar.bottom() - static_cast<int>(t * (bar.height() - 1));
    QString text = QString::number(value, 'f', decimals);
    if (value < 0) text.replace(0, 1, QChar(u'−'));
    painter.drawText(QRect(bar.right() + 6, y - metrics.height() / 2, width(), metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, text);
  }
}

}  // namespace deniable::ui
