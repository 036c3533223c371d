// SPDX-License-Identifier: Apache-2.0
#include "engine/model/description.h"

#include <gtest/gtest.h>

#include "engine/core/atomic_file.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

// Two modelled columns (color, age), one identifier, one ignored; a network age -> color.
Description SmallDescription() {
  Description d;
  d.mode = "correlated";
  d.parameters = {{"epsilon", 1.0}, {"degree", 1}};
  ColumnSchema id;
  id.name = "id";
  id.role = ColumnRole::kIdentifier;
  id.id_pattern = "##-####";
  ColumnSchema color;
  color.name = "color";
  color.type = DataType::kString;
  color.categorical = true;
  ColumnSchema age;
  age.name = "age";
  age.type = DataType::kInteger;
  ColumnSchema secret;
  secret.name = "secret";
  secret.role = ColumnRole::kIgnore;
  d.schema.columns = {id, color, age, secret};
  ColumnDomain c;
  c.name = "color";
  c.categorical = true;
  c.categories = {"blue", "red"};
  c.has_other = true;
  c.has_missing = true;
  c.categories_source = DomainSource::kDp;
  c.provenance = "DP partition selection";
  ColumnDomain a;
  a.name = "age";
  a.type = DataType::kInteger;
  a.categorical = false;
  a.SetEqualWidth(17, 90, 2, 1);
  a.categories_source = DomainSource::kPublic;
  d.domains = {c, a};
  BayesNode root;
  root.attribute = 1;
  root.cardinality = 2;
  root.probabilities = {0.25, 0.75};
  BayesNode child;
  child.attribute = 0;
  child.parents = {1};
  child.parent_buckets = {{}};
  child.parent_bucket_counts = {2};
  child.cardinality = 4;
  child.probabilities = {0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1};
  d.network.nodes = {root, child};
  d.privacy = {{"total", {{"epsilon", 1.0}, {"delta", 1e-9}}}};
  d.guarantee = {{"epsilon", 1.0}, {"statement", "..."}};
  return d;
}

TEST(DescriptionTest, RoundTripsThroughJson) {
  const Description original = SmallDescription();
  const nlohmann::json json = DescriptionToJson(original);
  EXPECT_EQ(json["format"], "deniable-description");
  EXPECT_EQ(json["version"], 2);
  EXPECT_FALSE(json.contains("num_tuples"));  // the input's row count is never stored
  auto back = DescriptionFromJson(json, "d.json");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->mode, "correlated");
  ASSERT_EQ(back->schema.columns.size(), 4u);
  EXPECT_EQ(back->schema.columns[0].role, ColumnRole::kIdentifier);
  EXPECT_EQ(back->schema.columns[0].id_pattern, "##-####");
  EXPECT_EQ(back->schema.columns[3].role, ColumnRole::kIgnore);
  ASSERT_EQ(back->domains.size(), 2u);
  EXPECT_EQ(back->domains[0].categories, original.domains[0].categories);
  EXPECT_TRUE(back->domains[0].has_other);
  EXPECT_TRUE(back->domains[0].has_missing);
  EXPECT_EQ(back->domains[0].categories_source, DomainSource::kDp);
  EXPECT_EQ(back->domains[1].lo, 17);
  EXPECT_EQ(back->domains[1].hi, 90);
  EXPECT_EQ(back->domains[1].step, 1);
  EXPECT_EQ(back->domains[1].edges, original.domains[1].edges);
  ASSERT_EQ(back->network.nodes.size(), 2u);
  EXPECT_EQ(back->network.nodes[1].parents, std::vector<int>{1});
  EXPECT_EQ(back->network.nodes[1].probabilities, original.network.nodes[1].probabilities);
  EXPECT_EQ(DescriptionToJson(back.value()), json);
}

TEST(DescriptionTest, SchemaStatsNeverReachTheFile) {
  Description d = SmallDescription();
  d.schema.columns[1].stats.missing = 123;
  d.schema.columns[1].stats.sample_values = {"a real value"};
  const std::string text = DescriptionToJson(d).dump();
  EXPECT_EQ(text.find("a real value"), std::string::npos);
  EXPECT_EQ(text.find("\"stats\""), std::string::npos);
}

struct BadCase {
  const char* name;
  std::function<void(nlohmann::json&)> corrupt;
  const char* expected;  // fragment of the message (the JSON path)
};

TEST(DescriptionTest, RejectsCorruptFilesWithTheJsonPath) {
  const std::vector<BadCase> cases = {
      {"version", [](nlohmann::json& j) { j["version"] = 99; }, "version"},
      {"no domain", [](nlohmann::json& j) { j["domains"].erase("age"); }, "domains.age"},
      {"negative probability",
       [](nlohmann::json& j) { j["network"][1]["conditionals"][0][0] = -1; },
       "network[1].conditionals[0]"},
      {"short table", [](nlohmann::json& j) { j["network"][1]["conditionals"].erase(1); },
       "network[1].conditionals"},
      {"unknown parent", [](nlohmann::json& j) { j["network"][1]["parents"][0] = "nope"; },
       "network[1].parents[0]"},
      {"edges decreasing",
       [](nlohmann::json& j) { j["domains"]["age"]["edges"] = nlohmann::json::array({100, 17}); },
       "domains.age.edges: bin edges must be finite and strictly increasing"},
      {"one edge", [](nlohmann::json& j) { j["domains"]["age"]["edges"] = nlohmann::json::array({17}); },
       "domains.age.edges: a numeric domain needs between 1 and 65,000 bins"},
      {"no edges", [](nlohmann::json& j) { j["domains"]["age"].erase("edges"); }, "domains.age.edges: missing"},
      {"leaves misaligned",
       [](nlohmann::json& j) {
         j["domains"]["age"]["leaf_edges"] = nlohmann::json::array({17, 91});
         j["domains"]["age"]["leaf_weights"] = nlohmann::json::array({1});
       },
       "domains.age.leaf_edges: every bin edge must be a leaf edge"},
      {"parent after child",
       [](nlohmann::json& j) { std::swap(j["network"][0], j["network"][1]); }, "network"},
      // Members read with a wrong JSON type name themselves (not nlohmann's bare type_error).
      {"has_other not a boolean", [](nlohmann::json& j) { j["domains"]["color"]["has_other"] = 1; },
       "domains.color.has_other: expected true or false"},
      {"provenance not a string", [](nlohmann::json& j) { j["domains"]["age"]["provenance"] = 3; },
       "domains.age.provenance: expected a string"},
      {"step not a number", [](nlohmann::json& j) { j["domains"]["age"]["step"] = "many"; },
       "domains.age.step: expected a number"},
      {"reproducible flag not a boolean",
       [](nlohmann::json& j) { j["reproducible_not_private"] = "yes"; },
       "reproducible_not_private: expected true or false"},
      // Beyond 2^53 a double cannot step through integers (x + 1 == x): refused, not looped on.
      {"integer domain beyond 2^53",
       [](nlohmann::json& j) { j["domains"]["age"]["edges"] = nlohmann::json::array({17, 1e308}); },
       "domains.age: the lattice is too fine for the range"},
  };
  for (const BadCase& bad : cases) {
    nlohmann::json json = DescriptionToJson(SmallDescription());
    bad.corrupt(json);
    auto parsed = DescriptionFromJson(json, "d.json");
    ASSERT_FALSE(parsed.has_value()) << bad.name;
    EXPECT_EQ(parsed.error().code, ErrorCode::kParse) << bad.name;
    EXPECT_NE(parsed.error().message.find(bad.expected), std::string::npos)
        << bad.name << ": " << parsed.error().message;
    EXPECT_EQ(parsed.error().message.rfind("d.json: ", 0), 0u) << parsed.error().message;
  }
}

TEST(DescriptionTest, DisplayOnlyMembersOfTheWrongKindAreDroppedNotFatal) {
  nlohmann::json json = DescriptionToJson(SmallDescription());
  json["privacy"] = "spent a little";
  json["guarantee"] = 7;
  auto parsed = DescriptionFromJson(json, "d.json");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_TRUE(parsed->privacy.is_object());
  EXPECT_TRUE(parsed->privacy.empty());
  EXPECT_TRUE(parsed->guarantee.empty());
}

TEST(DescriptionTest, ReadDescriptionReportsSyntaxErrorsAndWritesAtomically) {
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteFileAtomically(dir + "/broken.json", "{\"format\": ").has_value());
  auto broken = ReadDescription(dir + "/broken.json");
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().code, ErrorCode::kParse);
  ASSERT_TRUE(WriteDescription(dir + "/ok.json", SmallDescription()).has_value());
  auto ok = ReadDescription(dir + "/ok.json");
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->domains.size(), 2u);
}

// Version 1 files (equal-width bins, per-integer or per-bin sub-cell weights) are still read:
// the fixture is docs/examples/adult-sample-correlated-degree1.json as version 1 wrote it.
TEST(DescriptionTest, ReadsVersion1FilesIntoTheExplicitLayout) {
  auto v1 = ReadDescription(test_support::TestDataPath("descriptions/v1-adult-sample-correlated-degree1.json"));
  ASSERT_TRUE(v1.has_value()) << v1.error().message;
  const ColumnDomain* age = nullptr;
  const ColumnDomain* fnlwgt = nullptr;
  for (const ColumnDomain& d : v1->domains) {
    if (d.name == "age") age = &d;
    if (d.name == "fnlwgt") fnlwgt = &d;
  }
  ASSERT_NE(age, nullptr);
  ASSERT_NE(fnlwgt, nullptr);
  // age: integers 19..64 in 20 bins, one leaf per integer (sub_per_bin 0, 46 weights).
  EXPECT_EQ(age->step, 1);
  EXPECT_EQ(age->lo, 19);
  EXPECT_EQ(age->hi, 64);
  EXPECT_EQ(age->bins, 20);
  EXPECT_EQ(age->leaf_weights.size(), 46u);
  EXPECT_EQ(age->Validate(), "");
  // Every integer of 19..64 in exactly one bin, as version 1 laid them out ([19, 65) in 20
  // equal parts of width 2.3).
  for (int v = 19; v <= 64; ++v) {
    EXPECT_EQ(age->BinOf(v), static_cast<std::uint32_t>((v - 19) / 2.3)) << v;
  }
  // fnlwgt: 20 bins of 32 cells each (640 weights), snapped to the integers.
  EXPECT_EQ(fnlwgt->bins, 20);
  EXPECT_EQ(fnlwgt->leaf_weights.size(), 640u);
  EXPECT_EQ(fnlwgt->Validate(), "");
  // Written back, it is a version 2 file that reads to the same domains.
  const nlohmann::json v2 = DescriptionToJson(v1.value());
  EXPECT_EQ(v2["version"], 2);
  auto back = DescriptionFromJson(v2, "v2.json");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(DescriptionToJson(back.value()), v2);
}

}  // namespace
}  // namespace deniable
