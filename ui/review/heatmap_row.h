// SPDX-License-Identifier: Apache-2.0
// HeatmapRow: lays heatmaps and colour bars out left to right so that every heatmap's grid
// has the SAME size (a QHBoxLayout would give equal widget widths, and a heatmap with row
// labels would then get smaller cells than one without). The items are centred.
#pragma once

#include <vector>

#include <QWidget>

namespace deniable::ui {

class ColorBar;
class HeatmapWidget;

class HeatmapRow : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapRow(QWidget* parent = nullptr);

  // Items are placed in the order added; the row takes ownership.
  void addHeatmap(HeatmapWidget* heatmap);
  void addColorBar(ColorBar* bar);
  void addSpacing(int pixels);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Item {
    HeatmapWidget* heatmap = nullptr;
    ColorBar* bar = nullptr;
    int spacing = 0;
  };
  void place();

  std::vector<Item> items_;
};

}  // namespace deniable::ui
