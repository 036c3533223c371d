// SPDX-License-Identifier: Apache-2.0
// One attempt's work before the test: draw a seed uniformly from D_S and ω uniformly from its
// range (Mechanism 1 step 1, §3.2), make the candidate (eq. 3) and count its plausible seeds
// exactly (plausibility.h). Shared by the release loop, the parameter advisor's sweeps and the
// benchmarks.
//
// PreparedSeeds is immutable and shared by all threads; each thread owns a CandidateGenerator
// (scratch buffers).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/deniable/deniable_model.h"
#include "engine/deniable/plausibility.h"
#include "engine/deniable/seed_index.h"
#include "engine/deniable/seed_model.h"

namespace deniable {

struct PreparedSeeds {
  SeedModel model;
  SeedIndex index;  // depth m - smallest ω that will be used
};

// `seed_rows` index `data` (D_S). The index supports every ω >= min_omega.
Result<PreparedSeeds> PrepareSeeds(const EncodedTable& data,
                                   const std::vector<std::uint32_t>& seed_rows,
                                   const DeniableModel& model, int min_omega, Progress& progress);

class CandidateGenerator {
 public:
  // omega.min must be >= the min_omega the seeds were prepared for.
  CandidateGenerator(const PreparedSeeds& seeds, OmegaRange omega, double gamma);

  // Makes one candidate; returns its k' (the seed's group of plausible seeds, seed included).
  std::uint32_t Next(Rng& rng) {
    const int m = seeds_.model.attributes();
    seed_ = static_cast<std::size_t>(UniformBelow(rng, seeds_.index.size()));
    omega_used_ =
        omega_.min + (random_omega_ ? static_cast<int>(UniformBelow(rng, omega_.width())) : 0);
    seeds_.model.Generate(seeds_.index.SeedCodes(seed_), m - omega_used_, y_.data(), rng);
    if (random_omega_) SuffixProbabilities(seeds_.model, y_.data(), omega_.max, q_.data());
    return counter_.Count(seed_, omega_used_, y_.data(), q_.data()).k_prime;
  }

  const std::vector<Code>& candidate() const { return y_; }  // position order
  int omega_used() const { return omega_used_; }
  std::size_t seed() const { return seed_; }  // sorted position in the index (tests only)

 private:
  const PreparedSeeds& seeds_;
  OmegaRange omega_;
  bool random_omega_;
  PlausibleSeedCounter counter_;
  std::vector<Code> y_;
  std::vector<double> q_;
  std::size_t seed_ = 0;
  int omega_used_ = 0;
};

}  // namespace deniable
