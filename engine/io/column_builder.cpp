// SPDX-License-Identifier: Apache-2.0
#include "engine/io/column_builder.h"

#include <utility>

namespace deniable::internal {
namespace {
constexpr std::size_t kInitialSlots = 16;  // small: a file may have many columns
}  // namespace

ColumnBuilder::ColumnBuilder(std::string name)
    : slots_(kInitialSlots, Slot{0, kEmptySlot, 0}), mask_(kInitialSlots - 1) {
  column_.name = std::move(name);
}

void ColumnBuilder::AddCells(const CsvCell* cells, std::size_t count, const char* text,
                             const char* arena, std::uint32_t first_row,
                             const MissingTokens& missing) {
  Key keys[kMaxBatch];
  const char* data[kMaxBatch];
  // Pass 1: hash every cell and prefetch its slot; data[i] == nullptr marks a missing cell.
  for (std::size_t i = 0; i < count; ++i) {
    const CsvCell& cell = cells[i];
    data[i] = (cell.escaped ? arena : text) + cell.offset;
    if ((!cell.quoted || cell.size == 0) && missing.ContainsPadded(data[i], cell.size)) {
      data[i] = nullptr;
      continue;
    }
    keys[i] = MakeKey<true>(data[i], cell.size);
    __builtin_prefetch(&slots_[keys[i].hash & mask_]);
  }
  // Pass 2: probe in row order, so new entries get codes in order of first appearance.
  std::vector<std::uint32_t>& codes = column_.codes;
  for (std::size_t i = 0; i < count; ++i) {
    if (data[i] == nullptr) {
      codes.push_back(kMissingCode);
      ++column_.missing_count;
      continue;
    }
    const std::size_t size = cells[i].size;
    const std::size_t index = Find(keys[i], data[i], size);
    Slot& slot = slots_[index];
    if (slot.code != kEmptySlot) {
      ++slot.count;
      codes.push_back(slot.code);
    } else {
      codes.push_back(Insert(index, keys[i].prefix, std::string_view(data[i], size),
                             first_row + static_cast<std::uint32_t>(i), 1));
    }
  }
}

std::uint32_t ColumnBuilder::Insert(std::size_t index, std::uint64_t prefix, std::string_view text,
                                    std::uint32_t first_row, std::uint32_t count) {
  const auto code = static_cast<std::uint32_t>(column_.dictionary.size());
  column_.dictionary.emplace_back(text);
  column_.first_row.push_back(first_row);
  slots_[index] = Slot{prefix, code, count};
  if (2 * column_.dictionary.size() > slots_.size()) Grow();
  return code;
}

void ColumnBuilder::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{0, kEmptySlot, 0});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.code == kEmptySlot) continue;
    std::size_t index = KeyOf(slot.prefix, slot.code).hash & mask_;
    while (slots_[index].code != kEmptySlot) index = (index + 1) & mask_;
    slots_[index] = slot;
  }
}

void ColumnBuilder::Append(ColumnBuilder&& next, std::uint32_t row_offset) {
  // `next`'s entries by code: their key prefixes and counts, from its slots.
  const std::size_t next_distinct = next.column_.dictionary.size();
  std::vector<const Slot*> entries(next_distinct);
  for (const Slot& slot : next.slots_) {
    if (slot.code != kEmptySlot) entries[slot.code] = &slot;
  }
  // Entries in `next` are in first-appearance order and all its rows come after ours, so
  // appending its new entries in its order keeps the merged dictionary in first-appearance order.
  std::vector<std::uint32_t> remap(next_distinct);
  for (std::size_t code = 0; code < next_distinct; ++code) {
    const Slot& entry = *entries[code];
    const std::string& text = next.column_.dictionary[code];
    const Key key = next.KeyOf(entry.prefix, entry.code);
    const std::size_t index = Find(key, text.data(), text.size());
    if (slots_[index].code != kEmptySlot) {
      slots_[index].count += entry.count;
      remap[code] = slots_[index].code;
    } else {
      remap[code] =
          Insert(index, key.prefix, text, next.column_.first_row[code] + row_offset, entry.count);
    }
  }
  std::vector<std::uint32_t>& codes = column_.codes;
  codes.reserve(codes.size() + next.column_.codes.size());
  for (const std::uint32_t code : next.column_.codes) {
    codes.push_back(code == kMissingCode ? kMissingCode : remap[code]);
  }
  column_.missing_count += next.column_.missing_count;
  next = ColumnBuilder(std::string());
}

RawColumn ColumnBuilder::Take() {
  column_.counts.assign(column_.dictionary.size(), 0);
  for (const Slot& slot : slots_) {
    if (slot.code != kEmptySlot) column_.counts[slot.code] = slot.count;
  }
  slots_.assign(kInitialSlots, Slot{0, kEmptySlot, 0});
  mask_ = kInitialSlots - 1;
  RawColumn column = std::move(column_);
  column_ = RawColumn{};
  return column;
}

}  // namespace deniable::internal
