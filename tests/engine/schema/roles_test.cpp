// SPDX-License-Identifier: Apache-2.0
// Roles that need care: a target (its class list must be declared public), an identifier
// (refused for DateTime columns, warned about when its values repeat), and the review warnings
// the CLI prints and the GUI shows.
#include <gtest/gtest.h>

#include "engine/schema/column_review.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::MakeRawTable;

// 200 rows: a label with a rare class, a date, an integer code with repeats, an id.
RawTable Table() {
  return MakeRawTable({
      {"label", Cells(200, [](std::size_t i) { return i == 7 ? "rare" : (i % 3 ? "no" : "yes"); })},
      {"dob", Cells(200, [](std::size_t i) {
         return "19" + std::to_string(40 + i % 50) + "-0" + std::to_string(1 + i % 9) + "-1" +
                std::to_string(i % 10);
       })},
      {"code", Cells(200, [](std::size_t i) { return std::to_string(1000 + i % 80); })},
      {"id", Cells(200, [](std::size_t i) { return "P" + std::to_string(10000 + i); })},
  });
}

class RolesTest : public ::testing::Test {
 protected:
  RawTable table_ = Table();
  Schema base_ = InferSchema(table_, {});

  Result<Schema> Apply(const std::string& text, bool with_table = true) {
    return ApplySchemaJson(base_, nlohmann::json::parse(text), "s.json",
                           with_table ? &table_ : nullptr);
  }
  std::string Error(const std::string& text, bool with_table = true) {
    auto result = Apply(text, with_table);
    return result.has_value() ? std::string("(accepted)") : result.error().message;
  }
};

TEST_F(RolesTest, FixtureIsInferredAsExpected) {
  EXPECT_EQ(base_.columns[0].type, DataType::kString);
  EXPECT_TRUE(base_.columns[0].categorical);
  EXPECT_EQ(base_.columns[1].type, DataType::kDateTime);
  EXPECT_EQ(base_.columns[2].type, DataType::kInteger);
  EXPECT_EQ(base_.columns[3].role, ColumnRole::kIdentifier);
}

TEST_F(RolesTest, TargetNamesAndModelling) {
  EXPECT_EQ(ParseColumnRole("Target"), ColumnRole::kTarget);
  EXPECT_STREQ(ColumnRoleName(ColumnRole::kTarget), "target");
  ColumnSchema column;
  column.role = ColumnRole::kTarget;
  EXPECT_TRUE(column.is_modelled());  // modelled like an attribute
}

TEST_F(RolesTest, ATargetNeedsItsClassListDeclaredPublic) {
  EXPECT_EQ(Error(R"({"columns": [{"name": "label", "role": "target"}]})"),
            "s.json: columns[0].public.categories: column 'label' has role target: declare its "
            "class list public (\"public\": {\"categories\": [...]}), so that no class, however "
            "rare, can vanish from the release; the data holds 3 classes: 'no' (132 rows), 'rare' "
            "(1 row), 'yes' (67 rows). If these are all the classes there can be, declare "
            "\"public\": {\"categories\": [\"no\",\"rare\",\"yes\"]}");
  // Without the table (a description file, a schema applied to a schema): no data to quote.
  EXPECT_EQ(Error(R"({"columns": [{"name": "label", "role": "target"}]})", false),
            "s.json: columns[0].public.categories: column 'label' has role target: declare its "
            "class list public (\"public\": {\"categories\": [...]}), so that no class, however "
            "rare, can vanish from the release");
  EXPECT_EQ(Error(R"({"columns": [{"name": "code", "role": "target", "categorical": false}]})"),
            "s.json: columns[0].categorical: column 'code' has role target: a target is a class "
            "label, so it must be categorical (set \"categorical\": true and declare its classes "
            "in \"public\": {\"categories\": [...]})");
}

TEST_F(RolesTest, ATargetWithPublicClassesRoundTrips) {
  auto schema = Apply(R"({"columns": [{"name": "label", "role": "target",
                          "public": {"categories": ["no", "rare", "yes", "maybe"]}}]})");
  ASSERT_TRUE(schema.has_value()) << schema.error().message;
  EXPECT_EQ(schema->columns[0].role, ColumnRole::kTarget);
  const nlohmann::json json = SchemaToJson(*schema, false);
  EXPECT_EQ(json["columns"][0]["role"], "target");
  auto again = ApplySchemaJson(base_, json, "s.json", nullptr);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(SchemaToJson(*again, false), json);
  // Its review lists the classes with counts and warns about the rare one.
  const ColumnReview review = ReviewColumn(schema->columns[0], table_.columns[0]);
  ASSERT_EQ(review.classes.size(), 3u);
  EXPECT_EQ(review.classes[1].text, "rare");
  EXPECT_EQ(review.classes[1].count, 1u);
  EXPECT_EQ(review.warnings, (std::vector<std::string>{
                                 "class 'rare' is rare: 1 of 200 labelled rows (0.5%); a DP model "
                                 "of the release holds little of it."}));
  EXPECT_TRUE(review.vocabularies.empty());  // a declared list: no suggestion
}

TEST_F(RolesTest, AnIdentifierRoleIsRefusedForDateTimeColumns) {
  EXPECT_EQ(Error(R"({"columns": [{"name": "dob", "role": "identifier"}]})"),
            "s.json: columns[0].role: column 'dob' is DateTime: the identifier role would "
            "regenerate it as random characters in a pattern, not as valid dates; give it role "
            "attribute (modelled) or ignore (left out)");
  // Also when an identifier becomes DateTime.
  Schema with_date_id = base_;
  with_date_id.columns[1].role = ColumnRole::kIdentifier;
  with_date_id.columns[1].type = DataType::kString;
  with_date_id.columns[1].id_pattern = "####-##-##";
  auto result = ApplySchemaJson(
      with_date_id,
      nlohmann::json::parse(R"({"columns": [{"name": "dob", "type": "DateTime"}]})"), "s.json",
      &table_);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message.substr(0, 55),
            "s.json: columns[0].type: column 'dob' is DateTime: the ");
}

TEST_F(RolesTest, AnIdentifiersPatternMustWriteValuesOfItsType) {
  EXPECT_EQ(Error(R"({"columns": [{"name": "code", "role": "identifier", "id_pattern": "AB-##"}]})"),
            "s.json: columns[0].id_pattern: identifier pattern 'AB-##' would write values that "
            "do not read as Integer (column 'code'): an Integer identifier's pattern holds only "
            "digits ('#') and a leading '-'; change the pattern or make the column a String");
  auto ok = Apply(R"({"columns": [{"name": "code", "role": "identifier"}]})");
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->columns[2].id_pattern, "####");
  EXPECT_EQ(Error(R"({"columns": [{"name": "code", "role": "identifier", "id_pattern": "-#\\9#"}]})"),
            "(accepted)");
}

TEST_F(RolesTest, ANonUniqueIdentifierIsWarnedAboutWithItsRepeats) {
  auto schema = Apply(R"({"columns": [{"name": "code", "role": "identifier"}]})");
  ASSERT_TRUE(schema.has_value());
  const ColumnReview review = ReviewColumn(schema->columns[2], table_.columns[2]);
  ASSERT_EQ(review.warnings.size(), 1u);
  EXPECT_EQ(review.warnings[0],
            "role identifier, but its values are not unique: 120 of 200 values repeat an earlier "
            "one (80 distinct). The release writes a fresh unique value per row, so rows that "
            "share a value here will not share one there; if the column is not an identifier, "
            "give it role attribute.");
  const std::vector<std::string> warnings = SchemaWarnings(*schema, table_);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].substr(0, 42), "column 'code': role identifier, but its va");
  // The inferred identifier is unique: no warning.
  EXPECT_TRUE(ReviewColumn(base_.columns[3], table_.columns[3]).warnings.empty());
}

TEST_F(RolesTest, ValuesOutsideADeclaredListAreWarnedAbout) {
  auto schema = Apply(R"({"columns": [{"name": "label", "public": {"categories": ["no", "yes"]}}]})");
  ASSERT_TRUE(schema.has_value());
  EXPECT_EQ(ReviewColumn(schema->columns[0], table_.columns[0]).warnings,
            (std::vector<std::string>{
                "1 value outside the declared list (1 cell): 'rare' (1); read as missing."}));
}

TEST(FormatCountTest, ThousandsSeparators) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(1234567), "1,234,567");
}

}  // namespace
}  // namespace deniable
