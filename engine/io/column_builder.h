// SPDX-License-Identifier: Apache-2.0
// Internal (not API): builds one dictionary-encoded RawColumn while the CSV reader streams cells
// into it, a batch of rows at a time.
//
// A flat open-addressing hash map (linear probing, load <= 1/2) maps cell texts to dictionary
// codes; a text is copied only when it is new. A 16-byte slot holds the first bytes of the key
// and the entry's count, so keys of up to 7 bytes (most numbers and short categories) are
// matched without touching the dictionary, and a hit touches one cache line. Cells come in
// batches so that the slots of a whole batch are prefetched before they are probed: with a
// high-cardinality column (fnlwgt in adult: 395K distinct values in 1.5M rows) the cache misses
// then overlap instead of stalling the parse one by one.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/int128.h"
#include "engine/core/table.h"
#include "engine/io/csv_text.h"

namespace deniable::internal {

// One field as the tokenizer found it: text[offset, offset + size), or arena[...] when it had
// doubled quotes (`escaped`, unescaped into the arena). Both are readable 8 bytes past the end.
struct CsvCell {
  std::size_t offset;
  std::uint32_t size;
  bool quoted;
  bool escaped;
};

class ColumnBuilder {
 public:
  static constexpr std::size_t kMaxBatch = 256;

  explicit ColumnBuilder(std::string name);

  void Reserve(std::size_t rows) { column_.codes.reserve(rows); }

  // Adds `count` (<= kMaxBatch) cells of consecutive rows, the first being data row
  // `first_row`. An unquoted cell equal to a missing token, or a quoted empty one when "" is a
  // token, is missing. The caller keeps rows (hence distinct values) below kMissingCode.
  void AddCells(const CsvCell* cells, std::size_t count, const char* text, const char* arena,
                std::uint32_t first_row, const MissingTokens& missing);

  // Appends the rows of `next`, built from the rows that follow this builder's `row_offset`
  // rows: merges the dictionaries (keeping first-appearance order) and remaps `next`'s codes.
  void Append(ColumnBuilder&& next, std::uint32_t row_offset);

  std::size_t rows() const { return column_.codes.size(); }
  std::size_t distinct() const { return column_.dictionary.size(); }
  // The finished column (counts filled in).
  RawColumn Take();

 private:
  static constexpr std::uint32_t kEmptySlot = 0xFFFFFFFFu;
  static constexpr std::size_t kInlineBytes = 7;

  struct Slot {
    // Keys of <= 7 bytes: the bytes (in memory order from the low byte) and the length in the
    // top byte, so the key is exactly this word. Longer keys: the first 7 bytes, 0xFF on top.
    std::uint64_t prefix;
    std::uint32_t code;
    std::uint32_t count;  // rows holding the entry (< 2^32: rows are)
  };
  struct Key {
    std::uint64_t prefix;
    std::uint64_t hash;
  };

  static std::uint64_t Mix(std::uint64_t a, std::uint64_t b) {
    const Uint128 product = static_cast<Uint128>(a) * b;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
  }
  static std::uint64_t FromMemory(std::uint64_t word) {
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    return word;
  }
  // The `bytes` (<= 8) bytes at `data` as the low bytes of a word. kPadded: 8 bytes readable.
  template <bool kPadded>
  static std::uint64_t Load(const char* data, std::size_t bytes) {
    std::uint64_t word = 0;
    if constexpr (kPadded) {
      std::memcpy(&word, data, 8);
      word = FromMemory(word);
      return bytes >= 8 ? word : word & ((std::uint64_t{1} << (8 * bytes)) - 1);
    } else {
      std::memcpy(&word, data, bytes < 8 ? bytes : 8);
      return FromMemory(word);
    }
  }
  template <bool kPadded>
  static Key MakeKey(const char* data, std::size_t size) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ULL;
    if (size <= kInlineBytes) {
      const std::uint64_t prefix = Load<kPadded>(data, size) | (std::uint64_t{size} << 56);
      return Key{prefix, ShortHash(prefix)};
    }
    std::uint64_t hash = Mix(size ^ 0xE7037ED1A0B428DBULL, kMul);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) hash = Mix(hash ^ Load<kPadded>(data + i, 8), kMul);
    if (i < size) hash = Mix(hash ^ Load<kPadded>(data + i, size - i), kMul);
    return Key{Load<kPadded>(data, 7) | (std::uint64_t{0xFF} << 56), hash};
  }
  static std::uint64_t ShortHash(std::uint64_t prefix) {
    return Mix(prefix ^ 0xA0761D6478BD642FULL, 0x9E3779B97F4A7C15ULL);
  }
  // The key of dictionary entry `code` (for re-hashing and merging).
  Key KeyOf(std::uint64_t prefix, std::uint32_t code) const {
    if ((prefix >> 56) != 0xFF) return Key{prefix, ShortHash(prefix)};
    const std::string& text = column_.dictionary[code];
    return MakeKey<false>(text.data(), text.size());
  }

  bool Matches(const Slot& slot, const Key& key, const char* data, std::size_t size) const {
    if (slot.prefix != key.prefix) return false;
    if (size <= kInlineBytes) return true;
    const std::string& text = column_.dictionary[slot.code];
    if (text.size() != size) return false;
    // Inline word compare: most keys are short, a memcmp call costs more than the compare.
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t a, b;
      std::memcpy(&a, text.data() + i, 8);
      std::memcpy(&b, data + i, 8);
      if (a != b) return false;
    }
    for (; i < size; ++i) {
      if (text[i] != data[i]) return false;
    }
    return true;
  }
  // The slot holding the key, or the empty slot where it goes.
  std::size_t Find(const Key& key, const char* data, std::size_t size) const {
    std::size_t index = key.hash & mask_;
    while (slots_[index].code != kEmptySlot && !Matches(slots_[index], key, data, size)) {
      index = (index + 1) & mask_;
    }
    return index;
  }
  // Puts a new entry in the empty slot `index`; grows the table when it gets half full.
  std::uint32_t Insert(std::size_t index, std::uint64_t prefix, std::string_view text,
                       std::uint32_t first_row, std::uint32_t count);
  void Grow();

  RawColumn column_;
  std::vector<Slot> slots_;
  std::size_t mask_;
};

}  // namespace deniable::internal
