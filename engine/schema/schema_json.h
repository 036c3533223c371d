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

#include <nlohmann/json.hpp>
#include <string>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

// The schema as JSON. nlohmann::json sorts object keys; for a file a person reads, use
// SchemaJsonText, which keeps the documented key order.
nlohmann::json SchemaToJson(const Schema& schema, bool include_stats);

// The schema as indented JSON text (2 spaces, documented key order, trailing newline): what
// `inspect` writes.
std::string SchemaJsonText(const Schema& schema, bool include_stats);

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

}  // namespace deniable
