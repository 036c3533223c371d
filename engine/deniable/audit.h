// SPDX-License-Identifier: Apache-2.0
// The data owner's audit directory for a plausibly deniable release, and an independent
// checker that recounts the plausible seeds of every released record from it (issue 3,
// item 7: `--audit-dir`).
//
// NEVER PART OF A RELEASE: the directory names which input rows are seeds (D_S) and holds the
// whole model with its tables. It contains no raw value of any row, and not which seed made
// which record (that is never stored anywhere).
//
// Files:
//   README.txt          what this is, and that it must not be published
//   model.json          the generative model M: σ, every node's parents, bucket maps and
//                       (quantised) tables, cardinalities, the ω range, and the test settings
//                       (k, γ, ε0, deterministic, failure floor)
//   seed_rows.txt       the 0-based data-row indices of D_S in the input (header excluded),
//                       one per line
//   released_codes.csv  the released records in encoded form (one column per attribute)
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

// Creates `directory` if needed and writes the four files (each atomically).
Status WriteDeniableAudit(const std::string& directory, const DeniableModel& model,
                          const DataSplit& split, const EncodedTable& released,
                          const DeniableOptions& options,
                          const std::vector<std::string>* names = nullptr);

struct AuditCheck {
  int k = 0;
  double gamma = 0;
  bool deterministic = false;
  std::size_t seeds = 0;
  // Per released record: the size of its largest group of plausible seeds (seeds whose
  // probability of producing it falls in one partition, plausibility.h). The record passed the
  // test in one of its groups; the seed is not recorded, so this is what can be checked.
  std::vector<std::uint32_t> largest_group;
  std::size_t below_k = 0;  // records whose largest group is smaller than k

  // Deterministic test: every record must have a group of at least k seeds. Randomised test:
  // records below k are possible (the threshold is noisy); the check only reports them.
  bool consistent() const { return !deterministic || below_k == 0; }
  std::string ToText() const;
};

// Reads `directory` and recounts with `data`, the same encoded input the run used (its rows
// indexed by seed_rows.txt). Errors name the file and line.
Result<AuditCheck> CheckDeniableAudit(const std::string& directory, const EncodedTable& data,
                                      Progress& progress);

}  // namespace deniable
