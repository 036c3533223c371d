// SPDX-License-Identifier: Apache-2.0
#include "ui/review/network_scene.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/review/graph_layout.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

constexpr qreal kPadding = 10;
constexpr qreal kArrowSize = 9;
const QColor kEdgeColor(0x55, 0x5f, 0x6d);
const QColor kSelectedColor(0xd6, 0x27, 0x28);

QString detailText(const ColumnDomain& domain) {
  if (domain.is_geo()) {
    return domain.bins == 1 ? QObject::tr("geo pair · 1 region")
                            : QObject::tr("geo pair · %1 regions").arg(domain.bins);
  }
  QString kind = QString::fromLatin1(DataTypeName(domain.type));
  if (domain.categorical) {
    return domain.value_codes() == 1 ? QObject::tr("%1 · 1 value").arg(kind)
                                     : QObject::tr("%1 · %2 values").arg(kind).arg(domain.value_codes());
  }
  return domain.bins == 1 ? QObject::tr("%1 · 1 bin").arg(kind)
                          : QObject::tr("%1 · %2 bins").arg(kind).arg(domain.bins);
}

QPen borderPen(Resampling resampling, bool selected) {
  QPen pen(selected ? kSelectedColor : QColor(0x33, 0x33, 0x33));
  switch (resampling) {
    case Resampling::kAlways: pen.setWidthF(3.0); break;
    case Resampling::kSometimes:
      pen.setWidthF(2.2);
      pen.setStyle(Qt::DashLine);
      break;
    case Resampling::kNever:
    case Resampling::kNotDeniable: pen.setWidthF(1.0); break;
  }
  if (selected) pen.setWidthF(std::max(pen.widthF(), 2.5));
  return pen;
}

// One attribute's box: name, type and size of its domain, σ position badge (deniable mode).
class NodeItem : public QGraphicsItem {
 public:
  NodeItem(int attribute, QString name, QString detail, QColor fill, Resampling resampling,
           int sigmaPosition, QSizeF size)
      : attribute_(attribute), name_(std::move(name)), detail_(std::move(detail)),
        fill_(fill), resampling_(resampling), sigmaPosition_(sigmaPosition), size_(size) {
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(QObject::tr("%1 (%2)%3\nClick to see its conditional distribution.")
                   .arg(name_, detail_,
                        resampling_ == Resampling::kNotDeniable
                            ? QString()
                            : QStringLiteral("\n") + QString::fromLatin1(ResamplingName(resampling_))));
  }
  int attribute() const { return attribute_; }
  void setHighlighted(bool on) {
    highlighted_ = on;
    update();
  }
  QRectF boundingRect() const override {
    return QRectF(-size_.width() / 2 - 12, -size_.height() / 2 - 12, size_.width() + 24,
                  size_.height() + 24);
  }
  QRectF box() const {
    return QRectF(-size_.width() / 2, -size_.height() / 2, size_.width(), size_.height());
  }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* /*option*/,
             QWidget* /*widget*/) override {
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(borderPen(resampling_, highlighted_));
    painter->setBrush(fill_);
    painter->drawRoundedRect(box(), 6, 6);
    QFont bold = painter->font();
    bold.setBold(true);
    const QFontMetricsF metrics(bold);
    const QRectF nameRect(box().left(), box().top() + 4, box().width(), metrics.height());
    painter->setPen(Qt::black);
    painter->setFont(bold);
    painter->drawText(nameRect, Qt::AlignCenter, name_);
    QFont small = painter->font();
    small.setBold(false);
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter->setFont(small);
    painter->setPen(QColor(0x33, 0x33, 0x33));
    painter->drawText(QRectF(box().left(), nameRect.bottom(), box().width(),
                             box().bottom() - nameRect.bottom() - 2),
                      Qt::AlignCenter, detail_);
    if (sigmaPosition_ >= 0) {
      const QRectF badge(box().left() - 9, box().top() - 9, 20, 20);
      painter->setPen(QPen(Qt::white, 1.5));
      painter->setBrush(QColor(0x37, 0x41, 0x51));
      painter->drawEllipse(badge);
      painter->setPen(Qt::white);
      painter->drawText(badge, Qt::AlignCenter, QString::number(sigmaPosition_ + 1));
    }
  }

 private:
  int attribute_;
  QString name_, detail_;
  QColor fill_;
  Resampling resampling_;
  int sigmaPosition_;
  QSizeF size_;
  bool highlighted_ = false;
};

QPainterPath edgePath(const GraphLayout::EdgePath& path) {
  QPainterPath out;
  if (path.points.empty()) return out;
  out.moveTo(path.points[0].x, path.points[0].y);
  for (std::size_t i = 1; i + 2 < path.points.size(); i += 3) {
    out.cubicTo(path.points[i].x, path.points[i].y, path.points[i + 1].x, path.points[i + 1].y,
                path.points[i + 2].x, path.points[i + 2].y);
  }
  return out;
}

QPolygonF arrowHead(QPointF from, QPointF tip) {
  QLineF line(tip, from);
  if (line.length() < 1e-6) return {};
  line.setLength(kArrowSize);
  const QPointF back = line.p2();
  const QPointF normal(-(back.y() - tip.y()) * 0.45, (back.x() - tip.x()) * 0.45);
  return QPolygonF({tip, back + normal, back - normal});
}

}  // namespace

NetworkScene::NetworkScene(QObject* parent) : QGraphicsScene(parent) {}

void NetworkScene::clearNetwork() {
  clear();
  nodes_.clear();
  edgeCount_ = 0;
}

Status NetworkScene::setData(const ReviewData& data) {
  clearNetwork();
  const Description& description = data.description;
  const NetworkFacts facts = ExtractNetworkFacts(data);
  const std::size_t attributes = description.domains.size();
  QFont bold = font();
  bold.setBold(true);
  const QFontMetricsF nameMetrics(bold), detailMetrics(font());

  // Graphviz input: nodes in σ order, sized to their text; edges parent -> child.
  GraphLayoutInput input;
  std::vector<QSizeF> sizes;
  std::vector<int> nodeOfAttribute(attributes, -1);
  for (const BayesNode& node : description.network.nodes) {
    const auto a = static_cast<std::size_t>(node.attribute);
    if (a >= attributes) return InvalidArgument("the network names attribute " + std::to_string(a));
    const ColumnDomain& domain = description.domains[a];
    const qreal width = std::max(nameMetrics.horizontalAdvance(toQString(domain.AttributeName())),
                                 detailMetrics.horizontalAdvance(detailText(domain)) * 0.85) +
                        2 * kPadding + 6;
    const QSizeF size(std::max<qreal>(width, 90), nameMetrics.height() * 2 + 12);
    nodeOfAttribute[a] = static_cast<int>(input.nodes.size());
    input.nodes.push_back({size.width() / 72.0, size.height() / 72.0});
    sizes.push_back(size);
  }
  // The marginals mode: a line joins two attributes measured together (no parents).
  for (const auto& [a, b] : facts.MeasuredPairs()) {
    const int na = nodeOfAttribute[static_cast<std::size_t>(a)];
    const int nb = nodeOfAttribute[static_cast<std::size_t>(b)];
    if (na >= 0 && nb >= 0) input.edges.push_back({na, nb});
  }
  for (const BayesNode& node : description.network.nodes) {
    for (int parent : node.parents) {
      if (parent < 0 || static_cast<std::size_t>(parent) >= attributes ||
          nodeOfAttribute[static_cast<std::size_t>(parent)] < 0) {
        return InvalidArgument("the network names parent " + std::to_string(parent));
      }
      input.edges.push_back({nodeOfAttribute[static_cast<std::size_t>(parent)],
                             nodeOfAttribute[static_cast<std::size_t>(node.attribute)]});
    }
  }
  auto layout = ComputeGraphLayout(input);
  if (!layout) {
    addSimpleText(tr("The network could not be laid out: %1")
                      .arg(toQString(layout.error().message)));
    return layout.error();
  }

  for (std::size_t e = 0; e < layout->edges.size(); ++e) {
    const GraphLayout::EdgePath& path = layout->edges[e];
    QPainterPath line = edgePath(path);
    auto* item = addPath(line, QPen(kEdgeColor, 1.4));
    item->setZValue(0);
    ++edgeCount_;
    if (facts.marginals) continue;  // measured together: no direction
    QPolygonF head;
    if (path.has_arrow) {
      head = arrowHead(line.currentPosition(), QPointF(path.arrow_tip.x, path.arrow_tip.y));
    } else if (!line.isEmpty()) {
      head = arrowHead(line.pointAtPercent(0.9), line.currentPosition());
    }
    addPolygon(head, QPen(kEdgeColor, 1), QBrush(kEdgeColor))->setZValue(0);
  }
  nodes_.assign(attributes, nullptr);
  for (std::size_t a = 0; a < attributes; ++a) {
    const int n = nodeOfAttribute[a];
    if (n < 0) continue;
    const ColumnDomain& domain = description.domains[a];
    const int attribute = static_cast<int>(a);
    auto* item = new NodeItem(attribute, toQString(domain.AttributeName()), detailText(domain),
                              dataTypeColor(domain.type), facts.ResamplingOf(attribute),
                              facts.deniable ? facts.position[a] : -1,
                              sizes[static_cast<std::size_t>(n)]);
    const GraphLayout::Point center = layout->centers[static_cast<std::size_t>(n)];
    item->setPos(center.x, center.y);
    item->setZValue(1);
    addItem(item);
    nodes_[a] = item;
  }
  addLegend(data, facts);
  setSceneRect(itemsBoundingRect().adjusted(-12, -12, 12, 12));
  return OkStatus();
}

void NetworkScene::addLegend(const ReviewData& data, const NetworkFacts& facts) {
  std::set<DataType> types;
  for (const ColumnDomain& domain : data.description.domains) types.insert(domain.type);
  const QFontMetricsF metrics(font());
  const qreal rowHeight = metrics.height() + 8;
  std::vector<std::vector<std::pair<QString, std::function<QGraphicsItem*(QRectF)>>>> rows(2);
  for (DataType type : types) {
    rows[0].push_back({QString::fromLatin1(DataTypeName(type)), [this, type](QRectF r) {
                         return addRect(r, QPen(QColor(0x33, 0x33, 0x33)), dataTypeColor(type));
                       }});
  }
  if (facts.marginals) {
    rows[0].push_back({tr("measured together (a noisy 2- or 3-way marginal)"), [this](QRectF r) {
                         const qreal y = r.center().y();
                         return addLine(r.left(), y, r.right(), y, QPen(kEdgeColor, 1.4));
                       }});
  } else {
    rows[0].push_back({tr("parent → child"), [this](QRectF r) {
                         const qreal y = r.center().y();
                         auto* line = addLine(r.left(), y, r.right() - 4, y, QPen(kEdgeColor, 1.4));
                         addPolygon(arrowHead(QPointF(r.left(), y), QPointF(r.right(), y)),
                                    QPen(kEdgeColor), QBrush(kEdgeColor));
                         return line;
                       }});
  }
  if (facts.deniable && facts.omega) {
    for (Resampling kind : {Resampling::kAlways, Resampling::kSometimes, Resampling::kNever}) {
      if (kind == Resampling::kSometimes && facts.omega->min == facts.omega->max) continue;
      rows[1].push_back({QString::fromLatin1(ResamplingName(kind)), [this, kind](QRectF r) {
                           return addRect(r, borderPen(kind, false), QBrush(Qt::white));
                         }});
    }
    rows[1].push_back({tr("position in σ (sampling order)"), [this](QRectF r) {
                         const QRectF circle(r.left() + 4, r.top() - 2, r.height() + 4,
                                             r.height() + 4);
                         auto* badge = addEllipse(circle, QPen(Qt::white),
                                                  QBrush(QColor(0x37, 0x41, 0x51)));
                         auto* digit = addSimpleText(QStringLiteral("1"));
                         digit->setBrush(Qt::white);
                         digit->setPos(circle.center() -
                                       digit->boundingRect().center());
                         return badge;
                       }});
  }
  const int rowCount = rows[1].empty() ? 1 : 2;
  const QRectF graph = itemsBoundingRect();
  qreal y = graph.top() - rowCount * rowHeight - 14;
  for (int r = 0; r < rowCount; ++r, y += rowHeight) {
    qreal x = graph.left();
    for (auto& [label, draw] : rows[static_cast<std::size_t>(r)]) {
      QGraphicsItem* swatch = draw(QRectF(x, y + 2, 26, metrics.height() - 2));
      if (swatch != nullptr) x += 32;
      auto* text = addSimpleText(label);
      text->setPos(x, y);
      x += metrics.horizontalAdvance(label) + 22;
    }
  }
}

int NetworkScene::attributeAt(QPointF scenePosition) const {
  for (QGraphicsItem* item : items(scenePosition)) {
    if (auto* node = dynamic_cast<NodeItem*>(item)) {
      if (node->mapToScene(node->box()).containsPoint(scenePosition, Qt::OddEvenFill)) {
        return node->attribute();
      }
    }
  }
  return -1;
}

QRectF NetworkScene::nodeRect(int attribute) const {
  if (attribute < 0 || static_cast<std::size_t>(attribute) >= nodes_.size() ||
      nodes_[static_cast<std::size_t>(attribute)] == nullptr) {
    return {};
  }
  auto* node = static_cast<NodeItem*>(nodes_[static_cast<std::size_t>(attribute)]);
  return node->mapRectToScene(node->box());
}

void NetworkScene::setSelectedAttribute(int attribute) {
  for (QGraphicsItem* item : nodes_) {
    if (item != nullptr) {
      auto* node = static_cast<NodeItem*>(item);
      node->setHighlighted(node->attribute() == attribute);
    }
  }
}

void NetworkScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    const int attribute = attributeAt(event->scenePos());
    if (attribute >= 0) {
      setSelectedAttribute(attribute);
      emit attributeClicked(attribute);
      event->accept();
      return;
    }
  }
  QGraphicsScene::mousePressEvent(event);
}

}  // namespace deniable::ui
