// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/direct_synthesis.h"

#include <algorithm>
#include <cassert>

#include "engine/core/int128.h"
#include "engine/dp/validation.h"

namespace deniable {

void Center(std::int64_t count, std::span<std::int64_t> subcounts, std::size_t start) {
  assert(count >= 0 && !subcounts.empty() && start < subcounts.size() && "Center: bad input");
  const std::size_t k = subcounts.size();
  Int128 sum = 0;
  std::int64_t largest = 0;
  for (std::int64_t& s : subcounts) {
    s = std::max<std::int64_t>(0, s);
    sum += s;
    largest = std::max(largest, s);
  }
  if (sum < count) {
    // Every step of an upward round succeeds: q full rounds, then r more steps from `start`.
    const Int128 deficit = static_cast<Int128>(count) - sum;
    const auto q = static_cast<std::int64_t>(deficit / static_cast<Int128>(k));
    const auto r = static_cast<std::size_t>(deficit % static_cast<Int128>(k));
    for (std::int64_t& s : subcounts) s += q;
    for (std::size_t j = 0; j < r; ++j) ++subcounts[(start + j) % k];
    return;
  }
  if (sum == count) return;
  // Downward: after J full rounds every entry is max(0, s_i − J), sum S(J), non-increasing.
  // The loop stops in the first round J* with S(J*) <= count: restore the state after J* − 1
  // rounds and replay round J* step by step (one round at most).
  auto sum_after = [&](std::int64_t rounds) {
    Int128 total = 0;
    for (std::int64_t s : subcounts) total += std::max<std::int64_t>(0, s - rounds);
    return total;
  };
  std::int64_t lo = 1;        // S(lo − 1) > count is known for lo = 1 (S(0) = sum)
  std::int64_t hi = largest;  // S(largest) = 0 <= count
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (sum_after(mid) <= count) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  for (std::int64_t& s : subcounts) s = std::max<std::int64_t>(0, s - (lo - 1));
  Int128 current = sum_after(0);
  for (std::size_t j = 0; j < k && current > count; ++j) {
    std::int64_t& s = subcounts[(start + j) % k];
    if (s > 0) {
      --s;
      --current;
    }
  }
}

namespace internal {

Result<double> SpendDirect(PrivacyAccountant& accountant, const std::string& label,
                           const std::string& partition, const DirectSynthesisOptions& options,
                           std::int64_t total) {
  if (Status s = CheckPositiveFinite(options.epsilon, "direct synthesis epsilon"); !s) {
    return s.error();
  }
  if (options.max_depth < 1 || options.max_depth > 4096) {
    return InvalidArgument("direct synthesis max_depth must be in [1, 4096] (got " +
                           std::to_string(options.max_depth) + ")");
  }
  if (total < 0 || total > (std::int64_t{1} << 62)) {
    return InvalidArgument("the number of records to synthesize must be in [0, 2^62] (got " +
                           std::to_string(total) + ")");
  }
  const double epsilon_level = EvenShare(options.epsilon, options.max_depth);
  if (!GeometricMechanism::Create(epsilon_level, 1)) {
    return InvalidArgument("direct synthesis epsilon / max_depth = " +
                           FormatDouble(epsilon_level) + " is too small for the noise sampler");
  }
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "direct synthesis (discrete Laplace subcounts, one level each)";
  entry.partition = partition;
  entry.reference =
      "Synthetic Data via Differential Privacy, §4 Figs. 3-4; histogram/direct_synthesis.md";
  entry.epsilon_each = epsilon_level;
  entry.sensitivity = 1;
  entry.count = options.max_depth;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  return epsilon_level;
}

}  // namespace internal
}  // namespace deniable
