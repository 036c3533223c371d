// SPDX-License-Identifier: Apache-2.0
#include "engine/dp/partition_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/dp/directed_rounding.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

constexpr double kMaxEpsilon = 0x1p40;  // scale 1/ε stays >= the sampler's minimum 2^-40

Status CheckParameters(double epsilon, double delta) {
  if (Status s = internal::CheckPositiveFinite(epsilon, "partition selection epsilon"); !s) {
    return s;
  }
  if (epsilon > kMaxEpsilon) {
    return InvalidArgument("partition selection epsilon must be <= 2^40 (got " +
                           internal::FormatDouble(epsilon) + ")");
  }
  return internal::CheckOpenUnit(delta, "partition selection delta");
}

// The noise scale b = 1/ε, rounded up (more noise).
double NoiseScale(double epsilon) { return internal::DivUp(1.0, epsilon); }

// k* for scale b: the smallest k >= 0 with α^k/(1 + α) <= δ, α = e^{−1/b}. The closed form
// is evaluated with every rounding pushing k up (a larger k only lowers the keep probability):
// an upper bound of ln(1/δ) − ln(1 + α) (α from a lower bound) times b.
double ThresholdOffset(double scale, double delta) {
  const double alpha_low = internal::ExpDown(-internal::DivUp(1.0, scale));
  const double log_term =
      internal::AddUp(-internal::LogDown(delta), -internal::Log1pDown(alpha_low));
  if (!(log_term > 0)) return 0.0;
  return std::ceil(internal::MulUp(log_term, scale));
}

}  // namespace

double PartitionSelectionThreshold(double epsilon, double delta) {
  if (!CheckParameters(epsilon, delta)) return std::numeric_limits<double>::quiet_NaN();
  return 1.0 + ThresholdOffset(NoiseScale(epsilon), delta);
}

double PartitionSelectionKeepProbabilityOfSingleton(double epsilon, double delta) {
  if (!CheckParameters(epsilon, delta)) return std::numeric_limits<double>::quiet_NaN();
  const double scale = NoiseScale(epsilon);
  const double k = ThresholdOffset(scale, delta);
  // α^k / (1 + α) = exp(−k/b) / (1 + e^{−1/b}).
  return std::exp(-k / scale) / (1.0 + std::exp(-1.0 / scale));
}

Result<SelectedPartitions> SelectPartitions(std::span<const std::uint64_t> counts,
                                            double epsilon, double delta,
                                            PrivacyAccountant& accountant,
                                            const std::string& label,
                                            const std::string& partition, Rng& rng) {
  if (Status s = CheckParameters(epsilon, delta); !s) return s.error();
  if (counts.size() > std::numeric_limits<std::uint32_t>::max()) {
    return InvalidArgument("partition selection supports at most 2^32 values (got " +
                           std::to_string(counts.size()) + ")");
  }
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "partition selection (discrete Laplace + threshold)";
  entry.partition = partition;
  entry.reference = "Korolova et al. 2009; dp/partition_selection.md";
  entry.epsilon_each = epsilon;
  entry.delta_each = delta;
  entry.sensitivity = 1;
  if (Status s = accountant.Spend(entry); !s) return s.error();

  const double scale = NoiseScale(epsilon);
  const double offset = ThresholdOffset(scale, delta);
  SelectedPartitions selected;
  selected.threshold = 1.0 + offset;
  // τ as an integer; offsets beyond 2^62 (δ below e^-2^62·ε) keep nothing representable.
  const std::int64_t threshold = offset < 0x1p62 ? static_cast<std::int64_t>(offset) + 1
                                                 : std::numeric_limits<std::int64_t>::max();
  constexpr auto kMaxCount = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const auto count = static_cast<std::int64_t>(std::min(counts[i], kMaxCount));
    // count + noise, saturating (post-processing of the exact noisy count).
    const std::int64_t noise = SampleDiscreteLaplace(scale, rng);
    const std::int64_t noisy = noise > 0 && count > std::numeric_limits<std::int64_t>::max() - noise
                                   ? std::numeric_limits<std::int64_t>::max()
                                   : count + noise;
    if (noisy >= threshold) {
      selected.kept.push_back(static_cast<std::uint32_t>(i));
      selected.noisy_counts.push_back(noisy);
    }
  }
  return selected;
}

}  // namespace deniable
