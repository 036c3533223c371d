// SPDX-License-Identifier: Apache-2.0
// Schema inference from a RawTable. Works on each column's dictionary of distinct texts (each
// parsed once), weighted by their counts, so it is fast on millions of rows.
//
// Rules (documented in docs/schema.md):
//  * Type: Integer if every non-missing value parses as an integer (optional sign, digits; no
//    leading zeros except "0", else the column is a code and stays String); Float if every value
//    parses as a decimal number (incl. exponent); DateTime if every value parses with one of
//    the formats of datetime.h (the first format that fits all values wins and is kept); else
//    String. A column whose values fit a type except for at most `max_failed_fraction` of its
//    non-missing cells (default 0.1%, at most 20 distinct texts) gets that type, and the
//    misfits are listed in stats.failed_values (they read as missing).
//  * Categorical: distinct non-missing values <= categorical_threshold.
//  * Identifier: a String or Integer column whose non-missing values are all distinct, no
//    missing, more than 20 rows, and not a Float/DateTime => role kIdentifier, id_pattern set
//    from the values' common shape.
//  * decimals for Float: the largest number of digits after the point seen (capped at 15).
//  * Empty columns (all missing) are String, role kIgnore; constant columns are categorical.
#pragma once

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

struct InferOptions {
  int categorical_threshold = 20;
  double max_failed_fraction = 0.001;
};

Schema InferSchema(const RawTable& table, const InferOptions& options);

// Recomputes one column's stats (and failed values) for a possibly user-changed type, e.g.
// after the user switched a column to Integer in the wizard.
ColumnStats ComputeColumnStats(const RawTable& table, std::size_t column,
                               const ColumnSchema& schema);

}  // namespace deniable
