// SPDX-License-Identifier: Apache-2.0
#include "engine/model/bayes_net.h"

#include <cmath>
#include <string>
#include <vector>

namespace deniable {
namespace {

// Tables larger than this are rejected: they could not be sampled in memory anyway.
constexpr std::uint64_t kMaxTableEntries = std::uint64_t{1} << 32;

std::string NodeName(std::size_t index, const BayesNode& node) {
  return "node " + std::to_string(index) + " (attribute " + std::to_string(node.attribute) + ")";
}

// Checks one node's parents and bucket maps; `position[a]` is the order of attribute a.
std::string ValidateParents(std::size_t index, const BayesNode& node,
                            const std::vector<std::uint32_t>& cardinalities,
                            const std::vector<int>& position) {
  const std::string name = NodeName(index, node);
  if (node.parent_buckets.size() != node.parents.size() ||
      node.parent_bucket_counts.size() != node.parents.size()) {
    return name + ": parent_buckets and parent_bucket_counts must have one entry per parent (" +
           std::to_string(node.parents.size()) + " parents, " +
           std::to_string(node.parent_buckets.size()) + " bucket maps, " +
           std::to_string(node.parent_bucket_counts.size()) + " bucket counts)";
  }
  const int m = static_cast<int>(cardinalities.size());
  for (std::size_t p = 0; p < node.parents.size(); ++p) {
    const int parent = node.parents[p];
    if (parent < 0 || parent >= m) {
      return name + ": parent " + std::to_string(parent) + " is not an attribute";
    }
    if (position[static_cast<std::size_t>(parent)] >= static_cast<int>(index)) {
      return name + ": parent " + std::to_string(parent) +
             " does not come before the node in the network's order";
    }
    for (std::size_t q = 0; q < p; ++q) {
      if (node.parents[q] == parent) {
        return name + ": parent " + std::to_string(parent) + " is listed twice";
      }
    }
    const std::uint32_t parent_cardinality = cardinalities[static_cast<std::size_t>(parent)];
    const std::uint32_t buckets = node.parent_bucket_counts[p];
    const auto& map = node.parent_buckets[p];
    if (map.empty()) {
      if (buckets != parent_cardinality) {
        return name + ": parent " + std::to_string(parent) + " has an identity bucket map, so " +
               "its bucket count must be its cardinality " +
               std::to_string(parent_cardinality) + " (got " + std::to_string(buckets) + ")";
      }
      continue;
    }
    if (map.size() != parent_cardinality) {
      return name + ": the bucket map of parent " + std::to_string(parent) + " has " +
             std::to_string(map.size()) + " entries for cardinality " +
             std::to_string(parent_cardinality);
    }
    for (std::size_t code = 0; code < map.size(); ++code) {
      if (map[code] >= buckets) {
        return name + ": parent " + std::to_string(parent) + " maps code " +
               std::to_string(code) + " to bucket " + std::to_string(map[code]) +
               ", not below its bucket count " + std::to_string(buckets);
      }
    }
  }
  return {};
}

std::string ValidateTable(std::size_t index, const BayesNode& node) {
  const std::string name = NodeName(index, node);
  std::uint64_t configurations = 1;
  for (std::uint32_t buckets : node.parent_bucket_counts) {
    if (buckets == 0) return name + ": a parent has 0 buckets";
    configurations *= buckets;
    if (configurations * node.cardinality > kMaxTableEntries) {
      return name + ": the conditional table would have more than 2^32 entries";
    }
  }
  const std::uint64_t expected = configurations * node.cardinality;
  if (node.probabilities.size() != expected) {
    return name + ": the conditional table has " + std::to_string(node.probabilities.size()) +
           " entries, expected " + std::to_string(configurations) + " configurations x " +
           std::to_string(node.cardinality) + " values = " + std::to_string(expected);
  }
  for (std::uint64_t c = 0; c < configurations; ++c) {
    double sum = 0;
    for (std::uint32_t v = 0; v < node.cardinality; ++v) {
      const double p = node.probabilities[c * node.cardinality + v];
      if (!(std::isfinite(p) && p >= 0)) {
        return name + ": configuration " + std::to_string(c) + " has probability " +
               std::to_string(p) + " for value " + std::to_string(v);
      }
      sum += p;
    }
    if (std::abs(sum - 1.0) > 1e-9) {
      return name + ": the distribution of configuration " + std::to_string(c) +
             " sums to " + std::to_string(sum) + ", not 1";
    }
  }
  return {};
}

}  // namespace

std::string BayesNet::Validate(const std::vector<std::uint32_t>& cardinalities) const {
  const std::size_t m = cardinalities.size();
  if (nodes.size() != m) {
    return "the network has " + std::to_string(nodes.size()) + " nodes for " +
           std::to_string(m) + " attributes";
  }
  std::vector<int> position(m, -1);
  for (std::size_t i = 0; i < m; ++i) {
    const int attribute = nodes[i].attribute;
    if (attribute < 0 || static_cast<std::size_t>(attribute) >= m) {
      return NodeName(i, nodes[i]) + ": not an attribute index (0.." + std::to_string(m - 1) +
             ")";
    }
    if (position[static_cast<std::size_t>(attribute)] != -1) {
      return NodeName(i, nodes[i]) + ": attribute already has node " +
             std::to_string(position[static_cast<std::size_t>(attribute)]);
    }
    position[static_cast<std::size_t>(attribute)] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < m; ++i) {
    const BayesNode& node = nodes[i];
    const std::uint32_t cardinality = cardinalities[static_cast<std::size_t>(node.attribute)];
    if (cardinality == 0 || node.cardinality != cardinality) {
      return NodeName(i, node) + ": cardinality " + std::to_string(node.cardinality) +
             " does not match the attribute's " + std::to_string(cardinality);
    }
    if (std::string error = ValidateParents(i, node, cardinalities, position); !error.empty()) {
      return error;
    }
    if (std::string error = ValidateTable(i, node); !error.empty()) return error;
  }
  return {};
}

}  // namespace deniable
