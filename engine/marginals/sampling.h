// SPDX-License-Identifier: Apache-2.0
// Synthetic records from a calibrated graphical model: forward sampling along the junction
// tree (root clique first, then each clique's new attributes given its separator with the
// parent: the running-intersection property makes that an exact draw from the model).
//
// Systematic mode (private-pgm GraphicalModel.synthetic_data with its synthetic_col rounding):
// the root's cells get round-down(n·p) rows plus the remainders drawn by their fractions without
// replacement, and within each group of rows sharing a separator value the same is done with the
// conditional distribution; so every clique marginal of the output is within a few rows of the
// model's. Independent mode: every row an independent draw.
//
// Post-processing only (reads the model, not data). Randomness from the injected Rng; floating
// point is fine here: nothing about the data depends on it.
#pragma once

#include <cstddef>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/marginals/graphical_model.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Measured on pgm-adult (AIM, ε = 1, seeds 1–3, mean 2-way / 3-way TVD): no swaps 0.0420 /
// 0.0666, 5 a row 0.0411 / 0.0656, 20 a row 0.0408 / 0.0654, 60 a row 0.0407 / 0.0654 (the
// fitted model's own 2-way TVD is ~0.0404: the swaps remove most of the sampling error).
inline constexpr double kPairSwapsPerRow = 20;
// RefineSampleMarginals' limits: marginals of more cells than this are left out (as the
// workload leaves out queries of more than 10,000 cells), and the swap attempts are cut so
// that attempts × (attributes − 1) stays within the work budget.
inline constexpr std::size_t kRefineMaxCells = 10000;
inline constexpr double kRefineWorkBudget = 5e7;

struct SamplingOptions {
  bool systematic = true;
  // Within a clique, draw the new attributes one at a time (each given the separator and the
  // ones drawn before it) rather than jointly.
  bool per_attribute = false;
  // After sampling (MarginalsModel::Sample): RefineSampleMarginals with this many swap attempts
  // per row (0: none).
  double pair_swaps_per_row = kPairSwapsPerRow;
};

// `rows` records over every attribute of the model's tree (codes < sizes). The model must be
// calibrated; attributes with domain size above 65,535 are a programmer error.
EncodedTable SampleModel(const GraphicalModel& model, std::size_t rows,
                         const SamplingOptions& options, Rng& rng);

// Post-processing of a sample (reads the model, never data): random swaps of one attribute's
// value between two rows, kept when they bring the sample's marginals closer in L1 to the
// model's (targets n·P): all 2-way marginals and the model's cliques of three or more
// attributes. Every 1-way marginal is unchanged, and the sample's sampling error shrinks
// toward the model's own error: independent draws leave each cell of a pair ~√(n·p) rows from
// n·p, and a pair that no clique of the model holds (most pairs) keeps that error after the
// systematic rounding of SampleModel. swaps_per_row × rows attempts (within
// kRefineWorkBudget); marginals of more than kRefineMaxCells cells do not count.
// Deterministic given the Rng.
void RefineSampleMarginals(const GraphicalModel& model, EncodedTable& table,
                           double swaps_per_row, Rng& rng);

}  // namespace deniable
