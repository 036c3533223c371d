// SPDX-License-Identifier: Apache-2.0
// HeatmapWidget: a square matrix (normalised mutual information between attributes, or the
// difference of two such matrices) painted as coloured cells with the attribute names along
// both axes. Qt Charts has no heatmap, so this is a plain QWidget with a paintEvent.
// The colour scale is set from outside so that several heatmaps share one (and one ColorBar).
// Hovering shows a tooltip from the provider; clicking a cell emits cellClicked(row, column).
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <QStringList>
#include <QWidget>

#include "ui/review/color_scale.h"

namespace deniable::ui {

class HeatmapWidget : public QWidget {
  Q_OBJECT

 public:
  using Matrix = std::vector<std::vector<double>>;
  using ToolTipProvider = std::function<QString(int row, int column)>;

  explicit HeatmapWidget(QWidget* parent = nullptr);

  // `matrix` is labels.size() x labels.size(). With maskDiagonal the diagonal is drawn in grey
  // (for NMI it is 1 by definition and would only stretch the scale).
  void setMatrix(const QString& title, const QStringList& labels, Matrix matrix,
                 const ColorScale& scale, bool maskDiagonal);
  void clear();
  void setToolTipProvider(ToolTipProvider provider) { toolTipProvider_ = std::move(provider); }
  void setSelectedCell(int row, int column);
  // Outlines a cell as if hovered (-1, -1: none); heatmaps side by side mirror each other's
  // hover this way.
  void setHoveredCell(int row, int column);
  // Heatmaps side by side in the same attribute order can leave the row labels to the first.
  void setShowRowLabels(bool show);

  const QString& title() const { return title_; }
  const QStringList& labels() const { return labels_; }
  const Matrix& matrix() const { return matrix_; }
  const ColorScale& scale() const { return scale_; }
  // The cell under a point in widget coordinates, if any.
  std::optional<std::pair<int, int>> cellAt(QPoint point) const;
  // The centre of a cell in widget coordinates (for tests and keyboard access).
  QPoint cellCenter(int row, int column) const;

  // Pixels around the grid (labels, title, margins): a HeatmapRow gives heatmaps side by side
  // widths such that their grids have the same size.
  int horizontalOverhead() const;
  QRect gridRect() const;  // where the cells are, in widget coordinates
  int verticalOverhead() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void cellClicked(int row, int column);
  void cellHovered(int row, int column);  // (-1, -1) when the mouse leaves the cells

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  struct Geometry {
    QRect grid;     // the k x k cells
    int cell = 0;   // cell side in pixels
    int rowLabelWidth = 0;
    int titleHeight = 0;
  };
  Geometry layoutGeometry() const;
  int labelExtent() const;  // width budget of one label, in pixels
  void paintLabels(QPainter& painter, const Geometry& g) const;

  QString title_;
  QStringList labels_;
  Matrix matrix_;
  ColorScale scale_ = ColorScale::sequential(1.0);
  bool maskDiagonal_ = false;
  bool showRowLabels_ = true;
  ToolTipProvider toolTipProvider_;
  std::optional<std::pair<int, int>> hovered_;
  std::optional<std::pair<int, int>> selected_;
};

}  // namespace deniable::ui
