// SPDX-License-Identifier: Apache-2.0
// Learning Bayesian networks with differential privacy for the DataSynthesizer modes:
//   * independent: one noisy histogram per attribute (a network without edges);
//   * correlated:  PrivBayes (Zhang et al., SIGMOD 2014 / TODS 2017), as DataSynthesizer uses it
//                  (`datasynthesizer-fides.txt`): greedy structure with the exponential
//                  mechanism on mutual information, at most `degree` parents per node,
//                  conditional distributions from noisy counts;
//   * random:      uniform tables, no data touched.
// The privacy contracts (sensitivities, composition, ε split) are in each function's comment
// and in model/privbayes.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Public upper bound on the number of rows of any input (row indices are 32-bit). Sensitivities
// that grow with log(n) use it, so that no data-dependent n enters a noise scale.
inline constexpr double kMaxRows = 4294967296.0;  // 2^32

struct IndependentOptions {
  double epsilon = 1.0;  // split evenly over the attributes (sequential composition)
};

// One noisy histogram per attribute (discrete Laplace, sensitivity 1 per histogram), clamped at
// zero and normalised. Spends epsilon/m per attribute on `partition`, one ledger entry each.
Result<BayesNet> LearnIndependent(const EncodedTable& data, const IndependentOptions& options,
                                  PrivacyAccountant& accountant, const std::string& partition,
                                  Rng& rng, Progress& progress);

struct PrivBayesOptions {
  int degree = 2;                     // k: at most this many parents per node
  double epsilon = 1.0;               // total for structure + conditionals
  double structure_fraction = 0.3;    // share of epsilon for the structure (documented default)
};

Result<BayesNet> LearnPrivBayes(const EncodedTable& data, const PrivBayesOptions& options,
                                PrivacyAccountant& accountant, const std::string& partition,
                                Rng& rng, Progress& progress);

// The two halves of LearnPrivBayes, also used by the plausible-deniability mode ("any
// generative model", PD paper §8) to take PrivBayes's structure:
// Structure only: nodes in order with their parents (no tables, identity buckets). Spends
// `epsilon` in total on the exponential-mechanism steps.
Result<std::vector<BayesNode>> LearnPrivBayesStructure(const EncodedTable& data, int degree,
                                                       double epsilon,
                                                       PrivacyAccountant& accountant,
                                                       const std::string& partition, Rng& rng,
                                                       Progress& progress);
// Noisy conditional tables for a given structure (nodes in order, parents and buckets set).
// Spends `epsilon` in total.
Result<BayesNet> LearnConditionals(const EncodedTable& data, std::vector<BayesNode> structure,
                                   double epsilon, PrivacyAccountant& accountant,
                                   const std::string& partition, Rng& rng, Progress& progress);

// Uniform conditionals over the given cardinalities, no edges (the random mode).
BayesNet UniformNetwork(const std::vector<std::uint32_t>& cardinalities);

}  // namespace deniable
