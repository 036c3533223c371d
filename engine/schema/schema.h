// SPDX-License-Identifier: Apache-2.0
// The schema: what each column is. Inferred from the data (infer_schema.h), shown to and
// corrected by the user (schema JSON, the GUI's column wizard), then used by every command.
//
// Privacy note: a Schema holds two kinds of facts.
//  * Structural facts that every release carries and that we treat as public metadata the user
//    has reviewed: column names, types, categorical flags, roles, formats (datetime format,
//    decimals, identifier pattern). They are shown to the user for confirmation.
//  * Facts about the data (`stats`): missing rate, distinct count, failed values, sample
//    values. These are for the owner's eyes only (inspect, the wizard) and never reach a
//    release (description file, synthetic CSV, report).
// Public domains (`public_min`/`public_max`, `public_categories`) are facts the USER declares
// public; anything else a release needs about domains comes from a DP mechanism (domains.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"

namespace deniable {

enum class DataType { kInteger, kFloat, kDateTime, kString };
enum class ColumnRole {
  kAttribute,        // an ordinary column: modelled and synthesized
  kIdentifier,       // unique per record: regenerated (unique, same format), never copied
  kQuasiIdentifier,  // modelled; an intruder may know it (disclosure-risk review)
  kSensitive,        // modelled; what an intruder wants to learn (disclosure-risk review)
  kIgnore,           // dropped: not read by the model, not in the output
  // The label a release will be judged on (what a model trained on the release predicts).
  // Modelled like an attribute; its class list must be declared public (public_categories,
  // categorical), so that no class, however rare, can vanish from the release's domain.
  kTarget,
};

// How a declared vocabulary's spellings are written (vocabularies.h): as listed, all in upper
// or lower case (ASCII and Latin-1 letters), or capitalized (first letter upper, the rest
// lower: "Yes"), to match the column's own case.
enum class LetterCase { kAsListed, kUpper, kLower, kCapitalized };

const char* DataTypeName(DataType type);      // "Integer", "Float", "DateTime", "String"
const char* ColumnRoleName(ColumnRole role);  // "attribute", "identifier", ..., "target"
std::optional<DataType> ParseDataType(std::string_view name);      // case-insensitive
std::optional<ColumnRole> ParseColumnRole(std::string_view name);  // case-insensitive
const char* LetterCaseName(LetterCase letter_case);  // "as-listed", "upper", "lower", "capitalized"
std::optional<LetterCase> ParseLetterCase(std::string_view name);  // case-insensitive

// A value in the column that does not parse as the column's type.
struct FailedValue {
  std::string text;
  std::uint64_t count = 0;
  std::uint64_t first_line = 0;  // 1-based line in the CSV file
};

// Data-derived statistics: for the data owner only, never part of a release.
struct ColumnStats {
  std::uint64_t rows = 0;
  std::uint64_t missing = 0;
  std::uint64_t distinct = 0;               // distinct non-missing texts
  std::vector<std::string> sample_values;   // up to 8 distinct values, most frequent first
  std::vector<FailedValue> failed_values;   // up to 20, most frequent first
  std::uint64_t failed_count = 0;           // all cells that failed to parse as `type`
  std::uint64_t failed_distinct = 0;        // distinct texts that failed (may exceed 20)
  double missing_rate() const { return rows == 0 ? 0.0 : static_cast<double>(missing) / rows; }
};

struct ColumnSchema {
  std::string name;
  DataType type = DataType::kString;
  bool categorical = false;
  ColumnRole role = ColumnRole::kAttribute;

  // Formats (structural, public).
  std::string datetime_format;  // kDateTime: strftime-style, see datetime.h
  // kDateTime with %y: two-digit years are read and written in [start, start + 99]
  // (datetime.h; 1969 = the POSIX rule).
  int two_digit_year_start = 1969;
  int decimals = -1;            // kFloat: digits after the point when writing (-1 = shortest)
  std::string id_pattern;       // kIdentifier: '#' digit, 'A' A-Z, 'a' a-z, '\\x' literal x

  // User-declared public domain. Numbers are in the column's unit; datetimes are seconds since
  // 1970-01-01 00:00:00 (the naive timestamp read as UTC).
  std::optional<double> public_min;
  std::optional<double> public_max;
  std::optional<std::vector<std::string>> public_categories;
  // The public vocabulary (vocabularies.h) public_categories were expanded from, and the case
  // its spellings were written in; "" when the list was typed by hand.
  std::string public_vocabulary;
  LetterCase public_vocabulary_case = LetterCase::kAsListed;
  // Histogram bins for a non-categorical numeric/datetime column (0 = the job's default); on
  // a geo pair's latitude column, the pair's regions.
  int bins = 0;
  // Geo pair (geo_pairs.h): on a latitude column, the name of the longitude column modelled
  // jointly with it as one attribute (schema JSON "geo": {"longitude": ...}); "" = none.
  // Structural, like the type: inference proposes it from names and value ranges, the owner
  // confirms or clears it.
  std::string geo_longitude;

  ColumnStats stats;  // data-derived; see the privacy note above

  bool is_numeric() const {
    return type == DataType::kInteger || type == DataType::kFloat ||
           type == DataType::kDateTime;
  }
  bool is_modelled() const {
    return role != ColumnRole::kIdentifier && role != ColumnRole::kIgnore;
  }
};

struct Schema {
  std::vector<ColumnSchema> columns;
  int categorical_threshold = 20;  // distinct values at most this => categorical
  // How the CSV is read (so a schema file reproduces a run). 0 = auto-detect.
  char delimiter = 0;
  std::vector<std::string> missing_tokens = {"", "NA", "N/A", "null", "?", "NaN"};

  int ColumnIndex(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
};

}  // namespace deniable
