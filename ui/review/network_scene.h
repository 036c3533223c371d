// SPDX-License-Identifier: Apache-2.0
// NetworkScene: the learned Bayesian network as a QGraphicsScene — one box per attribute
// (coloured by type), one arrow per parent link, laid out by Graphviz's dot (graph_layout.h),
// with a legend above the graph. In the deniable mode each box shows its position in σ and its
// border says whether candidates re-sample the attribute (thick: always; dashed: for some
// candidates; thin: copied from the seed).
#pragma once

#include <vector>

#include <QGraphicsScene>

#include "engine/core/result.h"
#include "ui/review/network_facts.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

class NetworkScene : public QGraphicsScene {
  Q_OBJECT

 public:
  explicit NetworkScene(QObject* parent = nullptr);

  // Rebuilds the scene; an error (Graphviz failed) leaves a scene with the message.
  Status setData(const ReviewData& data);
  void clearNetwork();

  int nodeCount() const { return static_cast<int>(nodes_.size()); }
  int edgeCount() const { return edgeCount_; }
  // The attribute (index into Description::domains) drawn at a scene position, or -1.
  int attributeAt(QPointF scenePosition) const;
  // The scene rectangle of an attribute's box (empty when absent).
  QRectF nodeRect(int attribute) const;
  void setSelectedAttribute(int attribute);

 signals:
  void attributeClicked(int attribute);

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  void addLegend(const ReviewData& data, const NetworkFacts& facts);

  std::vector<QGraphicsItem*> nodes_;  // per attribute (nullptr if not in the network)
  int edgeCount_ = 0;
};

}  // namespace deniable::ui
