// SPDX-License-Identifier: Apache-2.0
// Schema inference from a RawTable. Works on each column's dictionary of distinct texts (each
// parsed once), weighted by their counts, so it is fast on millions of rows.
//
// Rules (documented in docs/schema.md):
//  * Type: Integer if every non-missing value parses as an integer (typed_values.h: optional
//    sign, digits, |v| <= 2^53); Float if every value parses as a decimal number (incl.
//    exponent); DateTime if every value parses with one of KnownDateTimeFormats() (the format
//    with the fewest failing cells wins, ties to the earlier one, and is kept); else String.
//    A column whose values fit a type except for at most `max_failed_fraction` of its
//    non-missing cells and at most `max_failed_distinct` distinct texts gets that type (the
//    fewest failures wins, ties in the order Integer, Float, DateTime); the misfits are listed
//    in stats.failed_values and read as missing.
//  * Codes: if any value is a number written with a redundant leading zero ("007", "-01.5") or
//    an integer beyond 2^53 (it would lose digits as a double), the column is a String code:
//    zip codes, account numbers and long IDs keep their exact text.
//  * Categorical: distinct non-missing values that parse as the type <= categorical_threshold.
//  * Identifier: a String or Integer column whose values are all distinct, with no missing and
//    no failed cells, and more than 20 rows => role kIdentifier, not categorical, id_pattern
//    from InferIdPattern.
//  * decimals for Float: the precision the column's values carry (ValueDecimals per value:
//    digits after the point in plain notation, so "2.5e-3" counts 4 and "1e+05" 0; a text with
//    more than 15 significant digits counts the decimals of its 15-digit rounding, so
//    0.30000000000000004 counts 1), count-weighted: the smallest d such that at most 1% of
//    the numeric cells (and, from 10 cells on, at least one cell) need more than d. One odd
//    value never sets the precision of a whole column. Capped at 15; never -1.
//  * Two-digit years: a DateTime format with %y gets the window InferTwoDigitYearStart picks.
//  * Empty columns (all missing) are String, role kIgnore; constant columns are categorical.
//  * Roles quasi-identifier and sensitive are never inferred: only the user sets them.
//  * Geo pairs: a latitude-named and a longitude-named numeric column whose values lie on the
//    globe are modelled jointly (geo_pairs.h DetectGeoPairs); `"geo": null` undoes it.
// Schema::delimiter is taken from the table's dialect; missing_tokens stay at their default
// (the caller sets the tokens it read the file with).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"
#include "engine/schema/typed_values.h"

namespace deniable {

struct InferOptions {
  int categorical_threshold = 20;
  double max_failed_fraction = 0.001;
  int max_failed_distinct = 20;
  // "Today" for the two-digit-year rule, as days since 1970-01-01; nullopt: the system clock.
  std::optional<std::int64_t> today_days;
};

Schema InferSchema(const RawTable& table, const InferOptions& options);

// Recomputes one column's stats (and failed values) for a possibly user-changed type, e.g.
// after the user switched a column to Integer in the wizard.
ColumnStats ComputeColumnStats(const RawTable& table, std::size_t column,
                               const ColumnSchema& schema);

// The best known datetime format for the column's values within the options' failure budget
// (fewest failing cells, ties to the earlier format; %f narrowed to %Nf when every value has N
// fraction digits, N != 6; %z replaced by the literal offset when every value has the same).
// nullopt when no format parses at least one value within the budget. For a column the user
// declared DateTime, pass max_failed_fraction = 1 and a large max_failed_distinct.
std::optional<std::string> DetectDateTimeFormat(const RawColumn& raw,
                                                const InferOptions& options);

// The identifier pattern of the column's values: '#' a digit, 'A' an upper-case ASCII letter,
// 'a' a lower-case one (any non-ASCII character counts as 'a'), '\x' the literal character x
// (used for letters, digits, '#' and '\'); ASCII punctuation and spaces stand for themselves.
// A release carries the pattern, so it holds only what many records share:
//  * the most common shape, if at least kIdShapeSupport values have it (ties to the smallest
//    shape, not the first record's); otherwise a generic "Aaaaaaaaaa" (or "##########" when no
//    value has a letter), so that names and free text do not publish one record's shape;
//  * a letter as a literal only where every value of that shape has it and the shape has at
//    least kIdLiteralSupport values ("\P\R-####" for PR-0001 ...); a digit never (a counter's
//    leading digits would tell the row count): mplsstops' idNum gives "##-######", IDs 1..1950
//    give "####";
//  * never a byte of a non-ASCII character.
// The pattern can hold at least as many distinct values as there are values of that shape
// (GenerateUniqueIds widens it when asked for more). "" for an empty column.
inline constexpr std::uint64_t kIdShapeSupport = 10;
inline constexpr std::uint64_t kIdLiteralSupport = 100;
std::string InferIdPattern(const RawColumn& raw);

// The window for a %y format (datetime.h): the POSIX window (1969-2068) unless it puts a value
// of the column after `today_days`; then the window that ends in today's year (e.g. 1927-2026
// in 2026), so that "4/18/47" is 1947, not 2047. An owner who knows better sets it.
int InferTwoDigitYearStart(const RawColumn& raw, const std::string& format,
                           std::int64_t today_days);
// Cells of the column that `format` with the window `two_digit_year_start` reads as a date
// after `today_days` (the day after today or later).
std::uint64_t CellsAfterToday(const RawColumn& raw, const std::string& format,
                              int two_digit_year_start, std::int64_t today_days);

// A value of a column and how many cells hold it.
struct CountedValue {
  std::string text;
  std::uint64_t count = 0;
};
// The column's observed values that read as its type, with their cell counts, in value order:
// numbers and datetimes by value (texts of equal value are one value, spelled as its most
// frequent text), strings by text (byte order). Missing cells and values that fail to parse
// are left out. For the owner's eyes (a target's classes, vocabulary review).
std::vector<CountedValue> ObservedValues(const RawColumn& raw, const ColumnSchema& column);

// Digits after the point for writing a Float column (see the rules above).
inline constexpr std::uint64_t kDecimalsOutlierDivisor = 100;     // 1% of the cells
inline constexpr std::uint64_t kDecimalsMinCellsForOutlier = 10;  // one outlier allowed from here
int InferDecimals(const RawColumn& raw);
// The decimals one number text carries (the per-value rule above); 0 for a non-number.
int ValueDecimals(const NumberText& info);

}  // namespace deniable
