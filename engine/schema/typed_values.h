// SPDX-License-Identifier: Apache-2.0
// Typed views of raw columns, computed per distinct text and then mapped to rows.
#pragma once

#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

// Parses one cell's text as the column's numeric type (Integer/Float: the number; DateTime:
// seconds, see datetime.h). nullopt if it does not parse.
std::optional<double> ParseNumericCell(std::string_view text, const ColumnSchema& column);

// Per dictionary entry of `raw`: the parsed value, NaN where it fails (or the column is not
// numeric). Missing rows have code kMissingCode, so index with care: see NumericRowValues.
std::vector<double> NumericDictionaryValues(const RawColumn& raw, const ColumnSchema& column);

// Per row: the numeric value, NaN for missing cells and cells that fail to parse.
std::vector<double> NumericRowValues(const RawColumn& raw, const ColumnSchema& column);

// Appends a number formatted for the column: Integer as an integer (rounded), Float with
// column.decimals digits (shortest round-trip when -1), DateTime with its format.
void FormatNumericCell(double value, const ColumnSchema& column, std::string& out);

}  // namespace deniable
