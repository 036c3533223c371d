// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/column_review.h"

#include <cstdio>

#include "engine/schema/datetime.h"

namespace deniable {
namespace {

// How many outside values a warning quotes.
constexpr std::size_t kQuotedValues = 5;

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g%%",
                whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buffer;
}

std::string CountOf(std::uint64_t count, const char* one, const char* many) {
  return FormatCount(count) + " " + (count == 1 ? one : many);
}

std::string Window(int start) {
  return std::to_string(start) + "-" + std::to_string(start + 99);
}

void ReviewIdentifier(const RawColumn& raw, ColumnReview& review) {
  const std::uint64_t non_missing = raw.num_rows() - raw.missing_count;
  const std::uint64_t distinct = raw.dictionary.size();
  if (non_missing <= distinct) return;
  review.warnings.push_back(
      "role identifier, but its values are not unique: " + FormatCount(non_missing - distinct) +
      " of " + FormatCount(non_missing) + " values repeat an earlier one (" +
      FormatCount(distinct) + " distinct). The release writes a fresh unique value per row, so "
      "rows that share a value here will not share one there; if the column is not an "
      "identifier, give it role attribute.");
}

void ReviewTwoDigitYears(const ColumnSchema& column, const RawColumn& raw, std::int64_t today,
                         ColumnReview& review) {
  const int start = column.two_digit_year_start;
  const std::uint64_t posix_future =
      CellsAfterToday(raw, column.datetime_format, kPosixTwoDigitYearStart, today);
  std::string note = "Two-digit years (%y) are read in " + Window(start);
  if (start == kPosixTwoDigitYearStart) {
    note += " (the POSIX rule).";
  } else if (posix_future > 0) {
    note += ": with the POSIX rule (" + Window(kPosixTwoDigitYearStart) + ") " +
            FormatCount(posix_future) + " dates would fall after today. Set "
            "two_digit_year_start if the dates lie in another century.";
  } else {
    note += ".";
  }
  review.notes.push_back(std::move(note));
  if (start == kPosixTwoDigitYearStart && posix_future == 0) return;
  const std::uint64_t future =
      start == kPosixTwoDigitYearStart
          ? posix_future
          : CellsAfterToday(raw, column.datetime_format, start, today);
  if (future > 0) {
    review.warnings.push_back(FormatCount(future) + " dates fall after today with the "
                              "two-digit-year window " + Window(start) + "; if they lie in the "
                              "past, move the window (two_digit_year_start).");
  }
}

void ReviewTarget(const ColumnSchema& column, const RawColumn& raw, ColumnReview& review) {
  review.classes = ObservedValues(raw, column);
  std::uint64_t labelled = 0;
  for (const CountedValue& value : review.classes) labelled += value.count;
  if (!column.public_categories) {
    review.warnings.push_back(
        "role target without a public class list: declare its classes public (\"public\": "
        "{\"categories\": [...]}) so that no class can vanish from the release; the data holds " +
        FormatCount(review.classes.size()) + " classes.");
  }
  for (const CountedValue& value : review.classes) {
    if (static_cast<double>(value.count) >= kRareClassShare * static_cast<double>(labelled)) {
      continue;
    }
    review.warnings.push_back("class " + Quoted(value.text) + " is rare: " +
                              FormatCount(value.count) + " of " + FormatCount(labelled) +
                              " labelled rows (" + Percent(value.count, labelled) +
                              "); a DP model of the release holds little of it.");
  }
}

void ReviewDeclaredList(const ColumnSchema& column, const RawColumn& raw, ColumnReview& review) {
  const OutsideValues outside =
      ValuesOutside(raw, column, *column.public_categories, kQuotedValues);
  if (outside.distinct == 0) return;
  std::string quoted;
  for (const auto& [text, count] : outside.values) {
    if (!quoted.empty()) quoted += ", ";
    quoted += Quoted(text) + " (" + FormatCount(count) + ")";
  }
  if (outside.distinct > outside.values.size()) quoted += ", ...";
  const std::string list = column.public_vocabulary.empty()
                               ? std::string("the declared list")
                               : "vocabulary " + Quoted(column.public_vocabulary);
  review.warnings.push_back(CountOf(outside.distinct, "value", "values") + " outside " + list +
                            " (" + CountOf(outside.cells, "cell", "cells") + "): " + quoted +
                            "; read as missing.");
}

}  // namespace

std::string FormatCount(std::uint64_t count) {
  std::string digits = std::to_string(count);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

ColumnReview ReviewColumn(const ColumnSchema& column, const RawColumn& raw,
                          const ReviewOptions& options) {
  ColumnReview review;
  if (column.role == ColumnRole::kIgnore) return review;
  if (column.role == ColumnRole::kIdentifier) {
    ReviewIdentifier(raw, review);
    return review;
  }
  if (column.type == DataType::kDateTime && HasTwoDigitYear(column.datetime_format)) {
    ReviewTwoDigitYears(column, raw, options.today_days.value_or(TodayDays()), review);
  }
  if (column.role == ColumnRole::kTarget) ReviewTarget(column, raw, review);
  if (column.public_categories) {
    ReviewDeclaredList(column, raw, review);
  } else {
    review.vocabularies = MatchVocabularies(raw, column);
  }
  return review;
}

std::vector<std::string> SchemaWarnings(const Schema& schema, const RawTable& table,
                                        const ReviewOptions& options) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < schema.columns.size() && i < table.num_columns(); ++i) {
    const ColumnSchema& column = schema.columns[i];
    if (table.columns[i].name != column.name) continue;
    for (const std::string& warning : ReviewColumn(column, table.columns[i], options).warnings) {
      out.push_back("column " + Quoted(column.name) + ": " + warning);
    }
  }
  return out;
}

}  // namespace deniable
