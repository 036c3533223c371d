// SPDX-License-Identifier: Apache-2.0
// Wilson intervals and the attack risk (engine/evaluate/attack_statistics.h): exact values.
#include "engine/evaluate/attack_statistics.h"

#include <gtest/gtest.h>

namespace deniable {
namespace {

TEST(AttackStatisticsTest, NormalQuantilesMatchTheTables) {
  // Φ^{-1}(0.975) and Φ^{-1}(0.995) (Python's statistics.NormalDist().inv_cdf).
  EXPECT_NEAR(NormalQuantileTwoSided(0.95), 1.9599639845400536, 1e-13);
  EXPECT_NEAR(NormalQuantileTwoSided(0.99), 2.5758293035489, 1e-12);
}

TEST(AttackStatisticsTest, WilsonIntervalsHaveTheirExactValues) {
  // (p̂ + z²/2n)/(1 + z²/n) ± z/(1 + z²/n)·sqrt(p̂(1 − p̂)/n + z²/4n²), z = 1.9599639845400536,
  // evaluated in double precision by an independent script.
  const Interval a = WilsonInterval(8, 10);
  EXPECT_NEAR(a.low, 0.4901624715366418, 1e-13);
  EXPECT_NEAR(a.high, 0.9433178485456248, 1e-13);
  const Interval b = WilsonInterval(0, 10);
  EXPECT_DOUBLE_EQ(b.low, 0);
  EXPECT_NEAR(b.high, 0.2775327998628892, 1e-13);
  const Interval c = WilsonInterval(10, 10);
  EXPECT_NEAR(c.low, 0.7224672001371107, 1e-13);
  EXPECT_NEAR(c.high, 1.0, 1e-13);
  const Interval d = WilsonInterval(500, 2000);
  EXPECT_NEAR(d.low, 0.23151413442481875, 1e-13);
  EXPECT_NEAR(d.high, 0.2694443892158077, 1e-13);
  const Interval none = WilsonInterval(0, 0);
  EXPECT_EQ(none.low, 0);
  EXPECT_EQ(none.high, 1);
}

TEST(AttackStatisticsTest, RiskIsTheShareOfControlFailuresTurnedIntoSuccesses) {
  const RateEstimate train = EstimateRate(900, 1000);
  const RateEstimate control = EstimateRate(500, 1000);
  const RateEstimate naive = EstimateRate(10, 1000);
  const AttackRisk a = CombineRates(train, control, naive);
  EXPECT_DOUBLE_EQ(a.risk, (0.9 - 0.5) / (1 - 0.5));
  EXPECT_DOUBLE_EQ(a.risk_interval.low,
                   (train.interval.low - control.interval.high) / (1 - control.interval.high));
  EXPECT_DOUBLE_EQ(a.risk_interval.high,
                   (train.interval.high - control.interval.low) / (1 - control.interval.low));
  EXPECT_LT(a.risk_interval.low, a.risk);
  EXPECT_GT(a.risk_interval.high, a.risk);
  EXPECT_TRUE(a.attack_beats_naive);
  // A control rate of 1 leaves nothing to gain; a worse attack on training rows is negative.
  EXPECT_EQ(CombineRates(EstimateRate(5, 5), EstimateRate(5, 5), naive).risk, 0);
  EXPECT_DOUBLE_EQ(CombineRates(EstimateRate(250, 1000), control, naive).risk, -0.5);
  EXPECT_FALSE(CombineRates(EstimateRate(10, 1000), control, naive).attack_beats_naive);
}

}  // namespace
}  // namespace deniable
