// SPDX-License-Identifier: Apache-2.0
// JSON -> Schema, the checks of one column: its public domain (bounds, categories, a public
// vocabulary) and what its role needs (a target's class list, an identifier pattern that
// writes the column's type).
#include <set>

#include "engine/schema/datetime.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json_internal.h"
#include "engine/schema/typed_values.h"
#include "engine/schema/vocabularies.h"

namespace deniable::internal {
namespace {

constexpr std::size_t kMaxClassesInMessage = 20;

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
}  // namespace

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

}  // namespace deniable::internal
