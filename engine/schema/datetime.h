// SPDX-License-Identifier: Apache-2.0
// Date-time parsing and formatting with explicit formats (no locale, no time zone: a naive
// timestamp is read as if UTC and written back the same way, so values round-trip). Hand-written
// (no std::regex, std::get_time or locale): one pass over format and text, then Howard
// Hinnant's days-from-civil arithmetic. Fast enough to try every known format on every distinct
// value of a column during inference.
//
// Format language (a strftime subset):
//   %Y  year, exactly 4 digits (0000-9999)
//   %y  2-digit year, read into the 100-year window [two_digit_year_start, start + 99] (the
//       column's ColumnSchema::two_digit_year_start); the default window 1969-2068 is the POSIX
//       rule (00-68 => 20xx, 69-99 => 19xx). Written as the year mod 100.
//   %m  month 01-12          %-m  1 or 2 digits
//   %d  day 01-31, checked against the month and leap years   %-d  1 or 2 digits
//   %H  hour 00-23 (24 is rejected)                          %-H  1 or 2 digits
//   %I  hour 01-12, only together with %p                     %-I  1 or 2 digits
//   %p  AM / PM (parse: any case; format: upper case)
//   %M  minute 00-59        %S  second 00-59 (leap second 60 is rejected)
//   %f  fraction of a second: parse 1-9 digits, format 6 digits (microseconds)
//   %Nf (N = 1..9) exactly N digits, both ways (inference narrows %f to %Nf when every value
//       has N digits, so output keeps the input's precision)
//   %b  month abbreviation Jan..Dec (parse: any case; format: "Jan")
//   %z  UTC offset: Z, +hh:mm, +hhmm, -hh:mm, -hhmm; parse converts to UTC, format writes "Z"
//       (inference replaces %z by the literal offset when every value has the same one)
//   %T  = %H:%M:%S         %%  a literal %
// Every other character is literal and must match exactly. Fields a format lacks default to
// 1970-01-01 00:00:00 (so "%H:%M" reads a time of day as seconds since midnight).
// Precision: parse keeps microseconds (digits beyond the 6th are dropped); a double holds
// microseconds exactly for dates between about 1700 and 2240.
//
// Round trip: FormatDateTime(ParseDateTime(t, f), f) == t for canonical texts (zero-padded
// where the format pads, upper-case AM/PM, "Jan" spelling, "Z" for %z, 6 digits for %f).
//
// KnownDateTimeFormats() lists the formats inference tries (docs/schema.md has the table): ISO
// 8601 dates and date-times (with 'T' or space, optional fractional seconds and offset, and
// year-month), then common ones (m/d/Y, d/m/Y, d.m.Y, d-m-Y, m/d/y, Y/m/d, d-b-Y, "b d, Y",
// padded and unpadded, with and without times, 12-hour clocks) and times of day. Inference
// picks the format with the fewest failing cells, ties going to the earlier format: so an
// ambiguous d/m vs m/d column is settled by the values (a day > 12 decides), else m/d wins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deniable {

const std::vector<std::string>& KnownDateTimeFormats();

// The first year of the window two-digit years (%y) are read into: 1969 is the POSIX rule
// (00-68 => 2000-2068, 69-99 => 1969-1999). A window starts in 0..9900 (so it ends by 9999).
inline constexpr int kPosixTwoDigitYearStart = 1969;
inline constexpr int kMinTwoDigitYearStart = 0;
inline constexpr int kMaxTwoDigitYearStart = 9900;

// What a successful parse saw, for inference to narrow a format (%f -> %Nf, %z -> literal).
struct DateTimeParseDetails {
  int fraction_digits = -1;      // digits read by %f (-1: no %f in the format)
  std::string_view offset_text;  // the text matched by %z (a view into the parsed text)
};

// Seconds since 1970-01-01 00:00:00 (may be negative; fractional part for %f). nullopt when
// the text does not match the format exactly (whole string), the format is invalid, or the
// text is not a valid calendar date / time of day. %y reads into the window that starts at
// `two_digit_year_start` (see above).
std::optional<double> ParseDateTime(std::string_view text, std::string_view format,
                                    DateTimeParseDetails* details = nullptr,
                                    int two_digit_year_start = kPosixTwoDigitYearStart);

// Appends `seconds` formatted with `format`. Whole seconds are floored (a value inside a day
// belongs to that day); non-finite values and |seconds| >= 3e12 (about 95,000 years)
// append nothing (a missing cell). Years outside 0000-9999 are written as plain signed numbers.
// %y writes the year mod 100: a year outside the column's window reads back a century off, so
// domains keep datetimes inside DateTimeFormatRange.
void FormatDateTime(double seconds, std::string_view format, std::string& out);

// True when `format` has a %y directive (two-digit years).
bool HasTwoDigitYear(std::string_view format);

// The seconds a format can write and read back as the same instant: with %y, the window
// [start-01-01 00:00:00, start+99-12-31 23:59:59]; with %Y, the years 0000-9999; without a
// year (a time of day, "%H:%M"), the first day [0, 86400) ... and similarly without a month or
// day. `hi` is exclusive. nullopt for an invalid format.
struct DateTimeRange {
  double lo = 0;
  double hi = 0;  // exclusive
};
std::optional<DateTimeRange> DateTimeFormatRange(std::string_view format,
                                                 int two_digit_year_start = kPosixTwoDigitYearStart);

// Today as days since 1970-01-01, from the system clock (UTC). For inference "after today".
std::int64_t TodayDays();
// The civil year of a day count.
std::int64_t YearOfDays(std::int64_t days);

// True when `format` is well formed: only the directives above, at least one of them, and %I
// if and only if %p.
bool IsValidDateTimeFormat(std::string_view format);

// Calendar helpers (proleptic Gregorian), exposed for tests and other modules.
std::int64_t DaysFromCivil(std::int64_t year, int month, int day);
// The inverse of DaysFromCivil (Hinnant's civil_from_days): the date of a day count.
void CivilFromDays(std::int64_t days, std::int64_t& year, int& month, int& day);
bool IsLeapYear(std::int64_t year);
int DaysInMonth(std::int64_t year, int month);

}  // namespace deniable
