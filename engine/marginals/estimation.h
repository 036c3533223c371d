// SPDX-License-Identifier: Apache-2.0
// Private-PGM estimation (McKenna, Sheldon, Miklau, "Graphical-model based estimation and
// inference for differential privacy", ICML 2019, §4 and Algorithm 1): the graphical model
// whose clique marginals μ minimise the L2 loss to noisy measurements,
//     L(μ) = Σ_m ½ ‖(w_m ∘ μ_{C_m} − y_m) / σ_m‖²,
// over the marginal polytope, by entropic mirror descent on the log-potentials θ:
//     θ ← θ − α ∇L(μ(θ)),  μ(θ) = belief propagation (graphical_model.h),
// with private-pgm's step rule (FactoredInference.mirror_descent): α starts at 2 / total² every
// iteration and is halved (at most 25 times) until the sufficient-decrease test
//     L(μ_old) − L(μ_new) >= ½ · α · ⟨∇L, μ_old − μ_new⟩
// holds (our start and growth: estimation.md §2). EstimationMethod::kAccelerated minimises the
// same loss by accelerated mirror descent (the accelerated Bregman proximal gradient method,
// Tseng 2008; Hanzely, Richtárik & Xiao 2021, Alg. 1 with γ = 2: O(1/k²) where mirror descent
// is O(1/k); estimation.md §4). The total is the inverse-variance weighted mean of the
// measurements' sums unless given.
//
// Post-processing only: it reads noisy measurements, never data, so it costs no privacy.
// Do NOT feed it exact counts of private data and release the result.
//
// Example:
//   std::vector<Measurement> ms = {{{0}, noisy_age, sigma}, {{0, 1}, noisy_age_sex, sigma}};
//   auto model = EstimateModel(ms, sizes, {.iterations = 1000});
//   Factor age = model->model.Marginal({0});
#pragma once

#include <optional>
#include <vector>

#include "engine/core/result.h"
#include "engine/marginals/graphical_model.h"

namespace deniable {

// A noisy measurement of one marginal: noisy[i] ≈ weights[i] · count of cell i of `clique`,
// with Gaussian-like noise of standard deviation sigma (weights empty: all 1).
struct Measurement {
  Clique clique;
  std::vector<double> noisy;
  double sigma = 1.0;
  std::vector<double> weights;
};

// How the loss is minimised over the marginal polytope (estimation.md §2 and §4).
enum class EstimationMethod {
  kMirrorDescent,  // private-pgm's Algorithm 1 with a growing step (O(1/k))
  kAccelerated,    // accelerated Bregman proximal gradient with line search (O(1/k²))
};

struct EstimationOptions {
  EstimationMethod method = EstimationMethod::kMirrorDescent;
  int iterations = 1000;
  std::optional<double> total;  // the known total; else estimated from the measurements
  // Stop early when an iteration lowers the loss by less than this fraction of it (0: never).
  double tolerance = 0;
  // Extra cliques the model must contain (besides the measured ones).
  std::vector<Clique> extra_cliques;
  // Workers for the per-clique loops (GraphicalModel::set_threads; 0 = all cores). The result
  // does not depend on it.
  std::size_t threads = 1;
};

struct EstimationResult {
  GraphicalModel model;
  double loss = 0;
  int iterations = 0;
};

// sizes: per attribute. Every measurement's clique is sorted with cells matching noisy (and
// weights if given) and sigma > 0 (kInvalidArgument otherwise). `warm_start` (optional): a
// previous model whose cliques are each inside a clique of the new model; its potentials
// start the descent (AIM re-estimates after each round this way).
Result<EstimationResult> EstimateModel(const std::vector<Measurement>& measurements,
                                       const std::vector<std::uint32_t>& sizes,
                                       const EstimationOptions& options,
                                       const GraphicalModel* warm_start = nullptr);

// The inverse-variance weighted mean of the measurements' totals (private-pgm _setup), >= 1.
double EstimateTotal(const std::vector<Measurement>& measurements);

}  // namespace deniable
