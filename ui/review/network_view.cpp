// SPDX-License-Identifier: Apache-2.0
#include "ui/review/network_view.h"

#include <QGraphicsView>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/review/conditional_table_model.h"
#include "ui/review/network_facts.h"
#include "ui/review/network_scene.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

// Shows the whole graph: shrinks it to fit, never magnifies beyond 1:1.
class FittingGraphicsView : public QGraphicsView {
 public:
  using QGraphicsView::QGraphicsView;
  void fit() {
    if (scene() == nullptr || scene()->sceneRect().isEmpty()) return;
    resetTransform();
    const QRectF rect = scene()->sceneRect();
    const QSizeF room = viewport()->size();
    const double scale = std::min({1.0, room.width() / rect.width(), room.height() / rect.height()});
    this->scale(scale, scale);
    centerOn(rect.center());
  }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    QGraphicsView::resizeEvent(event);
    fit();
  }
};

QString bold(const QString& text) { return QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()); }

}  // namespace

NetworkView::NetworkView(QWidget* parent)
    : QWidget(parent),
      scene_(new NetworkScene(this)),
      view_(new FittingGraphicsView),
      order_(new QLabel),
      title_(new QLabel),
      details_(new QLabel),
      cost_(new QLabel),
      table_(new QTableView),
      tableModel_(new ConditionalTableModel(this)) {
  view_->setScene(scene_);
  view_->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  view_->setBackgroundBrush(palette().base());
  view_->setToolTip(tr("The learned Bayesian network: each attribute is drawn from its parents "
                       "(arrows point from parent to child). Click an attribute."));
  order_->setWordWrap(true);
  order_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  QFont titleFont = title_->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  for (QLabel* label : {details_, cost_}) {
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  }
  table_->setModel(tableModel_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setToolTip(tr("Pr{value | parents}: each row is one configuration of the parents and "
                        "sums to 100 %. Learned from noisy counts (differentially private)."));

  auto* panel = new QWidget;
  auto* panelLayout = new QVBoxLayout(panel);
  panelLayout->setContentsMargins(0, 0, 0, 0);
  panelLayout->addWidget(title_);
  panelLayout->addWidget(details_);
  panelLayout->addWidget(cost_);
  panelLayout->addWidget(table_, 1);

  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(order_);
  leftLayout->addWidget(view_, 1);

  // The panel scrolls: a marginals attribute's list of measurements and ledger entries can be
  // taller than a 700-pixel window.
  table_->setMinimumHeight(150);
  auto* panelScroll = new QScrollArea;
  panelScroll->setWidget(panel);
  panelScroll->setWidgetResizable(true);
  panelScroll->setFrameShape(QFrame::NoFrame);
  panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(panelScroll);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  // Start at 3 : 2 whatever the panel's size hint (the conditional table's columns would
  // otherwise claim the width and leave the graph a thumbnail); the user can drag it.
  splitter->setSizes({3000, 2000});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter);

  connect(scene_, &NetworkScene::attributeClicked, this, &NetworkView::showAttribute);
  clear();
}

QString NetworkView::orderText() const { return order_->text(); }
QString NetworkView::detailsText() const { return details_->text(); }
QString NetworkView::costText() const { return cost_->text(); }

void NetworkView::clear() {
  data_.reset();
  privacy_ = PrivacyFacts{};
  scene_->clearNetwork();
  tableModel_->setNode(nullptr, -1);
  order_->setText(tr("No results yet: run a synthesis first."));
  title_->clear();
  details_->clear();
  cost_->clear();
  current_ = -1;
}

void NetworkView::setData(std::shared_ptr<const ReviewData> reviewData) {
  if (!reviewData) {
    clear();
    return;
  }
  data_ = std::move(reviewData);
  privacy_ = ExtractPrivacyFacts(*data_);
  const Status laid = scene_->setData(*data_);
  static_cast<FittingGraphicsView*>(view_)->fit();
  const NetworkFacts facts = ExtractNetworkFacts(*data_);
  const std::vector<std::string> names = AttributeNames(data_->description);
  QString text = tr("%1 attributes, %2 parent links, mode %3.")
                     .arg(scene_->nodeCount())
                     .arg(scene_->edgeCount())
                     .arg(toQString(data_->description.mode));
  if (facts.marginals) {
    std::size_t joint = 0;
    for (const MeasuredMarginal& m : facts.measured) joint += m.attributes.size() >= 2 ? 1 : 0;
    text = tr("%1 attributes, mode marginals (%2). %3 noisy marginals measured, %4 of them over "
              "two or more columns; a line joins columns measured together. There is no "
              "Bayesian network: a graphical model is fitted to these marginals (Private-PGM) "
              "and the rows are sampled from it.")
               .arg(scene_->nodeCount())
               .arg(facts.mechanism == "mst" ? tr("MST") : tr("AIM"))
               .arg(facts.measured.size())
               .arg(joint);
    if (!facts.exact_pairs.empty()) {
      QStringList pairs;
      for (const auto& [parent, child] : facts.exact_pairs) {
        pairs << QStringLiteral("%1 → %2")
                     .arg(toQString(names[static_cast<std::size_t>(parent)]).toHtmlEscaped(),
                          toQString(names[static_cast<std::size_t>(child)]).toHtmlEscaped());
      }
      text += tr("<br><b>Made exact</b> (a near-function in the fitted model: every sampled row "
                 "gets the label its code has there): %1.")
                  .arg(pairs.join(QStringLiteral(", ")));
    }
  }
  if (facts.deniable) {
    text += tr("<br><b>σ order</b> (the order attributes are sampled in): %1")
                .arg(toQString(facts.SigmaText(names)).toHtmlEscaped());
    if (facts.omega) {
      const int m = static_cast<int>(facts.sigma.size());
      text += facts.omega->min == facts.omega->max
                  ? tr("<br>Each candidate copies the first %1 attributes from its seed and "
                       "re-samples the last ω = %2.")
                        .arg(m - facts.omega->min)
                        .arg(facts.omega->min)
                  : tr("<br>Each candidate re-samples the last ω attributes, ω drawn from "
                       "%1–%2; the first %3 are always copied from its seed.")
                        .arg(facts.omega->min)
                        .arg(facts.omega->max)
                        .arg(m - facts.omega->max);
    } else {
      text += tr("<br>The run did not record ω: the re-sampled attributes are not shown.");
    }
  }
  if (!laid) text += tr("<br>%1").arg(toQString(laid.error().message).toHtmlEscaped());
  order_->setText(text);
  current_ = -1;
  const auto& nodes = data_->description.network.nodes;
  // Start on the last attribute in σ: in the deniable mode it is always re-sampled, and it has
  // the richest table (parents are earlier).
  showAttribute(nodes.empty() ? -1 : nodes.back().attribute);
}

void NetworkView::showAttribute(int attribute) {
  current_ = -1;
  title_->clear();
  details_->clear();
  cost_->clear();
  tableModel_->setNode(nullptr, -1);
  if (!data_ || attribute < 0 ||
      static_cast<std::size_t>(attribute) >= data_->description.domains.size()) {
    return;
  }
  const Description& description = data_->description;
  int nodeIndex = -1;
  for (std::size_t i = 0; i < description.network.nodes.size(); ++i) {
    if (description.network.nodes[i].attribute == attribute) nodeIndex = static_cast<int>(i);
  }
  if (nodeIndex < 0) return;
  current_ = attribute;
  scene_->setSelectedAttribute(attribute);
  const ColumnDomain& domain = description.domains[static_cast<std::size_t>(attribute)];
  const BayesNode& node = description.network.nodes[static_cast<std::size_t>(nodeIndex)];
  const NetworkFacts facts = ExtractNetworkFacts(*data_);
  title_->setText(toQString(domain.AttributeName()));
  QStringList parents;
  for (int p : node.parents) {
    parents << toQString(description.domains[static_cast<std::size_t>(p)].AttributeName()).toHtmlEscaped();
  }
  table_->setVisible(!facts.marginals);
  if (facts.marginals) {
    // What was measured about this attribute (its marginals and their noise).
    QStringList marginals;
    for (std::size_t i : facts.MeasuredWith(attribute)) {
      QStringList columns;
      for (int a : facts.measured[i].attributes) {
        columns << toQString(description.domains[static_cast<std::size_t>(a)].AttributeName()).toHtmlEscaped();
      }
      marginals << tr("{%1} (noise σ = %2 rows)")
                       .arg(columns.join(QStringLiteral(", ")))
                       .arg(QString::number(facts.measured[i].sigma, 'g', 3));
    }
    QString text =
        tr("%1; %2 in the model.<br><b>Measured in</b>: %3.")
            .arg(domain.is_geo() ? tr("geo pair of two columns")
                                 : dataTypeLabel(domain.type, domain.categorical))
            .arg(node.cardinality == 1 ? tr("1 value") : tr("%1 values").arg(node.cardinality))
            .arg(marginals.isEmpty() ? tr("nothing (drawn from the fitted model)")
                                     : marginals.join(QStringLiteral("; ")));
    // AIM's a-priori error bounds (AIM §5) of the workload queries with this column.
    const AttributeBounds b = facts.BoundsOf(attribute);
    if (b.queries > 0) {
      text += tr("<br><b>Expected error</b> (AIM's bound from the noise, before sampling): ");
      text += b.bounded == 0
                  ? tr("none of the %1 workload marginals with this column lies inside a measured "
                       "one; they are estimated from the model, without a bound.")
                        .arg(b.queries)
                  : tr("%1 of the %2 workload marginals with this column lie inside a measured "
                       "one: expected noise %3 in total variation (median; worst %4). The other "
                       "%5 are estimated from the model, without a bound.")
                        .arg(b.bounded)
                        .arg(b.queries)
                        .arg(QString::number(b.median_tvd, 'g', 2))
                        .arg(QString::number(b.worst_tvd, 'g', 2))
                        .arg(b.queries - b.bounded);
    }
    auto nameOf = [&](int a) {
      return toQString(description.domains[static_cast<std::size_t>(a)].AttributeName()).toHtmlEscaped();
    };
    for (const auto& [parent, child] : facts.exact_pairs) {
      if (child == attribute) {
        text += tr("<br><b>Follows %1</b>: each code of %1 gets one value of this column in every "
                   "sampled row (a near-function in the fitted model, made exact).")
                    .arg(nameOf(parent));
      } else if (parent == attribute) {
        text += tr("<br><b>Determines %1</b> in every sampled row (a near-function in the fitted "
                   "model, made exact).")
                    .arg(nameOf(child));
      }
    }
    details_->setText(text);
  }
  QString details = tr("%1; %2 in the model; parents: %3.")
                        .arg(domain.is_geo() ? tr("geo pair of two columns")
                                             : dataTypeLabel(domain.type, domain.categorical))
                        .arg(node.cardinality == 1 ? tr("1 value")
                                                   : tr("%1 values").arg(node.cardinality))
                        .arg(parents.isEmpty() ? tr("none (drawn from its marginal)")
                                               : parents.join(QStringLiteral(", ")));
  details += tr("<br>Position in σ: %1 of %2").arg(nodeIndex + 1).arg(description.network.nodes.size());
  if (facts.deniable && facts.omega) {
    details += QStringLiteral(" — ") + bold(QString::fromLatin1(ResamplingName(facts.ResamplingOf(attribute))));
  }
  if (!facts.marginals) details_->setText(details + QStringLiteral("."));

  QString cost;
  if (!privacy_.ledger_ok) {
    cost = tr("The ledger is not available: %1").arg(privacy_.ledger_error.toHtmlEscaped());
  } else {
    const auto concerning = EntriesConcerning(privacy_.entries, domain.AttributeName(), attribute);
    const std::vector<std::string> names = AttributeNames(description);
    cost = tr("<b>What it cost</b> (ledger entries about %1):").arg(toQString(domain.AttributeName()).toHtmlEscaped());
    if (concerning.empty()) cost += tr("<br>none");
    for (std::size_t i : concerning) {
      const LedgerEntry& e = privacy_.entries[i];
      cost += QStringLiteral("<br>• %1 — %2 on %3: %4")
                  .arg(readableLedgerLabel(e.label, names).toHtmlEscaped(),
                       toQString(e.mechanism).toHtmlEscaped(),
                       toQString(e.partition).toHtmlEscaped(), formatEntryCost(e).toHtmlEscaped());
    }
    // Entries about no attribute in particular (structure search, joint domain selection)
    // are shared by all of them.
    std::vector<bool> specific(privacy_.entries.size(), false);
    for (std::size_t a = 0; a < names.size(); ++a) {
      for (std::size_t i : EntriesConcerning(privacy_.entries, names[a], static_cast<int>(a))) {
        specific[i] = true;
      }
    }
    QString shared;
    for (std::size_t i = 0; i < privacy_.entries.size(); ++i) {
      if (specific[i]) continue;
      const LedgerEntry& e = privacy_.entries[i];
      shared += QStringLiteral("<br>• %1 — %2").arg(readableLedgerLabel(e.label, names).toHtmlEscaped(),
                                                   formatEntryCost(e).toHtmlEscaped());
    }
    if (!shared.isEmpty()) cost += tr("<br><b>Shared by all attributes</b>:") + shared;
  }
  cost_->setText(cost);
  tableModel_->setNode(&description, nodeIndex);
}

}  // namespace deniable::ui
