// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/discount.h"

#include <algorithm>

namespace deniable {

const char* DiscountFunctionName(DiscountFunction function) {
  switch (function) {
    case DiscountFunction::kSkipFirst: return "skip-first";
    case DiscountFunction::kProportional: return "proportional";
    case DiscountFunction::kUniform: return "uniform";
  }
  return "?";
}

std::optional<DiscountFunction> ParseDiscountFunction(std::string_view name) {
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    if (name == DiscountFunctionName(f)) return f;
  }
  return std::nullopt;
}

std::size_t MarkDiscounted(DiscountFunction function, std::uint64_t t,
                           std::span<const std::uint32_t> child_of, std::uint32_t children,
                           std::vector<std::uint8_t>& removed) {
  const std::size_t size = child_of.size();
  removed.assign(size, 0);
  std::size_t count = 0;
  if (function == DiscountFunction::kUniform && children > 0) {
    // Step 1: each child's ⌈t/k⌉ lowest-priority records (all of a smaller child). The list is
    // in priority order, so a child's lowest are its first occurrences.
    const std::uint64_t share = (t + children - 1) / children;
    std::vector<std::uint64_t> taken(children, 0);
    for (std::size_t i = 0; i < size; ++i) {
      const std::uint32_t c = child_of[i];
      if (taken[c] < share) {
        ++taken[c];
        removed[i] = 1;
        ++count;
      }
    }
  }
  // Skip: the lowest-priority records still alive, until t went in total (for kUniform: the
  // remainder of its quota after step 1).
  for (std::size_t i = 0; i < size && count < t; ++i) {
    if (!removed[i]) {
      removed[i] = 1;
      ++count;
    }
  }
  return count;
}

}  // namespace deniable
