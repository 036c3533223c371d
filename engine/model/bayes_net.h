// SPDX-License-Identifier: Apache-2.0
// A Bayesian network over encoded attributes, with its (already private) conditional
// distributions. The independent mode is a network without edges, the random mode one with
// uniform tables; the correlated mode learns a PrivBayes network; the plausible-deniability
// mode learns one with CFS merit (deniable/). All sample through the same code (sampler.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/encoded_table.h"

namespace deniable {

struct BayesNode {
  int attribute = 0;         // index into the encoded table's columns / the domains
  std::vector<int> parents;  // attribute indices, all earlier in the network's order
  // bkt() of the PD paper, eq. (7): one entry per parent (same order as `parents`), the bucket
  // of each of its codes. An empty inner vector = identity (bucket == code, bucket count ==
  // the parent's cardinality); otherwise parent_buckets[p].size() == cardinality of parent p.
  std::vector<std::vector<std::uint32_t>> parent_buckets;
  std::vector<std::uint32_t> parent_bucket_counts;  // one per parent: number of buckets
  // Pr{attribute = v | parent configuration c} at probabilities[c * cardinality + v];
  // configuration c is mixed-radix over the parents' buckets, the FIRST parent most
  // significant: c = ((b0 * n1) + b1) * n2 + b2 ...
  std::uint32_t cardinality = 0;
  std::vector<double> probabilities;

  std::size_t configurations() const { return probabilities.size() / (cardinality ? cardinality : 1); }
  std::uint32_t BucketOf(std::size_t parent_index, std::uint32_t code) const {
    const auto& map = parent_buckets[parent_index];
    return map.empty() ? code : map[code];
  }
};

struct BayesNet {
  // In sampling (topological) order: every node's parents appear before it. This order is σ of
  // the plausible-deniability paper (§3.2).
  std::vector<BayesNode> nodes;

  // Structural checks: a permutation of 0..n-1 attributes, parents earlier, tables sized and
  // each distribution summing to 1 within 1e-9. Returns an empty string when valid.
  std::string Validate(const std::vector<std::uint32_t>& cardinalities) const;
};

}  // namespace deniable
