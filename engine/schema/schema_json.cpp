// SPDX-License-Identifier: Apache-2.0
// JSON -> Schema: the user's corrections (ApplySchemaJson) and reading JSON files.
#include "engine/schema/schema_json.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>

#include "engine/schema/datetime.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

using Json = nlohmann::json;

constexpr int kMaxDecimals = 15;
constexpr int kMaxBins = 65534;  // encoded codes are 16-bit, one code is kept for "missing"

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// "number 5", "string 'Int'", "array": what the user wrote, for messages.
std::string Describe(const Json& value) {
  if (value.is_string()) return "string " + Quoted(value.get<std::string>());
  if (value.is_primitive() && !value.is_null()) {
    return std::string(value.type_name()) + " " +
           value.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return value.type_name();
}

std::string Join(const std::vector<std::string>& items, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > limit) out += ", ...";
  return out;
}

// Builds "SOURCE: PATH: what" errors and checks JSON types against a path.
class Checker {
 public:
  explicit Checker(const std::string& source) : source_(source) {}

  Error At(const std::string& path, const std::string& what) const {
    return ParseError(path.empty() ? source_ + ": " + what : source_ + ": " + path + ": " + what);
  }
  Error Expected(const std::string& path, const char* expected, const Json& got) const {
    return At(path, std::string("expected ") + expected + " (got " + Describe(got) + ")");
  }
  // Unknown keys in an object are errors (a typo must not be silently ignored).
  Status Keys(const Json& object, const std::string& path,
              std::initializer_list<const char*> allowed) const {
    for (const auto& item : object.items()) {
      if (std::none_of(allowed.begin(), allowed.end(),
                       [&](const char* key) { return item.key() == key; })) {
        std::vector<std::string> names(allowed.begin(), allowed.end());
        return At(Child(path, item.key()),
                  "unknown field " + Quoted(item.key()) + " (expected " + Join(names, 99) + ")");
      }
    }
    return OkStatus();
  }
  Result<std::string> String(const Json& value, const std::string& path) const {
    if (!value.is_string()) return Expected(path, "a string", value);
    return value.get<std::string>();
  }
  Result<std::int64_t> Integer(const Json& value, const std::string& path, std::int64_t lo,
                               std::int64_t hi) const {
    if (!value.is_number_integer()) return Expected(path, "an integer", value);
    const bool is_unsigned = value.is_number_unsigned();
    const auto number = value.get<std::int64_t>();
    if ((is_unsigned && value.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) ||
        number < lo || number > hi) {
      return At(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                          " (got " + value.dump() + ")");
    }
    return number;
  }
  static std::string Child(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  const std::string& source_;
};

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

// A bound as the user wrote it: a datetime in the column's format, a number in shortest form.
std::string BoundText(double value, const ColumnSchema& column) {
  ColumnSchema display = column;
  if (display.type != DataType::kDateTime) {
    display.type = DataType::kFloat;
    display.decimals = -1;
  }
  std::string text;
  FormatNumericCell(value, display, text);
  return text;
}

// "public": {"min", "max", "categories"} for one column whose type and format are settled.
Status ApplyPublic(const Json& json, const std::string& path, ColumnSchema& column,
                   const Checker& check) {
  if (json.is_null()) {
    column.public_min.reset();
    column.public_max.reset();
    column.public_categories.reset();
    return OkStatus();
  }
  if (!json.is_object()) return check.Expected(path, "an object", json);
  if (auto ok = check.Keys(json, path, {"min", "max", "categories"}); !ok) return ok;
  const char* type_name = DataTypeName(column.type);
  for (const char* key : {"min", "max"}) {
    if (!json.contains(key)) continue;
    const Json& value = json[key];
    const std::string key_path = Checker::Child(path, key);
    std::optional<double>& bound =
        std::string_view(key) == "min" ? column.public_min : column.public_max;
    if (value.is_null()) {
      bound.reset();
    } else if (!column.is_numeric()) {
      return check.At(key_path, "public bounds need an Integer, Float or DateTime column "
                                "(column " + Quoted(column.name) + " is String)");
    } else if (column.type == DataType::kDateTime) {
      if (!value.is_string()) return check.Expected(key_path, "a date-time string", value);
      const auto text = value.get<std::string>();
      bound = ParseDateTime(text, column.datetime_format);
      if (!bound) {
        return check.At(key_path, Quoted(text) + " does not parse with the column's datetime "
                                  "format " + Quoted(column.datetime_format));
      }
    } else {
      if (!value.is_number()) return check.Expected(key_path, "a number", value);
      bound = value.get<double>();
    }
  }
  if (column.public_min && column.public_max && *column.public_min > *column.public_max) {
    return check.At(path, "min > max (" + BoundText(*column.public_min, column) + " > " +
                              BoundText(*column.public_max, column) + ")");
  }
  if (!json.contains("categories")) return OkStatus();
  const Json& categories = json["categories"];
  const std::string categories_path = Checker::Child(path, "categories");
  if (categories.is_null()) {
    column.public_categories.reset();
    return OkStatus();
  }
  if (!categories.is_array()) return check.Expected(categories_path, "an array", categories);
  if (categories.empty()) return check.At(categories_path, "must not be empty");
  std::vector<std::string> texts;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < categories.size(); ++i) {
    const std::string item_path = categories_path + "[" + std::to_string(i) + "]";
    const Json& item = categories[i];
    std::string text;
    if (item.is_string()) {
      text = item.get<std::string>();
    } else if (item.is_number() &&
               (column.type == DataType::kInteger || column.type == DataType::kFloat)) {
      FormatNumericCell(item.get<double>(), column, text);
    } else {
      return check.Expected(item_path, "a string", item);
    }
    if (column.is_numeric() && !ParseNumericCell(text, column)) {
      return check.At(item_path, Quoted(text) + " is not a valid " + type_name +
                                     (column.type == DataType::kDateTime
                                          ? " in format " + Quoted(column.datetime_format)
                                          : std::string()));
    }
    if (!seen.insert(text).second) {
      return check.At(item_path, "duplicate category " + Quoted(text));
    }
    texts.push_back(std::move(text));
  }
  column.public_categories = std::move(texts);
  return OkStatus();
}

// Which fields of a column entry the user set (the rest are filled in or kept).
struct GivenFields {
  bool categorical = false;
  bool datetime_format = false;
  bool decimals = false;
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
                          " (expected attribute, identifier, quasi-identifier, sensitive or "
                          "ignore)");
    }
    column.role = *role;
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
    if (before.role != ColumnRole::kIdentifier && !given.categorical) column.categorical = false;
    if (column.id_pattern.empty() && raw != nullptr) column.id_pattern = InferIdPattern(*raw);
    if (column.id_pattern.empty()) {
      return check.At(path + ".id_pattern", "required for an identifier column");
    }
  }
  return OkStatus();
}

Status ApplyColumn(const Json& entry, std::size_t position, const RawTable* table,
                   std::map<std::string, std::size_t>& seen, Schema& schema,
                   const Checker& check) {
  const std::string path = "columns[" + std::to_string(position) + "]";
  if (!entry.is_object()) return check.Expected(path, "an object", entry);
  if (auto ok = check.Keys(entry, path,
                           {"name", "type", "categorical", "role", "datetime_format", "decimals",
                            "id_pattern", "public", "bins", "stats"});
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
  schema.columns[column_index] = std::move(column);
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
      if (auto ok = ApplyColumn(columns[i], i, table, seen, schema, check); !ok) {
        return ok.error();
      }
    }
  }
  return schema;
}

}  // namespace deniable
