// SPDX-License-Identifier: Apache-2.0
// Schema <-> JSON (format documented in docs/schema.md, versioned by "format":
// "deniable-schema", "version": 1).
//
// `inspect` writes the inferred schema including its data-derived `stats` (for the owner's
// eyes only: never part of a release). Every command accepts a schema JSON back: a full one,
// or a partial one that only lists the columns and fields the user corrects (ApplySchemaJson).
// Errors name the JSON path, e.g. "schema.json: columns[3].type: unknown type 'Int' (expected
// Integer, Float, DateTime or String)".
//
// Example:
//   auto json = ReadJsonFile("fixes.json");
//   if (!json) return json.error();
//   auto schema = ApplySchemaJson(InferSchema(table, {}), *json, "fixes.json", &table);
//   if (!schema) return schema.error();
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

// The schema as JSON. nlohmann::json sorts object keys; for a file a person reads, use
// SchemaJsonText, which keeps the documented key order.
nlohmann::json SchemaToJson(const Schema& schema, bool include_stats);

// The schema as indented JSON text (2 spaces, documented key order, trailing newline): what
// `inspect` writes. Given the table the schema describes (`review_table`, with include_stats),
// each column's stats also hold its review (column_review.h: warnings, notes, suggested
// vocabularies, a target's classes), for the owner's eyes like the rest of "stats".
std::string SchemaJsonText(const Schema& schema, bool include_stats,
                           const RawTable* review_table = nullptr);

// Applies the user's corrections in `json` to `base` (normally the inferred schema for the same
// table). Columns are matched by name; fields not given keep the base's value; `null` clears a
// public bound or category list; "stats" is accepted and ignored (so inspect's output can be
// fed back unchanged). Unknown column names or fields, wrong JSON types, an unknown type or
// role, an invalid datetime format, min > max, a datetime bound that does not parse with the
// column's format, public categories on a non-categorical column, duplicate categories etc. are
// kParse errors "SOURCE: PATH: what". `source` names the file in messages.
//
// Given the table the schema was inferred from (`table`, optional), a column whose type the
// user changed gets fresh stats (ComputeColumnStats: its failed values), and what the change
// leaves open is filled from the data: a DateTime without datetime_format gets the best known
// format, a new Float its decimals, a new identifier its id_pattern, and a column whose
// "categorical" the user did not set is re-derived from the threshold. Without the table those
// fields must be given explicitly (else a kParse error says which).
Result<Schema> ApplySchemaJson(const Schema& base, const nlohmann::json& json,
                               const std::string& source, const RawTable* table = nullptr);

// Reads and parses a JSON file (comments allowed). Syntax errors are kParse errors
// "PATH:LINE:COLUMN: JSON syntax error: what"; unreadable files are kIo errors.
Result<nlohmann::json> ReadJsonFile(const std::string& path);

// Parses JSON text the same way; `source_name` stands in for the path in messages.
Result<nlohmann::json> ParseJsonText(std::string_view text, const std::string& source_name);

// An optional member of a JSON object read from a user's file: `fallback` when `object` is not
// an object or the member is absent or null, the member when it has type T (bool, a number type
// or std::string), and otherwise a kParse error "WHERE.KEY: expected ...". Use it instead of
// nlohmann's value(), which throws a message naming neither the file nor the field.
//
// Example:
//   auto has_other = OptionalMember<bool>(object, "has_other", false, "d.json: domains.sex");
//   if (!has_other) return has_other.error();
template <typename T>
Result<T> OptionalMember(const nlohmann::json& object, const std::string& key, T fallback,
                         const std::string& where) {
  if (!object.is_object()) return fallback;
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return fallback;
  const std::string path = where.empty() ? key : where + "." + key;
  if constexpr (std::is_same_v<T, bool>) {
    if (!found->is_boolean()) return ParseError(path + ": expected true or false");
    return found->template get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!found->is_string()) return ParseError(path + ": expected a string");
    return found->template get<std::string>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!found->is_number()) return ParseError(path + ": expected a number");
    return found->template get<T>();
  } else {
    static_assert(std::is_integral_v<T>, "OptionalMember reads bool, numbers and strings");
    if (!found->is_number_integer()) return ParseError(path + ": expected an integer");
    if (found->is_number_unsigned()) {
      const auto value = found->template get<std::uint64_t>();
      if (value > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
        return ParseError(path + ": out of range");
      }
      return static_cast<T>(value);
    }
    const auto value = found->template get<std::int64_t>();
    if (value < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
        (value > 0 && static_cast<std::uint64_t>(value) >
                          static_cast<std::uint64_t>(std::numeric_limits<T>::max()))) {
      return ParseError(path + ": out of range");
    }
    return static_cast<T>(value);
  }
}

// OptionalMember into `out`, which holds the default: several reads can share one error check.
//   for (Status s : {ReadOptionalMember(o, "has_other", d.has_other, where), ...})
//     if (!s) return s.error();
template <typename T>
Status ReadOptionalMember(const nlohmann::json& object, const std::string& key, T& out,
                          const std::string& where) {
  auto read = OptionalMember<T>(object, key, out, where);
  if (!read) return read.error();
  out = std::move(read.value());
  return OkStatus();
}

}  // namespace deniable
