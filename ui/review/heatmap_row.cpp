// SPDX-License-Identifier: Apache-2.0
#include "ui/review/heatmap_row.h"

#include <algorithm>

#include "ui/review/color_bar.h"
#include "ui/review/heatmap_widget.h"

namespace deniable::ui {

HeatmapRow::HeatmapRow(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  // One continuous background behind the heatmaps and bars (they paint the base colour).
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void HeatmapRow::addHeatmap(HeatmapWidget* heatmap) {
  heatmap->setParent(this);
  items_.push_back(Item{heatmap, nullptr, 0});
  place();
}

void HeatmapRow::addColorBar(ColorBar* bar) {
  bar->setParent(this);
  items_.push_back(Item{nullptr, bar, 0});
  place();
}

void HeatmapRow::addSpacing(int pixels) {
  items_.push_back(Item{nullptr, nullptr, pixels});
  place();
}

QSize HeatmapRow::sizeHint() const {
  int width = 0, height = 0;
  for (const Item& item : items_) {
    const QSize hint = item.heatmap ? item.heatmap->sizeHint()
                       : item.bar   ? item.bar->sizeHint()
                                    : QSize(item.spacing, 0);
    width += hint.width();
    height = std::max(height, hint.height());
  }
  return QSize(width, height);
}

QSize HeatmapRow::minimumSizeHint() const { return QSize(300, 200); }

void HeatmapRow::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  place();
}

void HeatmapRow::place() {
  // The grid side every heatmap gets: what is left of the width after all fixed parts,
  // shared equally, and never more than the height allows.
  int fixed = 0, heatmaps = 0, verticalOverhead = 0;
  for (const Item& item : items_) {
    if (item.heatmap) {
      fixed += item.heatmap->horizontalOverhead();
      verticalOverhead = std::max(verticalOverhead, item.heatmap->verticalOverhead());
      ++heatmaps;
    } else if (item.bar) {
      fixed += item.bar->sizeHint().width();
    } else {
      fixed += item.spacing;
    }
  }
  const int side = heatmaps == 0 ? 0
                                 : std::max(0, std::min((width() - fixed) / heatmaps,
                                                        height() - verticalOverhead));
  // Centred horizontally when the height, not the width, limits the grids.
  int x = std::max(0, (width() - fixed - side * heatmaps) / 2);
  QRect grid(0, 0, 0, height());  // the last heatmap's grid, in this widget's coordinates
  for (const Item& item : items_) {
    if (item.heatmap) {
      const int w = item.heatmap->horizontalOverhead() + side;
      item.heatmap->setGeometry(x, 0, w, height());
      grid = item.heatmap->gridRect().translated(x, 0);
      x += w;
    } else if (item.bar) {
      // The gradient spans the grid's rows; the caption sits above it, the last tick below.
      const int w = item.bar->sizeHint().width();
      const int above = item.bar->gradientTop(), below = item.bar->height() - item.bar->gradientBottom();
      const int top = std::max(0, grid.top() - above);
      item.bar->setGeometry(x, top, w, std::min(height() - top, grid.height() + above + below));
      x += w;
    } else {
      x += item.spacing;
    }
  }
}

}  // namespace deniable::ui
