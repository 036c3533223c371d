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
#include "engine/schema/vocabularies.h"

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

// Whether every value GenerateUniqueIds makes from `pattern` reads as `type`: a String takes
// anything; an Integer only digits ('#' or literal) after an optional leading '-'; a Float the
// same with at most one '.'.
bool IdPatternFitsType(std::string_view pattern, DataType type) {
  if (type == DataType::kString) return true;
  if (type == DataType::kDateTime) return false;
  std::size_t i = 0;
  if (!pattern.empty() && pattern[0] == '-') ++i;
  bool digit = false;
  int points = 0;
  for (; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      if (++i == pattern.size()) return false;
      c = pattern[i];
      if (c < '0' || c > '9') return false;
      digit = true;
    } else if (c == '#') {
      digit = true;
    } else if (c == '.' && type == DataType::kFloat && points++ == 0) {
      continue;
    } else {
      return false;
    }
  }
  return digit;
}

constexpr std::size_t kMaxClassesInMessage = 20;

// Declared datetime bounds must lie where the format can write them (a %y window moved away
// from a bound would read it back a century off).
Status CheckDateTimeBoundsInWindow(const ColumnSchema& column, const std::string& path,
                                   const Checker& check) {
  if (column.type != DataType::kDateTime || !HasTwoDigitYear(column.datetime_format)) {
    return OkStatus();
  }
  const auto range = DateTimeFormatRange(column.datetime_format, column.two_digit_year_start);
  if (!range) return OkStatus();
  for (const auto& [bound, key] : {std::pair(column.public_min, "min"),
                                   std::pair(column.public_max, "max")}) {
    if (bound && (*bound < range->lo || *bound >= range->hi)) {
      std::string text;
      FormatDateTime(*bound, "%Y-%m-%d", text);
      return check.At(path + ".public." + key,
                      "the bound (" + text + ") lies outside the two-digit-year window " +
                          std::to_string(column.two_digit_year_start) + "-" +
                          std::to_string(column.two_digit_year_start + 99) +
                          " of column " + Quoted(column.name) +
                          "; give the bound again or move the window");
    }
  }
  return OkStatus();
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

// "public.categories": a non-empty list without duplicates, each valid for the column's type.
Result<std::vector<std::string>> ReadCategories(const Json& categories,
                                                const std::string& categories_path,
                                                const ColumnSchema& column,
                                                const Checker& check) {
  if (!categories.is_array()) return check.Expected(categories_path, "an array", categories);
  if (categories.empty()) return check.At(categories_path, "must not be empty");
  const char* type_name = DataTypeName(column.type);
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
  return texts;
}

// "public.vocabulary" (an id of vocabularies.h) and "public.case": the declared vocabulary, or
// nothing when absent or null.
using DeclaredVocabulary = std::optional<std::pair<const Vocabulary*, LetterCase>>;
Result<DeclaredVocabulary> ReadVocabulary(const Json& json, const std::string& path,
                                          const ColumnSchema& column, const Checker& check) {
  const std::string vocabulary_path = Checker::Child(path, "vocabulary");
  const std::string case_path = Checker::Child(path, "case");
  const bool has_vocabulary = json.contains("vocabulary") && !json["vocabulary"].is_null();
  if (!has_vocabulary) {
    if (json.contains("case") && !json["case"].is_null()) {
      return check.At(case_path, "only together with \"vocabulary\"");
    }
    return DeclaredVocabulary();
  }
  auto id = check.String(json["vocabulary"], vocabulary_path);
  if (!id) return id.error();
  const Vocabulary* vocabulary = FindVocabulary(*id);
  if (vocabulary == nullptr) {
    std::vector<std::string> ids;
    for (const Vocabulary& known : PublicVocabularies()) ids.push_back(known.id);
    return check.At(vocabulary_path,
                    "unknown vocabulary " + Quoted(*id) + " (known: " + Join(ids, 99) + ")");
  }
  if (!column.categorical) {
    return check.At(vocabulary_path, "a vocabulary declares public categories, which need a "
                                     "categorical column (set \"categorical\": true for column " +
                                         Quoted(column.name) + ")");
  }
  LetterCase letter_case = LetterCase::kAsListed;
  if (json.contains("case") && !json["case"].is_null()) {
    auto name = check.String(json["case"], case_path);
    if (!name) return name.error();
    const auto parsed = ParseLetterCase(*name);
    if (!parsed) {
      return check.At(case_path, "unknown case " + Quoted(*name) +
                                     " (expected as-listed, upper, lower or capitalized)");
    }
    letter_case = *parsed;
  }
  return DeclaredVocabulary(std::make_pair(vocabulary, letter_case));
}

// "public": {"min", "max", "categories"} for one column whose type and format are settled.
Status ApplyPublic(const Json& json, const std::string& path, ColumnSchema& column,
                   const Checker& check) {
  if (json.is_null()) {
    column.public_min.reset();
    column.public_max.reset();
    column.public_categories.reset();
    column.public_vocabulary.clear();
    column.public_vocabulary_case = LetterCase::kAsListed;
    return OkStatus();
  }
  if (!json.is_object()) return check.Expected(path, "an object", json);
  if (auto ok = check.Keys(json, path, {"min", "max", "categories", "vocabulary", "case"}); !ok) {
    return ok;
  }
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
      bound = ParseDateTime(text, column.datetime_format, nullptr,
                            column.two_digit_year_start);
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
  auto vocabulary = ReadVocabulary(json, path, column, check);
  if (!vocabulary) return vocabulary.error();
  if (!json.contains("categories") && !vocabulary->has_value()) {
    if (json.contains("vocabulary")) {  // "vocabulary": null: the list stays, typed by hand
      column.public_vocabulary.clear();
      column.public_vocabulary_case = LetterCase::kAsListed;
    }
    return OkStatus();
  }
  const std::string categories_path = Checker::Child(path, "categories");
  if (json.contains("categories") && json["categories"].is_null()) {
    if (vocabulary->has_value()) {
      return check.At(categories_path, "null clears the list, but \"vocabulary\" declares one");
    }
    column.public_categories.reset();
    column.public_vocabulary.clear();
    column.public_vocabulary_case = LetterCase::kAsListed;
    return OkStatus();
  }
  std::vector<std::string> texts;
  if (json.contains("categories")) {
    auto listed = ReadCategories(json["categories"], categories_path, column, check);
    if (!listed) return listed.error();
    texts = std::move(listed.value());
  }
  if (vocabulary->has_value()) {
    const auto& [declared, letter_case] = **vocabulary;
    std::vector<std::string> entries = VocabularyEntries(*declared, letter_case);
    const std::string vocabulary_path = Checker::Child(path, "vocabulary");
    if (json.contains("categories") &&
        std::set<std::string>(texts.begin(), texts.end()) !=
            std::set<std::string>(entries.begin(), entries.end())) {
      return check.At(categories_path,
                      "differs from vocabulary " + Quoted(declared->id) + " (" +
                          std::to_string(entries.size()) + " entries" +
                          (letter_case == LetterCase::kAsListed
                               ? std::string()
                               : std::string(", ") + LetterCaseName(letter_case)) +
                          "); give one of \"vocabulary\" and \"categories\", or the "
                          "vocabulary's exact list");
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (column.is_numeric() && !ParseNumericCell(entries[i], column)) {
        return check.At(vocabulary_path,
                        "vocabulary " + Quoted(declared->id) + " holds " + Quoted(entries[i]) +
                            ", which is not a valid " + DataTypeName(column.type) +
                            " (column " + Quoted(column.name) + ")");
      }
    }
    column.public_vocabulary = declared->id;
    column.public_vocabulary_case = letter_case;
    texts = std::move(entries);
  } else {
    column.public_vocabulary.clear();  // a list typed by hand
    column.public_vocabulary_case = LetterCase::kAsListed;
  }
  column.public_categories = std::move(texts);
  return OkStatus();
}

// Which fields of a column entry the user set (the rest are filled in or kept).
struct GivenFields {
  bool categorical = false;
  bool datetime_format = false;
  bool decimals = false;
  bool role = false;
  bool two_digit_year_start = false;
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

// A target's class list must be declared public (schema.h, kTarget): the error names the
// column and, given the table, lists the observed classes with their counts.
Status CheckTarget(const ColumnSchema& column, const std::string& path, const RawColumn* raw,
                   const Checker& check) {
  if (column.role != ColumnRole::kTarget) return OkStatus();
  if (!column.categorical) {
    return check.At(path + ".categorical",
                    "column " + Quoted(column.name) + " has role target: a target is a class "
                    "label, so it must be categorical (set \"categorical\": true and declare its "
                    "classes in \"public\": {\"categories\": [...]})");
  }
  if (column.public_categories) return OkStatus();
  std::string message = "column " + Quoted(column.name) + " has role target: declare its class "
                        "list public (\"public\": {\"categories\": [...]}), so that no class, "
                        "however rare, can vanish from the release";
  if (raw != nullptr) {
    const std::vector<CountedValue> classes = ObservedValues(*raw, column);
    std::vector<std::string> shown;
    Json list = Json::array();
    for (const CountedValue& value : classes) {
      shown.push_back(Quoted(value.text) + " (" + std::to_string(value.count) +
                      (value.count == 1 ? " row)" : " rows)"));
      list.push_back(value.text);
    }
    message += "; the data holds " + std::to_string(classes.size()) + " classes: " +
               Join(shown, kMaxClassesInMessage) + ". If these are all the classes there can be, "
               "declare \"public\": {\"categories\": " +
               (classes.size() <= kMaxClassesInMessage
                    ? list.dump(-1, ' ', false, Json::error_handler_t::replace)
                    : std::string("[...]")) +
               "}";
  }
  return check.At(path + ".public.categories", message);
}

Status ApplyColumn(const Json& entry, std::size_t position, const RawTable* table,
                   std::map<std::string, std::size_t>& seen, Schema& schema,
                   const Checker& check) {
  const std::string path = "columns[" + std::to_string(position) + "]";
  if (!entry.is_object()) return check.Expected(path, "an object", entry);
  if (auto ok = check.Keys(entry, path,
                           {"name", "type", "categorical", "role", "datetime_format",
                            "two_digit_year_start", "decimals", "id_pattern", "public", "bins",
                            "stats"});
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
  if (auto ok = CheckDateTimeBoundsInWindow(column, path, check); !ok) return ok;
  if (auto ok = CheckTarget(column, path, table != nullptr ? &table->columns[column_index] : nullptr,
                            check);
      !ok) {
    return ok;
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
