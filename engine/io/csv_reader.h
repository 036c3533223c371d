// SPDX-License-Identifier: Apache-2.0
// RFC 4180 CSV reader into a dictionary-encoded RawTable.
//
// Accepts: quoted fields with embedded delimiters, doubled quotes and newlines; UTF-8 with or
// without BOM (invalid UTF-8 is an error naming line and column); LF or CRLF line ends (a
// lone CR inside a quoted field is kept); a final line with or without a newline; delimiter
// auto-detected among , ; TAB | (or set); configurable missing-value tokens (an unquoted or
// quoted field equal to a token is missing; the empty field is always missing unless
// `empty_is_missing` is false). Whitespace is kept as is.
// Errors (ErrorCode::kParse) read "FILE:LINE:COLUMN: what", with 1-based line and column
// (column = byte offset in the line + 1, and the field number):
//   ragged row, unterminated quoted field, stray quote inside an unquoted field, text after a
//   closing quote, invalid UTF-8, empty file / no header, header without data rows, empty or
//   duplicate column name, NUL byte.
// Speed target: >= 150 MB/s on the 1.5M-row scale file (bench/csv_bench.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"

namespace deniable {

struct CsvReadOptions {
  // 0 = auto-detect among ',', ';', '\t', '|' from the first lines (outside quotes).
  char delimiter = 0;
  std::vector<std::string> missing_tokens = {"", "NA", "N/A", "null", "?", "NaN"};
  // Stop after this many data rows (0 = all). Used for previews.
  std::size_t max_rows = 0;
};

// Reads a file. `progress` gets fractions of bytes read and is polled for cancellation.
Result<RawTable> ReadCsv(const std::string& path, const CsvReadOptions& options,
                         Progress& progress);

// Parses in-memory text; `source_name` stands in for the path in messages.
Result<RawTable> ParseCsv(std::string_view text, std::string_view source_name,
                          const CsvReadOptions& options, Progress& progress);

// The delimiter ReadCsv would detect for this text (',' when nothing else fits).
char DetectDelimiter(std::string_view text);

}  // namespace deniable
