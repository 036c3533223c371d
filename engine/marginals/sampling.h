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

struct SamplingOptions {
  bool systematic = true;
  // Within a clique, draw the new attributes one at a time (each given the separator and the
  // ones drawn before it) rather than jointly.
  bool per_attribute = false;
};

// `rows` records over every attribute of the model's tree (codes < sizes). The model must be
// calibrated; attributes with domain size above 65,535 are a programmer error.
EncodedTable SampleModel(const GraphicalModel& model, std::size_t rows,
                         const SamplingOptions& options, Rng& rng);

}  // namespace deniable
