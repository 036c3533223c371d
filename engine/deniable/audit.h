// SPDX-License-Identifier: Apache-2.0
// The data owner's audit directory for a plausibly deniable release, and an independent
// checker that recounts, for every released record, k' for the seed and ω that produced it
// (issue 3 item 7, `--audit-dir`; issue 12 item 6).
//
// NEVER PART OF A RELEASE: the directory says which input rows are seeds (D_S) and which seed
// made which record, and holds the whole model with its tables. It holds no raw value of any
// row. It is created owner-only (directory 0700, files 0600).
//
// Files:
//   README.txt          what this is, and that it must not be published
//   model.json          "format": "deniable-audit-2"; "sigma" (attribute names in σ order);
//                       "nodes" (per node in σ order: attribute, name, cardinality, parents,
//                       parent_buckets, parent_bucket_counts, probabilities = the model's
//                       conditional tables as used); "cardinalities"; "omega" {min, max};
//                       "test" {k, gamma, epsilon0, deterministic, fail_floor, attempts_cap}
//   seed_rows.txt       the 0-based data-row indices of D_S in the input (header excluded),
//                       one per line
//   released_codes.csv  the released records in encoded form (one column per attribute)
//   origins.csv         per released record (same order): record,seed_row,omega,k_prime — the
//                       seed (a data row of D_S), the ω that re-sampled it and the k' the test saw
//
// The check (CheckDeniableAudit) fails when the test cannot have been applied as claimed:
//   - a recorded origin cannot have produced its record, or its k' differs from the recount;
//   - deterministic test (Privacy Test 1): a record's k' is below k;
//   - randomised test (Privacy Test 2): a record's k' is so far below k that, over all T
//     attempts, a pass was less likely than α = 1e-6: k' < k + ln(2α/T)/ε0 (each attempt passes
//     with probability Pr[Lap(1/ε0) <= k' - k] = e^{ε0 (k' - k)}/2 < α/T; a union bound over the
//     T attempts makes a false failure less likely than α). Records with k <= k' are fine and
//     records between the bound and k are reported, not failed (the threshold is noisy).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/deniable/deniable_model.h"
#include "engine/deniable/deniable_options.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Creates `directory` if needed (mode 0700, also when it exists) and writes the five files
// (each atomically, mode 0600). `origins` is DeniableRelease::origins of the release of
// `released`.
Status WriteDeniableAudit(const std::string& directory, const DeniableModel& model,
                          const DataSplit& split, const EncodedTable& released,
                          const ReleaseOrigins& origins, const DeniableOptions& options,
                          const std::vector<std::string>* names = nullptr);

// The probability α that the randomised check fails a run whose test was applied correctly.
inline constexpr double kAuditFalseFailure = 1e-6;

struct AuditCheck {
  int k = 0;
  double gamma = 0;
  double epsilon0 = 0;
  bool deterministic = false;
  std::uint64_t attempts_cap = 0;
  std::size_t seeds = 0;
  // Per released record: k' recounted for its own seed and ω (the seed's partition).
  std::vector<std::uint32_t> k_prime;
  std::size_t below_k = 0;     // records with k' < k
  std::size_t mismatched = 0;  // origins that cannot have made their record, or whose k' differs
  // Randomised test: records with k' < implausible_below fail (see above); the deterministic
  // test uses k.
  double implausible_below = 0;
  std::size_t implausible = 0;

  bool passed() const { return mismatched == 0 && implausible == 0; }
  std::string ToText() const;
};

// Reads `directory` and recounts with `data`, the same encoded input the run used (its rows
// indexed by seed_rows.txt). Errors name the file and line.
Result<AuditCheck> CheckDeniableAudit(const std::string& directory, const EncodedTable& data,
                                      Progress& progress);

}  // namespace deniable
