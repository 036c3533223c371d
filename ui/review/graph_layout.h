// SPDX-License-Identifier: Apache-2.0
// Lays out a directed graph (the learned Bayesian network) with Graphviz's `dot` through its C
// API (libgvc/libcgraph) — we do not write a layout by hand. Qt-free values in, values out.
// Graphviz is not thread-safe: calls are serialised by a mutex, so any thread may call this.
// They share one Graphviz context, made on the first call and kept for the process.
#pragma once

#include <string>
#include <vector>

#include "engine/core/result.h"

namespace deniable::ui {

struct GraphLayoutInput {
  struct Node {
    double width = 1.0;   // inches (Graphviz's unit; 72 points each)
    double height = 0.5;  // inches
  };
  struct Edge {
    int from = 0;  // node indices
    int to = 0;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::string rank_direction = "TB";  // "TB" top to bottom, "LR" left to right
};

struct GraphLayout {
  struct Point {
    double x = 0;
    double y = 0;
  };
  struct EdgePath {
    // Cubic Bézier control points: p0, then (c1, c2, p) triples; empty if dot drew none.
    std::vector<Point> points;
    bool has_arrow = false;
    Point arrow_tip;  // where the arrow head ends (on the head node's border)
  };
  double width = 0;   // bounding box, points
  double height = 0;
  std::vector<Point> centers;  // per input node, points, y axis pointing DOWN (as in Qt)
  std::vector<EdgePath> edges;  // per input edge
};

// Errors: an edge naming a node that does not exist (names the edge), or Graphviz failing.
Result<GraphLayout> ComputeGraphLayout(const GraphLayoutInput& input);

}  // namespace deniable::ui
