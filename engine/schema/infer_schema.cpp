// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/infer_schema.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "engine/schema/datetime.h"
#include "engine/schema/geo_pairs.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxSampleValues = 8;
constexpr std::size_t kMaxFailedValues = 20;
constexpr int kMaxDecimals = 15;
constexpr int kDoubleDigits = 15;  // decimal digits a double always holds exactly
constexpr std::size_t kMinIdentifierRows = 21;  // "more than 20 rows"

// How many failing cells / distinct texts a candidate type may have.
struct FailureBudget {
  std::uint64_t cells = 0;
  std::uint64_t distinct = 0;
};

FailureBudget BudgetFor(const RawColumn& raw, const InferOptions& options) {
  const auto non_missing = static_cast<double>(raw.num_rows() - raw.missing_count);
  const double fraction = std::clamp(options.max_failed_fraction, 0.0, 1.0);
  return FailureBudget{static_cast<std::uint64_t>(std::floor(fraction * non_missing)),
                       static_cast<std::uint64_t>(std::max(options.max_failed_distinct, 0))};
}

// Failures of one candidate type over a column's distinct texts.
struct Failures {
  std::uint64_t cells = 0;
  std::uint64_t distinct = 0;
  std::uint64_t parsed_cells = 0;
  bool Add(std::uint64_t count, const FailureBudget& budget) {
    cells += count;
    ++distinct;
    return cells <= budget.cells && distinct <= budget.distinct;
  }
  bool Fits(const FailureBudget& budget) const {
    return parsed_cells > 0 && cells <= budget.cells && distinct <= budget.distinct;
  }
};

// Indices of the `limit` dictionary entries with the largest counts (ties: first appearance)
// among those `keep` accepts, most frequent first.
template <typename Keep>
std::vector<std::size_t> TopEntries(const RawColumn& raw, std::size_t limit, Keep keep) {
  std::vector<std::size_t> indices;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (keep(k)) indices.push_back(k);
  }
  const auto by_count = [&raw](std::size_t a, std::size_t b) {
    return raw.counts[a] != raw.counts[b] ? raw.counts[a] > raw.counts[b] : a < b;
  };
  const std::size_t n = std::min(limit, indices.size());
  std::partial_sort(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(n),
                    indices.end(), by_count);
  indices.resize(n);
  return indices;
}

// Replaces the first `directive` in `format` by `replacement`.
std::string ReplaceDirective(std::string format, std::string_view directive,
                             std::string_view replacement) {
  const std::size_t at = format.find(directive);
  if (at != std::string::npos) format.replace(at, directive.size(), replacement);
  return format;
}

// Narrows %f to %Nf and %z to a literal offset when all values agree (see the header).
std::string NarrowDateTimeFormat(const RawColumn& raw, const std::string& format) {
  const bool has_fraction = format.find("%f") != std::string::npos;
  const bool has_offset = format.find("%z") != std::string::npos;
  if (!has_fraction && !has_offset) return format;
  int digits = -2;  // -2: not seen yet, -3: values disagree
  std::string_view offset;
  bool same_offset = true;
  bool first = true;
  for (const std::string& text : raw.dictionary) {
    DateTimeParseDetails details;
    if (!ParseDateTime(TrimSpaces(text), format, &details)) continue;
    if (digits == -2) digits = details.fraction_digits;
    if (details.fraction_digits != digits) digits = -3;
    if (first) offset = details.offset_text;
    same_offset = same_offset && details.offset_text == offset;
    first = false;
  }
  std::string narrowed = format;
  if (has_fraction && digits >= 1 && digits <= 9 && digits != 6) {
    narrowed = ReplaceDirective(narrowed, "%f", "%" + std::to_string(digits) + "f");
  }
  if (has_offset && !first && same_offset) {
    narrowed = ReplaceDirective(narrowed, "%z", offset);
  }
  return narrowed;
}

// The numeric candidates of a column, from one pass over its distinct texts.
struct NumericScan {
  Failures integer;
  Failures real;
  bool code = false;  // a leading-zero number or an integer beyond 2^53
};

NumericScan ScanNumbers(const RawColumn& raw, const FailureBudget& budget) {
  NumericScan scan;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    const NumberText info = ClassifyNumberText(raw.dictionary[k]);
    const std::uint64_t count = raw.counts[k];
    const bool number = info.kind != NumberText::Kind::kNotNumber;
    if (number && (info.leading_zero || (info.kind == NumberText::Kind::kInteger &&
                                         !info.exact_integer))) {
      scan.code = true;
      return scan;
    }
    if (info.exact_integer) {
      scan.integer.parsed_cells += count;
    } else {
      scan.integer.Add(count, budget);
    }
    if (number) {
      scan.real.parsed_cells += count;
    } else if (!scan.real.Add(count, budget)) {
      return scan;  // every Float failure is an Integer failure: neither can fit any more
    }
  }
  return scan;
}

// The failures of `format` over the column, stopping once `limit` cells are exceeded.
Failures DateTimeFailures(const RawColumn& raw, const std::string& format,
                          const FailureBudget& budget) {
  Failures failures;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (ParseDateTime(TrimSpaces(raw.dictionary[k]), format)) {
      failures.parsed_cells += raw.counts[k];
    } else if (!failures.Add(raw.counts[k], budget)) {
      return failures;
    }
  }
  return failures;
}

// The best known format within `budget` and its failing cells (see DetectDateTimeFormat).
std::optional<std::pair<std::string, std::uint64_t>> BestDateTimeFormat(
    const RawColumn& raw, const FailureBudget& budget) {
  const std::string* best = nullptr;
  std::uint64_t best_cells = 0;
  for (const std::string& format : KnownDateTimeFormats()) {
    FailureBudget tighter = budget;
    if (best != nullptr) {
      if (best_cells == 0) break;  // cannot be beaten; ties go to the earlier format
      tighter.cells = best_cells - 1;
    }
    const Failures failures = DateTimeFailures(raw, format, tighter);
    if (failures.Fits(tighter)) {
      best = &format;
      best_cells = failures.cells;
    }
  }
  if (best == nullptr) return std::nullopt;
  return std::make_pair(NarrowDateTimeFormat(raw, *best), best_cells);
}

// Type, format and decimals of a non-empty column (the rules in the header).
void InferType(const RawColumn& raw, const InferOptions& options, ColumnSchema& column) {
  const FailureBudget budget = BudgetFor(raw, options);
  const NumericScan scan = ScanNumbers(raw, budget);
  std::uint64_t numeric_failures = 0;
  if (!scan.code && scan.integer.Fits(budget) && scan.integer.cells == scan.real.cells) {
    column.type = DataType::kInteger;
    numeric_failures = scan.integer.cells;
  } else if (!scan.code && scan.real.Fits(budget)) {
    column.type = DataType::kFloat;
    column.decimals = InferDecimals(raw);
    numeric_failures = scan.real.cells;
  }
  if (column.is_numeric() && numeric_failures == 0) return;
  FailureBudget datetime_budget = budget;
  if (column.is_numeric()) datetime_budget.cells = numeric_failures - 1;  // must do better
  if (auto best = BestDateTimeFormat(raw, datetime_budget)) {
    column.type = DataType::kDateTime;
    column.decimals = -1;
    column.datetime_format = std::move(best->first);
    if (HasTwoDigitYear(column.datetime_format)) {
      column.two_digit_year_start = InferTwoDigitYearStart(
          raw, column.datetime_format, options.today_days.value_or(TodayDays()));
    }
  }
}

ColumnSchema InferColumn(const RawTable& table, std::size_t index, const InferOptions& options) {
  const RawColumn& raw = table.columns[index];
  ColumnSchema column;
  column.name = raw.name;
  if (raw.dictionary.empty()) {
    column.role = ColumnRole::kIgnore;
    column.stats = ComputeColumnStats(table, index, column);
    return column;
  }
  InferType(raw, options, column);
  column.stats = ComputeColumnStats(table, index, column);
  const ColumnStats& stats = column.stats;
  column.categorical = stats.distinct - stats.failed_distinct <=
                       static_cast<std::uint64_t>(std::max(options.categorical_threshold, 0));
  const bool unique = stats.distinct == stats.rows && stats.missing == 0;
  if ((column.type == DataType::kString || column.type == DataType::kInteger) && unique &&
      stats.failed_count == 0 && stats.rows >= kMinIdentifierRows) {
    column.role = ColumnRole::kIdentifier;
    column.categorical = false;
    column.id_pattern = InferIdPattern(raw);
  }
  return column;
}

}  // namespace

Schema InferSchema(const RawTable& table, const InferOptions& options) {
  Schema schema;
  schema.categorical_threshold = options.categorical_threshold;
  schema.delimiter = table.dialect.delimiter;
  schema.columns.reserve(table.num_columns());
  for (std::size_t c = 0; c < table.num_columns(); ++c) {
    schema.columns.push_back(InferColumn(table, c, options));
  }
  for (const GeoPair& pair : DetectGeoPairs(table, schema)) {
    schema.columns[pair.latitude].geo_longitude = schema.columns[pair.longitude].name;
  }
  return schema;
}

ColumnStats ComputeColumnStats(const RawTable& table, std::size_t column,
                               const ColumnSchema& schema) {
  assert(column < table.num_columns() && "ComputeColumnStats: column out of range");
  const RawColumn& raw = table.columns[column];
  ColumnStats stats;
  stats.rows = raw.num_rows();
  stats.missing = raw.missing_count;
  stats.distinct = raw.dictionary.size();
  for (std::size_t k : TopEntries(raw, kMaxSampleValues, [](std::size_t) { return true; })) {
    stats.sample_values.push_back(raw.dictionary[k]);
  }
  if (!schema.is_numeric()) return stats;
  std::vector<bool> failed(raw.dictionary.size(), false);
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (ParseNumericCell(raw.dictionary[k], schema)) continue;
    failed[k] = true;
    stats.failed_count += raw.counts[k];
    ++stats.failed_distinct;
  }
  if (stats.failed_distinct == 0) return stats;
  const auto is_failed = [&failed](std::size_t i) { return failed[i]; };
  for (std::size_t k : TopEntries(raw, kMaxFailedValues, is_failed)) {
    const std::uint32_t row = k < raw.first_row.size() ? raw.first_row[k] : kMissingCode;
    stats.failed_values.push_back(FailedValue{
        raw.dictionary[k], raw.counts[k], row < table.row_line.size() ? table.row_line[row] : 0});
  }
  return stats;
}

std::optional<std::string> DetectDateTimeFormat(const RawColumn& raw,
                                                const InferOptions& options) {
  auto best = BestDateTimeFormat(raw, BudgetFor(raw, options));
  if (!best) return std::nullopt;
  return std::move(best->first);
}

std::string InferIdPattern(const RawColumn& raw) {
  // What a pattern may carry is a format shared by many records, never a fact about a few
  // (infer_schema.h): classes for letters and digits, literal ASCII punctuation, and literal
  // letters/digits only where at least kIdLiteralSupport values agree.
  //
  // Shape of a text: one key pair per character ('#', 'A', 'a' or 'L' + the literal byte). Any
  // non-ASCII character (a UTF-8 sequence) is the class 'a': its bytes never become literals.
  const auto shape_of = [](const std::string& text) {
    std::string shape;
    shape.reserve(text.size() * 2);
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if (byte >= 0x80) {
        while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) {
          ++i;  // the rest of this UTF-8 sequence
        }
        shape += "a.";
      } else if (byte >= '0' && byte <= '9') {
        shape += "#.";
      } else if (byte >= 'A' && byte <= 'Z') {
        shape += "A.";
      } else if (byte >= 'a' && byte <= 'z') {
        shape += "a.";
      } else {
        shape.push_back('L');
        shape.push_back(static_cast<char>(byte));
      }
    }
    return shape;
  };
  std::unordered_map<std::string, std::uint32_t> shape_ids;
  std::vector<std::uint64_t> shape_counts;
  std::vector<const std::string*> shape_keys;
  std::vector<std::uint32_t> entry_shape(raw.dictionary.size());
  bool any_letter = false;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (raw.dictionary[k].empty()) {
      entry_shape[k] = std::numeric_limits<std::uint32_t>::max();  // no shape
      continue;
    }
    const auto [it, inserted] = shape_ids.emplace(
        shape_of(raw.dictionary[k]), static_cast<std::uint32_t>(shape_counts.size()));
    if (inserted) {
      shape_counts.push_back(0);
      shape_keys.push_back(&it->first);  // unordered_map keys are stable
      any_letter = any_letter || it->first.find_first_of("Aa") != std::string::npos;
    }
    entry_shape[k] = it->second;
    ++shape_counts[it->second];
  }
  if (shape_counts.empty()) return "";
  // The most common shape; ties go to the smallest shape key, so that the choice does not
  // depend on which record comes first.
  std::uint32_t best = 0;
  for (std::uint32_t s = 1; s < shape_counts.size(); ++s) {
    if (shape_counts[s] > shape_counts[best] ||
        (shape_counts[s] == shape_counts[best] && *shape_keys[s] < *shape_keys[best])) {
      best = s;
    }
  }
  if (shape_counts[best] < kIdShapeSupport) {
    // No shape is common (names, free text): a generic pattern, not one record's shape.
    return any_letter ? "Aaaaaaaaaa" : "##########";
  }
  // Which positions hold the same character in every value of the best shape.
  const std::string& key = *shape_keys[best];
  std::string reference;
  std::vector<bool> constant;
  bool same_bytes = true;  // non-ASCII characters of different lengths would misalign bytes
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    if (entry_shape[k] != best) continue;
    const std::string& text = raw.dictionary[k];
    if (reference.empty()) {  // the first value of the shape (the shape is never empty)
      reference = text;
      constant.assign(text.size(), true);
      continue;
    }
    same_bytes = same_bytes && text.size() == reference.size();
    for (std::size_t i = 0; i < text.size() && i < reference.size(); ++i) {
      constant[i] = constant[i] && text[i] == reference[i];
    }
  }
  // Literal letters need many agreeing values; digits are never literals: a counter's leading
  // digits ("1###" for 1000..1950, "17-000###") would tell the row count.
  const bool literals = shape_counts[best] >= kIdLiteralSupport && same_bytes;
  std::string pattern;
  for (std::size_t i = 0, position = 0; position + 1 < key.size(); position += 2) {
    const char cls = key[position];
    if (cls == 'L') {
      const char c = key[position + 1];
      if (c == '#' || c == '\\') pattern.push_back('\\');
      pattern.push_back(c);
      ++i;
      continue;
    }
    const bool ascii = static_cast<unsigned char>(reference[i]) < 0x80;
    if (ascii && literals && constant[i] && cls != '#') {
      pattern.push_back('\\');
      pattern.push_back(reference[i]);
    } else {
      pattern.push_back(cls);
    }
    // Advance over this character's bytes in the reference text.
    ++i;
    while (!ascii && i < reference.size() &&
           (static_cast<unsigned char>(reference[i]) & 0xC0) == 0x80) {
      ++i;
    }
  }
  return pattern;
}

std::uint64_t CellsAfterToday(const RawColumn& raw, const std::string& format,
                              int two_digit_year_start, std::int64_t today_days) {
  const double tomorrow = static_cast<double>(today_days + 1) * 86400.0;
  std::uint64_t cells = 0;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    const auto value =
        ParseDateTime(TrimSpaces(raw.dictionary[k]), format, nullptr, two_digit_year_start);
    if (value && *value >= tomorrow) cells += raw.counts[k];
  }
  return cells;
}

int InferTwoDigitYearStart(const RawColumn& raw, const std::string& format,
                           std::int64_t today_days) {
  if (CellsAfterToday(raw, format, kPosixTwoDigitYearStart, today_days) == 0) {
    return kPosixTwoDigitYearStart;
  }
  const auto year = static_cast<int>(YearOfDays(today_days));
  return std::clamp(year - 99, kMinTwoDigitYearStart, kMaxTwoDigitYearStart);
}

std::vector<CountedValue> ObservedValues(const RawColumn& raw, const ColumnSchema& column) {
  std::vector<CountedValue> out;
  if (!column.is_numeric()) {
    for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
      out.push_back(CountedValue{raw.dictionary[k], raw.counts[k]});
    }
    std::sort(out.begin(), out.end(),
              [](const CountedValue& a, const CountedValue& b) { return a.text < b.text; });
    return out;
  }
  // value -> (cells, dictionary index of its most frequent spelling)
  std::map<double, std::pair<std::uint64_t, std::size_t>> by_value;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    const auto value = ParseNumericCell(raw.dictionary[k], column);
    if (!value) continue;
    auto [it, inserted] = by_value.emplace(*value, std::make_pair(std::uint64_t{0}, k));
    it->second.first += raw.counts[k];
    if (raw.counts[k] > raw.counts[it->second.second]) it->second.second = k;
  }
  for (const auto& [value, entry] : by_value) {
    out.push_back(CountedValue{raw.dictionary[entry.second], entry.first});
  }
  return out;
}

int ValueDecimals(const NumberText& info) {
  if (info.kind == NumberText::Kind::kNotNumber) return 0;
  int decimals = info.PlainDecimals();
  if (info.significant_digits > kDoubleDigits) {
    // More digits than a double carries (0.30000000000000004, a binary rounding artefact):
    // count the decimals of the value rounded to 15 significant digits, trailing zeros dropped.
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, info.value,
                                      std::chars_format::scientific, kDoubleDigits - 1);
    if (result.ec != std::errc()) return kMaxDecimals;
    const NumberText rounded = ClassifyNumberText(std::string_view(buffer, result.ptr));
    int fraction = rounded.fraction_digits;
    const std::string_view digits(buffer, result.ptr);
    const std::size_t point = digits.find('.');
    while (fraction > 0 && digits[point + static_cast<std::size_t>(fraction)] == '0') --fraction;
    decimals = std::max(0, fraction - rounded.exponent_value);
  }
  return std::min(decimals, kMaxDecimals);
}

int InferDecimals(const RawColumn& raw) {
  // Cells per precision 0..15, then the smallest precision that leaves at most the allowed
  // outliers more precise (see the header).
  std::array<std::uint64_t, kMaxDecimals + 1> cells{};
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
    const NumberText info = ClassifyNumberText(raw.dictionary[k]);
    if (info.kind == NumberText::Kind::kNotNumber) continue;
    cells[static_cast<std::size_t>(ValueDecimals(info))] += raw.counts[k];
    total += raw.counts[k];
  }
  const std::uint64_t allowed = std::max<std::uint64_t>(
      total / kDecimalsOutlierDivisor, total >= kDecimalsMinCellsForOutlier ? 1 : 0);
  std::uint64_t more_precise = total;
  for (int decimals = 0; decimals <= kMaxDecimals; ++decimals) {
    more_precise -= cells[static_cast<std::size_t>(decimals)];
    if (more_precise <= allowed) return decimals;
  }
  return kMaxDecimals;
}

}  // namespace deniable
