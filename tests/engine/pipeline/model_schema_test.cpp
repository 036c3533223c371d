// SPDX-License-Identifier: Apache-2.0
// ModelSchemaFor (synthesis_job.h): which modes model a geo pair as one attribute, and that an
// invalid pair declaration is refused in every mode.
#include <gtest/gtest.h>

#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/geo_pairs.h"

namespace deniable {
namespace {

ColumnSchema Float(const std::string& name) {
  ColumnSchema column;
  column.name = name;
  column.type = DataType::kFloat;
  return column;
}

Schema StopsSchema() {
  Schema schema;
  schema.columns = {Float("lat"), Float("long"), Float("speed")};
  schema.columns[0].geo_longitude = "long";
  return schema;
}

TEST(ModelSchemaForTest, CorrelatedAndMarginalsModelAPairAsItsTwoColumns) {
  const Schema schema = StopsSchema();
  ASSERT_EQ(GeoPairs(schema).size(), 1u);
  for (SynthesisMode mode : {SynthesisMode::kCorrelated, SynthesisMode::kMarginals}) {
    EXPECT_FALSE(ModelsGeoPairsJointly(mode));
    auto modelled = ModelSchemaFor(schema, mode);
    ASSERT_TRUE(modelled.has_value()) << modelled.error().message;
    EXPECT_TRUE(GeoPairs(*modelled).empty());
    ASSERT_EQ(modelled->columns.size(), 3u);
    EXPECT_EQ(modelled->columns[0].geo_longitude, "");
    EXPECT_EQ(modelled->columns[0].name, "lat");
    EXPECT_EQ(modelled->columns[1].type, DataType::kFloat);
  }
  for (SynthesisMode mode :
       {SynthesisMode::kIndependent, SynthesisMode::kRandom, SynthesisMode::kDeniable}) {
    EXPECT_TRUE(ModelsGeoPairsJointly(mode));
    auto modelled = ModelSchemaFor(schema, mode);
    ASSERT_TRUE(modelled.has_value()) << modelled.error().message;
    ASSERT_EQ(GeoPairs(*modelled).size(), 1u);
    EXPECT_EQ(modelled->columns[0].geo_longitude, "long");
  }
}

TEST(ModelSchemaForTest, AnInvalidPairIsRefusedInEveryMode) {
  Schema schema = StopsSchema();
  schema.columns[0].geo_longitude = "heading";  // no such column
  const std::string problem = GeoPairProblem(schema, 0);
  ASSERT_FALSE(problem.empty());
  for (SynthesisMode mode : {SynthesisMode::kCorrelated, SynthesisMode::kMarginals,
                             SynthesisMode::kIndependent, SynthesisMode::kDeniable}) {
    auto modelled = ModelSchemaFor(schema, mode);
    ASSERT_FALSE(modelled.has_value());
    EXPECT_EQ(modelled.error().code, ErrorCode::kFailedPrecondition);
    EXPECT_EQ(modelled.error().message, problem);
  }
}

}  // namespace
}  // namespace deniable
