// SPDX-License-Identifier: Apache-2.0
// Ancestral sampling from a BayesNet: rows are drawn independently, nodes in the network's
// order, each from its conditional distribution given its parents' (bucketed) codes.
// Post-processing of an already private model: no privacy cost.
// Parallel over blocks of rows; block b uses rng.Fork(b), so for a SeededRng the output is the
// same for any number of threads.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// threads = 0: std::thread::hardware_concurrency(). Cancellable (checked per block).
Result<EncodedTable> SampleNetwork(const BayesNet& network,
                                   const std::vector<std::uint32_t>& cardinalities,
                                   std::size_t rows, Rng& rng, Progress& progress,
                                   unsigned threads = 0);

}  // namespace deniable
