// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/string_trie.h"

#include <cassert>

namespace deniable {
namespace {

constexpr std::size_t kMaxLength = 4096;
constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// The byte length a lead byte announces (0 for a byte that cannot start a character).
std::size_t SequenceLength(std::uint8_t lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// The allowed range of the second byte after `lead` (RFC 3629 §4); later bytes are 80-BF.
void SecondByteRange(std::uint8_t lead, std::uint8_t& lo, std::uint8_t& hi) {
  lo = 0x80;
  hi = 0xBF;
  if (lead == 0xE0) lo = 0xA0;
  if (lead == 0xED) hi = 0x9F;
  if (lead == 0xF0) lo = 0x90;
  if (lead == 0xF4) hi = 0x8F;
}

// Length of the valid UTF-8 character at text[pos], or 0 if invalid or truncated.
std::size_t ValidCharacter(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<std::uint8_t>(text[pos]);
  const std::size_t length = SequenceLength(lead);
  if (length == 0 || pos + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto b = static_cast<std::uint8_t>(text[pos + k]);
    std::uint8_t lo = 0x80, hi = 0xBF;
    if (k == 1) SecondByteRange(lead, lo, hi);
    if (b < lo || b > hi) return 0;
  }
  return length;
}

}  // namespace

Result<StringTrie> StringTrie::Create(std::size_t max_length_bytes) {
  if (max_length_bytes < 1 || max_length_bytes > kMaxLength) {
    return InvalidArgument("string trie: max_length_bytes must be in [1, 4096] (got " +
                           std::to_string(max_length_bytes) + ")");
  }
  return StringTrie(max_length_bytes);
}

std::string StringTrie::Normalize(std::string_view text) const {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t length = ValidCharacter(text, pos);
    const std::string_view character =
        length > 0 ? text.substr(pos, length) : std::string_view(kReplacement);
    if (out.size() + character.size() > max_length_) break;
    out += character;
    pos += length > 0 ? length : 1;
  }
  return out;
}

std::vector<std::string> StringTrie::NormalizeAll(std::span<const std::string> texts) const {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) out.push_back(Normalize(text));
  return out;
}

bool StringTrie::IsNormalized(std::string_view text) const {
  if (text.size() > max_length_) return false;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = ValidCharacter(text, pos);
    if (length == 0) return false;
    pos += length;
  }
  return true;
}

StringTrie::NextBytes StringTrie::Next(std::string_view prefix) const {
  NextBytes next;
  // The last character's start: the last byte that is not a continuation byte.
  std::size_t start = prefix.size();
  while (start > 0 && prefix.size() - start < 4 &&
         (static_cast<std::uint8_t>(prefix[start - 1]) & 0xC0) == 0x80) {
    --start;
  }
  std::size_t have = 0, need = 0;
  if (start > 0) {
    --start;
    have = prefix.size() - start;
    need = SequenceLength(static_cast<std::uint8_t>(prefix[start]));
  }
  next.boundary = have == need;
  if (!next.boundary) {
    std::uint8_t lo = 0x80, hi = 0xBF;
    if (have == 1) SecondByteRange(static_cast<std::uint8_t>(prefix[start]), lo, hi);
    next.ranges[next.count++] = {lo, hi};
    return next;
  }
  const std::size_t room = prefix.size() < max_length_ ? max_length_ - prefix.size() : 0;
  if (room >= 1) next.ranges[next.count++] = {0x00, 0x7F};
  if (room >= 2) next.ranges[next.count++] = {0xC2, 0xDF};
  if (room >= 3) next.ranges[next.count++] = {0xE0, 0xEF};
  if (room >= 4) next.ranges[next.count++] = {0xF0, 0xF4};
  return next;
}

std::uint32_t StringTrie::Branching(const Node& node) const {
  if (node.terminal || node.prefix.size() >= max_length_) return 0;
  const NextBytes next = Next(node.prefix);
  std::uint32_t count = next.boundary ? 1 : 0;
  for (int r = 0; r < next.count; ++r) {
    count += static_cast<std::uint32_t>(next.ranges[r].hi - next.ranges[r].lo + 1);
  }
  return count;
}

StringTrie::Node StringTrie::Child(const Node& node, std::uint32_t i) const {
  const NextBytes next = Next(node.prefix);
  if (next.boundary) {
    if (i == 0) return Node{node.prefix, true};
    --i;
  }
  for (int r = 0; r < next.count; ++r) {
    const std::uint32_t size = next.ranges[r].hi - next.ranges[r].lo + 1;
    if (i < size) return Node{node.prefix + static_cast<char>(next.ranges[r].lo + i), false};
    i -= size;
  }
  assert(false && "StringTrie::Child: index out of range");
  return node;
}

std::uint32_t StringTrie::ChildOf(const Node& node, const Value& value) const {
  if (value.size() == node.prefix.size()) return 0;  // the end-of-string child
  const NextBytes next = Next(node.prefix);
  const auto b = static_cast<std::uint8_t>(value[node.prefix.size()]);
  std::uint32_t index = next.boundary ? 1 : 0;
  for (int r = 0; r < next.count; ++r) {
    if (b >= next.ranges[r].lo && b <= next.ranges[r].hi) return index + (b - next.ranges[r].lo);
    index += static_cast<std::uint32_t>(next.ranges[r].hi - next.ranges[r].lo + 1);
  }
  assert(false && "StringTrie::ChildOf: value outside the node");
  return 0;
}

bool StringTrie::Contains(const Node& node, const Value& value) const {
  if (node.terminal) return value == node.prefix;
  if (node.prefix.empty()) return IsNormalized(value);
  return value.size() >= node.prefix.size() &&
         value.compare(0, node.prefix.size(), node.prefix) == 0;
}

StringTrie::Value StringTrie::Draw(const Node& node, Rng& /*rng*/) const {
  std::string out = node.prefix;
  for (NextBytes next = Next(out); !next.boundary; next = Next(out)) {
    out.push_back(static_cast<char>(next.ranges[0].lo));
  }
  return out;
}

std::string StringTrie::Label(const Node& node) const {
  return "\"" + node.prefix + (node.terminal ? "\"" : "\"*");
}

}  // namespace deniable
