// SPDX-License-Identifier: Apache-2.0
// What `deniable-cli generate` does with a description it read, for the description harnesses:
// sample a few rows (ReadDescription promises that a description it accepts cannot make
// generation crash) and decode them into a table, then write the description back.
#pragma once

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/model/description.h"
#include "engine/model/encoding.h"
#include "engine/pipeline/synthesis_job.h"

namespace deniable::fuzz {

inline void GenerateFewRows(const Description& description) {
  (void)DescriptionToJson(description).dump();
  SeededRng rng(7);
  NullProgress progress;
  auto encoded = GenerateFromDescription(description, 5, rng, progress);
  if (!encoded) return;
  (void)DecodeToRawTable(encoded.value(), description.schema, description.domains, rng, progress);
}

}  // namespace deniable::fuzz
