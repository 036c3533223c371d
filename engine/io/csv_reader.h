// SPDX-License-Identifier: Apache-2.0
// RFC 4180 CSV reader into a dictionary-encoded RawTable (engine/core/table.h).
//
// What it accepts
//   - Quoted fields with embedded delimiters, doubled quotes ("") and line breaks; LF or CRLF
//     line ends (a CR inside a quoted field is kept as is); a final line with or without a line
//     break.
//   - UTF-8 with or without a BOM (CsvDialect::had_bom). The delimiter is auto-detected among
//     , ; TAB | (DetectDelimiter) unless CsvReadOptions::delimiter is set.
//   - Missing values: an UNQUOTED field equal to one of `missing_tokens` is missing; a QUOTED
//     field is a value ("NA" in quotes is the category NA), except the quoted empty field "",
//     which is treated like an empty field (missing while "" is a token, the default).
//   - Whitespace in values is kept as is. Header names are trimmed of surrounding spaces and
//     tabs when unquoted ("a, b" names the second column "b"); quoted names are kept exactly.
//   - Blank lines (no characters at all before the line break) are skipped before the header
//     and, when the file has more than one column, between records. In a one-column file an
//     empty line is a record holding one empty field (that is how R writes a missing value
//     there), so in such a file a trailing empty line is a row.
//   - Dialect detection (RawTable::dialect): delimiter, BOM, CRLF (from the header's line end)
//     and quote_all_strings: every header name is quoted and, in the first 1,000 rows, every
//     unquoted non-missing field is a number (R's write.csv style).
//
// Errors (ErrorCode::kParse) read "FILE:LINE:COLUMN: what (field N)": 1-based physical line
// (quoted line breaks count) and column = byte offset within that line + 1 (a BOM is not
// counted), the field number when the problem is inside a field:
//   ragged row (too few or too many fields: at the line end, or at the first extra field),
//   unterminated quoted field (at its opening quote), quote inside an unquoted field, text after
//   a closing quote, carriage return without a line feed (classic Mac line ends are rejected),
//   NUL byte, invalid UTF-8 (stray continuation byte, truncated sequence, overlong encoding,
//   surrogate, above U+10FFFF; UTF-16 files are recognised by their BOM), empty file / no
//   header, header without data rows, empty or duplicate column name. The first problem in file
//   order is reported. tests/data/csv/bad/README.md lists one fixture per kind.
//   Unreadable files are ErrorCode::kIo; cancellation is ErrorCode::kCancelled.
//
// Speed: the file is read whole into memory, tokenized with SSE2 scans, and each column is
// dictionary-encoded through a flat hash map that copies a text only when it is new. Large files
// are parsed in two chunks on two threads and merged. bench/csv_bench.cpp measures it (target
// >= 150 MB/s on the 1.5M-row scale file). Memory: the file plus the codes (4 bytes per cell)
// plus the dictionaries; about 370 MB peak for the 162 MB scale file. Not for files that do not
// fit in memory (no streaming mode); for a look at the first rows use max_rows, which reads
// only a prefix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"

namespace deniable {

struct CsvReadOptions {
  // 0 = auto-detect among ',', ';', '\t', '|' from the first lines (outside quotes). Otherwise
  // any ASCII byte except NUL, '"', CR and LF.
  char delimiter = 0;
  std::vector<std::string> missing_tokens = {"", "NA", "N/A", "null", "?", "NaN"};
  // Stop after this many data rows (0 = all). Used for previews: ReadCsv then reads only as
  // much of the file as the rows need, and problems after them are not reported.
  std::size_t max_rows = 0;
  // The memory a whole-file read may use, in bytes; 0 = MemAvailable of /proc/meminfo (no check
  // where that cannot be read). A file whose read would need more — kCsvMemoryPerByte bytes per
  // byte of file — is refused up front (kFailedPrecondition) instead of failing half-way or
  // being killed. Tests inject a value.
  std::uint64_t available_memory = 0;
};

// Peak resident bytes of ReadCsv per byte of CSV file (the file's text and the parsed table,
// alive together at the end of the parse), measured on adult.csv and the 1.5M-row scale file
// (docs/architecture.md, "Memory bound"), rounded up.
inline constexpr double kCsvMemoryPerByte = 3.0;

// Reads a file (never modifying it). `progress` gets the fraction of bytes parsed and is polled
// for cancellation every 65,536 rows and every 16 MB (ErrorCode::kCancelled).
//
// Example:
//   auto table = ReadCsv("adult.csv", CsvReadOptions{}, progress);
//   if (!table) return table.error();   // "adult.csv:17:4: unterminated quoted field (field 2)"
Result<RawTable> ReadCsv(const std::string& path, const CsvReadOptions& options,
                         Progress& progress);

// Parses in-memory text; `source_name` stands in for the path in messages.
Result<RawTable> ParseCsv(std::string_view text, std::string_view source_name,
                          const CsvReadOptions& options, Progress& progress);

// The delimiter ReadCsv would detect for this text: among , ; TAB | the one that splits every
// one of the first records (up to 50, within 64 KB, outside quotes) into the same number (> 1)
// of fields, the most fields winning; failing that, the most frequent one in the header; ','
// when none occurs.
char DetectDelimiter(std::string_view text);

}  // namespace deniable
