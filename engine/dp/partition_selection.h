// SPDX-License-Identifier: Apache-2.0
// DP partition selection: which values of a column may appear in a release at all. A category
// list read from the data is not public (a value held by one person reveals that person); a
// value is kept only if its count plus discrete Laplace noise clears a threshold set from ε and
// δ, so a value held by few records is dropped with probability ≥ 1 − δ (the noisy-threshold
// idea of the private adaptive histograms paper, `synthetic-data-via-dp-adaptive-histograms`,
// and Korolova et al. 2009 / Google's partition selection).
//
// Privacy guarantee
//   Neighbouring: add/remove one record; each record contributes to exactly one value (its
//   own; missing counts as a value of its own if the caller includes it).
//   Guarantee: (ε, δ)-DP. Threshold τ = 1 + ln(1/(2δ))/ε... exactly as derived in
//   dp/partition_selection.md for the discrete Laplace noise used (the derivation fixes the
//   constant; tests check Pr[keep | count = 1] ≤ δ).
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
// absent values have no partition and can never be kept). Spends (epsilon, delta).
Result<SelectedPartitions> SelectPartitions(std::span<const std::uint64_t> counts,
                                            double epsilon, double delta,
                                            PrivacyAccountant& accountant,
                                            const std::string& label,
                                            const std::string& partition, Rng& rng);

// The threshold used for (epsilon, delta).
double PartitionSelectionThreshold(double epsilon, double delta);

}  // namespace deniable
