// SPDX-License-Identifier: Apache-2.0
#include "engine/model/id_generator.h"

#include <cmath>
#include <unordered_set>

namespace deniable {
namespace {

struct Slot {
  char literal = 0;      // when alphabet_size == 0
  char first = 0;        // first character of the class
  unsigned alphabet = 0; // 10 digits, 26 letters, 0 for a literal
};

std::vector<Slot> ParsePattern(std::string_view pattern) {
  std::vector<Slot> slots;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      slots.push_back(Slot{pattern[++i], 0, 0});
    } else if (c == '#') {
      slots.push_back(Slot{0, '0', 10});
    } else if (c == 'A') {
      slots.push_back(Slot{0, 'A', 26});
    } else if (c == 'a') {
      slots.push_back(Slot{0, 'a', 26});
    } else {
      slots.push_back(Slot{c, 0, 0});
    }
  }
  return slots;
}

// Number of distinct values, saturating at 2^62.
double Capacity(const std::vector<Slot>& slots) {
  double capacity = 1;
  for (const Slot& slot : slots) {
    if (slot.alphabet > 0) capacity = std::min(capacity * slot.alphabet, 4.6e18);
  }
  return capacity;
}

std::string Render(const std::vector<Slot>& slots, std::uint64_t index) {
  std::string text(slots.size(), ' ');
  for (std::size_t i = slots.size(); i-- > 0;) {
    const Slot& slot = slots[i];
    if (slot.alphabet == 0) {
      text[i] = slot.literal;
    } else {
      text[i] = static_cast<char>(slot.first + index % slot.alphabet);
      index /= slot.alphabet;
    }
  }
  return text;
}

}  // namespace

Result<std::vector<std::string>> GenerateUniqueIds(std::string_view pattern, std::size_t count,
                                                   Rng& rng) {
  std::vector<Slot> slots = ParsePattern(pattern.empty() ? std::string_view("ID-#") : pattern);
  if (slots.size() > 200) return InvalidArgument("identifier pattern is too long");
  while (Capacity(slots) < 2.0 * static_cast<double>(count) + 16) {
    slots.push_back(Slot{0, '0', 10});
  }
  const auto capacity = static_cast<std::uint64_t>(Capacity(slots));
  std::vector<std::string> ids;
  ids.reserve(count);
  std::unordered_set<std::uint64_t> used;
  used.reserve(count * 2);
  while (ids.size() < count) {
    const std::uint64_t index = UniformBelow(rng, capacity);
    if (used.insert(index).second) ids.push_back(Render(slots, index));
  }
  return ids;
}

}  // namespace deniable
