// SPDX-License-Identifier: Apache-2.0
#include "ui/review/heatmap_widget.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace deniable::ui {
namespace {

constexpr int kMargin = 6;
constexpr int kMaxLabelWidth = 130;
constexpr int kMinLabelPixels = 8;  // smallest label text, in pixels
constexpr int kMinCellForText = 30;         // print the value inside cells at least this big
const QColor kMaskColor(0xdd, 0xdd, 0xdd);  // the masked diagonal

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapWidget::setMatrix(const QString& title, const QStringList& labels, Matrix matrix,
                              const ColorScale& scale, bool maskDiagonal) {
  title_ = title;
  labels_ = labels;
  matrix_ = std::move(matrix);
  scale_ = scale;
  maskDiagonal_ = maskDiagonal;
  hovered_.reset();
  selected_.reset();
  updateGeometry();
  update();
}

void HeatmapWidget::clear() {
  setMatrix(QString(), QStringList(), Matrix(), ColorScale::sequential(1.0), false);
}

void HeatmapWidget::setShowRowLabels(bool show) {
  showRowLabels_ = show;
  updateGeometry();
  update();
}

void HeatmapWidget::setHoveredCell(int row, int column) {
  const int k = static_cast<int>(labels_.size());
  std::optional<std::pair<int, int>> cell;
  if (row >= 0 && column >= 0 && row < k && column < k) cell = std::make_pair(row, column);
  if (cell != hovered_) {
    hovered_ = cell;
    update();
  }
}

void HeatmapWidget::setSelectedCell(int row, int column) {
  const int k = static_cast<int>(labels_.size());
  if (row >= 0 && column >= 0 && row < k && column < k) {
    selected_ = std::make_pair(row, column);
  } else {
    selected_.reset();
  }
  update();
}

int HeatmapWidget::labelExtent() const {
  int widest = 0;
  const QFontMetrics metrics(font());
  for (const QString& label : labels_) widest = std::max(widest, metrics.horizontalAdvance(label));
  return std::min(widest, kMaxLabelWidth);
}

int HeatmapWidget::horizontalOverhead() const {
  return (showRowLabels_ ? labelExtent() + kMargin : 0) + 2 * kMargin;
}

QRect HeatmapWidget::gridRect() const { return layoutGeometry().grid; }

int HeatmapWidget::verticalOverhead() const {
  const int titleHeight = title_.isEmpty() ? 0 : fontMetrics().height() * 3 / 2;
  // Column labels are vertical (reading upwards) below the grid: no sideways spill, so
  // heatmaps placed side by side can share the row labels of the first one.
  return titleHeight + labelExtent() + 4 * kMargin;
}

HeatmapWidget::Geometry HeatmapWidget::layoutGeometry() const {
  Geometry g;
  const QFontMetrics metrics(font());
  const int k = static_cast<int>(labels_.size());
  g.titleHeight = title_.isEmpty() ? 0 : metrics.height() * 3 / 2;
  g.rowLabelWidth = showRowLabels_ ? labelExtent() + kMargin : 0;
  if (k == 0) return g;
  const int availableWidth = width() - horizontalOverhead();
  const int availableHeight = height() - verticalOverhead();
  g.cell = std::max(1, std::min(availableWidth, availableHeight) / k);
  const int side = g.cell * k;
  const int left = kMargin + g.rowLabelWidth + std::max(0, (availableWidth - side) / 2);
  // The block (title, grid, labels) is centred vertically.
  const int top = kMargin + std::max(0, (availableHeight - side) / 2);
  g.grid = QRect(left, top + g.titleHeight, side, side);
  return g;
}

QSize HeatmapWidget::sizeHint() const {
  const int k = static_cast<int>(labels_.size());
  const int cell = 26;
  const int side = k * cell + labelExtent() + 4 * kMargin + fontMetrics().height() * 3;
  return QSize(side, side);
}

QSize HeatmapWidget::minimumSizeHint() const { return QSize(160, 160); }

std::optional<std::pair<int, int>> HeatmapWidget::cellAt(QPoint point) const {
  const Geometry g = layoutGeometry();
  if (labels_.isEmpty() || !g.grid.contains(point)) return std::nullopt;
  const int k = static_cast<int>(labels_.size());
  const int row = std::min(k - 1, (point.y() - g.grid.top()) / g.cell);
  const int column = std::min(k - 1, (point.x() - g.grid.left()) / g.cell);
  return std::make_pair(row, column);
}

QPoint HeatmapWidget::cellCenter(int row, int column) const {
  const Geometry g = layoutGeometry();
  return QPoint(g.grid.left() + column * g.cell + g.cell / 2,
                g.grid.top() + row * g.cell + g.cell / 2);
}

void HeatmapWidget::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.fillRect(rect(), palette().base());
  const Geometry g = layoutGeometry();
  if (!title_.isEmpty()) {
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(palette().text().color());
    painter.drawText(QRect(g.grid.left(), g.grid.top() - g.titleHeight,
                           std::max(g.grid.width(), width() / 2), g.titleHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, title_);
    painter.setFont(font());
  }
  const int k = static_cast<int>(labels_.size());
  if (k == 0) {
    painter.setPen(palette().placeholderText().color());
    painter.drawText(rect(), Qt::AlignCenter, tr("No attributes to compare"));
    return;
  }
  QFont valueFont = font();
  valueFont.setPointSizeF(std::clamp(g.cell / 4.0, 6.0, font().pointSizeF()));
  painter.setFont(valueFont);
  for (int r = 0; r < k; ++r) {
    for (int c = 0; c < k; ++c) {
      const QRect cell(g.grid.left() + c * g.cell, g.grid.top() + r * g.cell, g.cell, g.cell);
      const double value = matrix_[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      const bool masked = maskDiagonal_ && r == c;
      painter.fillRect(cell, masked ? kMaskColor : scale_.colorAt(value));
      if (g.cell >= kMinCellForText && !masked) {
        painter.setPen(scale_.textColorAt(value));
        painter.drawText(cell, Qt::AlignCenter, QString::number(value, 'f', 2));
      }
    }
  }
  painter.setFont(font());
  // Thin separators keep cells apart where neighbours have the same colour.
  painter.setPen(QPen(palette().base().color(), 1));
  for (int i = 1; i < k && g.cell >= 6; ++i) {
    painter.drawLine(g.grid.left() + i * g.cell, g.grid.top(), g.grid.left() + i * g.cell,
                     g.grid.bottom());
    painter.drawLine(g.grid.left(), g.grid.top() + i * g.cell, g.grid.right(),
                     g.grid.top() + i * g.cell);
  }
  auto outline = [&](const std::optional<std::pair<int, int>>& at, const QColor& color) {
    if (!at) return;
    painter.setPen(QPen(color, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRect(g.grid.left() + at->second * g.cell, g.grid.top() + at->first * g.cell,
                           g.cell, g.cell)
                         .adjusted(1, 1, -1, -1));
  };
  outline(selected_, QColor(0xd6, 0x27, 0x28));
  outline(hovered_, palette().text().color());
  paintLabels(painter, g);
}

void HeatmapWidget::paintLabels(QPainter& painter, const Geometry& g) const {
  // Labels one per cell: when the cells are smaller than a line of text, the labels shrink
  // with them (down to kMinLabelPixels) instead of overlapping their neighbours.
  QFont baseFont = font();
  if (QFontMetrics(baseFont).height() > g.cell) {
    baseFont.setPixelSize(std::max(kMinLabelPixels, g.cell - 1));
  }
  const QFontMetrics metrics(baseFont);
  const int k = static_cast<int>(labels_.size());
  const int extent = labelExtent();
  painter.setPen(palette().text().color());
  for (int i = 0; i < k; ++i) {
    const QString text = metrics.elidedText(labels_[i], Qt::ElideMiddle, extent);
    const bool highlighted = (hovered_ && (hovered_->first == i || hovered_->second == i)) ||
                             (selected_ && (selected_->first == i || selected_->second == i));
    QFont labelFont = baseFont;
    labelFont.setBold(highlighted);
    painter.setFont(labelFont);
    if (showRowLabels_) {  // right-aligned, left of the grid
      painter.drawText(QRect(g.grid.left() - extent - kMargin, g.grid.top() + i * g.cell, extent,
                             g.cell),
                       Qt::AlignRight | Qt::AlignVCenter, text);
    }
    // Column label: below the grid, vertical, reading upwards, centred on its column.
    painter.save();
    painter.translate(g.grid.left() + i * g.cell + g.cell / 2.0, g.grid.bottom() + kMargin);
    painter.rotate(-90);
    painter.drawText(QRect(-extent - 2, -metrics.height() / 2, extent, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, text);
    painter.restore();
  }
  painter.setFont(font());
}

bool HeatmapWidget::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const auto cell = cellAt(help->pos());
    if (cell && toolTipProvider_) {
      QToolTip::showText(help->globalPos(), toolTipProvider_(cell->first, cell->second), this);
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QWidget::event(event);
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event) {
  const auto cell = cellAt(event->position().toPoint());
  if (cell != hovered_) {
    hovered_ = cell;
    update();
    emit cellHovered(cell ? cell->first : -1, cell ? cell->second : -1);
  }
  QWidget::mouseMoveEvent(event);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    if (const auto cell = cellAt(event->position().toPoint())) {
      setSelectedCell(cell->first, cell->second);
      emit cellClicked(cell->first, cell->second);
      return;
    }
  }
  QWidget::mousePressEvent(event);
}

void HeatmapWidget::leaveEvent(QEvent* event) {
  if (hovered_) {
    hovered_.reset();
    update();
    emit cellHovered(-1, -1);
  }
  QWidget::leaveEvent(event);
}

}  // namespace deniable::ui
