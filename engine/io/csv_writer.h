// SPDX-License-Identifier: Apache-2.0
// CSV writer, the inverse of ReadCsv: what ReadCsv read, WriteRawTable writes back so that
// ReadCsv reads an identical table (same names, cells, missing cells, dictionary order).
//
// Quoting: a value is quoted only when it must be: it is empty, contains the delimiter, a quote,
// CR or LF, starts or ends with a space or tab, starts with a BOM, or equals a missing-value
// token (so the category "NA" survives a round trip as "NA" in quotes); with
// `quote_all_strings`, also every non-numeric value and every header name (R's write.csv
// style). Embedded quotes are doubled. A missing cell is written as an empty field (or, when ""
// is not among the missing tokens, as the first token, unquoted). One-column tables therefore
// write a missing cell as an empty line, which ReadCsv reads back as a missing row.
// Limitation: an empty non-missing value is written as "" and read back as missing while "" is a
// missing token (a table ReadCsv produced never holds one).
//
// Output is written atomically (engine/core/atomic_file.h): a failed or cancelled write leaves
// the destination as it was. Refusing to overwrite the input is the caller's job
// (CheckNotOverwritingInput).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"

namespace deniable {

struct CsvWriteOptions {
  char delimiter = ',';
  bool crlf = false;
  bool bom = false;                // start the file with a UTF-8 byte order mark
  bool quote_all_strings = false;  // quote the header and every non-numeric value
  // Tokens that a reader would take as missing; a real value equal to one is quoted.
  std::vector<std::string> missing_tokens = {"", "NA", "N/A", "null", "?", "NaN"};
  bool owner_only = false;  // file mode 0600 (real rows, e.g. a control split)
};

// The options that write a table in the dialect it was read in (RawTable::dialect).
CsvWriteOptions WriteOptionsFor(const CsvDialect& dialect);

// Appends one field to `line`, quoting as needed.
void AppendCsvField(std::string_view field, const CsvWriteOptions& options, std::string& line);

// The cell callback appends the text of (row, column) to `out` and returns false for a missing
// cell (nothing appended). It is called row by row, column by column.
using CellWriter = std::function<bool(std::size_t row, std::size_t column, std::string& out)>;

// Writes `header` and `rows` rows. Header names must be non-empty and distinct
// (kInvalidArgument otherwise), so that the output is a file ReadCsv accepts. `progress` gets
// the fraction of rows written and is polled for cancellation (kCancelled; nothing written).
Status WriteCsv(const std::string& path, const std::vector<std::string>& header, std::size_t rows,
                const CellWriter& cell, const CsvWriteOptions& options, Progress& progress);

// Writes a RawTable back (used for round-trip tests and for subsetting). Each distinct text is
// quoted once, so this runs at memory speed.
Status WriteRawTable(const std::string& path, const RawTable& table, const CsvWriteOptions& options,
                     Progress& progress);

}  // namespace deniable
