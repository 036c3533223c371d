// SPDX-License-Identifier: Apache-2.0
// SampleProportional: exact interval arithmetic on the weights' exact values, checked at
// chosen random words; frequencies are in the statistical test.
#include "engine/dp/exact_weighted_choice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tests/engine/dp/scripted_rng.h"

namespace deniable {
namespace {

using test_support::ScriptedRng;

TEST(SampleProportionalTest, OnlyPositiveWeightsAreChosen) {
  SeededRng rng(21);
  const std::vector<double> weights = {0.0, 3.0, 0.0};
  for (int i = 0; i < 100; ++i) EXPECT_EQ(SampleProportional(weights, rng), 1u);
}

// With weights {2^-1074, 1} the exact total is 1 + 2^-1074 and the subnormal owns the first
// 2^-1074 of it, so the target U = 0 picks it. A floating-point CDF would round the
// subnormal's share away entirely (1 + 2^-1074 == 1 in doubles).
TEST(SampleProportionalTest, SubnormalWeightKeepsItsExactShare) {
  const std::vector<double> weights = {std::numeric_limits<double>::denorm_min(), 1.0};
  ScriptedRng zeros({}, 0);
  EXPECT_EQ(SampleProportional(weights, zeros), 0u);
  // Any target with a nonzero top word lands in the weight 1.0.
  ScriptedRng top({1}, 0);
  EXPECT_EQ(SampleProportional(weights, top), 1u);
}

// Weights 1, 1, 2 are 1, 1, 2 units (all share the exponent floor): total 4 units, a 3-bit
// top word (mask 0b111); targets 0, 1, 2, 3 map to indices 0, 1, 2, 2 and 4..7 are rejected.
TEST(SampleProportionalTest, MapsTargetsToIntervalsAndRejectsOverflow) {
  const std::vector<double> weights = {1.0, 1.0, 2.0};
  const std::uint64_t unit = std::uint64_t{1} << 52;  // 1.0 = 2^52 · 2^-52: the unit is 2^-52
  // The total is 4·2^52 = 2^54 units: bit length 55, so the top word is masked to 55 bits.
  ScriptedRng first({0});
  EXPECT_EQ(SampleProportional(weights, first), 0u);
  ScriptedRng second({unit});
  EXPECT_EQ(SampleProportional(weights, second), 1u);
  ScriptedRng third({2 * unit});
  EXPECT_EQ(SampleProportional(weights, third), 2u);
  ScriptedRng last({4 * unit - 1});
  EXPECT_EQ(SampleProportional(weights, last), 2u);
  // 4·unit is outside [0, total): rejected, and the next word (0) picks index 0.
  ScriptedRng rejected({4 * unit, 0});
  EXPECT_EQ(SampleProportional(weights, rejected), 0u);
  EXPECT_EQ(rejected.calls(), 2u);
}

TEST(SampleProportionalTest, HandlesExtremeMagnitudesTogether) {
  SeededRng rng(22);
  const std::vector<double> weights = {1e-300, std::numeric_limits<double>::max(), 1e300, 5e-324};
  // max double dominates everything else by a factor > 1e8: always index 1 in practice.
  for (int i = 0; i < 100; ++i) EXPECT_EQ(SampleProportional(weights, rng), 1u);
}

}  // namespace
}  // namespace deniable
