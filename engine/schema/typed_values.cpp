// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/typed_values.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>

#include "engine/schema/datetime.h"

namespace deniable {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Removes "-0", "-0.00" style signs: every digit is zero.
void DropNegativeZero(std::string& out, std::size_t start) {
  if (start >= out.size() || out[start] != '-') return;
  for (std::size_t k = start + 1; k < out.size(); ++k) {
    if (out[k] >= '1' && out[k] <= '9') return;
    if (out[k] == 'e' || out[k] == 'E') break;
  }
  out.erase(start, 1);
}

void AppendDouble(double value, int decimals, std::string& out) {
  char buffer[400];  // fixed notation of 1.8e308 with up to 15 decimals fits
  const auto result = decimals < 0 ? std::to_chars(buffer, buffer + sizeof buffer, value)
                                   : std::to_chars(buffer, buffer + sizeof buffer, value,
                                                   std::chars_format::fixed, decimals);
  if (result.ec != std::errc()) return;
  const std::size_t start = out.size();
  out.append(buffer, result.ptr);
  DropNegativeZero(out, start);
}

}  // namespace

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

NumberText ClassifyNumberText(std::string_view text) {
  NumberText info;
  text = TrimSpaces(text);
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  const std::size_t digits_start = i;
  while (i < text.size() && IsDigit(text[i])) ++i;
  const std::size_t integer_digits = i - digits_start;
  bool has_point = false;
  if (i < text.size() && text[i] == '.') {
    has_point = true;
    const std::size_t fraction_start = ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    info.fraction_digits = static_cast<int>(i - fraction_start);
  }
  if (integer_digits + static_cast<std::size_t>(info.fraction_digits) == 0) return info;
  const std::size_t significand_end = i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    info.exponent = true;
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    const std::size_t exponent_start = i;
    constexpr int kExponentLimit = 100000;  // far beyond any finite double's exponent
    while (i < text.size() && IsDigit(text[i])) {
      info.exponent_value = std::min(info.exponent_value * 10 + (text[i] - '0'), kExponentLimit);
      ++i;
    }
    if (i == exponent_start) return info;
    if (negative_exponent) info.exponent_value = -info.exponent_value;
  }
  if (i != text.size()) return info;
  // Significant digits: from the first non-zero digit of the significand, point skipped.
  bool seen_nonzero = false;
  for (std::size_t k = digits_start; k < significand_end; ++k) {
    if (text[k] == '.') continue;
    seen_nonzero = seen_nonzero || text[k] != '0';
    if (seen_nonzero) ++info.significant_digits;
  }

  // from_chars accepts no '+': parse from the sign or the first digit.
  const char* first = text.data() + (negative ? 0 : digits_start);
  const char* last = text.data() + text.size();
  info.leading_zero = integer_digits > 1 && text[digits_start] == '0';
  if (!has_point && !info.exponent) {
    std::int64_t integer = 0;
    const auto result = std::from_chars(first, last, integer);
    if (result.ec == std::errc() && result.ptr == last) {
      info.kind = NumberText::Kind::kInteger;
      info.value = static_cast<double>(integer);
      constexpr std::int64_t kLimit = std::int64_t{1} << 53;  // compare before rounding
      info.exact_integer = integer >= -kLimit && integer <= kLimit;
      return info;
    }
  }
  double value = 0;
  const auto result = std::from_chars(first, last, value);
  if (result.ec != std::errc() || result.ptr != last || !std::isfinite(value)) return info;
  info.kind = (has_point || info.exponent) ? NumberText::Kind::kDecimal
                                           : NumberText::Kind::kInteger;
  info.value = value;
  info.exact_integer = info.exponent && info.PlainDecimals() == 0 &&
                       std::fabs(value) <= kMaxExactInteger && value == std::floor(value);
  return info;
}

int NumberText::PlainDecimals() const {
  return std::max(0, fraction_digits - exponent_value);
}

std::optional<double> ParseNumericCell(std::string_view text, const ColumnSchema& column) {
  switch (column.type) {
    case DataType::kInteger: {
      const NumberText info = ClassifyNumberText(text);
      if (!info.exact_integer) return std::nullopt;
      return info.value;
    }
    case DataType::kFloat: {
      const NumberText info = ClassifyNumberText(text);
      if (info.kind == NumberText::Kind::kNotNumber) return std::nullopt;
      return info.value;
    }
    case DataType::kDateTime:
      return ParseDateTime(TrimSpaces(text), column.datetime_format, nullptr,
                           column.two_digit_year_start);
    case DataType::kString:
      return std::nullopt;
  }
  return std::nullopt;
}

std::vector<double> NumericDictionaryValues(const RawColumn& raw, const ColumnSchema& column) {
  std::vector<double> values(raw.dictionary.size(), std::numeric_limits<double>::quiet_NaN());
  if (!column.is_numeric()) return values;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (const auto value = ParseNumericCell(raw.dictionary[k], column)) values[k] = *value;
  }
  return values;
}

std::vector<double> NumericRowValues(const RawColumn& raw, const ColumnSchema& column) {
  const std::vector<double> by_code = NumericDictionaryValues(raw, column);
  std::vector<double> values(raw.codes.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t row = 0; row < raw.codes.size(); ++row) {
    const std::uint32_t code = raw.codes[row];
    if (code != kMissingCode) values[row] = by_code[code];
  }
  return values;
}

void FormatNumericCell(double value, const ColumnSchema& column, std::string& out) {
  if (!std::isfinite(value)) return;
  switch (column.type) {
    case DataType::kInteger:
      AppendDouble(std::round(value), 0, out);
      return;
    case DataType::kDateTime:
      FormatDateTime(value, column.datetime_format, out);
      return;
    case DataType::kFloat:
    case DataType::kString:
      AppendDouble(value, column.decimals, out);
      return;
  }
}

}  // namespace deniable
