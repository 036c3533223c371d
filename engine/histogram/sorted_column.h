// SPDX-License-Identifier: Apache-2.0
// The column as the adaptive algorithms see it (not API): its distinct values in decomposition
// order and, per record, a "sorted position" — records holding the k-th smallest distinct value
// occupy positions [offset[k], offset[k+1]), in input order. Every node of the decomposition is
// then a contiguous range of distinct values (and of positions), and its children are found by
// binary search over the distinct values only. Equal values are grouped with an open-addressing
// hash table before sorting, so a column of 1.5M rows with 50k distinct values sorts 50k values.
// Nothing here is released; it is the exact data the mechanisms count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/int128.h"
#include "engine/core/result.h"
#include "engine/histogram/decomposition.h"

namespace deniable::internal {

inline constexpr std::size_t kMaxRecords = 0xFFFFFFFEu;

inline std::uint64_t MixBits(std::uint64_t x) {  // SplitMix64's finalizer
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
inline std::uint64_t HashValue(Int128 v) {
  const auto u = static_cast<Uint128>(v);
  return MixBits(static_cast<std::uint64_t>(u) ^ MixBits(static_cast<std::uint64_t>(u >> 64)));
}
inline std::uint64_t HashValue(std::int64_t v) { return MixBits(static_cast<std::uint64_t>(v)); }
inline std::uint64_t HashValue(std::uint64_t v) { return MixBits(v); }
inline std::uint64_t HashValue(const std::string& v) {
  return MixBits(std::hash<std::string_view>{}(v));
}

template <typename Value>
struct SortedColumn {
  std::vector<Value> distinct;                   // sorted by the decomposition's order
  std::vector<std::uint32_t> offset;             // distinct.size() + 1 entries
  std::vector<std::uint32_t> position_of_input;  // input index -> sorted position
  std::uint32_t size() const { return offset.back(); }
  std::uint32_t Records(std::uint32_t first, std::uint32_t last) const {  // distinct [first, last)
    return offset[last] - offset[first];
  }
};

template <Decomposition D>
Status CheckInRoot(const D& d, const typename D::Node& root, const typename D::Value& v,
                   std::size_t index) {
  if (d.Contains(root, v)) return OkStatus();
  return InvalidArgument("value " + std::to_string(index) + " lies outside the decomposition's "
                         "root " + d.Label(root) + " (map values with the decomposition)");
}

// Mostly distinct values: one sort of (value, input index) pairs, ties by input index.
template <Decomposition D>
Result<SortedColumn<typename D::Value>> SortByPairs(const D& d,
                                                    std::span<const typename D::Value> values) {
  using Value = typename D::Value;
  const auto n = static_cast<std::uint32_t>(values.size());
  std::vector<std::pair<Value, std::uint32_t>> pairs;
  pairs.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) pairs.emplace_back(values[i], i);
  std::sort(pairs.begin(), pairs.end(), [&d](const auto& a, const auto& b) {
    if (d.Less(a.first, b.first)) return true;
    if (d.Less(b.first, a.first)) return false;
    return a.second < b.second;
  });
  const typename D::Node root = d.Root();
  SortedColumn<Value> column;
  std::vector<std::uint32_t> position(n, 0u);
  for (std::uint32_t p = 0; p < n; ++p) {
    position[pairs[p].second] = p;
    if (p > 0 && pairs[p].first == column.distinct.back()) continue;
    if (Status s = CheckInRoot(d, root, pairs[p].first, pairs[p].second); !s) return s.error();
    column.offset.push_back(p);
    column.distinct.push_back(std::move(pairs[p].first));
  }
  column.offset.push_back(n);
  column.position_of_input = std::move(position);
  return column;
}

// Many repeated values: group equal values with a hash table, then sort the distinct ones.
// Gives up (nullopt) when, after the first 2^17 values, more than 3/4 of them were distinct:
// sorting pairs is then faster.
template <Decomposition D>
Result<std::optional<SortedColumn<typename D::Value>>> SortByGroups(
    const D& d, std::span<const typename D::Value> values) {
  using Value = typename D::Value;
  const auto n = static_cast<std::uint32_t>(values.size());
  const typename D::Node root = d.Root();
  // 1. A distinct id per input (linear probing; the table stays at most half full).
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  std::vector<std::uint32_t> first_input;  // distinct id -> an input holding it
  std::vector<std::uint32_t> id_of_input(n);
  std::vector<std::uint32_t> table(64, kEmpty);
  auto insert = [&](std::uint32_t id) {
    const std::size_t mask = table.size() - 1;
    std::size_t slot = HashValue(values[first_input[id]]) & mask;
    while (table[slot] != kEmpty) slot = (slot + 1) & mask;
    table[slot] = id;
  };
  constexpr std::uint32_t kProbe = 1u << 17;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i == kProbe && 4 * first_input.size() > 3 * static_cast<std::size_t>(kProbe)) {
      return std::optional<SortedColumn<Value>>();
    }
    const Value& v = values[i];
    const std::size_t mask = table.size() - 1;
    std::size_t slot = HashValue(v) & mask;
    while (table[slot] != kEmpty && !(values[first_input[table[slot]]] == v)) {
      slot = (slot + 1) & mask;
    }
    if (table[slot] != kEmpty) {
      id_of_input[i] = table[slot];
      continue;
    }
    if (Status s = CheckInRoot(d, root, v, i); !s) return s.error();
    const auto id = static_cast<std::uint32_t>(first_input.size());
    first_input.push_back(i);
    id_of_input[i] = id;
    table[slot] = id;
    if (2 * first_input.size() > table.size()) {
      table.assign(2 * table.size(), kEmpty);
      for (std::uint32_t j = 0; j < first_input.size(); ++j) insert(j);
    }
  }
  // 2. Sort the distinct values (no ties); rank[id] is the position of id in the order.
  const auto m = static_cast<std::uint32_t>(first_input.size());
  std::vector<std::pair<Value, std::uint32_t>> sorted;
  sorted.reserve(m);
  for (std::uint32_t id = 0; id < m; ++id) sorted.emplace_back(values[first_input[id]], id);
  std::sort(sorted.begin(), sorted.end(),
            [&d](const auto& a, const auto& b) { return d.Less(a.first, b.first); });
  std::vector<std::uint32_t> rank(m);
  SortedColumn<Value> column;
  column.distinct.reserve(m);
  for (std::uint32_t r = 0; r < m; ++r) {
    rank[sorted[r].second] = r;
    column.distinct.push_back(std::move(sorted[r].first));
  }
  // 3. Offsets, then positions in input order within each distinct value.
  std::vector<std::uint32_t> offset(m + 1, 0u);
  for (std::uint32_t i = 0; i < n; ++i) ++offset[rank[id_of_input[i]] + 1];
  for (std::uint32_t r = 0; r < m; ++r) offset[r + 1] += offset[r];
  std::vector<std::uint32_t> cursor(offset.begin(), offset.end() - 1);
  std::vector<std::uint32_t> position(n, 0u);
  for (std::uint32_t i = 0; i < n; ++i) position[i] = cursor[rank[id_of_input[i]]]++;
  column.offset = std::move(offset);
  column.position_of_input = std::move(position);
  return std::optional<SortedColumn<Value>>(std::move(column));
}

// Groups, sorts and checks the values (each distinct value must lie in the root). The methods
// give the same column: values that repeat are grouped by hashing (the distinct ones sorted);
// mostly distinct values are sorted as (value, index) pairs.
template <Decomposition D>
Result<SortedColumn<typename D::Value>> SortColumn(const D& d,
                                                   std::span<const typename D::Value> values) {
  if (values.size() > kMaxRecords) {
    return InvalidArgument("at most 4294967294 values per histogram (got " +
                           std::to_string(values.size()) + ")");
  }
  auto grouped = SortByGroups(d, values);
  if (!grouped) return grouped.error();
  if (grouped->has_value()) return std::move(**grouped);
  return SortByPairs(d, values);
}

// bounds[i] = first distinct index of child i within [lo, hi) (distinct indices); bounds[k] =
// hi. Binary search with ChildOf, which is non-decreasing along the order inside a node.
template <Decomposition D>
void ChildBounds(const D& d, const typename D::Node& node, std::uint32_t k,
                 std::span<const typename D::Value> distinct, std::uint32_t lo, std::uint32_t hi,
                 std::vector<std::uint32_t>& bounds) {
  bounds.assign(k + 1, hi);
  bounds[0] = lo;
  std::uint32_t pos = lo;
  std::uint32_t next_child = 0;  // children below this one have their start set
  while (pos < hi) {
    const std::uint32_t c = d.ChildOf(node, distinct[pos]);
    for (std::uint32_t j = next_child; j <= c; ++j) bounds[j] = pos;
    next_child = c + 1;
    const auto end = std::partition_point(
        distinct.begin() + pos, distinct.begin() + hi,
        [&](const typename D::Value& v) { return d.ChildOf(node, v) <= c; });
    pos = static_cast<std::uint32_t>(end - distinct.begin());
  }
  for (std::uint32_t j = next_child; j < k; ++j) bounds[j] = hi;
}

// The child whose range of sorted positions holds position p (bounds: k + 1 starts).
inline std::uint32_t ChildIndex(const std::vector<std::uint32_t>& bounds, std::uint32_t p) {
  if (bounds.size() == 3) return p >= bounds[1] ? 1u : 0u;
  return static_cast<std::uint32_t>(std::upper_bound(bounds.begin() + 1, bounds.end() - 1, p) -
                                    (bounds.begin() + 1));
}

// Records of the column in each leaf (leaves partition the root in value order).
template <Decomposition D>
Result<std::vector<std::uint64_t>> CountLeaves(const D& d,
                                               std::span<const typename D::Node> leaves,
                                               const SortedColumn<typename D::Value>& column) {
  std::vector<std::uint64_t> counts(leaves.size(), 0);
  std::size_t j = 0;
  for (std::uint32_t k = 0; k < column.distinct.size(); ++k) {
    while (j < leaves.size() && !d.Contains(leaves[j], column.distinct[k])) ++j;
    if (j == leaves.size()) {
      return InvalidArgument("the leaves do not partition the domain in order: a value (" +
                             std::to_string(k) + "-th smallest distinct) lies in none of them");
    }
    counts[j] += column.Records(k, k + 1);
  }
  return counts;
}

}  // namespace deniable::internal
