// SPDX-License-Identifier: Apache-2.0
// CSV writer: quotes a field only when it must (it contains the delimiter, a quote, CR or LF,
// or leading/trailing spaces, or it equals a missing-value token and is not missing), doubles
// embedded quotes, writes missing cells as empty fields. Output is written atomically
// (engine/core/atomic_file.h). What ReadCsv read, WriteCsv writes back equivalently.
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
  // Tokens that a reader would take as missing; a real value equal to one is quoted.
  std::vector<std::string> missing_tokens = {"", "NA", "N/A", "null", "?", "NaN"};
};

// Appends one field to `line`, quoting as needed.
void AppendCsvField(std::string_view field, const CsvWriteOptions& options, std::string& line);

// The cell callback appends the text of (row, column) to `out` and returns false for a missing
// cell (nothing appended). It is called row by row, column by column.
using CellWriter = std::function<bool(std::size_t row, std::size_t column, std::string& out)>;

Status WriteCsv(const std::string& path, const std::vector<std::string>& header,
                std::size_t rows, const CellWriter& cell, const CsvWriteOptions& options,
                Progress& progress);

// Writes a RawTable back (used for round-trip tests and for subsetting).
Status WriteRawTable(const std::string& path, const RawTable& table,
                     const CsvWriteOptions& options, Progress& progress);

}  // namespace deniable
