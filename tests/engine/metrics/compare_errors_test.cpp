// SPDX-License-Identifier: Apache-2.0
// CompareTables' error paths: every failure names the parameter or column at fault.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/metrics/marginals.h"
#include "tests/engine/metrics/metrics_test_tables.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;
using ::testing::HasSubstr;

RawTable TwoColumns(const char* source) {
  return MakeTable(source, {MakeColumn("age", {"30", "40", "30"}),
                            MakeColumn("city", {"Oslo", "Rome", "Rome"})});
}

Schema TwoColumnSchema() {
  return MakeSchema(
      {MakeColumnSchema("age", DataType::kInteger), MakeColumnSchema("city", DataType::kString)});
}

Error CompareError(const RawTable& real, const RawTable& synthetic, const Schema& schema,
                   const CompareOptions& options = {}) {
  NullProgress progress;
  auto report = CompareTables(real, synthetic, schema, options, progress);
  EXPECT_FALSE(report.has_value());
  return report ? Error{} : report.error();
}

TEST(CompareTablesErrorTest, MissingSyntheticColumnIsNamed) {
  const RawTable synthetic = MakeTable("syn.csv", {MakeColumn("age", {"30"})});
  const Error error = CompareError(TwoColumns("real.csv"), synthetic, TwoColumnSchema());
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("syn.csv has no column 'city'"));
}

TEST(CompareTablesErrorTest, RealColumnWithoutSchemaEntryIsNamed) {
  const Error error = CompareError(TwoColumns("real.csv"), TwoColumns("syn.csv"),
                                   MakeSchema({MakeColumnSchema("age", DataType::kInteger)}));
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("no column 'city'"));
}

TEST(CompareTablesErrorTest, RejectsBadOptionsNamingTheValue) {
  CompareOptions zero_bins;
  zero_bins.bins = 0;
  Error error = CompareError(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), zero_bins);
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("bins must be between 1 and 100000 (got 0)"));

  CompareOptions negative_threshold;
  negative_threshold.max_distinct_for_values = -1;
  error = CompareError(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), negative_threshold);
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("max_distinct_for_values must be at least 0 (got -1)"));

  CompareOptions negative_histogram;
  negative_histogram.max_histogram_categories = -1;
  error = CompareError(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), negative_histogram);
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("max_histogram_categories must be at least 0 (got -1)"));

  CompareOptions negative_threads;
  negative_threads.threads = -2;
  error = CompareError(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), negative_threads);
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(error.message, HasSubstr("threads must be between 0 and 256 (got -2)"));
}

TEST(CompareTablesErrorTest, EmptyTablesAreRefused) {
  const RawTable empty = MakeTable("empty.csv", {MakeColumn("age", {}), MakeColumn("city", {})});
  Error error = CompareError(empty, TwoColumns("syn.csv"), TwoColumnSchema());
  EXPECT_EQ(error.code, ErrorCode::kFailedPrecondition);
  EXPECT_THAT(error.message, HasSubstr("real table empty.csv has no rows"));

  error = CompareError(TwoColumns("real.csv"), empty, TwoColumnSchema());
  EXPECT_EQ(error.code, ErrorCode::kFailedPrecondition);
  EXPECT_THAT(error.message, HasSubstr("synthetic table empty.csv has no rows"));

  error = CompareError(TwoColumns("real.csv"), MakeTable("none.csv", {}), TwoColumnSchema());
  EXPECT_EQ(error.code, ErrorCode::kFailedPrecondition);
  EXPECT_THAT(error.message, HasSubstr("synthetic table none.csv has no columns"));
}

TEST(CompareTablesErrorTest, NothingLeftToCompareIsAnError) {
  const RawTable real = MakeTable("real.csv", {MakeColumn("id", {"a", "b", "c"})});
  const Error error =
      CompareError(real, real, MakeSchema({MakeColumnSchema("id", DataType::kString)}));
  EXPECT_EQ(error.code, ErrorCode::kFailedPrecondition);
  EXPECT_THAT(error.message, HasSubstr("no column to compare: all 1 columns of real table "
                                       "real.csv are excluded"));
}

TEST(CompareTablesErrorTest, RaggedHandBuiltTableIsAnInternalError) {
  RawTable ragged = TwoColumns("ragged");
  ragged.columns[1] = MakeColumn("city", {"Oslo"});
  const Error error = CompareError(ragged, TwoColumns("syn"), TwoColumnSchema());
  EXPECT_EQ(error.code, ErrorCode::kInternal);
  EXPECT_THAT(error.message, HasSubstr("column 'city' has 1 rows, the first column 3"));
}

TEST(CompareTablesErrorTest, StopsWhenCancelled) {
  // One thread: cancelled after the first report (the first column encoded), so the second
  // column is never encoded and no report comes back.
  test_support::FakeProgress progress(/*cancel_after_reports=*/1);
  CompareOptions options;
  options.threads = 1;
  auto report =
      CompareTables(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), options, progress);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(progress.reports(), 1u);
}

TEST(CompareTablesErrorTest, ReportsProgressToTheEnd) {
  // One thread, so every step reports on the calling thread: two columns encoded, one pair,
  // done.
  test_support::FakeProgress progress;
  CompareOptions options;
  options.threads = 1;
  auto report =
      CompareTables(TwoColumns("r"), TwoColumns("s"), TwoColumnSchema(), options, progress);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(progress.reports(), 4u);
  EXPECT_EQ(progress.last_stage(), "Comparison done");
  EXPECT_EQ(progress.last_fraction(), 1.0);
}

}  // namespace
}  // namespace deniable
