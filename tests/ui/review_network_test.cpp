// SPDX-License-Identifier: Apache-2.0
// Network tab: Graphviz layout, one node per attribute and one edge per parent link, node
// clicks showing the conditional table and its cost, σ order and ω in the deniable mode.
#include <gtest/gtest.h>

#include <QGraphicsView>
#include <QTest>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/conditional_table_model.h"
#include "ui/review/graph_layout.h"
#include "ui/review/network_facts.h"
#include "ui/review/network_scene.h"
#include "ui/review/network_view.h"
#include "ui/review/privacy_facts.h"

namespace deniable::ui {
namespace {

TEST(GraphLayoutTest, DotPlacesParentsAboveChildrenAndRoutesEveryEdge) {
  GraphLayoutInput input;
  input.nodes = {{1.0, 0.5}, {1.0, 0.5}, {1.0, 0.5}};
  input.edges = {{0, 1}, {1, 2}, {0, 2}};
  auto layout = ComputeGraphLayout(input);
  ASSERT_TRUE(layout.has_value()) << layout.error().message;
  ASSERT_EQ(layout->centers.size(), 3u);
  ASSERT_EQ(layout->edges.size(), 3u);
  // Top to bottom, y pointing down: each child is below its parent.
  EXPECT_LT(layout->centers[0].y, layout->centers[1].y);
  EXPECT_LT(layout->centers[1].y, layout->centers[2].y);
  for (const auto& edge : layout->edges) {
    ASSERT_GE(edge.points.size(), 4u);
    EXPECT_EQ((edge.points.size() - 1) % 3, 0u);  // p0 then Bézier triples
    EXPECT_TRUE(edge.has_arrow);
  }
  // Inside the bounding box.
  for (const auto& c : layout->centers) {
    EXPECT_GE(c.x, 0);
    EXPECT_LE(c.x, layout->width);
    EXPECT_GE(c.y, 0);
    EXPECT_LE(c.y, layout->height);
  }
}

// The process keeps one Graphviz context (graph_layout.cpp): a layout after another one, of a
// different graph, is the same as the first layout of its graph.
TEST(GraphLayoutTest, ALayoutIsTheSameAfterOthersOnTheSharedContext) {
  GraphLayoutInput chain;
  chain.nodes = {{1.0, 0.5}, {0.8, 0.4}, {1.2, 0.5}};
  chain.edges = {{0, 1}, {1, 2}};
  GraphLayoutInput star;
  star.nodes = {{1.0, 0.5}, {1.0, 0.5}, {1.0, 0.5}, {1.0, 0.5}};
  star.edges = {{0, 1}, {0, 2}, {0, 3}};
  star.rank_direction = "LR";
  auto first = ComputeGraphLayout(chain);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(ComputeGraphLayout(star).has_value());
  auto again = ComputeGraphLayout(chain);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(again->width, first->width);
  EXPECT_EQ(again->height, first->height);
  ASSERT_EQ(again->centers.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(again->centers[i].x, first->centers[i].x) << "node " << i;
    EXPECT_EQ(again->centers[i].y, first->centers[i].y) << "node " << i;
  }
  ASSERT_EQ(again->edges.size(), 2u);
  for (std::size_t e = 0; e < 2; ++e) {
    ASSERT_EQ(again->edges[e].points.size(), first->edges[e].points.size()) << "edge " << e;
    for (std::size_t k = 0; k < first->edges[e].points.size(); ++k) {
      EXPECT_EQ(again->edges[e].points[k].x, first->edges[e].points[k].x);
      EXPECT_EQ(again->edges[e].points[k].y, first->edges[e].points[k].y);
    }
  }
}

TEST(GraphLayoutTest, RejectsAnEdgeToAMissingNode) {
  GraphLayoutInput input;
  input.nodes = {{1.0, 0.5}};
  input.edges = {{0, 3}};
  auto layout = ComputeGraphLayout(input);
  ASSERT_FALSE(layout.has_value());
  EXPECT_NE(layout.error().message.find("0 -> 3"), std::string::npos);
}

TEST(NetworkSceneTest, HasOneNodePerAttributeAndOneEdgePerParentLink) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  NetworkScene scene;
  ASSERT_TRUE(scene.setData(*data));
  std::size_t links = 0;
  for (const BayesNode& node : data->description.network.nodes) links += node.parents.size();
  ASSERT_GT(links, 0u);  // the correlated mode learned some structure
  EXPECT_EQ(scene.nodeCount(), static_cast<int>(data->description.domains.size()));
  EXPECT_EQ(scene.edgeCount(), static_cast<int>(links));
  // Every node is found where it is drawn, and parents are drawn above their children.
  for (const BayesNode& node : data->description.network.nodes) {
    const QRectF rect = scene.nodeRect(node.attribute);
    ASSERT_FALSE(rect.isEmpty());
    EXPECT_EQ(scene.attributeAt(rect.center()), node.attribute);
    for (int parent : node.parents) EXPECT_LT(scene.nodeRect(parent).center().y(), rect.center().y());
  }
}

TEST(NetworkViewTest, ClickingANodeShowsItsConditionalTableAndCost) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  NetworkView view;
  view.resize(1400, 900);
  view.setData(data);
  const Description& description = data->description;
  // The node with the most parents.
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < description.network.nodes.size(); ++i) {
    if (description.network.nodes[i].parents.size() >
        description.network.nodes[chosen].parents.size()) {
      chosen = i;
    }
  }
  const BayesNode& node = description.network.nodes[chosen];
  auto* graphics = view.findChild<QGraphicsView*>();
  ASSERT_NE(graphics, nullptr);
  graphics->resize(900, 800);
  graphics->fitInView(view.scene()->sceneRect(), Qt::KeepAspectRatio);
  const QPoint at = graphics->mapFromScene(view.scene()->nodeRect(node.attribute).center());
  QTest::mouseClick(graphics->viewport(), Qt::LeftButton, {}, at);
  ASSERT_EQ(view.currentAttribute(), node.attribute);

  const ConditionalTableModel* table = view.conditionalModel();
  ASSERT_EQ(table->rowCount(), static_cast<int>(node.configurations()));
  ASSERT_EQ(table->columnCount(), static_cast<int>(node.cardinality));
  const ColumnDomain& domain = description.domains[static_cast<std::size_t>(node.attribute)];
  for (int v = 0; v < table->columnCount(); ++v) {
    EXPECT_EQ(table->headerData(v, Qt::Horizontal).toString().toStdString(),
              domain.CodeLabel(static_cast<std::uint32_t>(v),
                               &description.schema.columns[static_cast<std::size_t>(
                                   description.schema.ColumnIndex(domain.name))]));
  }
  for (int c = 0; c < table->rowCount(); ++c) {
    double sum = 0;
    for (int v = 0; v < table->columnCount(); ++v) sum += table->probability(c, v);
    EXPECT_NEAR(sum, 1.0, 1e-9);
  }
  // The first configuration names every parent.
  for (int parent : node.parents) {
    EXPECT_TRUE(table->configurationLabel(0).contains(
        QString::fromStdString(description.domains[static_cast<std::size_t>(parent)].name)));
  }
  // The ledger's entries about this attribute (at least its noisy counts) are listed.
  const PrivacyFacts privacy = ExtractPrivacyFacts(*data);
  const auto concerning = EntriesConcerning(privacy.entries, domain.name, node.attribute);
  ASSERT_GE(concerning.size(), 1u);
  for (std::size_t i : concerning) {
    EXPECT_TRUE(view.costText().contains(
        readableLedgerLabel(privacy.entries[i].label, AttributeNames(description)).toHtmlEscaped()));
  }
  EXPECT_TRUE(std::any_of(concerning.begin(), concerning.end(), [&](std::size_t i) {
    return privacy.entries[i].label.rfind("noisy counts of", 0) == 0;
  }));
  EXPECT_TRUE(view.detailsText().contains(QStringLiteral("Position in σ: %1 of %2")
                                              .arg(chosen + 1)
                                              .arg(description.network.nodes.size())));
}

TEST(NetworkFactsTest, LastOmegaAttributesInSigmaAreResampled) {
  auto data = test_support::DemoDeniableReviewData(/*omega_min=*/2, /*omega_max=*/4);
  ASSERT_NE(data, nullptr);
  const NetworkFacts facts = ExtractNetworkFacts(*data);
  ASSERT_TRUE(facts.deniable);
  ASSERT_TRUE(facts.omega.has_value());
  EXPECT_EQ(facts.omega->min, 2);
  EXPECT_EQ(facts.omega->max, 4);
  const int m = static_cast<int>(facts.sigma.size());
  ASSERT_EQ(m, static_cast<int>(data->description.domains.size()));
  for (int i = 0; i < m; ++i) {
    const Resampling expected = i >= m - 2   ? Resampling::kAlways
                                : i >= m - 4 ? Resampling::kSometimes
                                             : Resampling::kNever;
    EXPECT_EQ(facts.ResamplingOf(facts.sigma[static_cast<std::size_t>(i)]), expected) << i;
  }
  const NetworkFacts correlated = ExtractNetworkFacts(*test_support::DemoReviewData());
  EXPECT_FALSE(correlated.deniable);
  EXPECT_EQ(correlated.ResamplingOf(0), Resampling::kNotDeniable);
}

TEST(NetworkViewTest, DeniableModeShowsSigmaOrderAndOmega) {
  auto data = test_support::DemoDeniableReviewData(5, 11);
  ASSERT_NE(data, nullptr);
  NetworkView view;
  view.setData(data);
  const NetworkFacts facts = ExtractNetworkFacts(*data);
  const QString sigma = QString::fromStdString(facts.SigmaText(AttributeNames(data->description)));
  EXPECT_TRUE(view.orderText().contains(sigma.toHtmlEscaped()));
  EXPECT_TRUE(view.orderText().contains(QStringLiteral("5–11")));
  // The last attribute in σ is shown first, and it is always re-sampled.
  EXPECT_EQ(view.currentAttribute(), facts.sigma.back());
  EXPECT_TRUE(view.detailsText().contains(QStringLiteral("always re-sampled")));
}

// The marginals mode (AIM on the demo data): the facts read AIM's error bounds from the
// description, and a column's details say how many of its workload queries are bounded.
TEST(NetworkViewTest, MarginalsModeShowsAimErrorBounds) {
  auto data = test_support::DemoReviewData(SynthesisMode::kMarginals);
  ASSERT_NE(data, nullptr);
  const NetworkFacts facts = ExtractNetworkFacts(*data);
  ASSERT_TRUE(facts.marginals);
  EXPECT_EQ(facts.mechanism, "aim");
  const nlohmann::json& bounds = data->description.parameters["model"]["error_bounds"];
  ASSERT_EQ(facts.bounds.size(), bounds.size());
  ASSERT_FALSE(facts.bounds.empty());
  int measured = 0;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    EXPECT_EQ(facts.bounds[i].measured, bounds[i]["measured"].get<bool>()) << i;
    if (!facts.bounds[i].measured) continue;
    ++measured;
    EXPECT_DOUBLE_EQ(facts.bounds[i].expected_tvd,
                     bounds[i]["expected_l1_fraction"].get<double>() / 2) << i;
  }
  ASSERT_GT(measured, 0);
  // Some column has bounded queries; its details give their count and the median.
  const int attributes = static_cast<int>(data->description.domains.size());
  int column = -1;
  for (int a = 0; a < attributes && column < 0; ++a) {
    if (facts.BoundsOf(a).bounded > 0) column = a;
  }
  ASSERT_GE(column, 0);
  const AttributeBounds b = facts.BoundsOf(column);
  EXPECT_LE(b.median_tvd, b.worst_tvd);
  int queries = 0;
  for (const WorkloadBound& w : facts.bounds) {
    queries += std::count(w.attributes.begin(), w.attributes.end(), column) > 0 ? 1 : 0;
  }
  EXPECT_EQ(b.queries, queries);
  NetworkView view;
  view.setData(data);
  view.showAttribute(column);
  EXPECT_TRUE(view.detailsText().contains(
      QStringLiteral("%1 of the %2 workload marginals").arg(b.bounded).arg(b.queries)))
      << view.detailsText().toStdString();
  // DENIABLE_UI_GRAB_DIR=/tmp/x saves the view for a look (docs/architecture.md).
  if (const QString dir = qEnvironmentVariable("DENIABLE_UI_GRAB_DIR"); !dir.isEmpty()) {
    view.resize(1000, 640);
    view.grab().save(dir + QStringLiteral("/network_marginals.png"));
  }
}

// The marginals mode's exact pairs (parameters.model.consistent_pairs): the header lists them
// and the child's and parent's details say which follows which; malformed entries are skipped.
TEST(NetworkViewTest, MarginalsModeShowsThePairsMadeExact) {
  auto base = test_support::DemoReviewData(SynthesisMode::kMarginals);
  ASSERT_NE(base, nullptr);
  auto data = std::make_shared<ReviewData>(*base);
  const std::vector<std::string> names = AttributeNames(data->description);
  const auto index = [&](const std::string& name) {
    return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const int code = index("education-num"), label = index("education");
  ASSERT_LT(code, static_cast<int>(names.size()));
  ASSERT_LT(label, static_cast<int>(names.size()));
  nlohmann::json& model = data->description.parameters["model"];
  model["consistent_pairs"] = nlohmann::json::array(
      {{{"parent", code}, {"child", label}, {"lambda", 0.9}},
       {{"parent", 999}, {"child", label}},     // out of range: skipped
       {{"parent", "x"}, {"child", code}}});    // not a number: skipped
  const NetworkFacts facts = ExtractNetworkFacts(*data);
  ASSERT_EQ(facts.exact_pairs.size(), 1u);
  EXPECT_EQ(facts.exact_pairs[0], std::make_pair(code, label));
  NetworkView view;
  view.setData(data);
  EXPECT_TRUE(view.orderText().contains(QStringLiteral("<b>Made exact</b>")));
  EXPECT_TRUE(view.orderText().contains(QStringLiteral("education-num → education")))
      << view.orderText().toStdString();
  view.showAttribute(label);
  EXPECT_TRUE(view.detailsText().contains(QStringLiteral("<b>Follows education-num</b>")))
      << view.detailsText().toStdString();
  view.showAttribute(code);
  EXPECT_TRUE(view.detailsText().contains(QStringLiteral("<b>Determines education</b>")));
}

}  // namespace
}  // namespace deniable::ui
