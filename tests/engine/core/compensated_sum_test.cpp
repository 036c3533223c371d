// SPDX-License-Identifier: Apache-2.0
#include "engine/core/compensated_sum.h"

#include <gtest/gtest.h>

#include <cmath>

namespace deniable {
namespace {

// Cancellation that plain summation loses entirely: 1e16 + 1 - 1e16 is 0 in doubles summed left
// to right (1e16 + 1 rounds to 1e16), exactly 1 here.
TEST(CompensatedSumTest, KeepsWhatPlainSummationRoundsAway) {
  CompensatedSum sum;
  for (double x : {1e16, 1.0, -1e16}) sum.Add(x);
  EXPECT_EQ(sum.Value(), 1.0);
  double plain = 0;
  for (double x : {1e16, 1.0, -1e16}) plain += x;
  EXPECT_EQ(plain, 0.0);
}

// A million terms of 0.1: the exact sum of the doubles nearest 0.1 is 100000.0000000055...;
// the compensated sum is within 3u·Σ|x| (1.3e-11) of it, where plain summation drifts by more
// than 1e-6.
TEST(CompensatedSumTest, ErrorDoesNotGrowWithTheNumberOfTerms) {
  CompensatedSum sum;
  double plain = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    sum.Add(0.1);
    plain += 0.1;
  }
  const double exact = 1e6 * 0.1000000000000000055511151231257827;  // the double 0.1, times 1e6
  EXPECT_NEAR(sum.Value(), exact, 3 * 0x1p-53 * 1e5);
  EXPECT_GT(std::fabs(plain - exact), 1e-6);
}

}  // namespace
}  // namespace deniable
