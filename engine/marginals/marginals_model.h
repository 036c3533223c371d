// SPDX-License-Identifier: Apache-2.0
// What the marginals mode learns and releases: the fitted graphical model (on the possibly
// compressed domains), how compressed codes map back to the domains' codes, the measured
// cliques and their noise, and AIM's per-query error bounds. Everything here is a function of
// the noisy measurements (post-processing), so it can be written to the description file and
// sampled later without the data (`generate`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/marginals/consistency.h"
#include "engine/marginals/graphical_model.h"
#include "engine/marginals/measure.h"
#include "engine/marginals/sampling.h"

namespace deniable {

// An a-priori bound on the error of the model's answer to one workload query (AIM §5).
struct QueryErrorBound {
  Clique clique;
  double weight = 1;
  bool measured = false;  // inside a measured clique
  double sigma = 0;       // noise of the measurement that supports it (0 if none)
  // Expected L1 error of the measured noise on this query, sqrt(2/π)·σ·sqrt(n_C·n_q) (AIM's
  // bias term, for a query summed from a measured clique C), as a fraction of the estimated total:
  // the model's answer is typically closer (it averages overlapping measurements). NaN when no
  // measurement contains the query.
  double expected_l1_fraction = 0;
};

struct MarginalsModel {
  std::string mechanism;  // "mst" or "aim"
  GraphicalModel model;   // over compression.sizes
  DomainCompression compression;
  std::vector<Clique> measured;
  std::vector<double> measured_sigma;
  std::vector<QueryErrorBound> error_bounds;
  int rounds = 0;  // AIM: selection rounds run
  // Near-functional pairs made exact in every sample (consistency.h), on the model's codes.
  std::vector<ConsistentPair> consistent_pairs;

  // `rows` records over the domains' codes (compressed codes expanded uniformly).
  EncodedTable Sample(std::size_t rows, const SamplingOptions& options, Rng& rng) const;

  // {"mechanism", "cliques": [[...]], "marginals": [[probabilities]], "compression": [[[codes of
  // each compressed code]] per attribute], "measured": [{"clique", "sigma"}], "error_bounds",
  // "consistent_pairs": [{"parent", "child", "lambda", "mapping": [...], "forced": [0|1 ...]}]}.
  nlohmann::json ToJson() const;
  // Validates everything against the domains' sizes so that sampling cannot fail.
  static Result<MarginalsModel> FromJson(const nlohmann::json& json,
                                         const std::vector<std::uint32_t>& sizes,
                                         const std::string& where);
};

// The model whose clique marginals are `marginals` (one per clique of `tree`, consistent on
// separators): potentials log μ_C − log μ_S(parent) (P = Π P(C) / Π P(S)), calibrated.
GraphicalModel ModelFromMarginals(JunctionTree tree, const std::vector<Factor>& marginals,
                                  double total);

}  // namespace deniable
