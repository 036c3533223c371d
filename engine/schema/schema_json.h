// SPDX-License-Identifier: Apache-2.0
// Schema <-> JSON (format documented in docs/schema.md, versioned by "format":
// "deniable-schema", "version": 1).
//
// `inspect` writes the inferred schema including its data-derived `stats` (for the owner's
// eyes only). Every command accepts a schema JSON back: a full one, or a partial one that only
// lists the columns and fields the user corrects (ApplySchemaJson). Errors name the JSON path,
// e.g. "schema.json: columns[3].type: unknown type 'Int' (expected Integer, Float, DateTime
// or String)".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

nlohmann::json SchemaToJson(const Schema& schema, bool include_stats);

// Applies the user's corrections in `json` to `base` (normally the inferred schema for the same
// table). Unknown column names, unknown fields, wrong JSON types, bounds with min > max,
// public categories on a non-categorical column etc. are kParse errors naming the JSON path.
// `source` names the file in messages.
Result<Schema> ApplySchemaJson(const Schema& base, const nlohmann::json& json,
                               const std::string& source);

// Reads and parses a schema file (bad JSON syntax gives line and column).
Result<nlohmann::json> ReadJsonFile(const std::string& path);

}  // namespace deniable
