// SPDX-License-Identifier: Apache-2.0
// The measure on every shared dataset: identifiers and datetimes handled, a table compared with
// itself scores exactly 0, and a random half of the rows (which keeps the dependence between
// columns) always scores better than a sample of the same size from the perfect independent
// model (which loses it).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "engine/core/random.h"
#include "engine/metrics/marginals.h"
#include "tests/engine/metrics/metrics_e2e_support.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::IndependentSample;
using test_support::LoadWithSchema;
using test_support::RandomHalf;

MetricReport Compare(const RawTable& real, const RawTable& synthetic, const Schema& schema) {
  NullProgress progress;
  auto report = CompareTables(real, synthetic, schema, CompareOptions{}, progress);
  EXPECT_TRUE(report.has_value()) << report.error().message;
  return report ? *report : MetricReport{};
}

class SharedDatasetE2eTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedDatasetE2eTest, SelfIsZeroAndHalfBeatsIndependent) {
  DENIABLE_REQUIRE_SHARED_FILE(path, GetParam());
  const test_support::LoadedTable real = LoadWithSchema(path);
  ASSERT_GT(real.table.num_rows(), 0u);

  const MetricReport self = Compare(real.table, real.table, real.schema);
  ASSERT_TRUE(self.mean_pair_tvd.has_value());
  EXPECT_EQ(*self.mean_pair_tvd, 0.0);
  EXPECT_EQ(self.mean_column_tvd, 0.0);
  EXPECT_EQ(self.nmi_real, self.nmi_synthetic);

  SeededRng rng(99);
  const RawTable half = RandomHalf(real.table, rng);
  const RawTable independent = IndependentSample(real.table, half.num_rows(), rng);
  const MetricReport half_report = Compare(real.table, half, real.schema);
  const MetricReport independent_report = Compare(real.table, independent, real.schema);
  std::printf("%s: random half %.4f, independent model %.4f\n", GetParam(),
              *half_report.mean_pair_tvd, *independent_report.mean_pair_tvd);
  EXPECT_LT(*half_report.mean_pair_tvd, *independent_report.mean_pair_tvd);
}

INSTANTIATE_TEST_SUITE_P(AllShared, SharedDatasetE2eTest,
                         ::testing::Values("adult.csv", "mplsstops.csv", "fertility.csv",
                                           "flchain.csv", "penguins.csv"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           return name.substr(0, name.find('.'));
                         });

TEST(MplsStopsE2eTest, IdentifierExcludedAndDatesBinnedInTheirFormat) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const test_support::LoadedTable real = LoadWithSchema(path);
  SeededRng rng(5);
  const MetricReport report = Compare(real.table, RandomHalf(real.table, rng), real.schema);
  ASSERT_EQ(report.excluded.size(), 1u);
  EXPECT_EQ(report.excluded[0].name, "idNum");
  EXPECT_EQ(report.excluded[0].reason, "role identifier");
  ASSERT_EQ(report.columns.size(), 13u);
  const ColumnComparison& date = report.columns[0];
  ASSERT_EQ(date.name, "date");
  EXPECT_EQ(date.kind, ComparisonKind::kBinned);
  // The first and last stops of 2017 are the range; edges are written as the column's dates.
  EXPECT_EQ(date.histogram.labels.front(), "[2017-01-01 00:00:42, 2017-01-19 06:00:17)");
  EXPECT_EQ(date.histogram.labels.back(), "[2017-12-13 17:52:59, 2017-12-31 23:52:35]");
}

}  // namespace
}  // namespace deniable
