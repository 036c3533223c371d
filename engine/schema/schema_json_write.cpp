// SPDX-License-Identifier: Apache-2.0
// Schema -> JSON. One builder, instantiated for nlohmann::json (the API value) and
// nlohmann::ordered_json (the text a person reads, keys in the documented order).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/schema/column_review.h"
#include "engine/schema/datetime.h"
#include "engine/schema/schema_json.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

template <typename Json>
Json DelimiterJson(char delimiter) {
  if (delimiter == 0) return Json("auto");
  return Json(std::string(1, delimiter));
}

// A public bound in the column's unit: integers as JSON integers, datetimes as formatted text.
template <typename Json>
Json BoundJson(double value, const ColumnSchema& column) {
  if (column.type == DataType::kDateTime) {
    std::string text;
    FormatDateTime(value, column.datetime_format, text);
    return Json(text);
  }
  if (column.type == DataType::kInteger && value == std::floor(value) &&
      std::fabs(value) <= kMaxExactInteger) {
    return Json(static_cast<std::int64_t>(value));
  }
  return Json(value);
}

template <typename Json>
Json StatsJson(const ColumnStats& stats) {
  Json json = Json::object();
  json["rows"] = stats.rows;
  json["missing"] = stats.missing;
  json["missing_rate"] = stats.missing_rate();
  json["distinct"] = stats.distinct;
  json["sample_values"] = stats.sample_values;
  json["failed_count"] = stats.failed_count;
  json["failed_distinct"] = stats.failed_distinct;
  Json failed = Json::array();
  for (const FailedValue& value : stats.failed_values) {
    Json entry = Json::object();
    entry["text"] = value.text;
    entry["count"] = value.count;
    entry["first_line"] = value.first_line;
    failed.push_back(std::move(entry));
  }
  json["failed_values"] = std::move(failed);
  return json;
}

// [{"text": ..., "count": ...}, ...]
template <typename Json>
Json TextCountsJson(const std::vector<std::pair<std::string, std::uint64_t>>& values) {
  Json out = Json::array();
  for (const auto& [text, count] : values) {
    Json value = Json::object();
    value["text"] = text;
    value["count"] = count;
    out.push_back(std::move(value));
  }
  return out;
}

template <typename Json>
Json ReviewJson(const ColumnReview& review) {
  Json json = Json::object();
  json["warnings"] = review.warnings;
  json["notes"] = review.notes;
  Json vocabularies = Json::array();
  for (const VocabularyMatch& match : review.vocabularies) {
    Json entry = Json::object();
    entry["vocabulary"] = match.vocabulary->id;
    entry["title"] = match.vocabulary->title;
    entry["case"] = LetterCaseName(match.letter_case);
    entry["entries"] = match.vocabulary->entries.size();
    entry["observed_entries"] = match.observed_entries;
    entry["matched_cells"] = match.matched_cells;
    entry["outside_cells"] = match.outside_cells;
    entry["outside_values"] = TextCountsJson<Json>(match.outside_values);
    vocabularies.push_back(std::move(entry));
  }
  json["vocabularies"] = std::move(vocabularies);
  if (!review.classes.empty()) {
    std::vector<std::pair<std::string, std::uint64_t>> classes;
    for (const CountedValue& value : review.classes) classes.emplace_back(value.text, value.count);
    json["classes"] = TextCountsJson<Json>(classes);
  }
  return json;
}

template <typename Json>
Json ColumnJson(const ColumnSchema& column, bool include_stats, const RawColumn* review_raw) {
  Json json = Json::object();
  json["name"] = column.name;
  json["type"] = DataTypeName(column.type);
  json["categorical"] = column.categorical;
  json["role"] = ColumnRoleName(column.role);
  if (column.type == DataType::kDateTime) {
    json["datetime_format"] = column.datetime_format;
    if (HasTwoDigitYear(column.datetime_format)) {
      json["two_digit_year_start"] = column.two_digit_year_start;
    }
  }
  if (column.type == DataType::kFloat) json["decimals"] = column.decimals;
  if (!column.id_pattern.empty()) json["id_pattern"] = column.id_pattern;
  Json public_domain = Json::object();
  if (column.public_min) public_domain["min"] = BoundJson<Json>(*column.public_min, column);
  if (column.public_max) public_domain["max"] = BoundJson<Json>(*column.public_max, column);
  if (column.public_categories) {
    if (!column.public_vocabulary.empty()) {
      public_domain["vocabulary"] = column.public_vocabulary;
      if (column.public_vocabulary_case != LetterCase::kAsListed) {
        public_domain["case"] = LetterCaseName(column.public_vocabulary_case);
      }
    }
    public_domain["categories"] = *column.public_categories;
  }
  json["public"] = std::move(public_domain);
  json["bins"] = column.bins;
  // Every number column says whether it is the latitude of a geo pair (null: no), so that a
  // correction can clear an inferred pair and a diff of two schemas sees it.
  if (!column.geo_longitude.empty()) {
    Json geo = Json::object();
    geo["longitude"] = column.geo_longitude;
    json["geo"] = std::move(geo);
  } else if (column.type == DataType::kInteger || column.type == DataType::kFloat) {
    json["geo"] = nullptr;
  }
  if (include_stats) {
    json["stats"] = StatsJson<Json>(column.stats);
    if (review_raw != nullptr) json["stats"]["review"] = ReviewJson<Json>(ReviewColumn(column, *review_raw));
  }
  return json;
}

template <typename Json>
Json BuildSchemaJson(const Schema& schema, bool include_stats, const RawTable* review_table) {
  Json json = Json::object();
  json["format"] = "deniable-schema";
  json["version"] = 1;
  json["categorical_threshold"] = schema.categorical_threshold;
  Json csv = Json::object();
  csv["delimiter"] = DelimiterJson<Json>(schema.delimiter);
  csv["missing_tokens"] = schema.missing_tokens;
  json["csv"] = std::move(csv);
  Json columns = Json::array();
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    const ColumnSchema& column = schema.columns[i];
    const RawColumn* raw = review_table != nullptr && i < review_table->num_columns() &&
                                   review_table->columns[i].name == column.name
                               ? &review_table->columns[i]
                               : nullptr;
    columns.push_back(ColumnJson<Json>(column, include_stats, raw));
  }
  json["columns"] = std::move(columns);
  return json;
}

}  // namespace

nlohmann::json SchemaToJson(const Schema& schema, bool include_stats) {
  return BuildSchemaJson<nlohmann::json>(schema, include_stats, nullptr);
}

std::string SchemaJsonText(const Schema& schema, bool include_stats,
                           const RawTable* review_table) {
  // `replace`: a byte sequence that is not UTF-8 (possible only in a hand-built table; the CSV
  // reader rejects them) becomes U+FFFD instead of throwing.
  return BuildSchemaJson<nlohmann::ordered_json>(schema, include_stats, review_table)
             .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace deniable
