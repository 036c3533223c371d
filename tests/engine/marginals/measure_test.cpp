// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/measure.h"

#include <gtest/gtest.h>

#include "engine/core/random.h"

namespace deniable {
namespace {

EncodedTable TwoColumns() {
  EncodedTable t;
  t.rows = 6;
  t.cardinalities = {3, 2};
  t.columns = {{0, 0, 1, 2, 2, 2}, {0, 1, 1, 1, 0, 1}};
  return t;
}

TEST(MeasureTest, CountsAMarginalRowMajor) {
  EXPECT_EQ(CountMarginal(TwoColumns(), {0, 1}), (std::vector<double>{1, 1, 0, 1, 1, 2}));
  EXPECT_EQ(CountMarginal(TwoColumns(), {1}), (std::vector<double>{2, 4}));
}

TEST(MeasureTest, MeasuringSpendsOneZcdpEntry) {
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  ASSERT_TRUE(accountant->SetZcdpDelta(1e-9).has_value());
  SeededRng rng(1);
  auto m = MeasureMarginal(TwoColumns(), {0}, 0.01, "1-way", *accountant, rng);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->noisy.size(), 3u);
  EXPECT_NEAR(m->sigma, std::sqrt(1 / (2 * 0.01)), 1e-9);
  ASSERT_EQ(accountant->entries().size(), 1u);
  EXPECT_EQ(accountant->entries()[0].rho_each, 0.01);
}

TEST(MeasureTest, CompressionMergesRareValuesAndDropsANegligibleMissingCode) {
  // Attribute 0: values 0..4 plus a missing code 5; σ = 10: kept >= 30.
  std::vector<Measurement> one_way = {{{0}, {100, 50, 5, -3, 12, 2}, 10.0, {}}};
  const DomainCompression c = CompressDomains(one_way, {6}, {5}, /*merge_rare=*/true);
  EXPECT_EQ(c.sizes, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(c.backward[0][0], (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(c.backward[0][1], (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(c.backward[0][2], (std::vector<std::uint32_t>{2, 3, 4}));  // missing never produced
  EXPECT_EQ(c.forward[0][5], 2u);  // its rows count with the merged code
  ASSERT_EQ(one_way[0].noisy.size(), 3u);
  EXPECT_NEAR(one_way[0].noisy[2], (5 - 3 + 12) / 2.0, 1e-12);  // scaled by 1/sqrt(3 + 1)
  EXPECT_NEAR(one_way[0].weights[2], 0.5, 1e-12);
}

TEST(MeasureTest, WithoutMergingOnlyTheMissingCodeGoes) {
  std::vector<Measurement> one_way = {{{0}, {100, 5, 80, 1}, 10.0, {}}};
  const DomainCompression c = CompressDomains(one_way, {4}, {3}, /*merge_rare=*/false);
  EXPECT_EQ(c.sizes, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(c.forward[0][3], 0u);  // the kept code with the largest noisy count
  EXPECT_EQ(one_way[0].noisy, (std::vector<double>{100, 5, 80}));
  EXPECT_TRUE(one_way[0].weights.empty());
  SeededRng rng(2);
  EncodedTable t;
  t.rows = 3;
  t.cardinalities = {4};
  t.columns = {{3, 2, 1}};
  const EncodedTable back = c.Expand(c.Compress(t), rng);
  EXPECT_EQ(back.columns[0], (std::vector<Code>{0, 2, 1}));
}

TEST(MeasureTest, AMissingCodeThatIsPresentStays) {
  std::vector<Measurement> one_way = {{{0}, {100, 50, 40}, 10.0, {}}};
  const DomainCompression c = CompressDomains(one_way, {3}, {2}, /*merge_rare=*/true);
  EXPECT_EQ(c.sizes, (std::vector<std::uint32_t>{3}));
}

TEST(MeasureTest, NegligibleOtherAndMissingCodesBothGoAndAPresentOtherStays) {
  // Codes 0..2 values, 3 = "Other", 4 = missing; σ = 10.
  std::vector<Measurement> one_way = {{{0}, {100, 5, 80, 12, -4}, 10.0, {}},
                                      {{1}, {100, 5, 80, 45, -4}, 10.0, {}}};
  const DomainCompression c =
      CompressDomains(one_way, {5, 5}, {4, 4}, /*merge_rare=*/false, {3, 3});
  EXPECT_EQ(c.sizes, (std::vector<std::uint32_t>{3, 4}));
  EXPECT_EQ(c.forward[0][3], 0u);  // Other's rows count with the largest kept code
  EXPECT_EQ(c.forward[0][4], 0u);
  EXPECT_EQ(one_way[0].noisy, (std::vector<double>{100, 5, 80}));
  EXPECT_EQ(c.backward[1][3], (std::vector<std::uint32_t>{3}));  // 45 >= 3σ: Other is real
  EXPECT_EQ(c.forward[1][4], 0u);
  // Only conservative codes, none supported: the larger one is kept.
  std::vector<Measurement> empty = {{{0}, {-1, 2}, 10.0, {}}};
  const DomainCompression e = CompressDomains(empty, {2}, {1}, /*merge_rare=*/true, {0});
  EXPECT_EQ(e.sizes, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(e.backward[0][0], (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(e.forward[0][0], 0u);
}

// A dropped "Other" holds real values: it joins the largest kept VALUE, not the missing code
// even when that is the largest (flchain: a rare cause of death is not "alive").
TEST(MeasureTest, ADroppedOtherJoinsTheLargestValueNotMissing) {
  // Codes 0..2 values, 3 = "Other" (12 < 3σ), 4 = missing (the largest); σ = 10.
  std::vector<Measurement> one_way = {{{0}, {40, 5, 80, 12, 300}, 10.0, {}}};
  const DomainCompression c = CompressDomains(one_way, {5}, {4}, /*merge_rare=*/false, {3});
  EXPECT_EQ(c.sizes, (std::vector<std::uint32_t>{4}));
  EXPECT_EQ(c.backward[0][3], (std::vector<std::uint32_t>{4}));  // missing kept, now code 3
  EXPECT_EQ(c.forward[0][3], 2u);  // Other → value 2 (80), not missing (300)
  // With merging (MST), the merged code is the home, as before.
  std::vector<Measurement> merging = {{{0}, {40, 5, 80, 12, 300}, 10.0, {}}};
  const DomainCompression m = CompressDomains(merging, {5}, {4}, /*merge_rare=*/true, {3});
  EXPECT_EQ(m.forward[0][3], m.forward[0][1]);  // with the rare value 1
  // A column of "Other" and missing only: Other has nowhere but missing to go.
  std::vector<Measurement> only_missing = {{{0}, {1, 200}, 10.0, {}}};
  const DomainCompression d =
      CompressDomains(only_missing, {2}, {1}, /*merge_rare=*/false, {0});
  EXPECT_EQ(d.sizes, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(d.forward[0][0], 0u);
}

}  // namespace
}  // namespace deniable
