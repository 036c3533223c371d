// SPDX-License-Identifier: Apache-2.0
// Internal (not API): finds the first NUL byte or invalid UTF-8 sequence (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF) in CSV text. ASCII runs are checked 16 bytes at a
// time, so for ASCII data this costs a small fraction of the parse.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace deniable::internal {

struct TextScan {
  // text[begin, end) is clean and `end` is a code point boundary. When `bad` is set, a NUL byte
  // or an invalid sequence starts at `end` and `problem` says what is wrong.
  std::size_t end = 0;
  bool bad = false;
  std::string problem;
};

// Scans text[begin, ...) — `begin` must be a code point boundary — until at least `target`
// (clamped to text.size()) or the first problem. Never reads past text.size().
TextScan ScanText(std::string_view text, std::size_t begin, std::size_t target);

}  // namespace deniable::internal
