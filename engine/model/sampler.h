// SPDX-License-Identifier: Apache-2.0
// Ancestral sampling from a BayesNet: rows are drawn independently, nodes in the network's
// order, each from its conditional distribution given its parents' (bucketed) codes.
// Post-processing of an already private model: no privacy cost.
// Parallel over blocks of 8,192 rows; block b uses rng.Fork(salt + b), salt one word drawn from
// `rng`, so for a SeededRng the output is the same for any number of threads, and two calls
// with the same generator give different rows. Walker alias tables, 32 random bits per value.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// threads = 0: std::thread::hardware_concurrency(). Cancellable (checked per block, by the
// calling thread, which alone calls `progress`). Errors: kInvalidArgument for a network that
// fails Validate(cardinalities) (the message says why) or rows > 2^32 - 1; kCancelled.
Result<EncodedTable> SampleNetwork(const BayesNet& network,
                                   const std::vector<std::uint32_t>& cardinalities,
                                   std::size_t rows, Rng& rng, Progress& progress,
                                   unsigned threads = 0);

}  // namespace deniable
