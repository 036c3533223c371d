// SPDX-License-Identifier: Apache-2.0
#include "engine/io/utf8_scan.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace deniable::internal {
namespace {

std::string Hex(unsigned char byte) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02X", static_cast<unsigned>(byte));
  return buffer;
}

std::string Invalid(const std::string& detail) {
  return "invalid UTF-8: " + detail + "; the file must be UTF-8 (re-save it as UTF-8)";
}

// Skips ASCII bytes other than NUL from `i`; returns the first other position (or a position
// >= limit when none before it). Never reads at or past `size`.
std::size_t SkipPlainAscii(const unsigned char* s, std::size_t i, std::size_t limit,
                           std::size_t size) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  while (i < limit && i + 16 <= size) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const int mask = _mm_movemask_epi8(block) | _mm_movemask_epi8(_mm_cmpeq_epi8(block, zero));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#else
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  while (i < limit && i + 8 <= size) {
    std::uint64_t word;
    std::memcpy(&word, s + i, 8);
    // A byte with its high bit set, or a zero byte (the classic has-zero-byte test).
    if ((((word - kOnes) & ~word) | word) & kHighs) break;
    i += 8;
  }
#endif
  while (i < limit && i < size && s[i] != 0 && s[i] < 0x80) ++i;
  return i;
}

}  // namespace

TextScan ScanText(std::string_view text, std::size_t begin, std::size_t target) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  if (target > size) target = size;
  std::size_t i = begin;
  while (true) {
    i = SkipPlainAscii(s, i, target, size);
    if (i >= target) return TextScan{i, false, {}};
    const unsigned char lead = s[i];
    if (lead == 0) {
      return TextScan{i, true, "NUL byte (a binary or UTF-16 file?)"};
    }
    std::size_t length;
    if (lead < 0xC0) {
      return TextScan{i, true, Invalid("continuation byte " + Hex(lead) + " without a lead byte")};
    } else if (lead < 0xC2) {
      return TextScan{i, true, Invalid("overlong encoding (lead byte " + Hex(lead) + ")")};
    } else if (lead < 0xE0) {
      length = 2;
    } else if (lead < 0xF0) {
      length = 3;
    } else if (lead < 0xF5) {
      length = 4;
    } else {
      return TextScan{i, true, Invalid("byte " + Hex(lead) + " never occurs in UTF-8")};
    }
    for (std::size_t k = 1; k < length; ++k) {
      if (i + k >= size) {
        return TextScan{i, true,
                        Invalid("truncated sequence (lead byte " + Hex(lead) + " at end of file)")};
      }
      if ((s[i + k] & 0xC0) != 0x80) {
        return TextScan{i, true,
                        Invalid("truncated sequence (lead byte " + Hex(lead) + " followed by " +
                                Hex(s[i + k]) + ")")};
      }
    }
    const unsigned char second = s[i + 1];
    const char* what = nullptr;
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xF0 && second < 0x90)) {
      what = "overlong encoding";
    } else if (lead == 0xED && second >= 0xA0) {
      what = "encoded UTF-16 surrogate";
    } else if (lead == 0xF4 && second >= 0x90) {
      what = "code point above U+10FFFF";
    }
    if (what != nullptr) {
      return TextScan{
          i, true, Invalid(std::string(what) + " (bytes " + Hex(lead) + " " + Hex(second) + ")")};
    }
    i += length;
  }
}

}  // namespace deniable::internal
