// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/seed_index.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace deniable {
namespace {

constexpr std::size_t kCheckEvery = std::size_t{1} << 16;

}  // namespace

Result<SeedIndex> SeedIndex::Build(const EncodedTable& seeds, const std::vector<int>& order,
                                   int depth, Progress& progress) {
  if (depth < 0 || static_cast<std::size_t>(depth) > order.size()) {
    return InvalidArgument("seed index depth must be in 0.." + std::to_string(order.size()) +
                           " (got " + std::to_string(depth) + ")");
  }
  if (seeds.rows >= 0xFFFFFFFFull) {
    return FailedPrecondition("too many seed rows (" + std::to_string(seeds.rows) + ")");
  }
  for (int attribute : order) {
    if (attribute < 0 || static_cast<std::size_t>(attribute) >= seeds.num_attributes()) {
      return InvalidArgument("seed index: order names attribute " + std::to_string(attribute) +
                             ", not one of the table's " + std::to_string(seeds.num_attributes()));
    }
  }
  const std::size_t n = seeds.rows;
  const std::size_t d = static_cast<std::size_t>(depth);
  SeedIndex index;
  index.depth_ = depth;

  // LSD radix sort of the rows by their codes at positions d-1, ..., 0 (stable counting sort
  // per position): lexicographic order in σ.
  std::vector<std::uint32_t> rows(n), scratch(n);
  std::iota(rows.begin(), rows.end(), 0u);
  for (std::size_t position = d; position-- > 0;) {
    if (progress.IsCancelled()) return Cancelled("building the seed index cancelled");
    const std::size_t attribute = static_cast<std::size_t>(order[position]);
    const std::vector<Code>& column = seeds.columns[attribute];
    const std::size_t cardinality = std::max<std::size_t>(seeds.cardinalities[attribute], 1) + 1;
    std::vector<std::size_t> start(cardinality + 1, 0);
    for (std::uint32_t row : rows) {
      if (column[row] >= cardinality - 1) {
        return InvalidArgument("seed row " + std::to_string(row) + " has code " +
                               std::to_string(column[row]) + " for attribute " +
                               std::to_string(attribute) + " of cardinality " +
                               std::to_string(seeds.cardinalities[attribute]));
      }
      ++start[column[row] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (std::uint32_t row : rows) scratch[start[column[row]]++] = row;
    rows.swap(scratch);
  }

  // Codes of the sorted seeds, row-major in position order.
  index.codes_.resize(n * d);
  for (std::size_t position = 0; position < d; ++position) {
    const std::vector<Code>& column = seeds.columns[static_cast<std::size_t>(order[position])];
    for (std::size_t j = 0; j < n; ++j) index.codes_[j * d + position] = column[rows[j]];
  }
  index.rows_ = std::move(rows);

  // Levels: a seed starts new nodes at every level below its common prefix with the previous
  // seed; otherwise it joins the previous seed's nodes.
  index.levels_.resize(d + 1);
  std::vector<std::uint32_t> current(d + 1, 0);
  index.leaf_.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    if (j % kCheckEvery == 0 && progress.IsCancelled()) {
      return Cancelled("building the seed index cancelled");
    }
    const Code* row = index.codes_.data() + j * d;
    std::size_t common = 0;
    if (j > 0) {
      const Code* previous = row - d;
      while (common < d && row[common] == previous[common]) ++common;
    } else {
      index.levels_[0].first_child.push_back(0);
    }
    for (std::size_t level = 1; level <= d; ++level) {
      Level& here = index.levels_[level];
      if (j == 0 || level > common) {
        const std::uint32_t node = static_cast<std::uint32_t>(here.code.size());
        here.code.push_back(row[level - 1]);
        here.count.push_back(0);
        here.parent.push_back(current[level - 1]);
        if (level < d)
          here.first_child.push_back(
              static_cast<std::uint32_t>(index.levels_[level + 1].code.size()));
        current[level] = node;
      }
      ++here.count[current[level]];
    }
    index.leaf_[j] = current[d];
  }
  // first_child of a node = size of the next level when it was created; a sentinel closes
  // the last range.
  for (std::size_t level = 0; level < d; ++level) {
    index.levels_[level].first_child.push_back(
        static_cast<std::uint32_t>(index.levels_[level + 1].code.size()));
  }
  if (n == 0) index.levels_[0].first_child.assign(2, 0);
  return index;
}

std::uint32_t SeedIndex::Child(int level, std::uint32_t node, Code code) const {
  const Level& here = levels_[static_cast<std::size_t>(level)];
  const Level& next = levels_[static_cast<std::size_t>(level) + 1];
  const std::uint32_t begin = here.first_child[node];
  const std::uint32_t end = here.first_child[node + 1];
  if (end - begin <= 16) {
    for (std::uint32_t c = begin; c < end; ++c) {
      if (next.code[c] == code) return c;
      if (next.code[c] > code) return kNone;
    }
    return kNone;
  }
  const auto first = next.code.begin() + begin;
  const auto last = next.code.begin() + end;
  const auto it = std::lower_bound(first, last, code);
  return it != last && *it == code ? static_cast<std::uint32_t>(it - next.code.begin()) : kNone;
}

std::size_t SeedIndex::MemoryBytes() const {
  std::size_t bytes = codes_.size() * sizeof(Code) + leaf_.size() * 4 + rows_.size() * 4;
  for (const Level& level : levels_) {
    bytes += level.code.size() * sizeof(Code) +
             (level.count.size() + level.parent.size() + level.first_child.size()) * 4;
  }
  return bytes;
}

}  // namespace deniable
