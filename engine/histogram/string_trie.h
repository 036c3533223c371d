// SPDX-License-Identifier: Apache-2.0
// A character trie over UTF-8 bytes (the paper's text decomposition, §1 and §5.2, on bytes
// instead of 38 letters). A node is a prefix P; its children are, in order:
//   * "end of string" (P itself, a terminal leaf) when P ends on a character boundary;
//   * P + b for every byte b that keeps P a valid UTF-8 prefix (RFC 3629: after a boundary
//     0x00-0x7F, 0xC2-0xF4; inside a character the one allowed continuation range) and whose
//     character still fits in the public maximum length.
// A node at the maximum length, or a terminal node, is an indivisible leaf. So every node's
// region is non-empty and the children partition it exactly.
//  * Values: strings normalized by Normalize(): invalid UTF-8 bytes become U+FFFD and the
//    string is cut to the maximum length at a character boundary (public rule).
//  * Order: byte-wise lexicographic (std::string's order; P sorts before its extensions), so
//    every node is contiguous and its children come in index order.
//  * Draw: the region's first (shortest) member, deterministically: P for a terminal node or a
//    node on a boundary, else P completed with the smallest continuation bytes. A non-terminal
//    leaf stands for "strings starting with P" and cannot be drawn uniformly; the column-level
//    StringHistogram reports such leaves as prefixes, not as strings (column_histograms.h).
// ThresholdBranching: 180 (1 + 128 + 30 + 16 + 5 children after a boundary).
// Proof note: histogram/decompositions.md §4.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

class StringTrie {
 public:
  using Value = std::string;
  struct Node {
    std::string prefix;
    bool terminal = false;  // the end-of-string child: exactly `prefix`
  };

  // max_length_bytes in [1, 4096].
  static Result<StringTrie> Create(std::size_t max_length_bytes);

  std::string Normalize(std::string_view text) const;
  std::vector<std::string> NormalizeAll(std::span<const std::string> texts) const;
  std::size_t max_length() const { return max_length_; }
  // True when `text` is valid UTF-8 of at most max_length() bytes (what Normalize returns).
  bool IsNormalized(std::string_view text) const;

  Node Root() const { return Node{}; }
  std::uint32_t Branching(const Node& node) const;
  Node Child(const Node& node, std::uint32_t i) const;
  std::uint32_t ChildOf(const Node& node, const Value& value) const;
  bool Contains(const Node& node, const Value& value) const;
  bool Less(const Value& a, const Value& b) const { return a < b; }
  Value Draw(const Node& node, Rng& rng) const;
  std::string Label(const Node& node) const;  // "\"abc\"" (terminal) or "\"abc\"*"
  double ThresholdBranching() const { return 180; }

 private:
  explicit StringTrie(std::size_t max_length) : max_length_(max_length) {}
  struct ByteRange {
    std::uint8_t lo, hi;
  };
  // The next-byte ranges allowed after a prefix (in byte order) and whether the end-of-string
  // child exists (the prefix ends on a character boundary).
  struct NextBytes {
    ByteRange ranges[4];
    int count = 0;
    bool boundary = false;
  };
  NextBytes Next(std::string_view prefix) const;
  std::size_t max_length_;
};

}  // namespace deniable
