// SPDX-License-Identifier: Apache-2.0
// Date-time parsing and formatting with explicit formats (no locale, no time zone: a naive
// timestamp is read as if UTC and written back the same way, so values round-trip).
//
// Format language (a strftime subset): %Y year (4 digits), %m month 01-12, %d day 01-31,
// %H hour 00-23, %M minute, %S second, %f fractional seconds (1-9 digits, parse only keeps
// microseconds), %y 2-digit year (00-68 => 20xx, 69-99 => 19xx, POSIX rule), %b month
// abbreviation (Jan..Dec, English), %p AM/PM with %I hour 01-12, %z offset (+hh:mm, +hhmm, Z),
// %T = %H:%M:%S, %% literal. Non-zero-padded forms: %-m %-d %-H %-I accept 1 or 2 digits.
// Every other character is literal.
//
// KnownDateTimeFormats() lists the formats inference tries, in order: ISO 8601 dates and
// date-times (with 'T' or space, optional fractional seconds and offset) and common ones
// (m/d/Y, d/m/Y, d.m.Y, m/d/y, Y/m/d, d-b-Y, "b d, Y", with and without times). Ambiguous
// d/m vs m/d is settled by the values (a day > 12 decides); otherwise m/d first (documented).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deniable {

const std::vector<std::string>& KnownDateTimeFormats();

// Seconds since 1970-01-01 00:00:00 (may be negative; fractional part for %f). nullopt when
// the text does not match the format exactly (whole string) or is not a valid calendar date.
std::optional<double> ParseDateTime(std::string_view text, std::string_view format);

// Appends `seconds` formatted with `format`.
void FormatDateTime(double seconds, std::string_view format, std::string& out);

// True when `format` is well formed (only known directives).
bool IsValidDateTimeFormat(std::string_view format);

}  // namespace deniable
