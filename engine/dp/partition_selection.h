// SPDX-License-Identifier: Apache-2.0
// DP partition selection: which values of a column may appear in a release at all. A category
// list read from the data is not public (a value held by one person reveals that person); a
// value is kept only if its count plus discrete Laplace noise clears a threshold set from ε and
// δ, so a value held by one record is kept with probability <= δ (the noisy-threshold idea of
// the private adaptive histograms paper, `synthetic-data-via-dp-adaptive-histograms`, and
// Korolova et al. 2009 / Google's partition selection).
//
// Privacy guarantee
//   Neighbouring: add/remove one record; each record contributes to exactly one value (its
//   own; missing counts as a value of its own if the caller includes it).
//   Mechanism: noisy_i = count_i + Z_i, Z_i ~ discrete Laplace with scale b = 1/ε rounded up,
//   Pr[Z = z] ∝ exp(−|z|/b); value i is kept iff noisy_i >= τ, and kept values' noisy counts
//   are released too.
//   Threshold (derived in dp/partition_selection.md for this exact noise): with α = e^{−1/b},
//   Pr[Z >= k] = α^k/(1 + α) for k >= 0, and
//       τ = 1 + k*,  k* = smallest integer k >= 0 with α^k/(1 + α) <= δ
//         = 1 + max(0, ⌈(ln(1/δ) − ln(1 + α)) · b⌉),
//   so a value with count 1 is kept with probability exactly α^{k*}/(1 + α) <= δ.
//   Guarantee: (ε, δ)-DP for the kept set and its noisy counts.
//   Reference: Korolova, Kenthapadi, Mishra, Ntoulas (WWW 2009); Desfontaines et al. (PETS
//   2022) for the optimal form.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"

namespace deniable {

struct SelectedPartitions {
  std::vector<std::uint32_t> kept;         // indices into the input counts, increasing
  std::vector<std::int64_t> noisy_counts;  // the noisy count of each kept index (DP, usable)
  double threshold = 0;
};

// counts[i] = number of records holding value i (only values present in the data are listed;
// absent values have no partition and can never be kept; listing a zero count is allowed).
// epsilon finite in (0, 2^40], delta in (0, 1), at most 2^32 counts. Spends (epsilon, delta)
// on `partition` under `label` before drawing any noise; refused spends draw nothing.
Result<SelectedPartitions> SelectPartitions(std::span<const std::uint64_t> counts,
                                            double epsilon, double delta,
                                            PrivacyAccountant& accountant,
                                            const std::string& label,
                                            const std::string& partition, Rng& rng);

// The threshold τ used for (epsilon, delta) (an integer); NaN if the parameters are invalid.
double PartitionSelectionThreshold(double epsilon, double delta);

// The exact probability that a value with count 1 is kept, α^{τ−1}/(1 + α), for the noise
// scale SelectPartitions uses (<= delta by construction); NaN if the parameters are invalid.
double PartitionSelectionKeepProbabilityOfSingleton(double epsilon, double delta);

}  // namespace deniable
