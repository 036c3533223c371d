// SPDX-License-Identifier: Apache-2.0
// Internal (not API): the text rules the CSV reader and writer share, so that what one writes the
// other reads back: which fields are missing-value tokens, and which texts look numeric (R's
// write.csv quotes every field that is not a number; CsvDialect::quote_all_strings).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"

namespace deniable::internal {

// A set of missing-value tokens with a length pre-filter: for most fields the test is one bit
// test (the reader asks it for every unquoted field).
class MissingTokens {
 public:
  explicit MissingTokens(const std::vector<std::string>& tokens) : tokens_(tokens) {
    for (const std::string& token : tokens_) {
      if (token.size() < 64) {
        length_mask_ |= std::uint64_t{1} << token.size();
      } else {
        has_long_ = true;
      }
      if (token.size() <= 8) {
        ShortToken short_token{token.size(), 0, {}};
        std::memcpy(&short_token.word, token.data(), token.size());
        std::memcpy(short_token.text, token.data(), token.size());
        short_tokens_.push_back(short_token);
      }
    }
  }

  // Like Contains, for text that is readable 8 bytes past `size` (the reader's padded
  // buffers): short tokens are compared as one word, without a memcmp call.
  bool ContainsPadded(const char* data, std::size_t size) const {
    if (size < 64 ? ((length_mask_ >> size) & 1) == 0 : !has_long_) return false;
    if (size > 8) return Contains(data, size);
    std::uint64_t word = 0;
    std::memcpy(&word, data, 8);
    if (size < 8) {  // keep the first `size` bytes in memory order
      if constexpr (std::endian::native == std::endian::little) {
        word &= (std::uint64_t{1} << (8 * size)) - 1;
      } else {
        word &= ~(~std::uint64_t{0} >> (8 * size));
      }
    }
    for (const ShortToken& token : short_tokens_) {
      if (token.size == size && token.word == word) return true;
    }
    return false;
  }

  bool Contains(const char* data, std::size_t size) const {
    if (size < 64 ? ((length_mask_ >> size) & 1) == 0 : !has_long_) return false;
    if (size <= 8) {  // inline compare: cheaper than a memcmp call for these sizes
      for (const ShortToken& token : short_tokens_) {
        if (token.size != size) continue;
        std::size_t i = 0;
        while (i < size && token.text[i] == data[i]) ++i;
        if (i == size) return true;
      }
      return false;
    }
    for (const std::string& token : tokens_) {
      if (token.size() == size && std::memcmp(token.data(), data, size) == 0) return true;
    }
    return false;
  }
  bool Contains(std::string_view text) const { return Contains(text.data(), text.size()); }
  bool ContainsEmpty() const { return (length_mask_ & 1) != 0; }

 private:
  struct ShortToken {
    std::size_t size;
    std::uint64_t word;  // the bytes, zero-padded to 8, in memory order
    char text[8];
  };
  std::vector<std::string> tokens_;
  std::vector<ShortToken> short_tokens_;
  std::uint64_t length_mask_ = 0;  // bit n set: some token has n bytes
  bool has_long_ = false;
};

// True for the texts R and most tools write unquoted as numbers: an optional sign, digits with an
// optional decimal point (or a leading point), an optional exponent; also Inf and -Inf.
inline bool IsNumericText(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  if (text.substr(i) == "Inf") return true;
  const auto skip_digits = [&] {
    const std::size_t first = i;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
    return i - first;
  };
  std::size_t digits = skip_digits();
  if (i < n && text[i] == '.') {
    ++i;
    digits += skip_digits();
  }
  if (digits == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (skip_digits() == 0) return false;
  }
  return i == n;
}

// A delimiter must be one ASCII byte that cannot be confused with the CSV structure.
inline Status CheckDelimiter(char delimiter) {
  const auto byte = static_cast<unsigned char>(delimiter);
  if (byte != 0 && byte < 0x80 && delimiter != '"' && delimiter != '\r' && delimiter != '\n') {
    return OkStatus();
  }
  return InvalidArgument(
      "CSV delimiter must be an ASCII character other than a quote, CR, LF or NUL (got byte " +
      std::to_string(byte) + ")");
}

// The file name of a path, for progress labels.
inline std::string BaseName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace deniable::internal
