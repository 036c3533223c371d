// SPDX-License-Identifier: Apache-2.0
// A geo pair through the model on a small table (exact expectations: a SeededRng and an ε so
// large that the noise rounds to nothing): its domain, the attributes (the longitude column is
// not one), encoding, decoding into both columns with their own formats, and the description
// file's round trip, from which `generate` decodes the same way.
#include <gtest/gtest.h>

#include "engine/core/random.h"
#include "engine/model/description.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/model/geo_domain.h"
#include "engine/model/privbayes.h"
#include "tests/support/test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeTable;
using test_support::Repeat;

constexpr double kHugeEpsilon = 1e6;

// 200 stops at (44.95, -93.25), 100 at (10, 20), 20 without a latitude; a public kind.
RawTable StopsTable() {
  std::vector<std::optional<std::string>> lat, lon, kind;
  Repeat(lat, "44.95000", 200);
  Repeat(lon, "-93.25000", 200);
  Repeat(lat, "10.00000", 100);
  Repeat(lon, "20.00000", 100);
  Repeat(lat, std::nullopt, 20);
  Repeat(lon, "5.00000", 20);
  for (std::size_t r = 0; r < 320; ++r) kind.push_back(r % 2 ? "a" : "b");
  return MakeTable({MakeColumn("kind", kind), MakeColumn("lat", lat), MakeColumn("long", lon)});
}

Schema StopsSchema() {
  ColumnSchema kind;
  kind.name = "kind";
  kind.type = DataType::kString;
  kind.categorical = true;
  kind.public_categories = std::vector<std::string>{"a", "b"};
  ColumnSchema lat;
  lat.name = "lat";
  lat.type = DataType::kFloat;
  lat.decimals = 5;
  lat.geo_longitude = "long";
  ColumnSchema lon = lat;
  lon.name = "long";
  lon.geo_longitude.clear();
  Schema schema;
  schema.columns = {kind, lat, lon};
  return schema;
}

DomainOptions GeoOnly(double epsilon) {
  DomainOptions options;
  options.budget.geo_epsilon = epsilon;
  options.budget.geo_columns = 1;
  return options;
}

Result<std::vector<ColumnDomain>> Build(const RawTable& table, const Schema& schema,
                                        const DomainOptions& options) {
  PrivacyAccountant accountant =
      PrivacyAccountant::Create(PrivacyCost{2 * kHugeEpsilon, 1e-6}).value();
  SeededRng rng(3);
  NullProgress progress;
  return BuildDomains(table, schema, options, accountant, rng, progress);
}

TEST(GeoDomainTest, ThePairIsOneAttributeWithTheBudgetOfOneNumericColumn) {
  const Schema schema = StopsSchema();
  EXPECT_EQ(ModelledColumns(schema), (std::vector<int>{0, 1}));
  EXPECT_EQ(DomainNeedOf(schema, 1), DomainNeed::kGeo);
  EXPECT_EQ(DomainNeedOf(schema, 2), DomainNeed::kNone);
  EXPECT_EQ(DomainNeedOf(schema.columns[1]), DomainNeed::kHistogram);  // on its own
  const DomainBudget budget = PlanDomainBudget(schema, 1.0, 10000, std::nullopt);
  EXPECT_EQ(budget.geo_columns, 1);
  EXPECT_EQ(budget.histogram_columns, 0);
  EXPECT_EQ(budget.union_columns, 0);
  EXPECT_DOUBLE_EQ(budget.geo_epsilon, ShareOf(1.0, kNumericShareEach * kGeoPairParts));
  EXPECT_DOUBLE_EQ(budget.total(), budget.geo_epsilon);
  Schema separate = schema;
  separate.columns[1].geo_longitude.clear();
  EXPECT_EQ(ModelledColumns(separate), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(PlanDomainBudget(separate, 1.0, 10000, std::nullopt).histogram_columns, 2);
}

TEST(GeoDomainTest, TheForecastShowsThePairOnItsLatitudeColumn) {
  auto forecast = ForecastDomains(StopsTable(), StopsSchema(), 1.0, 1e-9, std::nullopt);
  ASSERT_TRUE(forecast.has_value()) << forecast.error().message;
  ASSERT_EQ(forecast->columns.size(), 2u);
  const ColumnForecast& pair = forecast->columns[1];
  EXPECT_EQ(pair.column, "lat");
  EXPECT_EQ(pair.need, DomainNeed::kGeo);
  EXPECT_GT(pair.epsilon, 0);
  EXPECT_EQ(pair.epsilon, forecast->budget.geo_epsilon);
  EXPECT_GT(pair.rows_per_leaf, 0);
  EXPECT_EQ(pair.summary.rfind("one geo attribute with 'long': cells where the points are", 0), 0u);
}

TEST(GeoDomainTest, TwoPlacesBecomeTwoRegionsAndMissingItsOwnCode) {
  const RawTable table = StopsTable();
  const Schema schema = StopsSchema();
  auto domains = Build(table, schema, GeoOnly(kHugeEpsilon));
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  ASSERT_EQ(domains->size(), 2u);
  const ColumnDomain& geo = (*domains)[1];
  ASSERT_TRUE(geo.is_geo());
  EXPECT_EQ(geo.name, "lat");
  EXPECT_EQ(geo.AttributeName(), "lat + long");
  EXPECT_EQ(geo.geo->longitude, "long");
  EXPECT_DOUBLE_EQ(geo.geo->resolution, 1e-5);
  EXPECT_EQ(geo.categories_source, DomainSource::kDp);
  EXPECT_FALSE(geo.categorical);
  EXPECT_EQ(geo.bins, 2);        // each place a heavy cell, a region of its own
  EXPECT_TRUE(geo.has_missing);  // 20 rows without a latitude
  EXPECT_EQ(geo.cardinality(), 3u);
  EXPECT_EQ(geo.Validate(), "");
  // Only the two places weigh anything: single lattice points with their exact counts.
  std::vector<double> weighted;
  for (std::size_t c = 0; c < geo.geo->cells(); ++c) {
    if (geo.geo->weights[c] > 0) {
      weighted.push_back(geo.geo->weights[c]);
      EXPECT_EQ(geo.geo->levels[c], 26u);  // a single point (2^26 >= 36,000,001)
    }
  }
  EXPECT_EQ(weighted, (std::vector<double>{200, 100}));  // Morton order: Minneapolis first
  EXPECT_EQ(geo.CodeLabel(0), "lat 44.95–44.95, lon -93.25–-93.25");
  EXPECT_EQ(geo.CodeLabel(2), "(missing)");

  NullProgress progress;
  auto encoded = Encode(table, schema, *domains, progress);
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  ASSERT_EQ(encoded->num_attributes(), 2u);
  // kind: its two public categories and a missing code (no set union ran).
  EXPECT_EQ(encoded->cardinalities, (std::vector<std::uint32_t>{3, 3}));
  std::vector<Code> expected(200, 0);
  expected.insert(expected.end(), 100, 1);
  expected.insert(expected.end(), 20, 2);
  EXPECT_EQ(encoded->columns[1], expected);

  EncodedTable synthetic;
  synthetic.rows = 3;
  synthetic.columns = {{0, 1, 0}, {1, 0, 2}};
  synthetic.cardinalities = encoded->cardinalities;
  SeededRng rng(5);
  auto decoded = DecodeToRawTable(synthetic, schema, *domains, rng, progress);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  ASSERT_EQ(decoded->num_columns(), 3u);
  auto text = [&](std::size_t column, std::size_t row) -> std::string {
    const RawColumn& raw = decoded->columns[column];
    return raw.codes[row] == kMissingCode ? "" : raw.dictionary[raw.codes[row]];
  };
  EXPECT_EQ(decoded->columns[1].name, "lat");
  EXPECT_EQ(decoded->columns[2].name, "long");
  EXPECT_EQ(text(1, 0), "10.00000");
  EXPECT_EQ(text(2, 0), "20.00000");
  EXPECT_EQ(text(1, 1), "44.95000");
  EXPECT_EQ(text(2, 1), "-93.25000");
  EXPECT_EQ(text(1, 2), "");  // the missing code: both columns empty
  EXPECT_EQ(text(2, 2), "");
  EXPECT_EQ(text(0, 0), "a");
}

// The stops table's domains (huge ε) in a description with a uniform network.
Description StopsDescription() {
  Description description;
  auto domains = Build(StopsTable(), StopsSchema(), GeoOnly(kHugeEpsilon));
  EXPECT_TRUE(domains.has_value());
  if (!domains) return description;
  description.mode = "independent";
  description.schema = StopsSchema();
  description.domains = *domains;
  description.network = UniformNetwork(description.cardinalities());
  return description;
}

TEST(GeoDomainTest, DescriptionRoundTripsTheGeoDomainAndGeneratesTheSameValues) {
  const Description description = StopsDescription();
  ASSERT_EQ(description.domains.size(), 2u);
  const Schema& schema = description.schema;
  const std::vector<ColumnDomain>* domains = &description.domains;
  const nlohmann::json json = DescriptionToJson(description);
  const nlohmann::json& geo = json["domains"]["lat"]["geo"];
  EXPECT_EQ(geo["longitude"], "long");
  EXPECT_EQ(geo["box"], nlohmann::json::parse(
                            R"({"lat_min": -90, "lat_max": 90, "lon_min": -180, "lon_max": 180})"));
  EXPECT_EQ(geo["regions"].size(), 2u);
  EXPECT_EQ(geo["cells"]["i"].size(), (*domains)[1].geo->cells());
  EXPECT_FALSE(json["domains"].contains("long"));
  EXPECT_EQ(json["schema"]["columns"][1]["geo"], nlohmann::json::parse(R"({"longitude": "long"})"));

  auto read = DescriptionFromJson(json, "d.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  const ColumnDomain& back = read->domains[1];
  const ColumnDomain& made = (*domains)[1];
  ASSERT_TRUE(back.is_geo());
  EXPECT_EQ(back.geo->keys, made.geo->keys);
  EXPECT_EQ(back.geo->levels, made.geo->levels);
  EXPECT_EQ(back.geo->weights, made.geo->weights);
  EXPECT_EQ(back.geo->region_starts, made.geo->region_starts);
  EXPECT_EQ(back.geo->resolution, made.geo->resolution);
  EXPECT_EQ(back.bins, made.bins);
  EXPECT_EQ(back.has_missing, made.has_missing);
  EXPECT_EQ(DescriptionToJson(*read), json);

  EncodedTable synthetic;
  synthetic.rows = 4;
  synthetic.columns = {{0, 0, 1, 1}, {0, 1, 2, 0}};
  synthetic.cardinalities = description.cardinalities();
  SeededRng a(9), b(9);
  NullProgress progress;
  auto from_model = DecodeToRawTable(synthetic, schema, *domains, a, progress);
  auto from_file = DecodeToRawTable(synthetic, read->schema, read->domains, b, progress);
  ASSERT_TRUE(from_model.has_value() && from_file.has_value());
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(from_model->columns[c].dictionary, from_file->columns[c].dictionary);
    EXPECT_EQ(from_model->columns[c].codes, from_file->columns[c].codes);
  }
}

TEST(GeoDomainTest, DescriptionsWhoseSchemaAndDomainDisagreeAreRefused) {
  const Description description = StopsDescription();
  ASSERT_EQ(description.domains.size(), 2u);
  const nlohmann::json json = DescriptionToJson(description);

  nlohmann::json other = json;
  other["domains"]["lat"]["geo"]["longitude"] = "kind";
  auto read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message,
            "d.json: domains.lat.geo.longitude: the schema pairs column 'lat' with 'long', not "
            "'kind'");
  other = json;
  other["domains"]["lat"]["geo"]["regions"] = {0, 0};
  read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message,
            "d.json: domains.lat.geo: every region must hold at least one cell");
  other = json;
  other["domains"]["lat"]["geo"]["cells"]["level"][0] = 1;
  read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message,
            "d.json: domains.lat.geo: the cells do not partition the box in Morton order");
  other = json;
  other["domains"]["lat"]["geo"]["cells"]["i"][0] = -1;
  read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message,
            "d.json: domains.lat.geo.cells.i: expected integers between 0 and 2^32 - 1");
  // A schema without the pair: the longitude column needs its own domain; a geo domain on an
  // unpaired column is refused.
  other = json;
  other["schema"]["columns"][1]["geo"] = nullptr;
  read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message, "d.json: domains.lat.geo: column 'lat' is in no geo pair");
  other = json;
  other["domains"]["lat"].erase("geo");
  other["domains"]["lat"]["edges"] = {0, 1};
  read = DescriptionFromJson(other, "d.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message,
            "d.json: domains.lat: column 'lat' is a geo pair with 'long': expected a \"geo\" "
            "domain");
}

TEST(GeoDomainTest, NoBudgetNeedsADeclaredBoxAndThenSpendsNothing) {
  const RawTable table = StopsTable();
  Schema schema = StopsSchema();
  auto refused = Build(table, schema, GeoOnly(0));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(refused.error().message,
            "geo pair 'lat + long' has no public box and no domain budget: declare public "
            "bounds on both columns (schema \"public\": {\"min\": ..., \"max\": ...}) or give "
            "the domains a share of ε");
  schema.columns[1].public_min = 0;
  schema.columns[1].public_max = 50;
  schema.columns[2].public_min = -100;
  schema.columns[2].public_max = 30;
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1, 1e-6}).value();
  SeededRng rng(1);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, GeoOnly(0), accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& geo = (*domains)[1];
  EXPECT_EQ(geo.categories_source, DomainSource::kPublic);
  EXPECT_EQ(geo.geo->box.lat_lo, 0);
  EXPECT_EQ(geo.geo->box.lon_hi, 30);
  // 5,000,001 × 13,000,001 points: the squares of side 2^22 meeting the box at level 2 are
  // 2 × 4 = 8; level 3 would have 3 × 7 = 21 > 20.
  EXPECT_EQ(geo.bins, 8);
  EXPECT_TRUE(geo.has_missing);
  EXPECT_EQ(accountant.Total().epsilon, 0);
}

TEST(GeoDomainTest, AnInvalidDeclaredPairIsRefusedByName) {
  const RawTable table = StopsTable();
  Schema schema = StopsSchema();
  schema.columns[1].geo_longitude = "kind";
  auto refused = Build(table, schema, GeoOnly(1));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(refused.error().message,
            "geo pair 'lat' + 'kind': column 'kind' is String; both columns of a geo pair must "
            "be Integer or Float");
}

}  // namespace
}  // namespace deniable
