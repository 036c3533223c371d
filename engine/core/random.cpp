// SPDX-License-Identifier: Apache-2.0
#include "engine/core/random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/core/int128.h"

namespace deniable {
namespace {

constexpr std::uint32_t Rotl(std::uint32_t v, int c) { return (v << c) | (v >> (32 - c)); }

inline void QuarterRound(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c,
                         std::uint32_t& d) {
  a += b; d ^= a; d = Rotl(d, 16);
  c += d; b ^= c; b = Rotl(b, 12);
  a += b; d ^= a; d = Rotl(d, 8);
  c += d; b ^= c; b = Rotl(b, 7);
}

}  // namespace

namespace internal {
void ChaCha20Block(const std::array<std::uint32_t, 8>& key, std::uint64_t counter,
                 std::uint32_t out[16]) {
  std::uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                         key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
                         static_cast<std::uint32_t>(counter),
                         static_cast<std::uint32_t>(counter >> 32), 0, 0};
  std::uint32_t x[16];
  std::memcpy(x, s, sizeof x);
  for (int i = 0; i < 10; ++i) {
    QuarterRound(x[0], x[4], x[8], x[12]);
    QuarterRound(x[1], x[5], x[9], x[13]);
    QuarterRound(x[2], x[6], x[10], x[14]);
    QuarterRound(x[3], x[7], x[11], x[15]);
    QuarterRound(x[0], x[5], x[10], x[15]);
    QuarterRound(x[1], x[6], x[11], x[12]);
    QuarterRound(x[2], x[7], x[8], x[13]);
    QuarterRound(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) out[i] = x[i] + s[i];
}
}  // namespace internal

namespace {

constexpr std::uint64_t kRekeyEveryBlocks = std::uint64_t{1} << 32;

}  // namespace

bool OsRandomBytes(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got = getrandom(out.data() + done, out.size() - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(got);
  }
  return true;
}

std::unique_ptr<Rng> SeededRng::Fork(std::uint64_t stream) const {
  // Mix (seed, stream) through two SplitMix64 steps so that neighbouring streams are unrelated.
  SeededRng mixer(seed_ ^ (stream * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL));
  mixer();
  return std::make_unique<SeededRng>(mixer());
}

SecureRng::SecureRng() { RekeyFromOs(); }

SecureRng::~SecureRng() {
  // Erase key material; volatile stores are not optimised away.
  volatile std::uint32_t* k = key_.data();
  for (std::size_t i = 0; i < key_.size(); ++i) k[i] = 0;
  volatile std::uint64_t* b = buffer_.data();
  for (std::size_t i = 0; i < buffer_.size(); ++i) b[i] = 0;
}

void SecureRng::RekeyFromOs() {
  std::uint8_t bytes[32];
  if (!OsRandomBytes(bytes)) {
    std::fputs("deniable: the operating system's random number generator (getrandom) is not "
               "available; refusing to continue without a secure source of noise\n",
               stderr);
    std::abort();
  }
  std::memcpy(key_.data(), bytes, sizeof bytes);
  std::memset(bytes, 0, sizeof bytes);
  counter_ = 0;
  blocks_since_rekey_ = 0;
}

void SecureRng::Refill() {
  if (blocks_since_rekey_ >= kRekeyEveryBlocks) RekeyFromOs();
  // One extra block provides the next key (fast key erasure, Bernstein 2017): a later memory
  // disclosure cannot reveal words already handed out.
  std::uint32_t block[16];
  internal::ChaCha20Block(key_, counter_++, block);
  std::memcpy(key_.data(), block, sizeof(std::uint32_t) * 8);
  for (std::size_t b = 0; b < kBlocksPerBuffer; ++b) {
    internal::ChaCha20Block(key_, counter_++, block);
    std::memcpy(&buffer_[b * 8], block, sizeof block);
  }
  std::memset(block, 0, sizeof block);
  blocks_since_rekey_ += kBlocksPerBuffer + 1;
  next_ = 0;
}

std::unique_ptr<Rng> SecureRng::Fork(std::uint64_t /*stream*/) const {
  return std::make_unique<SecureRng>();
}

std::uint64_t UniformBelow(Rng& rng, std::uint64_t n) {
  assert(n > 0 && "UniformBelow needs a positive bound");
  // Lemire, "Fast random integer generation in an interval" (2019), unbiased variant.
  Uint128 m = static_cast<Uint128>(rng()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<Uint128>(rng()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

}  // namespace deniable
