// SPDX-License-Identifier: Apache-2.0
// Record-level t-discount functions for the improved adaptive histogram (paper Fig. 2's Skip and
// Appendix A's generalisations). Before a node that continues recurses, a discount removes at
// least t records from its population, so that populations shrink by t per level: that is
// what makes Theorem 3's privacy cost independent of the depth.
//
// Every record carries a priority, fixed before the run and independent of the data values:
// its input index (kSkipFirst) or its rank in one uniformly random permutation (kProportional,
// kUniform). A node's population is kept as a list in increasing priority, and a discount
// removes the LOWEST-priority alive records by its rule. This makes each function stable in the
// sense of Appendix A, eq. (9), and more: for B = A + one record, the survivors satisfy
// T(B) = T(A) or T(B) = T(A) + one record, so the difference follows one root-to-leaf path
// (the "chain reaction" of Theorem 3's proof). Proofs: discount_functions.md.
//
// Not offered: Progressive discounting ("remove one record from the currently largest child")
// is NOT stable at the record level (counterexample in discount_functions.md, checked by
// DiscountTest.ProgressiveDiscountIsNotStable), and Fractional discounting spreads the difference
// over several paths, outside Theorem 3's argument.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace deniable {

enum class DiscountFunction {
  kSkipFirst,     // Fig. 2 literally: the t records of the population that come first in the
                  // input. Beware: a file sorted by a column biases which records go.
  kProportional,  // the same over one uniformly random permutation (App. A "proportional
                  // discounting": children lose records in proportion to their size). Default.
  kUniform,       // an equal share ⌈t/k⌉ of each child's lowest-priority records (or all of a
                  // smaller child), then the lowest-priority remaining records until t went
                  // (App. A "uniform discounting"); random priorities. May remove more than t.
};

const char* DiscountFunctionName(DiscountFunction function);  // "skip-first", ...
std::optional<DiscountFunction> ParseDiscountFunction(std::string_view name);

// True when the priorities are a random permutation (drawn once per run from the Rng).
inline bool UsesRandomPriorities(DiscountFunction function) {
  return function != DiscountFunction::kSkipFirst;
}

// Which records of one node's population a t-discount removes.
//   child_of[i]: the child (< children) of the i-th record of the population, the population
//                listed in increasing priority (lowest first). Only kUniform reads it.
//   removed:     output, one flag per record (resized to child_of.size()): 1 = removed.
// Returns the number removed: min(t, size) for the skip rules; for kUniform at least
// min(t, size) and at most max(t, k·⌈t/k⌉).
std::size_t MarkDiscounted(DiscountFunction function, std::uint64_t t,
                           std::span<const std::uint32_t> child_of, std::uint32_t children,
                           std::vector<std::uint8_t>& removed);

}  // namespace deniable
