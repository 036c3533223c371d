// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/entropy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/core/compensated_sum.h"
#include "engine/dp/geometric_mechanism.h"

namespace deniable {
namespace {

constexpr std::size_t kDenseCells = std::size_t{1} << 24;

double Up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

// Entropy of the histogram of `keys` (sorting them; for tables too large to count densely).
double EntropyOfKeys(std::vector<std::uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint64_t> counts;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    counts.push_back(j - i);
    i = j;
  }
  return EntropyOfCounts(counts);
}

}  // namespace

double EntropySensitivity(double smaller_rows) {
  const double n = std::max(smaller_rows, 0.0);
  const double numerator = Up(Up(std::log2(n + 1.0)) + Up(1.0 / std::numbers::ln2));
  return Up(numerator / (n + 1.0));
}

double EntropyQuerySensitivity(double smaller_rows) {
  return Up(EntropySensitivity(smaller_rows) + 2 * kEntropyEvaluationError);
}

double EntropyOfCounts(std::span<const std::uint64_t> counts) {
  std::uint64_t n = 0;
  CompensatedSum sum;  // Σ c log2 c, within kEntropyEvaluationError's budget
  for (std::uint64_t c : counts) {
    if (c == 0) continue;
    n += c;
    sum.Add(static_cast<double>(c) * std::log2(static_cast<double>(c)));
  }
  if (n == 0) return 0.0;
  const double total = static_cast<double>(n);
  return std::max(0.0, std::log2(total) - sum.Value() / total);
}

double ColumnEntropy(const std::vector<Code>& column, const std::vector<std::uint32_t>& buckets,
                     std::uint32_t bucket_count) {
  std::vector<std::uint64_t> counts(bucket_count, 0);
  if (buckets.empty()) {
    for (Code c : column) ++counts[c];
  } else {
    for (Code c : column) ++counts[buckets[c]];
  }
  return EntropyOfCounts(counts);
}

double PairEntropy(const std::vector<Code>& a, std::uint32_t cardinality_a,
                   const std::vector<Code>& b, const std::vector<std::uint32_t>& buckets_b,
                   std::uint32_t bucket_count_b) {
  const std::size_t cells = std::size_t{cardinality_a} * bucket_count_b;
  auto bucket = [&](Code code) -> std::size_t {
    return buckets_b.empty() ? code : buckets_b[code];
  };
  if (cells <= kDenseCells) {
    std::vector<std::uint64_t> counts(cells, 0);
    for (std::size_t r = 0; r < a.size(); ++r)
      ++counts[a[r] * std::size_t{bucket_count_b} + bucket(b[r])];
    return EntropyOfCounts(counts);
  }
  std::vector<std::uint64_t> keys(a.size());
  for (std::size_t r = 0; r < a.size(); ++r)
    keys[r] = a[r] * std::uint64_t{bucket_count_b} + bucket(b[r]);
  return EntropyOfKeys(std::move(keys));
}

Result<std::int64_t> RowCountMargin(double epsilon, double delta) {
  auto geometric = GeometricMechanism::Create(epsilon, 1);
  if (!geometric) return geometric.error().WithContext("noisy row count");
  if (!(delta >= 0 && delta < 1)) {
    return InvalidArgument("row count bound delta must be in [0, 1) (got " + std::to_string(delta) +
                           ")");
  }
  // Pr[X > c] = Pr[X >= c + 1] = q^{c+1} / (1 + q), q = exp(-1/scale) (rounded up: a larger q
  // only makes c larger).
  const double q = Up(std::exp(-1.0 / geometric->scale()));
  std::int64_t margin = 0;
  if (q > 0 && delta > 0) {
    const double needed = std::log(delta * (1.0 + q)) / std::log(q);  // c + 1 >= needed
    margin = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(needed)) - 1);
    while (std::pow(q, static_cast<double>(margin + 1)) / (1.0 + q) > delta) ++margin;
  }
  return margin;
}

Result<RowCountBound> NoisyRowCountLowerBound(std::size_t rows, double epsilon, double delta,
                                              PrivacyAccountant& accountant,
                                              const std::string& partition, Rng& rng,
                                              const std::string& purpose) {
  auto geometric = GeometricMechanism::Create(epsilon, 1);
  if (!geometric) return geometric.error().WithContext("noisy row count");
  auto margin = RowCountMargin(epsilon, delta);
  if (!margin) return margin.error();
  const std::string shown =
      !purpose.empty() ? purpose : (delta > 0 ? "lower bound for the entropy sensitivity" : "");
  LedgerEntry entry;
  entry.label = "noisy row count of " + partition + (shown.empty() ? "" : " (" + shown + ")");
  entry.mechanism = delta > 0
                        ? "discrete Laplace; delta = probability the lower bound exceeds the count"
                        : "discrete Laplace";
  entry.partition = partition;
  entry.reference = "PD paper eq. (10); docs/deniable.md";
  entry.epsilon_each = geometric->PrivacyLoss();
  entry.delta_each = delta;
  entry.sensitivity = 1;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  RowCountBound bound;
  bound.noisy = geometric->AddNoise(static_cast<std::int64_t>(rows), rng);
  bound.margin = *margin;
  bound.lower = bound.noisy - *margin;
  return bound;
}

}  // namespace deniable
