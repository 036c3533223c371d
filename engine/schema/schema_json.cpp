// SPDX-License-Identifier: Apache-2.0
// JSON -> Schema: the user's corrections (ApplySchemaJson) and reading JSON files.
#include "engine/schema/schema_json.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "engine/schema/datetime.h"
#include "engine/schema/geo_pairs.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json_internal.h"

namespace deniable {
namespace {

using internal::ApplyPublic;
using internal::Checker;
using internal::CheckDateTimeBoundsInWindow;
using internal::CheckTarget;
using internal::IdPatternFitsType;
using internal::Join;
using internal::Json;
using internal::Quoted;

constexpr int kMaxDecimals = 15;
constexpr int kMaxBins = 65534;  // encoded codes are 16-bit, one code is kept for "missing"

bool IsValidIdPattern(std::string_view pattern) {
  if (pattern.empty()) return false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && ++i == pattern.size()) return false;  // dangling escape
  }
  return true;
}

bool DerivedCategorical(const ColumnSchema& column, int threshold) {
  return column.stats.distinct - column.stats.failed_distinct <=
         static_cast<std::uint64_t>(std::max(threshold, 0));
}

// Whether stats can be re-derived (they came from a table, and the column is not empty).
bool CanRederive(const ColumnSchema& column) {
  return column.stats.rows > 0 && column.stats.distinct > 0 &&
         column.role != ColumnRole::kIdentifier;
}

Status ApplyCsv(const Json& csv, Schema& schema, const Checker& check) {
  if (!csv.is_object()) return check.Expected("csv", "an object", csv);
  if (auto ok = check.Keys(csv, "csv", {"delimiter", "missing_tokens"}); !ok) return ok;
  if (csv.contains("delimiter")) {
    const Json& value = csv["delimiter"];
    if (value.is_null()) {
      schema.delimiter = 0;
    } else {
      auto text = check.String(value, "csv.delimiter");
      if (!text) return text.error();
      if (*text == "auto" || text->empty()) {
        schema.delimiter = 0;
      } else if (*text == "tab") {
        schema.delimiter = '\t';
      } else if (text->size() != 1 || (*text)[0] == '"' || (*text)[0] == '\n' ||
                 (*text)[0] == '\r' || static_cast<unsigned char>((*text)[0]) >= 0x80) {
        return check.At("csv.delimiter", "expected one ASCII character other than a quote or "
                                         "line break, or \"auto\" (got " + Quoted(*text) + ")");
      } else {
        schema.delimiter = (*text)[0];
      }
    }
  }
  if (csv.contains("missing_tokens")) {
    const Json& tokens = csv["missing_tokens"];
    if (!tokens.is_array()) return check.Expected("csv.missing_tokens", "an array", tokens);
    std::vector<std::string> parsed;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      auto token = check.String(tokens[i], "csv.missing_tokens[" + std::to_string(i) + "]");
      if (!token) return token.error();
      parsed.push_back(std::move(*token));
    }
    schema.missing_tokens = std::move(parsed);
  }
  return OkStatus();
}

// Which fields of a column entry the user set (the rest are filled in or kept).
struct GivenFields {
  bool categorical = false;
  bool datetime_format = false;
  bool decimals = false;
  bool role = false;
  bool two_digit_year_start = false;
  bool geo = false;
};

// Reads the scalar fields of a column entry into `column`.
Status ApplyColumnFields(const Json& entry, const std::string& path, ColumnSchema& column,
                         GivenFields& given, const Checker& check) {
  if (entry.contains("type")) {
    auto name = check.String(entry["type"], path + ".type");
    if (!name) return name.error();
    const auto type = ParseDataType(*name);
    if (!type) {
      return check.At(path + ".type", "unknown type " + Quoted(*name) +
                                          " (expected Integer, Float, DateTime or String)");
    }
    column.type = *type;
  }
  if (entry.contains("role")) {
    auto name = check.String(entry["role"], path + ".role");
    if (!name) return name.error();
    const auto role = ParseColumnRole(*name);
    if (!role) {
      return check.At(path + ".role",
                      "unknown role " + Quoted(*name) +
                          " (expected attribute, identifier, quasi-identifier, sensitive, "
                          "target or ignore)");
    }
    column.role = *role;
    given.role = true;
  }
  if (entry.contains("categorical")) {
    if (!entry["categorical"].is_boolean()) {
      return check.Expected(path + ".categorical", "true or false", entry["categorical"]);
    }
    column.categorical = entry["categorical"].get<bool>();
    given.categorical = true;
  }
  if (entry.contains("datetime_format")) {
    auto format = check.String(entry["datetime_format"], path + ".datetime_format");
    if (!format) return format.error();
    if (!format->empty() && !IsValidDateTimeFormat(*format)) {
      return check.At(path + ".datetime_format",
                      "invalid datetime format " + Quoted(*format) +
                          " (directives: %Y %y %m %d %H %I %p %M %S %f %b %z %T %%, with %I only "
                          "together with %p; see docs/schema.md)");
    }
    column.datetime_format = std::move(*format);
    given.datetime_format = true;
  }
  if (entry.contains("two_digit_year_start")) {
    auto start = check.Integer(entry["two_digit_year_start"], path + ".two_digit_year_start",
                               kMinTwoDigitYearStart, kMaxTwoDigitYearStart);
    if (!start) return start.error();
    column.two_digit_year_start = static_cast<int>(*start);
    given.two_digit_year_start = true;
  }
  if (entry.contains("decimals")) {
    auto decimals = check.Integer(entry["decimals"], path + ".decimals", -1, kMaxDecimals);
    if (!decimals) return decimals.error();
    column.decimals = static_cast<int>(*decimals);
    given.decimals = true;
  }
  if (entry.contains("id_pattern")) {
    auto pattern = check.String(entry["id_pattern"], path + ".id_pattern");
    if (!pattern) return pattern.error();
    if (!IsValidIdPattern(*pattern)) {
      return check.At(path + ".id_pattern", "invalid identifier pattern " + Quoted(*pattern) +
                                                " (empty, or ends in a lone '\\')");
    }
    column.id_pattern = std::move(*pattern);
  }
  if (entry.contains("bins")) {
    auto bins = check.Integer(entry["bins"], path + ".bins", 0, kMaxBins);
    if (!bins) return bins.error();
    column.bins = static_cast<int>(*bins);
  }
  if (entry.contains("geo")) {
    // {"longitude": "NAME"} on the latitude column, or null (no pair); checked once every
    // column is settled (ResolveGeoPairs).
    const Json& geo = entry["geo"];
    given.geo = true;
    if (geo.is_null()) {
      column.geo_longitude.clear();
    } else {
      if (!geo.is_object()) {
        return check.Expected(path + ".geo", "an object {\"longitude\": \"COLUMN\"} or null",
                              geo);
      }
      if (auto ok = check.Keys(geo, path + ".geo", {"longitude"}); !ok) return ok;
      if (!geo.contains("longitude")) return check.At(path + ".geo", "missing field 'longitude'");
      auto longitude = check.String(geo["longitude"], path + ".geo.longitude");
      if (!longitude) return longitude.error();
      if (longitude->empty()) {
        return check.At(path + ".geo.longitude", "expected a column name (got an empty string)");
      }
      column.geo_longitude = std::move(*longitude);
    }
  }
  return OkStatus();
}

// The two-digit-year window: only for a DateTime format with %y; inferred from the data when
// the format newly has %y and the entry does not set it.
Status ResolveTwoDigitYears(const ColumnSchema& before, const std::string& path,
                            const GivenFields& given, const RawColumn* raw, ColumnSchema& column,
                            const Checker& check) {
  const bool two_digit = column.type == DataType::kDateTime &&
                         HasTwoDigitYear(column.datetime_format);
  if (!two_digit) {
    if (given.two_digit_year_start) {
      return check.At(path + ".two_digit_year_start",
                      "only for DateTime columns whose datetime_format has %y (column " +
                          Quoted(column.name) + (column.type == DataType::kDateTime
                                                     ? " is written " + Quoted(column.datetime_format)
                                                     : " is " + std::string(DataTypeName(column.type))) +
                          ")");
    }
    column.two_digit_year_start = kPosixTwoDigitYearStart;
    return OkStatus();
  }
  const bool newly_two_digit = before.type != DataType::kDateTime ||
                               before.datetime_format != column.datetime_format;
  if (newly_two_digit && !given.two_digit_year_start && raw != nullptr) {
    column.two_digit_year_start =
        InferTwoDigitYearStart(*raw, column.datetime_format, TodayDays());
  }
  return OkStatus();
}

// Settles what a type / role change leaves open (see ApplySchemaJson in the header).
Status ResolveColumn(const ColumnSchema& before, const std::string& path, std::size_t index,
                     const GivenFields& given, int threshold, const RawTable* table,
                     ColumnSchema& column, const Checker& check) {
  const bool type_changed = column.type != before.type;
  const RawColumn* raw = table != nullptr ? &table->columns[index] : nullptr;
  const std::string type_name = DataTypeName(column.type);
  if (type_changed) {  // bounds were in the old type's unit
    column.public_min.reset();
    column.public_max.reset();
  }
  if (column.type == DataType::kDateTime) {
    if (column.datetime_format.empty() && raw != nullptr) {
      InferOptions any_failures;
      any_failures.max_failed_fraction = 1.0;
      any_failures.max_failed_distinct = std::numeric_limits<int>::max();
      column.datetime_format = DetectDateTimeFormat(*raw, any_failures).value_or("");
    }
    if (column.datetime_format.empty()) {
      return check.At(path + ".datetime_format",
                      raw != nullptr ? "no known format fits the values of column " +
                                           Quoted(column.name) + "; give one"
                                     : "required for a DateTime column");
    }
  } else {
    if (given.datetime_format && !column.datetime_format.empty()) {
      return check.At(path + ".datetime_format", "only for DateTime columns (column " +
                                                     Quoted(column.name) + " is " + type_name +
                                                     ")");
    }
    column.datetime_format.clear();
  }
  if (auto ok = ResolveTwoDigitYears(before, path, given, raw, column, check); !ok) return ok;
  if (column.type == DataType::kFloat) {
    if (type_changed && !given.decimals) column.decimals = raw ? InferDecimals(*raw) : -1;
  } else {
    if (given.decimals && column.decimals != -1) {
      return check.At(path + ".decimals", "only for Float columns (column " +
                                              Quoted(column.name) + " is " + type_name + ")");
    }
    column.decimals = -1;
  }
  const bool format_changed = column.datetime_format != before.datetime_format;
  if ((type_changed || format_changed) && raw != nullptr) {
    column.stats = ComputeColumnStats(*table, index, column);
    if (!given.categorical && CanRederive(column)) {
      column.categorical = DerivedCategorical(column, threshold);
    }
  }
  if (column.role == ColumnRole::kIdentifier) {
    if (column.type == DataType::kDateTime) {
      return check.At(path + (given.role ? ".role" : ".type"),
                      "column " + Quoted(column.name) + " is DateTime: the identifier role "
                      "would regenerate it as random characters in a pattern, not as valid "
                      "dates; give it role attribute (modelled) or ignore (left out)");
    }
    if (before.role != ColumnRole::kIdentifier && !given.categorical) column.categorical = false;
    if (column.id_pattern.empty() && raw != nullptr) column.id_pattern = InferIdPattern(*raw);
    if (column.id_pattern.empty()) {
      return check.At(path + ".id_pattern", "required for an identifier column");
    }
    if (!IdPatternFitsType(column.id_pattern, column.type)) {
      return check.At(path + ".id_pattern",
                      "identifier pattern " + Quoted(column.id_pattern) + " would write values "
                      "that do not read as " + type_name + " (column " + Quoted(column.name) +
                      "): an " + type_name + " identifier's pattern holds only digits ('#')" +
                      (column.type == DataType::kFloat ? ", one '.'" : "") +
                      " and a leading '-'; change the pattern or make the column a String");
    }
  }
  return OkStatus();
}

Status ApplyColumn(const Json& entry, std::size_t position, const RawTable* table,
                   std::map<std::string, std::size_t>& seen,
                   std::map<std::string, std::size_t>& geo_given, Schema& schema,
                   const Checker& check) {
  const std::string path = "columns[" + std::to_string(position) + "]";
  if (!entry.is_object()) return check.Expected(path, "an object", entry);
  if (auto ok = check.Keys(entry, path,
                           {"name", "type", "categorical", "role", "datetime_format",
                            "two_digit_year_start", "decimals", "id_pattern", "public", "bins",
                            "geo", "stats"});
      !ok) {
    return ok;
  }
  if (!entry.contains("name")) return check.At(path, "missing field 'name'");
  auto name = check.String(entry["name"], path + ".name");
  if (!name) return name.error();
  const int index = schema.ColumnIndex(*name);
  if (index < 0) {
    std::vector<std::string> names;
    for (const ColumnSchema& column : schema.columns) names.push_back(Quoted(column.name));
    return check.At(path + ".name", "unknown column " + Quoted(*name) + " (the table has " +
                                        Join(names, 12) + ")");
  }
  if (const auto [it, inserted] = seen.emplace(*name, position); !inserted) {
    return check.At(path + ".name", "column " + Quoted(*name) + " is already listed in columns[" +
                                        std::to_string(it->second) + "]");
  }
  const auto column_index = static_cast<std::size_t>(index);
  if (table != nullptr && (column_index >= table->num_columns() ||
                           table->columns[column_index].name != *name)) {
    table = nullptr;  // not the table this schema describes: fill nothing from it
  }
  const ColumnSchema& before = schema.columns[column_index];
  ColumnSchema column = before;
  GivenFields given;
  if (auto ok = ApplyColumnFields(entry, path, column, given, check); !ok) return ok;
  if (given.geo) geo_given[column.name] = position;
  if (auto ok = ResolveColumn(before, path, column_index, given, schema.categorical_threshold,
                              table, column, check);
      !ok) {
    return ok;
  }
  if (entry.contains("public")) {
    if (auto ok = ApplyPublic(entry["public"], path + ".public", column, check); !ok) return ok;
  }
  if (column.public_categories && !column.categorical) {
    const bool listed_here = entry.contains("public") && entry["public"].is_object() &&
                             entry["public"].contains("categories");
    return check.At(listed_here ? path + ".public.categories" : path + ".categorical",
                    "public categories need a categorical column (set \"categorical\": true "
                    "for column " + Quoted(column.name) + ")");
  }
  if (auto ok = CheckDateTimeBoundsInWindow(column, path, check); !ok) return ok;
  if (auto ok = CheckTarget(column, path, table != nullptr ? &table->columns[column_index] : nullptr,
                            check);
      !ok) {
    return ok;
  }
  schema.columns[column_index] = std::move(column);
  return OkStatus();
}

// Geo pairs, once every column is settled: a pair this file declares must be valid (an error
// at its "geo" names the problem) and, given the table and no public bounds, lie on the globe;
// a pair carried over from `base` (inferred, or declared earlier) that the corrections made
// invalid — a type or role change of one of its columns — is dropped, like public bounds on a
// type change.
Status ResolveGeoPairs(const std::map<std::string, std::size_t>& geo_given, const RawTable* table,
                       Schema& schema, const Checker& check) {
  // A pair this file declares wins over an earlier one sharing a column with it.
  std::set<std::string> declared;
  for (const auto& [name, position] : geo_given) {
    const ColumnSchema& column = schema.columns[static_cast<std::size_t>(schema.ColumnIndex(name))];
    if (column.geo_longitude.empty()) continue;
    declared.insert(column.name);
    declared.insert(column.geo_longitude);
  }
  for (ColumnSchema& column : schema.columns) {
    if (!column.geo_longitude.empty() && geo_given.count(column.name) == 0 &&
        (declared.count(column.name) > 0 || declared.count(column.geo_longitude) > 0)) {
      column.geo_longitude.clear();
    }
  }
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (std::size_t i = 0; i < schema.columns.size(); ++i) {
      ColumnSchema& column = schema.columns[i];
      if (column.geo_longitude.empty() || geo_given.count(column.name) > 0) continue;
      if (!GeoPairProblem(schema, i).empty()) {
        column.geo_longitude.clear();
        dropped = true;
      }
    }
  }
  for (const auto& [name, position] : geo_given) {
    const auto index = static_cast<std::size_t>(schema.ColumnIndex(name));
    const std::string path = "columns[" + std::to_string(position) + "].geo";
    if (std::string problem = GeoPairProblem(schema, index); !problem.empty()) {
      return check.At(path + ".longitude", problem);
    }
    const ColumnSchema& lat = schema.columns[index];
    if (lat.geo_longitude.empty() || table == nullptr ||
        table->num_columns() != schema.columns.size()) {
      continue;
    }
    const auto lon_index = static_cast<std::size_t>(schema.ColumnIndex(lat.geo_longitude));
    struct Axis {
      std::size_t index;
      double lo, hi;
    };
    for (const Axis& axis : {Axis{index, -90, 90}, Axis{lon_index, -180, 180}}) {
      const ColumnSchema& column = schema.columns[axis.index];
      if (column.public_min && column.public_max) continue;
      std::string text;
      std::uint64_t line = 0;
      if (table->columns[axis.index].name == column.name &&
          FirstValueOutside(*table, axis.index, column, axis.lo, axis.hi, text, line)) {
        return check.At(path, "column " + Quoted(column.name) + " has values outside [" +
                                  std::to_string(static_cast<int>(axis.lo)) + ", " +
                                  std::to_string(static_cast<int>(axis.hi)) + "] (" +
                                  Quoted(text) + " on line " + std::to_string(line) +
                                  "); without public bounds a geo pair is modelled on the "
                                  "globe: declare public bounds (\"public\": {\"min\": ..., "
                                  "\"max\": ...}) on both columns or remove the pair");
      }
    }
  }
  return OkStatus();
}

}  // namespace

Result<Schema> ApplySchemaJson(const Schema& base, const nlohmann::json& json,
                               const std::string& source, const RawTable* table) {
  const Checker check(source);
  if (!json.is_object()) return check.Expected("", "a JSON object at the top level", json);
  if (auto ok = check.Keys(json, "", {"format", "version", "categorical_threshold", "csv",
                                      "columns"});
      !ok) {
    return ok.error();
  }
  Schema schema = base;
  std::map<std::string, std::size_t> geo_given;  // columns whose "geo" this file sets
  if (json.contains("format")) {
    auto format = check.String(json["format"], "format");
    if (!format) return format.error();
    if (*format != "deniable-schema") {
      return check.At("format", "expected \"deniable-schema\" (got " + Quoted(*format) +
                                    "): not a Deniable schema file");
    }
  }
  if (json.contains("version")) {
    auto version = check.Integer(json["version"], "version", 1, 1);
    if (!version) {
      return check.At("version", "unsupported version " + json["version"].dump() +
                                     " (this build reads version 1)");
    }
  }
  if (json.contains("categorical_threshold")) {
    auto threshold = check.Integer(json["categorical_threshold"], "categorical_threshold", 0,
                                   std::numeric_limits<int>::max());
    if (!threshold) return threshold.error();
    schema.categorical_threshold = static_cast<int>(*threshold);
    if (schema.categorical_threshold != base.categorical_threshold) {
      for (ColumnSchema& column : schema.columns) {
        if (CanRederive(column)) {
          column.categorical = DerivedCategorical(column, schema.categorical_threshold);
        }
      }
    }
  }
  if (json.contains("csv")) {
    if (auto ok = ApplyCsv(json["csv"], schema, check); !ok) return ok.error();
  }
  if (json.contains("columns")) {
    const Json& columns = json["columns"];
    if (!columns.is_array()) return check.Expected("columns", "an array", columns);
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (auto ok = ApplyColumn(columns[i], i, table, seen, geo_given, schema, check); !ok) {
        return ok.error();
      }
    }
  }
  if (auto ok = ResolveGeoPairs(geo_given, table, schema, check); !ok) return ok.error();
  return schema;
}

}  // namespace deniable
