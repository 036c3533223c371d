// SPDX-License-Identifier: Apache-2.0
#include "ui/review/graph_layout.h"

#include <cstdio>
#include <memory>
#include <mutex>

#include <graphviz/gvc.h>

namespace deniable::ui {
namespace {

// Graphviz keeps global state (its context, string pools): one layout at a time.
std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

// cgraph's API takes char* for names and values it only reads; give it writable copies.
int setAttribute(void* object, const std::string& name, const std::string& value) {
  std::string n = name, v = value, empty;
  return agsafeset(object, n.data(), v.data(), empty.data());
}

std::string inches(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", value);
  return buffer;
}

// One Graphviz context for the process, made on first use (under graphvizMutex()) and kept
// until exit. gvContext() reads Graphviz's plugin list (its config6a file) into a buffer that
// the context's plugin table points into, and gvFreeContext() never frees that buffer
// (Graphviz 2.42, gvconfig.c: "config_text not freed because we retain char* into it"): a
// context per layout lost about 3.6 KB on every call. Kept, the context and that buffer stay
// reachable, which is what they are.
GVC_t* graphvizContext() {
  static GVC_t* const context = gvContext();
  return context;
}

struct GraphDeleter {
  void operator()(Agraph_t* graph) const { agclose(graph); }
};

}  // namespace

Result<GraphLayout> ComputeGraphLayout(const GraphLayoutInput& input) {
  const int n = static_cast<int>(input.nodes.size());
  for (std::size_t e = 0; e < input.edges.size(); ++e) {
    const auto& edge = input.edges[e];
    if (edge.from < 0 || edge.from >= n || edge.to < 0 || edge.to >= n) {
      return InvalidArgument("graph layout: edge " + std::to_string(e) + " (" +
                             std::to_string(edge.from) + " -> " + std::to_string(edge.to) +
                             ") names a node outside 0.." + std::to_string(n - 1));
    }
  }
  GraphLayout layout;
  if (n == 0) return layout;

  std::lock_guard<std::mutex> lock(graphvizMutex());
  GVC_t* const context = graphvizContext();
  if (context == nullptr) return Error{ErrorCode::kInternal, "Graphviz: gvContext() failed"};
  std::string graphName = "network";
  std::unique_ptr<Agraph_t, GraphDeleter> graph(agopen(graphName.data(), Agdirected, nullptr));
  if (!graph) return Error{ErrorCode::kInternal, "Graphviz: agopen() failed"};
  setAttribute(graph.get(), "rankdir", input.rank_direction);
  setAttribute(graph.get(), "nodesep", "0.35");
  setAttribute(graph.get(), "ranksep", "0.55");
  setAttribute(graph.get(), "splines", "spline");

  std::vector<Agnode_t*> nodes;
  for (int i = 0; i < n; ++i) {
    std::string name = "n" + std::to_string(i);
    Agnode_t* node = agnode(graph.get(), name.data(), 1);
    setAttribute(node, "shape", "box");
    setAttribute(node, "fixedsize", "true");
    setAttribute(node, "label", "");
    setAttribute(node, "width", inches(input.nodes[static_cast<std::size_t>(i)].width));
    setAttribute(node, "height", inches(input.nodes[static_cast<std::size_t>(i)].height));
    nodes.push_back(node);
  }
  std::vector<Agedge_t*> edges;
  for (const auto& edge : input.edges) {
    edges.push_back(agedge(graph.get(), nodes[static_cast<std::size_t>(edge.from)],
                           nodes[static_cast<std::size_t>(edge.to)], nullptr, 1));
  }
  if (gvLayout(context, graph.get(), "dot") != 0) {
    gvFreeLayout(context, graph.get());  // what a failed layout left on the graph
    return Error{ErrorCode::kInternal, "Graphviz: the dot layout failed"};
  }
  const boxf box = GD_bb(graph.get());
  layout.width = box.UR.x - box.LL.x;
  layout.height = box.UR.y - box.LL.y;
  // Graphviz's y axis points up; Qt's down.
  auto toQt = [&box](pointf p) { return GraphLayout::Point{p.x - box.LL.x, box.UR.y - p.y}; };
  for (Agnode_t* node : nodes) layout.centers.push_back(toQt(ND_coord(node)));
  for (Agedge_t* edge : edges) {
    GraphLayout::EdgePath path;
    const splines* spline = ED_spl(edge);
    if (spline != nullptr && spline->size > 0) {
      const bezier& curve = spline->list[0];
      for (int i = 0; i < curve.size; ++i) path.points.push_back(toQt(curve.list[i]));
      path.has_arrow = curve.eflag != 0;
      if (path.has_arrow) path.arrow_tip = toQt(curve.ep);
    }
    layout.edges.push_back(std::move(path));
  }
  gvFreeLayout(context, graph.get());
  return layout;
}

}  // namespace deniable::ui
