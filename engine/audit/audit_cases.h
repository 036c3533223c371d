// SPDX-License-Identifier: Apache-2.0
// The mechanisms and synthesis modes the DP auditor (dp_auditor.h) checks, each as a pair of
// neighbouring inputs D, D′ (D′ = D plus one record — add/remove neighbours, the project's
// notion), the claim the product makes for it, and the features of the output it looks at.
//
// Contract
//   * Real cases run the product code unchanged, with the parameters and claim the product
//     states (ε from the mechanism's own PrivacyLoss()/EpsilonFor() or the accountant).
//   * Broken cases (`broken` = true) are test-only wrappers defined in audit_cases*.cpp, never
//     reachable from product code: a noise scale halved at the same claimed ε, a bound leaked
//     from the data, a set union without its threshold. The audit must report ε_lb > claim.
//   * The mechanisms draw from the rng the auditor passes (a SeededRng stream): the exact
//     samplers are the ones a release uses, only the source of random words differs.
//   * `samples` is the per-input run count of the short (test) audit; the benchmark tool runs
//     a multiple of it. audit_notes.md justifies the numbers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/audit/dp_auditor.h"
#include "engine/core/result.h"

namespace deniable {

struct AuditCase {
  std::string name;         // e.g. "laplace", "laplace_half_scale", "mode_correlated"
  std::string description;  // what D, D′ and the features are
  double epsilon_claimed = 0;
  double delta_claimed = 0;
  bool broken = false;
  std::size_t samples = 0;  // short audit: runs on each of D and D′
  std::vector<std::string> feature_names;
  AuditedMechanism mechanism;
};

// Laplace, geometric, discrete Gaussian, exponential mechanism (plain and monotonic), the
// PrivBayes structure learner with the score R, the dependency search (range-bounded),
// partition selection (a count change and a new value), set union (both policies), DP bounds,
// the adaptive histograms (improved and basic), and the broken variants.
Result<std::vector<AuditCase>> MechanismAuditCases();

// Every synthesis mode (random, independent, correlated, marginals, deniable) end to end
// through LearnModel + Synthesize on a 20-row, 3-column table; D′ adds one extreme record.
Result<std::vector<AuditCase>> SynthesisAuditCases();

}  // namespace deniable
