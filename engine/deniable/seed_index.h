// SPDX-License-Identifier: Apache-2.0
// SeedIndex: the seed set D_S as a trie of counts over the first `depth` positions (σ order).
// A node at level L stands for one prefix of length L held by at least one seed; its count is
// N(prefix) = the number of seeds starting with that prefix. With it, the number of seeds that
// agree with a candidate y on its first L positions, for every L, costs O(1) per level (walk up
// from the candidate's seed, walk down along y's re-sampled codes): no scan of D_S.
//
// Layout: level-wise arrays (nodes of a level in lexicographic order, the children of a node
// contiguous and sorted by code), built from an LSD radix sort of the seeds. Seeds are kept
// in that sorted order: seed j's first `depth` codes are SeedCodes(j), its node at level
// `depth` is Leaf(j).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/model/encoded_table.h"

namespace deniable {

class SeedIndex {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // `seeds`: the D_S rows (columns = attributes); `order`: σ (attribute at each position);
  // `depth` <= order.size(): positions indexed. Cancellable.
  static Result<SeedIndex> Build(const EncodedTable& seeds, const std::vector<int>& order,
                                 int depth, Progress& progress);

  std::size_t size() const { return leaf_.size(); }
  int depth() const { return depth_; }

  // Seed j (0 <= j < size(), in sorted order): its first depth() codes, position order.
  const Code* SeedCodes(std::size_t j) const {
    return codes_.data() + j * static_cast<std::size_t>(depth_);
  }
  std::uint32_t Leaf(std::size_t j) const { return leaf_[j]; }
  // The input row (index into `seeds`) of sorted seed j.
  std::uint32_t SeedRow(std::size_t j) const { return rows_[j]; }

  // Number of seeds under `node` of `level` (level 0: the root, node 0, count size()).
  std::uint32_t Count(int level, std::uint32_t node) const {
    return level == 0 ? static_cast<std::uint32_t>(size())
                      : levels_[static_cast<std::size_t>(level)].count[node];
  }
  std::uint32_t Parent(int level, std::uint32_t node) const {
    return level == 0 ? kNone : levels_[static_cast<std::size_t>(level)].parent[node];
  }
  // The child of `node` (at `level` < depth()) with `code` at position `level`, or kNone.
  std::uint32_t Child(int level, std::uint32_t node, Code code) const;

  // Memory held, in bytes (for reports and benchmarks).
  std::size_t MemoryBytes() const;

 private:
  struct Level {
    std::vector<Code> code;             // this node's code at position level-1
    std::vector<std::uint32_t> count;   // seeds under this node
    std::vector<std::uint32_t> parent;  // node at level-1
    std::vector<std::uint32_t>
        first_child;  // children at level+1: [first_child[i], first_child[i+1])
  };

  int depth_ = 0;
  std::vector<Level> levels_;  // levels_[0] = root (only first_child used)
  std::vector<Code> codes_;    // size() x depth_, sorted seeds, position order
  std::vector<std::uint32_t> leaf_;
  std::vector<std::uint32_t> rows_;
};

}  // namespace deniable
