// SPDX-License-Identifier: Apache-2.0
// The δ part of DP set union: the items that only a newly added record holds (here: a dataset
// of that one record, holding t items no one else holds) are released with probability <= δ.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dp/set_union.h"

namespace deniable {
namespace {

TEST(SetUnionStatisticalTest, ItemsOfASingleRecordAreReleasedWithProbabilityAtMostDelta) {
  // δ large enough to measure: 0.05. 40,000 runs per t: the count of runs releasing anything is
  // Binomial(40000, p) with p <= 0.05; 5 sigma above 0.05 is 0.05 + 5·sqrt(0.05·0.95/40000)
  // = 0.0554.
  const double delta = 0.05;
  for (std::size_t t : {1u, 3u, 8u}) {
    SetUnionInput input;
    input.records = 1;
    for (std::size_t g = 0; g < t; ++g) {
      input.values.push_back({0});
      input.value_counts.push_back(1);
    }
    SeededRng rng(100 + t);
    NullProgress progress;
    int released = 0;
    const int runs = 40000;
    for (int run = 0; run < runs; ++run) {
      PrivacyAccountant accountant = PrivacyAccountant::Create({10.0, 0.5}).value();
      SetUnionOptions options;
      options.epsilon = 1.0;
      options.delta = delta;
      auto result = DpSetUnion(input, options, accountant, "x", "all", rng, progress);
      ASSERT_TRUE(result.has_value());
      bool any = false;
      for (const auto& kept : result->kept) any = any || !kept.empty();
      released += any ? 1 : 0;
    }
    EXPECT_LE(released / static_cast<double>(runs), 0.0554) << "t = " << t;
    EXPECT_GT(released, 0) << "t = " << t;  // the bound is not vacuous: some releases happen
  }
}

}  // namespace
}  // namespace deniable
