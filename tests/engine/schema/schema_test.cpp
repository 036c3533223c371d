// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/schema.h"

#include <gtest/gtest.h>

namespace deniable {
namespace {

TEST(SchemaNamesTest, DataTypesRoundTripAndIgnoreCase) {
  for (DataType type : {DataType::kInteger, DataType::kFloat, DataType::kDateTime,
                        DataType::kString}) {
    EXPECT_EQ(ParseDataType(DataTypeName(type)), type);
  }
  EXPECT_STREQ(DataTypeName(DataType::kDateTime), "DateTime");
  EXPECT_EQ(ParseDataType("integer"), DataType::kInteger);
  EXPECT_EQ(ParseDataType("DATETIME"), DataType::kDateTime);
  EXPECT_FALSE(ParseDataType("Int"));
  EXPECT_FALSE(ParseDataType(""));
  EXPECT_FALSE(ParseDataType("Integer "));
}

TEST(SchemaNamesTest, RolesRoundTripAndIgnoreCase) {
  for (ColumnRole role : {ColumnRole::kAttribute, ColumnRole::kIdentifier,
                          ColumnRole::kQuasiIdentifier, ColumnRole::kSensitive,
                          ColumnRole::kIgnore}) {
    EXPECT_EQ(ParseColumnRole(ColumnRoleName(role)), role);
  }
  EXPECT_STREQ(ColumnRoleName(ColumnRole::kQuasiIdentifier), "quasi-identifier");
  EXPECT_EQ(ParseColumnRole("Sensitive"), ColumnRole::kSensitive);
  EXPECT_EQ(ParseColumnRole("quasi_identifier"), ColumnRole::kQuasiIdentifier);
  EXPECT_FALSE(ParseColumnRole("key"));
}

TEST(SchemaTest, ColumnHelpers) {
  Schema schema;
  schema.columns.resize(2);
  schema.columns[0].name = "a";
  schema.columns[1].name = "b";
  schema.columns[1].type = DataType::kDateTime;
  schema.columns[1].role = ColumnRole::kIgnore;
  EXPECT_EQ(schema.ColumnIndex("b"), 1);
  EXPECT_EQ(schema.ColumnIndex("c"), -1);
  EXPECT_FALSE(schema.columns[0].is_numeric());
  EXPECT_TRUE(schema.columns[0].is_modelled());
  EXPECT_TRUE(schema.columns[1].is_numeric());
  EXPECT_FALSE(schema.columns[1].is_modelled());
  ColumnStats stats;
  EXPECT_EQ(stats.missing_rate(), 0.0);
  stats.rows = 8;
  stats.missing = 2;
  EXPECT_EQ(stats.missing_rate(), 0.25);
}

}  // namespace
}  // namespace deniable
