// SPDX-License-Identifier: Apache-2.0
// Typed views of raw columns, computed per distinct text and then mapped to rows.
//
// Number syntax (one definition, shared by inference and parsing): optional ASCII spaces/tabs
// around; optional sign (+ or -); digits with an optional '.' and fraction digits (at least one
// digit overall); optional exponent e/E[+/-]digits. No hex, no "inf"/"nan", no thousands
// separators, no decimal comma. Overflowing values (1e400) do not parse.
//  * Integer columns accept integer texts (no '.', no exponent) whose value is exactly
//    representable as a double (|v| <= 2^53); larger ones fail, because they could not be
//    written back as read. They also accept a number written with an exponent that leaves no
//    digit after the point ("1e+05", "2.5E3": R writes 100000 as 1e+05), within the same
//    bound. Leading zeros ("007") are accepted here (the user chose the type); inference treats
//    them as codes instead (infer_schema.h).
//  * Float columns accept every number above.
//  * DateTime columns parse with the column's datetime_format (datetime.h).
// Parsing uses std::from_chars (locale-independent, no allocation).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

// 2^53: integers up to this magnitude are exact in a double.
inline constexpr double kMaxExactInteger = 9007199254740992.0;

// How a text reads as a number; inference decides types from this, once per distinct text.
struct NumberText {
  enum class Kind { kNotNumber, kInteger, kDecimal };
  Kind kind = Kind::kNotNumber;  // kInteger: digits only (no '.', no exponent)
  double value = 0;            // the number (for kInteger, exact only when `exact_integer`)
  // An integer that a double holds exactly (|value| <= 2^53): a kInteger text, or a kDecimal
  // written with an exponent that leaves no digit after the point ("1e+05", "2.5e3").
  bool exact_integer = false;
  bool leading_zero = false;   // integer part has a redundant leading zero: "007", "-01.5"
  bool exponent = false;       // written with e/E
  int fraction_digits = 0;     // digits after '.' in the text (before the exponent)
  int exponent_value = 0;      // the exponent's value (0 without one; saturates at +-100000)
  // Digits of the significand from its first non-zero digit, trailing zeros included:
  // "0.00120" has 3, "1.50e3" 3, "100" 3, "0" 0.
  int significant_digits = 0;

  // Digits after the point of the value written in plain notation, as precise as the text:
  // fraction_digits - exponent_value, at least 0 ("2.5e-3" -> 4, "1e+05" -> 0, "4.50" -> 2).
  int PlainDecimals() const;
};
NumberText ClassifyNumberText(std::string_view text);

// `text` without the ASCII spaces and tabs around it: numbers and datetimes are read this way.
std::string_view TrimSpaces(std::string_view text);

// Parses one cell's text as the column's numeric type (Integer/Float: the number; DateTime:
// seconds, see datetime.h). nullopt if it does not parse or the column is a String.
std::optional<double> ParseNumericCell(std::string_view text, const ColumnSchema& column);

// Per dictionary entry of `raw`: the parsed value, NaN where it fails (or the column is not
// numeric). Missing rows have code kMissingCode, so index with care: see NumericRowValues.
std::vector<double> NumericDictionaryValues(const RawColumn& raw, const ColumnSchema& column);

// Per row: the numeric value, NaN for missing cells and cells that fail to parse.
std::vector<double> NumericRowValues(const RawColumn& raw, const ColumnSchema& column);

// Appends a number formatted for the column: Integer as an integer (rounded half away from
// zero), Float with column.decimals digits after the point (shortest round-trip text when -1,
// which may use an exponent, e.g. "1e+20"), DateTime with its format (datetime.h). A String
// column is formatted as a Float. Non-finite values append nothing (a missing cell); "-0" is
// written "0".
void FormatNumericCell(double value, const ColumnSchema& column, std::string& out);

}  // namespace deniable
