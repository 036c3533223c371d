// SPDX-License-Identifier: Apache-2.0
// Internal to the schema JSON reader (schema_json.cpp, schema_json_public.cpp): messages that
// name the JSON path, and the checks of a column's public domain and roles. Not API.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable::internal {

using Json = nlohmann::json;

inline std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// "number 5", "string 'Int'", "array": what the user wrote, for messages.
inline std::string Describe(const Json& value) {
  if (value.is_string()) return "string " + Quoted(value.get<std::string>());
  if (value.is_primitive() && !value.is_null()) {
    return std::string(value.type_name()) + " " +
           value.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return value.type_name();
}

inline std::string Join(const std::vector<std::string>& items, std::size_t limit) {
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

// Whether every value GenerateUniqueIds makes from `pattern` reads as `type` (an Integer
// identifier's pattern holds digits after an optional '-'; a Float's also one '.').
bool IdPatternFitsType(std::string_view pattern, DataType type);

// "public": {"min", "max", "categories", "vocabulary", "case"} (or null) for one column whose
// type and format are settled.
Status ApplyPublic(const Json& json, const std::string& path, ColumnSchema& column,
                   const Checker& check);

// Declared datetime bounds must lie where the column's format can write them.
Status CheckDateTimeBoundsInWindow(const ColumnSchema& column, const std::string& path,
                                   const Checker& check);

// A target needs a public class list (schema.h); given the column's data, the error lists the
// observed classes with their counts.
Status CheckTarget(const ColumnSchema& column, const std::string& path, const RawColumn* raw,
                   const Checker& check);

}  // namespace deniable::internal
