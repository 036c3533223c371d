// SPDX-License-Identifier: Apache-2.0
// The auditor's statistics: Clopper–Pearson bounds against exact values, and the ε_lb rule on
// mechanisms whose outputs are known exactly.
#include "engine/audit/dp_auditor.h"

#include <gtest/gtest.h>

#include <cmath>

namespace deniable {
namespace {

TEST(ClopperPearsonTest, MatchesClosedForms) {
  // k = 0: upper bound 1 − a^{1/n}; k = n: lower bound a^{1/n}.
  EXPECT_NEAR(ClopperPearsonUpper(0, 100, 0.05), 1 - std::pow(0.05, 0.01), 1e-12);
  EXPECT_NEAR(ClopperPearsonLower(100, 100, 0.05), std::pow(0.05, 0.01), 1e-12);
  EXPECT_EQ(ClopperPearsonLower(0, 100, 0.05), 0.0);
  EXPECT_EQ(ClopperPearsonUpper(100, 100, 0.05), 1.0);
  // n = 1, k = 1 at 0.025: lower bound 0.025 (Pr[Bin(1, p) >= 1] = p).
  EXPECT_NEAR(ClopperPearsonLower(1, 1, 0.025), 0.025, 1e-12);
}

TEST(ClopperPearsonTest, MatchesReferenceValues) {
  // The 95% two-sided interval of 5 out of 20, solved independently by bisection on the exact
  // binomial tails (Pr[Bin(20, p) >= 5] = 0.025, Pr[Bin(20, p) <= 5] = 0.025):
  // 0.0865715, 0.4910459.
  EXPECT_NEAR(ClopperPearsonLower(5, 20, 0.025), 0.0865715, 1e-6);
  EXPECT_NEAR(ClopperPearsonUpper(5, 20, 0.025), 0.4910459, 1e-6);
  // A large n: the bounds bracket k/n within a few standard errors.
  const double lo = ClopperPearsonLower(1000, 1000000, 1e-4);
  const double hi = ClopperPearsonUpper(1000, 1000000, 1e-4);
  EXPECT_LT(lo, 1e-3);
  EXPECT_GT(hi, 1e-3);
  EXPECT_NEAR(lo, 1e-3 - 3.72 * std::sqrt(1e-3 / 1e6), 1.5e-5);
  EXPECT_NEAR(hi, 1e-3 + 3.72 * std::sqrt(1e-3 / 1e6), 1.5e-5);
}

TEST(IncompleteBetaTest, MatchesClosedForms) {
  EXPECT_NEAR(RegularizedIncompleteBeta(1, 1, 0.3), 0.3, 1e-14);             // uniform
  EXPECT_NEAR(RegularizedIncompleteBeta(2, 1, 0.3), 0.09, 1e-14);            // x²
  EXPECT_NEAR(RegularizedIncompleteBeta(1, 3, 0.5), 1 - 0.125, 1e-14);       // 1 − (1 − x)³
  EXPECT_NEAR(RegularizedIncompleteBeta(0.5, 0.5, 0.5), 0.5, 1e-12);         // symmetric
}

TEST(AuditDpTest, DeterministicLeakGivesTheClopperPearsonLimit) {
  // M(D) = 0, M(D′) = 1 always: the best events ({f >= 1} for D′ against D, or {f <= 0} for D
  // against D′, equal scores) have n hits under one input and 0 under the other,
  // so ε_lb = ln(p_lo / p′_hi) with p_lo = c^{1/n}, p′_hi = 1 − c^{1/n}, c = α/(2·events).
  AuditOptions options;
  options.samples = 2000;
  options.events = 1;
  const auto result = AuditDp([](bool neighbour, Rng&) {
    return std::vector<double>{neighbour ? 1.0 : 0.0};
  }, options);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  const double c = options.alpha / 2;
  const double expected = std::log(std::pow(c, 1.0 / 1000) / (1 - std::pow(c, 1.0 / 1000)));
  EXPECT_NEAR(result->epsilon_lb, expected, 1e-9);
  EXPECT_EQ(result->hits_first, 1000u);
  EXPECT_EQ(result->hits_second, 0u);
}

TEST(AuditDpTest, IdenticalOutputsGiveZero) {
  AuditOptions options;
  options.samples = 1000;
  const auto result = AuditDp([](bool, Rng& rng) {
    return std::vector<double>{static_cast<double>(rng() % 7)};
  }, options);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->epsilon_lb, 0.0);
}

TEST(AuditDpTest, RefusesBadOptionsAndOutputs) {
  auto constant = [](bool, Rng&) { return std::vector<double>{0.0}; };
  AuditOptions options;
  options.samples = 2;
  EXPECT_FALSE(AuditDp(constant, options).has_value());
  options = AuditOptions{};
  options.alpha = 0.5;
  EXPECT_FALSE(AuditDp(constant, options).has_value());
  options = AuditOptions{};
  options.delta = 1.0;
  EXPECT_FALSE(AuditDp(constant, options).has_value());
  options = AuditOptions{};
  options.samples = 100;
  auto nan = AuditDp([](bool, Rng&) { return std::vector<double>{std::nan("")}; }, options);
  ASSERT_FALSE(nan.has_value());
  EXPECT_NE(nan.error().message.find("NaN"), std::string::npos);
  auto varying = AuditDp([](bool neighbour, Rng&) {
    return neighbour ? std::vector<double>{0.0, 1.0} : std::vector<double>{0.0};
  }, options);
  ASSERT_FALSE(varying.has_value());
  EXPECT_NE(varying.error().message.find("features"), std::string::npos);
  auto empty = AuditDp([](bool, Rng&) { return std::vector<double>{}; }, options);
  EXPECT_FALSE(empty.has_value());
}

}  // namespace
}  // namespace deniable
