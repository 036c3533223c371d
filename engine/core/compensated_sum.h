// SPDX-License-Identifier: Apache-2.0
// Compensated (Neumaier) summation, for sums whose rounding error enters a privacy argument.
//
// For terms x_1..x_K, Value() differs from the exact Σ x_i by at most
//     2u·Σ|x_i| + O(K·u²)·Σ|x_i|,   u = 2^-53
// (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., §4.3, Neumaier's
// variant), so its error does not grow with K to first order; recursive summation's bound is
// (K−1)·u·Σ|x_i|. Below 2^32 terms the second-order part is under 2^-74·Σ|x_i|: a bound of
// 3u·Σ|x_i| covers both. Needs IEEE arithmetic without -ffast-math (the build does not use it).
//
// Example:
//   CompensatedSum sum;
//   for (double c : counts) sum.Add(c * std::log2(c));
//   double total = sum.Value();
#pragma once

#include <cmath>

namespace deniable {

class CompensatedSum {
 public:
  void Add(double x) {
    const double t = sum_ + x;
    compensation_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double Value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0;
  double compensation_ = 0;
};

}  // namespace deniable
