// SPDX-License-Identifier: Apache-2.0
// Counting plausible seeds (Privacy Tests 1 and 2 of the plausible-deniability paper, §2)
// exactly over ALL of D_S, fast, plus the brute-force oracle the tests compare it with.
//
// The model M (seed_model.h) makes y from seed d by copying d's first m - ω positions and
// re-sampling the last ω (eq. 3), ω uniform on [ω_min, ω_max] (W values). Parents precede
// children in σ, so
//     Pr{y = M(d)} = (1/W) Σ_{ω in range} 1[d agrees with y on positions 0..m-ω-1] · Q_ω(y),
//     Q_ω(y) = Π_{i = m-ω..m-1} Pr{y_i | y's parents}   (Q_0 = 1).
// Only a(d) = #{ω in range : d agrees with y on m - ω positions} matters: seeds with the same
// a(d) have exactly the same probability. The partition of a probability P is
// ⌊-log_γ P⌋ (Privacy Test 1, step 1).
//
// Boundary rule (shared by the fast path and the oracle, so both decide identically). With
// x = -ln P / ln γ computed in floating point, x is "certain" when ⌊x - τ⌋ = ⌊x + τ⌋
// (τ = 1e-9, far above the ~1e-13 rounding error of x); its partition is then ⌊x⌋ exactly.
// k' counts the seeds whose probability is certain and in the seed's partition, or, when the
// seed's own probability is uncertain (or underflows to 0), only the seeds with the same a(d)
// (identical probability). This never counts a seed the exact rule would exclude, and the
// groups it forms are a data-independent refinement of the paper's partitions (members within
// a factor γ of each other), so Theorem 1's proof holds for them unchanged
// (docs/deniable.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/deniable/deniable_options.h"
#include "engine/deniable/seed_index.h"
#include "engine/deniable/seed_model.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// The tolerance τ of the boundary rule.
inline constexpr double kPartitionTolerance = 1e-9;

// A probability's partition, or "uncertain" (near a boundary, or 0 after underflow).
struct PartitionKey {
  bool certain = false;
  long long partition = 0;
};
PartitionKey ClassifyProbability(double probability, double log_gamma);

// q[ω] = Q_ω(y) for ω = 0..omega_max (q must hold omega_max + 1 values); y in position order.
void SuffixProbabilities(const SeedModel& model, const Code* y, int omega_max, double* q);

// What the test needs to know about one candidate.
struct CandidateCount {
  std::uint32_t k_prime = 0;  // plausible seeds in the seed's group (the seed included)
  PartitionKey key;           // the seed's partition
};

// Fast count: O(ω_max - ω_min) index steps (the index must have depth >= m - ω_min; depth
// m - ω_min is the cheapest).
// `seed` is the candidate's seed (sorted position in `index`), `omega_used` the ω that made y,
// `q` from SuffixProbabilities.
class PlausibleSeedCounter {
 public:
  PlausibleSeedCounter(const SeedIndex& index, int attributes, OmegaRange omega, double gamma);
  CandidateCount Count(std::size_t seed, int omega_used, const Code* y, const double* q);

 private:
  const SeedIndex& index_;
  int m_;
  OmegaRange omega_;
  double gamma_;
  double log_gamma_;
  std::vector<std::uint32_t> n_;  // N(L) for L in [m - ω_max, m - ω_min]
  std::vector<double> p_;         // probability of each level
};

// The oracle: evaluates Pr{y = M(d)} from its definition for every seed row of `seeds`
// (columns = attributes) and counts those in the group of `seed_row`. O(|D_S| · m).
CandidateCount CountPlausibleSeedsBruteForce(const EncodedTable& seeds,
                                             const std::vector<int>& order, OmegaRange omega,
                                             double gamma, const Code* y, const double* q,
                                             std::size_t seed_row);

// For the audit checker: every group of seeds with a positive probability of producing y,
// with its size (a released record passed in one of them; its seed is not recorded).
struct PlausibleGroup {
  PartitionKey key;
  int agreement = 0;  // a(d) for an uncertain group, 0 for a certain one
  std::uint32_t seeds = 0;
};
// The same groups from the index (no seed needed): O(m) index steps. The index must have
// depth >= m - ω_min. Groups in the same order as PlausibleGroupsBruteForce.
std::vector<PlausibleGroup> PlausibleGroups(const SeedIndex& index, int attributes,
                                            OmegaRange omega, double gamma, const Code* y,
                                            const double* q);
std::vector<PlausibleGroup> PlausibleGroupsBruteForce(const EncodedTable& seeds,
                                                      const std::vector<int>& order,
                                                      OmegaRange omega, double gamma, const Code* y,
                                                      const double* q);

}  // namespace deniable
