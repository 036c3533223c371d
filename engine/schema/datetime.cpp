// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/datetime.h"

#include <array>
#include <chrono>
#include <cmath>

namespace deniable {
namespace {

constexpr std::array<const char*, 12> kMonthAbbreviations = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

constexpr std::int64_t kSecondsPerDay = 86400;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
char ToLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// One directive of the format language: the letter, whether it was written %-x, and N of %Nf.
struct Directive {
  char letter = 0;
  bool unpadded = false;
  int width = 0;
};

// Reads the directive after a '%' at format[i] (i points past the '%'); advances i. nullopt for
// an unknown or truncated directive.
std::optional<Directive> ReadDirective(std::string_view format, std::size_t& i) {
  Directive directive;
  if (i < format.size() && format[i] == '-') {
    directive.unpadded = true;
    ++i;
  } else if (i < format.size() && format[i] >= '1' && format[i] <= '9') {
    directive.width = format[i] - '0';
    ++i;
  }
  if (i >= format.size()) return std::nullopt;
  directive.letter = format[i++];
  switch (directive.letter) {
    case 'm': case 'd': case 'H': case 'I':
      if (directive.width != 0) return std::nullopt;
      return directive;
    case 'f':
      if (directive.unpadded) return std::nullopt;
      return directive;
    case 'Y': case 'y': case 'M': case 'S': case 'b': case 'p': case 'z': case 'T': case '%':
      if (directive.unpadded || directive.width != 0) return std::nullopt;
      return directive;
    default:
      return std::nullopt;
  }
}

// The broken-down fields a parse fills.
struct Fields {
  std::int64_t year = 1970;
  int month = 1;
  int day = 1;
  int hour = 0;
  int hour12 = 0;  // from %I, combined with %p at the end
  int minute = 0;
  int second = 0;
  int micros = 0;
  int offset_seconds = 0;
  bool has_hour12 = false;
  bool pm = false;
};

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}
  bool at_end() const { return pos_ == text_.size(); }
  std::size_t pos() const { return pos_; }
  bool Literal(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // Reads between min_digits and max_digits decimal digits (greedy) into `value`.
  bool Number(int min_digits, int max_digits, int& value) {
    int digits = 0;
    value = 0;
    while (digits < max_digits && pos_ < text_.size() && IsDigit(text_[pos_])) {
      value = value * 10 + (text_[pos_++] - '0');
      ++digits;
    }
    return digits >= min_digits;
  }
  bool Ranged(bool unpadded, int lo, int hi, int& value) {
    return Number(unpadded ? 1 : 2, 2, value) && value >= lo && value <= hi;
  }
  // Case-insensitive match of `word`.
  bool Word(std::string_view word) {
    if (text_.size() - pos_ < word.size()) return false;
    for (std::size_t k = 0; k < word.size(); ++k) {
      if (ToLower(text_[pos_ + k]) != ToLower(word[k])) return false;
    }
    pos_ += word.size();
    return true;
  }
  bool Fraction(int width, int& micros, int& digits) {
    micros = 0;
    digits = 0;
    const int max_digits = width == 0 ? 9 : width;
    while (digits < max_digits && pos_ < text_.size() && IsDigit(text_[pos_])) {
      if (digits < 6) micros = micros * 10 + (text_[pos_] - '0');
      ++pos_;
      ++digits;
    }
    if (digits == 0 || (width != 0 && digits != width)) return false;
    for (int k = digits; k < 6; ++k) micros *= 10;
    return true;
  }
  bool Offset(int& offset_seconds) {
    if (Literal('Z')) {
      offset_seconds = 0;
      return true;
    }
    if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return false;
    const int sign = text_[pos_++] == '-' ? -1 : 1;
    int hours = 0;
    int minutes = 0;
    if (!Number(2, 2, hours) || hours > 23) return false;
    Literal(':');
    if (!Number(2, 2, minutes) || minutes > 59) return false;
    offset_seconds = sign * (hours * 3600 + minutes * 60);
    return true;
  }
  std::string_view Since(std::size_t start) const {
    return text_.substr(start, pos_ - start);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

bool ParseDirective(const Directive& directive, TextCursor& in, int two_digit_year_start,
                    Fields& fields, DateTimeParseDetails& details) {
  int value = 0;
  switch (directive.letter) {
    case 'Y':
      if (!in.Number(4, 4, value)) return false;
      fields.year = value;
      return true;
    case 'y':
      if (!in.Number(2, 2, value)) return false;
      // The year of the window [start, start + 99] that ends in these two digits.
      fields.year = two_digit_year_start + (value - two_digit_year_start % 100 + 100) % 100;
      return true;
    case 'm': return in.Ranged(directive.unpadded, 1, 12, fields.month);
    case 'd': return in.Ranged(directive.unpadded, 1, 31, fields.day);
    case 'H': return in.Ranged(directive.unpadded, 0, 23, fields.hour);
    case 'I':
      fields.has_hour12 = true;
      return in.Ranged(directive.unpadded, 1, 12, fields.hour12);
    case 'M': return in.Ranged(false, 0, 59, fields.minute);
    case 'S': return in.Ranged(false, 0, 59, fields.second);
    case 'f': return in.Fraction(directive.width, fields.micros, details.fraction_digits);
    case 'b':
      for (int month = 0; month < 12; ++month) {
        if (in.Word(kMonthAbbreviations[static_cast<std::size_t>(month)])) {
          fields.month = month + 1;
          return true;
        }
      }
      return false;
    case 'p':
      if (in.Word("AM")) {
        fields.pm = false;
        return true;
      }
      if (in.Word("PM")) {
        fields.pm = true;
        return true;
      }
      return false;
    case 'z': {
      const std::size_t start = in.pos();
      if (!in.Offset(fields.offset_seconds)) return false;
      details.offset_text = in.Since(start);
      return true;
    }
    case 'T':
      return in.Ranged(false, 0, 23, fields.hour) && in.Literal(':') &&
             in.Ranged(false, 0, 59, fields.minute) && in.Literal(':') &&
             in.Ranged(false, 0, 59, fields.second);
    case '%': return in.Literal('%');
    default: return false;
  }
}

void AppendPadded(std::int64_t value, int width, std::string& out) {
  if (value < 0) {
    out.push_back('-');
    value = -value;
  }
  char buffer[24];
  int length = 0;
  do {
    buffer[length++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  for (int k = length; k < width; ++k) out.push_back('0');
  while (length > 0) out.push_back(buffer[--length]);
}

}  // namespace

bool IsLeapYear(std::int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int DaysInMonth(std::int64_t year, int month) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && IsLeapYear(year)) return 29;
  return kDays[static_cast<std::size_t>(month - 1)];
}

// Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar.
std::int64_t DaysFromCivil(std::int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const std::int64_t yoe = year - era * 400;                                        // [0, 399]
  const std::int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;                   // [0, 146096]
  return era * 146097 + doe - 719468;
}

// Civil date of a day count (Hinnant's civil_from_days).
void CivilFromDays(std::int64_t days, std::int64_t& year, int& month, int& day) {
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;                                // [0, 146096]
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);            // [0, 365]
  const std::int64_t mp = (5 * doy + 2) / 153;                                 // [0, 11]
  day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  year = yoe + era * 400 + (month <= 2 ? 1 : 0);
}

const std::vector<std::string>& KnownDateTimeFormats() {
  static const std::vector<std::string> kFormats = {
      // ISO 8601 (space or 'T', optional fraction and offset), and year-month.
      "%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M",
      "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S%z",
      "%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%d %H:%M:%S%z", "%Y-%m-%d %H:%M:%S.%f%z",
      "%Y-%m-%dT%H:%M%z", "%Y-%m",
      // US month/day/year, padded then unpadded (Excel), 24- and 12-hour clocks.
      "%m/%d/%Y", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%m/%d/%Y %I:%M:%S %p",
      "%m/%d/%Y %I:%M %p", "%-m/%-d/%Y", "%-m/%-d/%Y %-H:%M:%S", "%-m/%-d/%Y %-H:%M",
      "%-m/%-d/%Y %-I:%M:%S %p", "%-m/%-d/%Y %-I:%M %p",
      // Day/month/year.
      "%d/%m/%Y", "%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M", "%-d/%-m/%Y", "%-d/%-m/%Y %-H:%M:%S",
      "%-d/%-m/%Y %-H:%M", "%d.%m.%Y", "%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%d-%m-%Y",
      "%d-%m-%Y %H:%M:%S",
      // Two-digit years.
      "%m/%d/%y", "%-m/%-d/%y", "%d/%m/%y", "%d.%m.%y",
      // Year/month/day with slashes.
      "%Y/%m/%d", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M",
      // Month names.
      "%d-%b-%Y", "%d-%b-%Y %H:%M:%S", "%d-%b-%y", "%d %b %Y", "%-d %b %Y", "%b %d, %Y",
      "%b %-d, %Y",
      // Times of day (seconds since midnight).
      "%H:%M:%S", "%H:%M", "%H:%M:%S.%f", "%I:%M:%S %p", "%I:%M %p", "%-I:%M %p"};
  return kFormats;
}

std::optional<double> ParseDateTime(std::string_view text, std::string_view format,
                                    DateTimeParseDetails* details, int two_digit_year_start) {
  Fields fields;
  DateTimeParseDetails seen;
  TextCursor in(text);
  bool has_am_pm = false;
  std::size_t i = 0;
  while (i < format.size()) {
    const char c = format[i++];
    if (c != '%') {
      if (!in.Literal(c)) return std::nullopt;
      continue;
    }
    const auto directive = ReadDirective(format, i);
    if (!directive ||
        !ParseDirective(*directive, in, two_digit_year_start, fields, seen)) {
      return std::nullopt;
    }
    has_am_pm = has_am_pm || directive->letter == 'p';
  }
  if (!in.at_end()) return std::nullopt;
  if (fields.day > DaysInMonth(fields.year, fields.month)) return std::nullopt;
  if (fields.has_hour12) {
    if (!has_am_pm) return std::nullopt;
    fields.hour = fields.hour12 % 12 + (fields.pm ? 12 : 0);
  }
  const std::int64_t whole =
      DaysFromCivil(fields.year, fields.month, fields.day) * kSecondsPerDay +
      fields.hour * 3600 + fields.minute * 60 + fields.second - fields.offset_seconds;
  if (details != nullptr) *details = seen;
  return static_cast<double>(whole) + fields.micros * 1e-6;
}

void FormatDateTime(double seconds, std::string_view format, std::string& out) {
  if (!(std::fabs(seconds) < 3e12)) return;  // also rejects NaN
  double whole_seconds = std::floor(seconds);
  auto micros = static_cast<std::int64_t>(std::llround((seconds - whole_seconds) * 1e6));
  if (micros >= 1000000) {  // the fraction rounded up to a whole second
    micros -= 1000000;
    whole_seconds += 1;
  }
  const auto whole = static_cast<std::int64_t>(whole_seconds);
  std::int64_t days = whole / kSecondsPerDay;
  std::int64_t second_of_day = whole % kSecondsPerDay;
  if (second_of_day < 0) {
    second_of_day += kSecondsPerDay;
    days -= 1;
  }
  std::int64_t year = 0;
  int month = 0;
  int day = 0;
  CivilFromDays(days, year, month, day);
  const int hour = static_cast<int>(second_of_day / 3600);
  const int minute = static_cast<int>(second_of_day / 60 % 60);
  const int second = static_cast<int>(second_of_day % 60);
  const int hour12 = hour % 12 == 0 ? 12 : hour % 12;

  std::size_t i = 0;
  while (i < format.size()) {
    const char c = format[i++];
    if (c != '%') {
      out.push_back(c);
      continue;
    }
    const auto directive = ReadDirective(format, i);
    if (!directive) return;  // invalid format: IsValidDateTimeFormat guards user input
    const int pad = directive->unpadded ? 1 : 2;
    switch (directive->letter) {
      case 'Y': AppendPadded(year, 4, out); break;
      case 'y': AppendPadded(((year % 100) + 100) % 100, 2, out); break;
      case 'm': AppendPadded(month, pad, out); break;
      case 'd': AppendPadded(day, pad, out); break;
      case 'H': AppendPadded(hour, pad, out); break;
      case 'I': AppendPadded(hour12, pad, out); break;
      case 'M': AppendPadded(minute, 2, out); break;
      case 'S': AppendPadded(second, 2, out); break;
      case 'f': {
        const int width = directive->width == 0 ? 6 : directive->width;
        std::int64_t digits = micros;
        for (int k = 6; k > width; --k) digits /= 10;
        for (int k = 6; k < width; ++k) digits *= 10;
        AppendPadded(digits, width, out);
        break;
      }
      case 'b': out += kMonthAbbreviations[static_cast<std::size_t>(month - 1)]; break;
      case 'p': out += hour < 12 ? "AM" : "PM"; break;
      case 'z': out.push_back('Z'); break;
      case 'T':
        AppendPadded(hour, 2, out);
        out.push_back(':');
        AppendPadded(minute, 2, out);
        out.push_back(':');
        AppendPadded(second, 2, out);
        break;
      case '%': out.push_back('%'); break;
      default: return;
    }
  }
}

namespace {

// The directives a format uses, by letter (invalid formats: nullopt).
std::optional<std::string> DirectiveLetters(std::string_view format) {
  std::string letters;
  std::size_t i = 0;
  while (i < format.size()) {
    if (format[i++] != '%') continue;
    const auto directive = ReadDirective(format, i);
    if (!directive) return std::nullopt;
    letters.push_back(directive->letter);
  }
  return letters;
}

}  // namespace

bool HasTwoDigitYear(std::string_view format) {
  const auto letters = DirectiveLetters(format);
  return letters && letters->find('y') != std::string::npos;
}

std::optional<DateTimeRange> DateTimeFormatRange(std::string_view format,
                                                 int two_digit_year_start) {
  if (!IsValidDateTimeFormat(format)) return std::nullopt;
  const std::string letters = DirectiveLetters(format).value_or("");
  const auto has = [&letters](std::string_view any) {
    return letters.find_first_of(any) != std::string::npos;
  };
  const auto day_seconds = [](std::int64_t year, int month, int day) {
    return static_cast<double>(DaysFromCivil(year, month, day) * kSecondsPerDay);
  };
  // The coarsest field the format writes bounds what it can write back: fields it lacks read
  // as their defaults (1970-01-01 00:00:00).
  if (has("y")) {
    return DateTimeRange{day_seconds(two_digit_year_start, 1, 1),
                         day_seconds(two_digit_year_start + 100, 1, 1)};
  }
  if (has("Y")) return DateTimeRange{day_seconds(0, 1, 1), day_seconds(10000, 1, 1)};
  if (has("mb")) return DateTimeRange{0, day_seconds(1971, 1, 1)};
  if (has("d")) return DateTimeRange{0, day_seconds(1970, 2, 1)};
  if (has("HIT")) return DateTimeRange{0, static_cast<double>(kSecondsPerDay)};
  if (has("M")) return DateTimeRange{0, 3600};
  return DateTimeRange{0, 60};
}

std::int64_t TodayDays() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now).count();
  return seconds >= 0 ? seconds / kSecondsPerDay : (seconds + 1) / kSecondsPerDay - 1;
}

std::int64_t YearOfDays(std::int64_t days) {
  std::int64_t year = 0;
  int month = 0;
  int day = 0;
  CivilFromDays(days, year, month, day);
  return year;
}

bool IsValidDateTimeFormat(std::string_view format) {
  bool has_field = false;
  bool has_hour12 = false;
  bool has_am_pm = false;
  std::size_t i = 0;
  while (i < format.size()) {
    if (format[i++] != '%') continue;
    const auto directive = ReadDirective(format, i);
    if (!directive) return false;
    has_field = has_field || directive->letter != '%';
    has_hour12 = has_hour12 || directive->letter == 'I';
    has_am_pm = has_am_pm || directive->letter == 'p';
  }
  return has_field && has_hour12 == has_am_pm;
}

}  // namespace deniable
