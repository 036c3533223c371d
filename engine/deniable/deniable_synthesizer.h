// SPDX-License-Identifier: Apache-2.0
// The plausibly deniable release (PD paper Mechanism 1 with Privacy Test 1 or 2, §2): repeated
// attempts, each drawing a seed uniformly from D_S, making a candidate with the seed-based
// model (eq. 3) and releasing it only if it passes the privacy test; until `records` records
// passed or the cap T of attempts (fixed before the run) is reached.
//
// Privacy guarantee (details: guarantees.h, privacy_test.h, docs/deniable.md)
//   Each attempt is one run of Mechanism 1 on D_S, with output "record" or ⊥, and is
//   (ε_A, δ_A)-DP (randomised test; ε_A from Theorem 1 and the failure floor). The released
//   set is post-processing of the T attempts' outputs (the first `records` passes, shuffled),
//   so the synthesis costs T attempts composed (better of sequential and advanced) on
//   partition "D_S" — charged to the accountant unless options.charge_release_to_budget is
//   false. The deterministic test gives (k, γ)-plausible deniability per record and no DP.
//   Theorem 1 assumes |D_S| >= k: a smaller D_S is refused (this reveals only that
//   |D_S| < k).
//   Nothing about a seed is kept: candidates copy ENCODED values only, and the released table
//   holds codes (decoded later from public/DP domains); which seed made a record is not stored.
//
// Speed: a trie over D_S (seed_index.h) makes each attempt O(ω_max) index steps; attempts run
// in blocks of kBlockAttempts on `threads` threads, block b with rng.Fork(b), so a SeededRng
// gives the same release for any number of threads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/deniable/deniable_model.h"
#include "engine/deniable/deniable_options.h"
#include "engine/deniable/guarantees.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/encoded_table.h"

namespace deniable {

inline constexpr std::uint64_t kBlockAttempts = 4096;

// What a run did. Two kinds of figures:
//  * releasable: attempts_cap, attempts, passed and attempt_pass_rate() are functions of the
//    T attempts' outputs (record or ⊥), so they are covered by the release's guarantee;
//  * OWNER ONLY: candidates, floor_failures, pass_rate(), seeds and index_bytes tell apart the
//    floor's ⊥ from the test's ⊥ (the distinction the failure floor hides, guarantees.h) or
//    describe D_S. Keep them out of anything published.
struct ReleaseStats {
  std::uint64_t attempts_cap = 0;    // T
  std::uint64_t attempts = 0;        // attempts up to the one that released the last record
  std::uint64_t passed = 0;          // candidates that passed (== released unless the cap hit)
  std::uint64_t floor_failures = 0;  // owner only: attempts stopped by the failure floor
  std::uint64_t candidates = 0;      // owner only: candidates generated and tested
  std::size_t seeds = 0;             // owner only: |D_S|
  std::size_t index_bytes = 0;       // owner only: memory of the seed index
  double attempt_pass_rate() const {
    return attempts == 0 ? 0.0 : static_cast<double>(passed) / static_cast<double>(attempts);
  }
  // Owner only: share of tested candidates that passed (the paper's Figure 6 measure).
  double pass_rate() const {
    return candidates == 0 ? 0.0 : static_cast<double>(passed) / static_cast<double>(candidates);
  }
};

// Where one released record came from (Mechanism 1 step 1): OWNER ONLY, never released. The
// audit (audit.h) recounts k' for exactly this seed and ω.
struct RecordOrigin {
  std::uint32_t seed_row = 0;  // the seed's 0-based data row in the input (an element of D_S)
  int omega = 0;               // the number of re-sampled attributes
  std::uint32_t k_prime = 0;   // the plausible seeds the test saw (the seed's own partition)
};

// OWNER ONLY (the audit directory, never a release): what made each released record, and the
// test settings that the options alone do not fix.
struct ReleaseOrigins {
  std::vector<RecordOrigin> records;  // records[r] made released row r
  double fail_floor = 0;              // φ of the randomised test (0 for the deterministic one)
  std::uint64_t attempts_cap = 0;     // T
};

struct DeniableRelease {
  EncodedTable records;  // released records (codes of every attribute), shuffled
  ReleaseOrigins origins;  // OWNER ONLY
  ReleaseStats stats;
  ReleaseGuarantees guarantees;

  // Releasable: records, T, attempts, passes, attempt pass rate and the guarantees.
  nlohmann::json SummaryJson() const;
  std::string SummaryText() const;  // for the CLI
  // OWNER ONLY (never publish): candidates tested, floor failures, candidate pass rate, |D_S|.
  nlohmann::json OwnerStatsJson() const;
  std::string OwnerStatsText() const;
};

// Runs the release. `data` is the whole encoded input (the split's rows index it). Errors:
// kInvalidArgument (options), kFailedPrecondition (|D_S| < k; fewer than `records` passes
// within T attempts — the message gives the pass rate and what to change), kBudgetExhausted
// (the synthesis does not fit the budget), kCancelled.
Result<DeniableRelease> SynthesizeDeniable(const EncodedTable& data, const DataSplit& split,
                                           const DeniableModel& model,
                                           const DeniableOptions& options,
                                           PrivacyAccountant& accountant, Rng& rng,
                                           Progress& progress);

class PrivacyTest;
namespace internal {
// A seam for the audit's tests only (issue 12, item 6): the release as SynthesizeDeniable makes
// it, except that `test_override` (when not null) decides instead of the test `options`
// describe; the guarantees, the ledger and the origins still follow `options`. The tests run it
// with a disabled (k = 1) or weakened test to show that CheckDeniableAudit catches the
// difference. Never called by a product path.
Result<DeniableRelease> SynthesizeDeniableWithTest(
    const EncodedTable& data, const DataSplit& split, const DeniableModel& model,
    const DeniableOptions& options, PrivacyAccountant& accountant, Rng& rng, Progress& progress,
    const PrivacyTest* test_override);
}  // namespace internal

// The guarantees a run with these options would have, computed before it (no data touched
// beyond the accountant's totals). `attempts_cap` = T.
ReleaseGuarantees PlanGuarantees(const DeniableOptions& options, OmegaRange omega,
                                 const PrivacyAccountant& accountant, std::uint64_t attempts_cap);

// Split + model + release in one call; the split is returned for the audit writer.
struct DeniableRun {
  DataSplit split;
  DeniableModel model;
  DeniableRelease release;
};
Result<DeniableRun> RunDeniable(const EncodedTable& data, const DeniableOptions& options,
                                std::vector<std::vector<std::uint32_t>> bucket_maps,
                                PrivacyAccountant& accountant, Rng& rng, Progress& progress,
                                const std::vector<std::string>* names = nullptr);

}  // namespace deniable
