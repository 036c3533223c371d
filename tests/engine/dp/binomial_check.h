// SPDX-License-Identifier: Apache-2.0
// Tolerances for statistical tests: an observed count of events with probability p in n
// independent draws is Binomial(n, p), standard deviation sqrt(n p (1 − p)); we accept
// |count − n p| <= 5σ + 1 (the +1 covers the discreteness when n p is tiny). With fixed seeds
// the tests are deterministic; 5σ makes a correct sampler fail with probability ~6e-7 per check
// were the seed changed.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace deniable::test_support {

inline ::testing::AssertionResult CountMatchesProbability(std::uint64_t count, std::uint64_t n,
                                                          double p) {
  const double expected = static_cast<double>(n) * p;
  const double sigma = std::sqrt(static_cast<double>(n) * p * (1 - p));
  const double deviation = std::fabs(static_cast<double>(count) - expected);
  if (deviation <= 5 * sigma + 1) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "count " << count << " of " << n << " vs expected " << expected << " (p = " << p
         << "): " << deviation / sigma << " sigma";
}

}  // namespace deniable::test_support
