// SPDX-License-Identifier: Apache-2.0
// The engine's only sources of randomness. Always passed explicitly (never a global), so that a
// test can inject a SeededRng and a release always uses a SecureRng.
#pragma once

#include <array>
#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <utility>

namespace deniable {

// A source of uniformly random 64-bit words. Engine code converts words with its own samplers
// (this header and dp/secure_sampling.h), never with std::*_distribution, whose output differs
// between standard libraries and whose floating-point inversions invite the Mironov attack.
class Rng {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  virtual ~Rng() = default;
  virtual result_type operator()() = 0;

  // True only for generators whose output an adversary cannot predict (SecureRng). Pipelines
  // use it to label a run "reproducible, NOT a private release".
  virtual bool is_secure() const = 0;

  // An independent child generator for parallel work. For a SeededRng the child is a
  // deterministic function of (this generator's seed, stream), so results do not depend on
  // which thread runs which stream; for a SecureRng it is a freshly keyed SecureRng.
  virtual std::unique_ptr<Rng> Fork(std::uint64_t stream) const = 0;
};

// Deterministic SplitMix64 (Steele, Lea, Flood 2014). For tests and for the CLI's --seed mode
// only: anyone who knows the seed can regenerate the noise and subtract it. Output of a run
// that uses it must be labelled "reproducible, NOT a private release".
class SeededRng final : public Rng {
 public:
  explicit SeededRng(std::uint64_t seed) : seed_(seed), state_(seed) {}
  result_type operator()() override {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  bool is_secure() const override { return false; }
  std::unique_ptr<Rng> Fork(std::uint64_t stream) const override;
  std::uint64_t seed() const { return seed_; }

 private:
  std::uint64_t seed_;
  std::uint64_t state_;
};

// Cryptographically secure generator: a ChaCha20 keystream (RFC 8439 block function) keyed with
// 256 bits from the operating system's CSPRNG (getrandom(2)), re-keyed from the OS every 2^32
// blocks and, for forward secrecy, by fast key erasure after every buffer refill — the same
// construction as the Linux kernel's CRNG and OpenBSD's arc4random. Use it for every release.
// Not thread-safe: give each thread its own instance (Fork()).
class SecureRng final : public Rng {
 public:
  SecureRng();  // aborts with a clear message if the OS CSPRNG is unavailable
  SecureRng(const SecureRng&) = delete;
  SecureRng& operator=(const SecureRng&) = delete;
  ~SecureRng() override;

  result_type operator()() override {
    if (next_ == kWordsPerBuffer) Refill();
    return buffer_[next_++];
  }
  bool is_secure() const override { return true; }
  std::unique_ptr<Rng> Fork(std::uint64_t stream) const override;

 private:
  static constexpr std::size_t kBlocksPerBuffer = 16;                      // 1 KiB per refill
  static constexpr std::size_t kWordsPerBuffer = kBlocksPerBuffer * 8;     // 64-bit words
  void Refill();
  void RekeyFromOs();

  std::array<std::uint32_t, 8> key_{};
  std::uint64_t counter_ = 0;
  std::uint64_t blocks_since_rekey_ = 0;
  std::array<std::uint64_t, kWordsPerBuffer> buffer_{};
  std::size_t next_ = kWordsPerBuffer;
};

namespace internal {
// The ChaCha20 block function (RFC 8439 §2.3) with a 64-bit block counter in words 12-13 and a
// zero nonce; exposed for the RFC 8439 A.1 test vectors.
void ChaCha20Block(const std::array<std::uint32_t, 8>& key, std::uint64_t counter,
                   std::uint32_t out[16]);
}  // namespace internal

// Fills `out` with bytes from the OS CSPRNG; returns false if it is unavailable.
bool OsRandomBytes(std::span<std::uint8_t> out);

// A uniformly random integer in [0, n), n > 0, without modulo bias (Lemire 2019).
std::uint64_t UniformBelow(Rng& rng, std::uint64_t n);

// A uniformly random double in [0, 1) with 53 random bits (every value is k / 2^53).
inline double UniformUnit(Rng& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Fisher-Yates shuffle of any random-access range.
template <typename T>
void Shuffle(std::span<T> items, Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(UniformBelow(rng, i));
    std::swap(items[i - 1], items[j]);
  }
}

static_assert(std::uniform_random_bit_generator<SeededRng>);
static_assert(std::uniform_random_bit_generator<SecureRng>);

}  // namespace deniable
