// SPDX-License-Identifier: Apache-2.0
#include "engine/core/random.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

namespace deniable {
namespace {

TEST(SeededRngTest, SameSeedSameStream) {
  SeededRng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const auto x = a();
    EXPECT_EQ(x, b());
    EXPECT_NE(x, c());
  }
  EXPECT_FALSE(a.is_secure());
}

TEST(SeededRngTest, SplitMix64ReferenceValues) {
  // SplitMix64 with seed 0: reference outputs from Vigna's splitmix64.c.
  SeededRng rng(0);
  EXPECT_EQ(rng(), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(rng(), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(rng(), 0x06C45D188009454FULL);
}

TEST(SeededRngTest, ForksAreDeterministicAndDistinct) {
  SeededRng parent(7);
  auto f1 = parent.Fork(1), f1b = parent.Fork(1), f2 = parent.Fork(2);
  const auto x = (*f1)();
  EXPECT_EQ(x, (*f1b)());
  EXPECT_NE(x, (*f2)());
  EXPECT_FALSE(f1->is_secure());
}

TEST(SecureRngTest, IsSecureAndVaries) {
  SecureRng a, b;
  EXPECT_TRUE(a.is_secure());
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {  // crosses several buffer refills
    seen.insert(a());
    seen.insert(b());
  }
  EXPECT_EQ(seen.size(), 2000u);  // a collision among 2000 random 64-bit words: p < 1e-13
  auto child = a.Fork(0);
  EXPECT_TRUE(child->is_secure());
}

TEST(ChaCha20Test, Rfc8439AppendixA1TestVectors) {
  // RFC 8439 A.1 test vector #1 (key 0, nonce 0, counter 0) and #2 (counter 1).
  const std::array<std::uint32_t, 8> key{};
  std::uint32_t out[16];
  internal::ChaCha20Block(key, 0, out);
  EXPECT_EQ(out[0], 0xade0b876u);  // bytes 76 b8 e0 ad, little endian
  EXPECT_EQ(out[1], 0x903df1a0u);
  EXPECT_EQ(out[15], 0x8665eeb2u);  // bytes b2 ee 65 86
  internal::ChaCha20Block(key, 1, out);
  EXPECT_EQ(out[0], 0xbee7079fu);  // bytes 9f 07 e7 be
}

TEST(UniformBelowTest, StaysInRangeAndCoversIt) {
  SeededRng rng(3);
  std::array<int, 7> counts{};
  for (int i = 0; i < 70000; ++i) {
    const auto v = UniformBelow(rng, 7);
    ASSERT_LT(v, 7u);
    ++counts[v];
  }
  // Each count ~ Binomial(70000, 1/7): mean 10000, sd 92.6; 6 sd = 556.
  for (int c : counts) EXPECT_NEAR(c, 10000, 556);
  EXPECT_EQ(UniformBelow(rng, 1), 0u);
}

TEST(UniformUnitTest, InHalfOpenUnitInterval) {
  SeededRng rng(5);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = UniformUnit(rng);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  // mean of 1e5 uniforms: sd = sqrt(1/12/1e5) = 9.1e-4; 6 sd.
  EXPECT_NEAR(sum / 100000, 0.5, 0.0055);
}

TEST(ShuffleTest, IsAPermutationAndDeterministicForASeed) {
  std::vector<int> a(100), b(100);
  for (int i = 0; i < 100; ++i) a[i] = b[i] = i;
  SeededRng r1(9), r2(9);
  Shuffle(std::span<int>(a), r1);
  Shuffle(std::span<int>(b), r2);
  EXPECT_EQ(a, b);
  std::set<int> s(a.begin(), a.end());
  EXPECT_EQ(s.size(), 100u);
  int fixed = 0;
  for (int i = 0; i < 100; ++i) fixed += a[i] == i;
  EXPECT_LT(fixed, 10);  // expected 1 fixed point; 10 has probability < 1e-7
}

}  // namespace
}  // namespace deniable
