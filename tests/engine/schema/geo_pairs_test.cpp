// SPDX-License-Identifier: Apache-2.0
// Geo pairs in the schema (engine/schema/geo_pairs.h): the name rules, detection by inference,
// the schema JSON round trip ("geo": {"longitude": ...} / null) and every error, with its path.
#include "engine/schema/geo_pairs.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using nlohmann::json;
using test_support::Cells;

std::string Fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// 40 rows: a latitude/longitude pair around Minneapolis, a city, a Float beyond the globe
// (score 80 .. 119), an Integer code (25 values), a second latitude-named column.
RawTable GeoTable() {
  return test_support::MakeRawTable({
      {"city", Cells(40, [](std::size_t i) { return i % 2 ? "Oslo" : "Rome"; })},
      {"lat", Cells(40, [](std::size_t i) { return Fixed(44.9 + 0.003 * i, 5); })},
      {"long", Cells(40, [](std::size_t i) { return Fixed(-93.3 + 0.002 * i, 5); })},
      {"score", Cells(40, [](std::size_t i) { return Fixed(80.0 + static_cast<double>(i), 1); })},
      {"code", Cells(40, [](std::size_t i) { return std::to_string(i % 25); })},
      {"alt_latitude", Cells(40, [](std::size_t i) { return Fixed(10 + 0.5 * i, 2); })},
  });
}

TEST(GeoPairNamesTest, LatitudeAndLongitudeWordsFirstOrLast) {
  std::string stem;
  EXPECT_TRUE(IsLatitudeName("lat", &stem));
  EXPECT_EQ(stem, "");
  EXPECT_TRUE(IsLatitudeName("Latitude"));
  EXPECT_TRUE(IsLatitudeName("LAT"));
  EXPECT_TRUE(IsLatitudeName("pickup_latitude", &stem));
  EXPECT_EQ(stem, "pickup");
  EXPECT_TRUE(IsLatitudeName("startLat", &stem));
  EXPECT_EQ(stem, "start");
  EXPECT_TRUE(IsLatitudeName("lat2", &stem));
  EXPECT_EQ(stem, "2");
  EXPECT_TRUE(IsLatitudeName("lat-home", &stem));
  EXPECT_EQ(stem, "home");
  EXPECT_TRUE(IsLongitudeName("long"));
  EXPECT_TRUE(IsLongitudeName("lng"));
  EXPECT_TRUE(IsLongitudeName("Lon"));
  EXPECT_TRUE(IsLongitudeName("dropoff_longitude", &stem));
  EXPECT_EQ(stem, "dropoff");
  EXPECT_TRUE(IsLongitudeName("startLng", &stem));
  EXPECT_EQ(stem, "start");
  // Words, not substrings.
  for (const char* name : {"relationship", "plateau", "latency", "flat", "longevity", "salon",
                           "belong", "latitudes", "my_lat_value", ""}) {
    EXPECT_FALSE(IsLatitudeName(name)) << name;
    EXPECT_FALSE(IsLongitudeName(name)) << name;
  }
}

TEST(GeoPairDetectionTest, InferenceProposesTheNamedPairOnTheGlobe) {
  const RawTable table = GeoTable();
  const Schema schema = InferSchema(table, {});
  EXPECT_EQ(schema.columns[1].geo_longitude, "long");
  for (std::size_t i : {0u, 2u, 3u, 4u, 5u}) EXPECT_EQ(schema.columns[i].geo_longitude, "");
  EXPECT_EQ(GeoPairs(schema), (std::vector<GeoPair>{{1, 2}}));
  EXPECT_EQ(GeoLatitudeOf(schema, 2), 1);
  EXPECT_EQ(GeoLatitudeOf(schema, 1), -1);
  EXPECT_EQ(GeoPairProblem(schema, 1), "");
}

TEST(GeoPairDetectionTest, StemsPairColumnsAndAmbiguityProposesNothing) {
  auto column = [](const char* name, double base) {
    return std::make_pair(std::string(name), Cells(40, [base](std::size_t i) {
                                               return Fixed(base + 0.01 * i, 4);
                                             }));
  };
  const RawTable table = test_support::MakeRawTable(
      {column("pickup_latitude", 40.7), column("dropoff_latitude", 40.8),
       column("dropoff_longitude", -73.9), column("pickup_longitude", -74.0),
       column("home lat", 1), column("home lon", 2), column("home lng", 3)});
  const Schema schema = InferSchema(table, {});
  EXPECT_EQ(schema.columns[0].geo_longitude, "pickup_longitude");
  EXPECT_EQ(schema.columns[1].geo_longitude, "dropoff_longitude");
  EXPECT_EQ(schema.columns[4].geo_longitude, "");  // two longitudes share its stem
  EXPECT_EQ(GeoPairs(schema), (std::vector<GeoPair>{{0, 3}, {1, 2}}));
}

TEST(GeoPairDetectionTest, NoPairOffTheGlobeOrForCategoricalTextOrUnrelatedColumns) {
  auto table_of = [](std::vector<std::string> lat, std::vector<std::string> lon,
                     const char* lat_name = "lat", const char* lon_name = "lon") {
    return test_support::MakeRawTable({{lat_name, std::move(lat)}, {lon_name, std::move(lon)}});
  };
  const auto spread = [](double base, double step) {
    return Cells(40, [=](std::size_t i) { return Fixed(base + step * i, 3); });
  };
  // A latitude beyond 90, a longitude beyond -180.
  EXPECT_TRUE(DetectGeoPairs(table_of(spread(80, 0.5), spread(10, 1)),
                             InferSchema(table_of(spread(80, 0.5), spread(10, 1)), {}))
                  .empty());
  EXPECT_TRUE(DetectGeoPairs(table_of(spread(10, 1), spread(-200, 1)),
                             InferSchema(table_of(spread(10, 1), spread(-200, 1)), {}))
                  .empty());
  // Categorical (3 distinct values) and text columns.
  const auto few = Cells(40, [](std::size_t i) { return std::to_string(i % 3); });
  EXPECT_TRUE(InferSchema(table_of(few, spread(10, 1)), {}).columns[0].geo_longitude.empty());
  const auto words = Cells(40, [](std::size_t i) { return "north" + std::to_string(i); });
  EXPECT_TRUE(InferSchema(table_of(words, spread(10, 1)), {}).columns[0].geo_longitude.empty());
  // Names that only contain the letters.
  const RawTable unrelated = table_of(spread(10, 1), spread(20, 1), "latency", "longevity");
  EXPECT_TRUE(DetectGeoPairs(unrelated, InferSchema(unrelated, {})).empty());
  const RawTable stems = table_of(spread(10, 1), spread(20, 1), "lat_a", "lon_b");
  EXPECT_TRUE(DetectGeoPairs(stems, InferSchema(stems, {})).empty());
}

class GeoPairJsonTest : public ::testing::Test {
 protected:
  RawTable table_ = GeoTable();
  Schema base_ = InferSchema(table_, {});

  Result<Schema> Apply(const char* text, const Schema* base = nullptr) {
    return ApplySchemaJson(base ? *base : base_, json::parse(text), "schema.json", &table_);
  }
};

TEST_F(GeoPairJsonTest, WritesThePairOnTheLatitudeAndNullOnOtherNumberColumns) {
  const json out = SchemaToJson(base_, /*include_stats=*/false);
  EXPECT_EQ(out["columns"][1]["geo"], json::parse(R"({"longitude": "long"})"));
  EXPECT_TRUE(out["columns"][2]["geo"].is_null());
  EXPECT_TRUE(out["columns"][2].contains("geo"));
  EXPECT_TRUE(out["columns"][4]["geo"].is_null());
  EXPECT_FALSE(out["columns"][0].contains("geo"));  // String
  const std::string text = SchemaJsonText(base_, false);
  EXPECT_NE(text.find("\"bins\": 0,\n      \"geo\": {\n        \"longitude\": \"long\"\n      }"),
            std::string::npos);
}

TEST_F(GeoPairJsonTest, RoundTripsAndNullUndoesThePair) {
  auto again = ApplySchemaJson(InferSchema(table_, {}), SchemaToJson(base_, false), "s.json",
                               &table_);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(SchemaToJson(*again, false), SchemaToJson(base_, false));

  auto cleared = Apply(R"({"columns": [{"name": "lat", "geo": null}]})");
  ASSERT_TRUE(cleared.has_value()) << cleared.error().message;
  EXPECT_EQ(cleared->columns[1].geo_longitude, "");
  EXPECT_TRUE(GeoPairs(*cleared).empty());
  // The cleared state round-trips too (a diff of two schemas sees "geo": null).
  auto back = ApplySchemaJson(base_, SchemaToJson(*cleared, false), "s.json", &table_);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->columns[1].geo_longitude, "");

  // Declared by hand: the other latitude with the longitude (the inferred pair gives way).
  auto declared = Apply(R"({"columns": [{"name": "alt_latitude", "geo": {"longitude": "long"}}]})");
  ASSERT_TRUE(declared.has_value()) << declared.error().message;
  EXPECT_EQ(declared->columns[5].geo_longitude, "long");
  EXPECT_EQ(declared->columns[1].geo_longitude, "");
  EXPECT_EQ(GeoPairs(*declared), (std::vector<GeoPair>{{5, 2}}));
}

TEST_F(GeoPairJsonTest, ACorrectionThatBreaksAnInferredPairDropsIt) {
  for (const char* text : {R"({"columns": [{"name": "long", "role": "ignore"}]})",
                           R"({"columns": [{"name": "long", "type": "String"}]})",
                           R"({"columns": [{"name": "lat", "type": "String"}]})",
                           R"({"columns": [{"name": "lat", "role": "identifier"}]})"}) {
    auto schema = Apply(text);
    ASSERT_TRUE(schema.has_value()) << text << ": " << schema.error().message;
    EXPECT_EQ(schema->columns[1].geo_longitude, "") << text;
  }
  // Bounds or bins on a pair's columns keep it.
  auto kept = Apply(R"({"columns": [{"name": "lat", "public": {"min": 44, "max": 46}, "bins": 30}]})");
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->columns[1].geo_longitude, "long");
}

struct GeoErrorCase {
  const char* json;
  const char* message;
};

class GeoPairErrorsTest : public ::testing::TestWithParam<GeoErrorCase> {};

TEST_P(GeoPairErrorsTest, NamesThePathAndTheColumns) {
  const RawTable table = GeoTable();
  const Schema base = InferSchema(table, {});
  const auto result =
      ApplySchemaJson(base, json::parse(GetParam().json), "schema.json", &table);
  ASSERT_FALSE(result.has_value()) << GetParam().json;
  EXPECT_EQ(result.error().code, ErrorCode::kParse);
  EXPECT_EQ(result.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Declarations, GeoPairErrorsTest,
    ::testing::Values(
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": "long"}]})",
                     "schema.json: columns[0].geo: expected an object {\"longitude\": "
                     "\"COLUMN\"} or null (got string 'long')"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"lon": "long"}}]})",
                     "schema.json: columns[0].geo.lon: unknown field 'lon' (expected "
                     "longitude)"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {}}]})",
                     "schema.json: columns[0].geo: missing field 'longitude'"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": 2}}]})",
                     "schema.json: columns[0].geo.longitude: expected a string (got number 2)"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": ""}}]})",
                     "schema.json: columns[0].geo.longitude: expected a column name (got an "
                     "empty string)"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": "lng"}}]})",
                     "schema.json: columns[0].geo.longitude: column 'lat' names 'lng' as its "
                     "longitude, but there is no column 'lng'"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": "lat"}}]})",
                     "schema.json: columns[0].geo.longitude: column 'lat' cannot be its own "
                     "longitude: a geo pair joins two different columns"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": "city"}}]})",
                     "schema.json: columns[0].geo.longitude: geo pair 'lat' + 'city': column "
                     "'city' is String; both columns of a geo pair must be Integer or Float"},
        GeoErrorCase{R"({"columns": [{"name": "long", "role": "ignore"},
                                     {"name": "lat", "geo": {"longitude": "long"}}]})",
                     "schema.json: columns[1].geo.longitude: geo pair 'lat' + 'long': column "
                     "'long' has role ignore; both columns of a geo pair must be modelled "
                     "(attribute, quasi-identifier or sensitive), or remove the pair (\"geo\": "
                     "null on 'lat')"},
        GeoErrorCase{R"({"columns": [{"name": "code", "categorical": true,
                                      "public": {"categories": ["1", "2"]}},
                                     {"name": "lat", "geo": {"longitude": "code"}}]})",
                     "schema.json: columns[1].geo.longitude: geo pair 'lat' + 'code': column "
                     "'code' declares public categories, but a geo pair is modelled by the "
                     "cells of a quadtree: clear them (\"public\": {\"categories\": null}) or "
                     "remove the pair (\"geo\": null on 'lat')"},
        GeoErrorCase{R"({"columns": [{"name": "alt_latitude", "geo": {"longitude": "long"}},
                                     {"name": "lat", "geo": {"longitude": "long"}}]})",
                     "schema.json: columns[0].geo.longitude: geo pair 'alt_latitude' + 'long': "
                     "column 'long' is already the longitude of 'lat'; a column can be in one "
                     "pair only"},
        GeoErrorCase{R"({"columns": [{"name": "lat", "geo": {"longitude": "long"}},
                                     {"name": "code", "geo": {"longitude": "lat"}}]})",
                     "schema.json: columns[1].geo.longitude: geo pair 'code' + 'lat': column "
                     "'lat' is itself the latitude of a geo pair (with 'long'); a column can be "
                     "in one pair only"},
        GeoErrorCase{R"({"columns": [{"name": "score", "geo": {"longitude": "code"}}]})",
                     "schema.json: columns[0].geo: column 'score' has values outside [-90, 90] "
                     "('91.0' on line 13); without public bounds a geo pair is modelled on the "
                     "globe: declare public bounds (\"public\": {\"min\": ..., \"max\": ...}) "
                     "on both columns or remove the pair"}));

TEST(GeoPairProblemTest, DeclaredBoundsAllowAnyRangeAndNoTableChecksNoValues) {
  const RawTable table = GeoTable();
  const Schema base = InferSchema(table, {});
  auto bounded = ApplySchemaJson(
      base, json::parse(R"({"columns": [{"name": "score", "public": {"min": 0, "max": 200},
                                          "geo": {"longitude": "code"}},
                                         {"name": "code", "public": {"min": 0, "max": 50}}]})"),
      "s.json", &table);
  ASSERT_TRUE(bounded.has_value()) << bounded.error().message;
  EXPECT_EQ(GeoPairs(*bounded), (std::vector<GeoPair>{{1, 2}, {3, 4}}));
  auto without_table = ApplySchemaJson(
      base, json::parse(R"({"columns": [{"name": "score", "geo": {"longitude": "code"}}]})"),
      "s.json");
  ASSERT_TRUE(without_table.has_value()) << without_table.error().message;
}

}  // namespace
}  // namespace deniable
