// SPDX-License-Identifier: Apache-2.0
// DP parameter learning of the plausible-deniability model (§3.4): for every attribute, the
// counts n_{i,l}^c of (parent configuration c, value l) in D_P get discrete Laplace noise and
// are clamped at zero, ñ = max(0, n + DLap(1/ε_p)) (eq. 14); each configuration's
// distribution is then SAMPLED once from the Dirichlet posterior Dir(α + ñ) (eq. 11-12) with
// the injected generator (SecureRng in releases). All tables are learned up front (maxcost
// bounds the configurations), so the model is a plain BayesNet for the description file.
//
// Privacy guarantee
//   Neighbouring: add/remove one row of `data` (D_P).
//   Sensitivity: one table's count vector changes by 1 in L1 (the added record lands in
//   exactly one cell); the m tables together by m.
//   Guarantee: table i is ε_i-DP (GeometricMechanism, sensitivity 1) and the tables compose to
//   at most `epsilon`, whichever of two allocations is better: equal shares as one batch entry
//   composed by the accountant with advanced composition (§3.5: advanced over the m
//   attributes) when that gives every table more than ε/m; otherwise shares ∝ sqrt(cells of
//   the table) (PrivBayes §4.4: minimises the total noise), one sequential entry per table.
//   Clamping, the prior and the Dirichlet draw are post-processing. Public inputs: structure,
//   bucket maps, α.
//   Sampling: exact discrete Laplace (dp/secure_sampling.h); Dirichlet via dirichlet.h.
//   Reference: PD paper eq. (11)-(14), §3.5.
#pragma once

#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

struct ParameterOptions {
  double epsilon = 1.0;                             // all m tables together
  double dirichlet_alpha = 1.0;                     // prior pseudo-count per cell, > 0
  const std::vector<std::string>* names = nullptr;  // optional, for ledger labels
};

// `structure`: nodes in σ order with parents and bucket maps (tables ignored). Returns the
// network with every table filled. Cancellable per node.
Result<BayesNet> LearnDirichletParameters(
    const EncodedTable& data, std::vector<BayesNode> structure, const ParameterOptions& options,
    PrivacyAccountant& accountant, const std::string& partition, Rng& rng, Progress& progress);

}  // namespace deniable
