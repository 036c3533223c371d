// SPDX-License-Identifier: Apache-2.0
// Evaluation of a release against the real rows it was made from and control rows held out
// before anything was learned: closeness (copies, DCR), three attacks (singling out,
// linkability, attribute inference; Giomi et al. PETS 2023) and, for a target column, machine-
// learning utility with XGBoost. Everything it reports is computed from real rows: for the data
// owner's eyes only. Contract and statistics: engine/evaluate/README.md.
//
//   auto report = EvaluateRelease(real, synthetic, control, schema, options, progress);
//
// Roles: the quasi-identifiers (the schema's role, or options.quasi_identifiers) are the
// attacker's knowledge, the sensitive attribute (the schema's role, or options.sensitive) the
// attacker's target. Defaults when none is given, each recorded in report.notes: sensitive =
// the ML target if given, else the last compared column; quasi-identifiers = every other
// compared column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/evaluate/attacks.h"
#include "engine/evaluate/closeness.h"
#include "engine/evaluate/ml_utility.h"
#include "engine/evaluate/verdict.h"
#include "engine/schema/schema.h"

namespace deniable {

struct EvaluateOptions {
  std::vector<std::string> quasi_identifiers;  // empty: the schema's roles, else the default
  std::string sensitive;                       // empty: the schema's role, else the default
  std::string target;                          // ML utility; empty: none
  std::size_t attacks = 2000;
  std::size_t dcr_rows = 10000;
  std::uint64_t seed = 0;
  unsigned threads = 2;  // nearest-neighbour search
  // XGBoost's threads. 1 by default: its work on Adult is ~2 s of CPU, and its OpenMP threads
  // spin at every barrier, which on a shared machine costs far more than a second thread gains
  // (bench/evaluate_bench.sh: 96 s wall with 2, 27 s with 1 at load 8).
  unsigned ml_threads = 1;
  double confidence = 0.95;
};

struct EvaluateReport {
  std::size_t train_rows = 0, control_rows = 0, synthetic_rows = 0;
  std::vector<std::string> columns;  // compared
  std::vector<std::string> quasi_identifiers;
  std::string sensitive;
  std::vector<std::string> notes;  // defaults taken, attacks skipped and why
  CopyCounts copies;
  DcrReport dcr;
  std::optional<SinglingOutResult> singling_out;
  std::optional<LinkabilityResult> linkability;  // columns_a/b index `columns`
  std::optional<InferenceResult> inference;
  std::optional<MlUtilityReport> utility;
};

// kInvalidArgument naming the option (unknown column) or the table (missing column, no rows);
// kCancelled.
Result<EvaluateReport> EvaluateRelease(const RawTable& real, const RawTable& synthetic,
                                       const RawTable& control, const Schema& schema,
                                       const EvaluateOptions& options, Progress& progress);

// The attacks' figures as the verdict takes them (verdict.h): each attack that ran, by name
// ("singling out", "linkability", "attribute inference"), and the copies of unique rows.
VerdictAttacks VerdictAttacksOf(const EvaluateReport& report,
                                double threshold = kAttackRiskThreshold);

}  // namespace deniable
