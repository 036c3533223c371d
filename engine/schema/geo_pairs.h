// SPDX-License-Identifier: Apache-2.0
// Latitude/longitude pairs ("geo pairs"): two numeric columns modelled jointly as ONE attribute
// (model/geo_regions.h: a private quadtree over (lat, lon) whose cells, merged into regions, are
// the attribute's codes). Declared on the latitude column: ColumnSchema::geo_longitude names the
// longitude column (schema JSON `"geo": {"longitude": "long"}`, `"geo": null` clears it).
//
// A pair is a structural fact like a column's type: inference proposes it (DetectGeoPairs, from
// the column names and the value ranges: it reads the data, for the owner to review), the owner
// confirms or clears it, a release carries it in its schema. Nothing about the values travels
// with it: the pair's domain comes from an accounted DP mechanism (model/domains.h) or from
// public bounds the owner declared on the two columns.
//
// In a model, the latitude column takes the pair's place among the modelled columns
// (model/domains.h ModelledColumns); the longitude column is not an attribute of its own, and
// decoding writes both columns, each with its own format.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

struct GeoPair {
  std::size_t latitude = 0;   // column index
  std::size_t longitude = 0;  // column index
  bool operator==(const GeoPair&) const = default;
};

// Why column `latitude`'s geo declaration cannot be modelled, naming the columns; "" when it
// declares no pair or a valid one. Valid: the longitude column exists and differs from it, both
// are Integer or Float and modelled (not identifier or ignore), neither declares public
// categories, and neither column is in another pair (the longitude column declares none of its
// own and no earlier column names it; no column names the latitude column as its longitude).
std::string GeoPairProblem(const Schema& schema, std::size_t latitude);

// The schema's valid pairs, in latitude column order.
std::vector<GeoPair> GeoPairs(const Schema& schema);

// The latitude column of the valid pair whose longitude is column `index`, or -1: such a column
// is modelled through its pair, not as an attribute of its own.
int GeoLatitudeOf(const Schema& schema, std::size_t index);

// Name rules of detection (case-insensitive). A name is split into words at non-alphanumeric
// characters, lower-to-upper case changes ("startLat") and letter/digit changes ("lat2"); a
// latitude name has `lat` or `latitude` as its first or last word, a longitude name `lon`,
// `lng`, `long` or `longitude`. The other words are the name's stem: `pickup_lat` and
// `pickup_lon` share the stem "pickup", `lat` and `long` the empty one.
// Returns whether `name` is such a name, and its stem.
bool IsLatitudeName(std::string_view name, std::string* stem = nullptr);
bool IsLongitudeName(std::string_view name, std::string* stem = nullptr);

// The pairs inference proposes (InferSchema sets them): a latitude-named and a longitude-named
// column with the same stem, each the only one of its kind with that stem, both Integer or Float,
// not categorical, modelled, and every value that parses within [-90, 90] (latitude) and
// [-180, 180] (longitude), with at least one value each. Reads the data (value ranges): the
// owner reviews the result, like the types.
std::vector<GeoPair> DetectGeoPairs(const RawTable& table, const Schema& schema);

// The first value of column `index` outside [lo, hi] and the line it is on (for messages, the
// owner's eyes only); false when every value that parses lies inside.
bool FirstValueOutside(const RawTable& table, std::size_t index, const ColumnSchema& column,
                       double lo, double hi, std::string& text, std::uint64_t& line);

}  // namespace deniable
