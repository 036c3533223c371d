// SPDX-License-Identifier: Apache-2.0
// Issue #2's utility target on the full Adult dataset (48,842 rows): at ε = 1, correlated mode
// with degree 2 and n = 48,842, the mean TVD over all 2-way marginals is at most 0.08 and below
// the independent mode's (DataSynthesizer: 0.27 correlated, 0.22 independent; a perfect
// independent model 0.078). Measured with `compare`'s rule (metrics/marginals.h).
#include <gtest/gtest.h>

#include "engine/pipeline/synthesis_job.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

double MeanPairTvd(const LoadedInput& input, SynthesisMode mode, std::uint64_t seed) {
  ModelSettings settings;
  settings.mode = mode;
  settings.epsilon = 1.0;
  settings.degree = 2;
  SeededRng rng(seed);
  NullProgress progress;
  auto result = RunRelease(input, settings, input.table->num_rows(), rng, progress);
  EXPECT_TRUE(result.has_value()) << result.error().message;
  if (!result) return 1.0;
  EXPECT_LE(result->model.accountant.Total().epsilon, 1.0);
  return result->metrics.mean_pair_tvd.value_or(1.0);
}

TEST(UtilityE2eTest, CorrelatedModeBeatsTheTargetAndTheIndependentMode) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  InputSettings settings;
  settings.path = path;
  NullProgress progress;
  auto input = LoadInput(settings, progress);
  ASSERT_TRUE(input.has_value()) << input.error().message;
  // Four seeds: the release is random (DP domains, structure, noise); over ten seeds the
  // correlated mode measured 0.060–0.079, mean 0.067 (docs/utility.md). The target is checked
  // on the mean of four runs (its standard error is about 0.003) and on every run with a margin
  // of three standard deviations of a single run (0.005), and every run must beat the
  // independent mode (0.095–0.099).
  double sum = 0;
  const std::uint64_t seeds[] = {1, 2, 3, 4};
  for (std::uint64_t seed : seeds) {
    const double correlated = MeanPairTvd(input.value(), SynthesisMode::kCorrelated, seed);
    const double independent = MeanPairTvd(input.value(), SynthesisMode::kIndependent, seed);
    std::printf("seed %llu: mean 2-way TVD correlated %.4f, independent %.4f\n",
                static_cast<unsigned long long>(seed), correlated, independent);
    EXPECT_LT(correlated, independent) << "seed " << seed;
    EXPECT_LE(correlated, 0.085) << "seed " << seed;
    sum += correlated;
  }
  EXPECT_LE(sum / 4, 0.08);
}

}  // namespace
}  // namespace deniable
