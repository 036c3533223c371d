// SPDX-License-Identifier: Apache-2.0
// Empirical entropies (in bits) of attributes and pairs, their sensitivity under add/remove
// neighbours, and the DP lower bound on a row count that the sensitivity needs (PD paper
// §3.3.1, eq. 8-10).
//
// Sensitivity (replaces Lemma 1 / eq. 9, which is proven for replace-one neighbours with n
// fixed; Deniable uses add/remove). With f(x) = x log2 x, a histogram of n records has
// n·H = f(n) - Σ_c f(c). Adding one record to a cell holding c records gives
//     (n+1)·H' - n·H = g(n) - g(c),   g(x) = f(x+1) - f(x),
// and g is increasing with g(0) = 0, so g(n) - g(c) ∈ [0, g(n)]. Then
//     H' - H = (g(n) - g(c) - H) / (n + 1),   0 <= H <= log2 n < g(n),
// so |H' - H| <= g(n)/(n + 1) <= (log2(n + 1) + 1/ln 2)/(n + 1) =: ΔH(n), using
// n·log2(1 + 1/n) <= 1/ln 2. n is the SMALLER dataset's size; ΔH decreases in n
// (d/du (ln u + 1)/u = -ln u / u^2 <= 0), so a lower bound on n gives an upper bound on ΔH.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// ΔH(n) above, rounded up; n >= 0 (n = 0 gives 1/ln 2).
double EntropySensitivity(double smaller_rows);

// Bound on the floating-point error of a COMPUTED entropy (EntropyOfCounts, N <= 2^32 rows):
// S = Σ c·log2 c has error <= 6u·S (3u per term, 3u for the compensated sum) <= 6u·N log2 N;
// S/N adds u, log2 N errs by <= 2u·log2 N, the difference rounds by <= u·log2 N: in all
// <= 10u·log2 N <= 320u < 2^-44 (u = 2^-53). Twice that is used.
inline constexpr double kEntropyEvaluationError = 0x1p-43;

// The sensitivity the noisy entropies are calibrated to: ΔH(n) for the exact entropies plus
// 2·kEntropyEvaluationError, since each of two neighbouring computed entropies can be off by
// that much (relative to ΔH: below 1e-4 up to 2^32 rows).
double EntropyQuerySensitivity(double smaller_rows);

// Entropy in bits of a histogram (cells with zero count ignored; 0 for an empty histogram).
double EntropyOfCounts(std::span<const std::uint64_t> counts);

// H(code) of a column mapped through `buckets` (empty = identity), and the joint entropy of
// (column a, bucketed column b). `bucket_count` = number of buckets of the mapped column.
double ColumnEntropy(const std::vector<Code>& column, const std::vector<std::uint32_t>& buckets,
                     std::uint32_t bucket_count);
double PairEntropy(const std::vector<Code>& a, std::uint32_t cardinality_a,
                   const std::vector<Code>& b, const std::vector<std::uint32_t>& buckets_b,
                   std::uint32_t bucket_count_b);

// A DP lower confidence bound on a row count (eq. 10, made one-sided): ñ = n + DLap(1/ε)
// (GeometricMechanism, sensitivity 1), lower = ñ - c with c the smallest integer such that
// Pr[DLap > c] <= delta. Then Pr[lower > n] <= delta. Spends (epsilon, delta) on `partition`:
// the δ is the probability that a sensitivity computed from `lower` is too small. delta = 0:
// just the noisy count (lower = noisy), ε-DP.
struct RowCountBound {
  std::int64_t noisy = 0;
  std::int64_t lower = 0;   // may be negative; callers clamp
  std::int64_t margin = 0;  // c
};
// `purpose` completes the ledger label (default for delta > 0: "lower bound for the entropy
// sensitivity"; none for delta = 0).
Result<RowCountBound> NoisyRowCountLowerBound(std::size_t rows, double epsilon, double delta,
                                              PrivacyAccountant& accountant,
                                              const std::string& partition, Rng& rng,
                                              const std::string& purpose = "");

// The margin c of NoisyRowCountLowerBound for (epsilon, delta), without spending anything:
// public, so it may be used to choose epsilon before the bound is drawn.
Result<std::int64_t> RowCountMargin(double epsilon, double delta);

}  // namespace deniable
