// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domains.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/random.h"
#include "tests/support/test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeTable;
using test_support::Repeat;

ColumnSchema StringColumn(const std::string& name) {
  ColumnSchema column;
  column.name = name;
  column.type = DataType::kString;
  column.categorical = true;
  return column;
}

ColumnSchema IntegerColumn(const std::string& name) {
  ColumnSchema column;
  column.name = name;
  column.type = DataType::kInteger;
  column.categorical = false;
  return column;
}

PrivacyAccountant Budget(double epsilon, double delta) {
  return PrivacyAccountant::Create(PrivacyCost{epsilon, delta}).value();
}

TEST(DomainsTest, PartitionSelectionKeepsFrequentValuesSortedAndDropsRareOnes) {
  std::vector<std::optional<std::string>> cells;
  Repeat(cells, "red", 500);
  Repeat(cells, "blue", 300);
  Repeat(cells, "green", 2);  // far below the threshold for ε = 1, δ = 1e-6 (≈ 14)
  Schema schema;
  schema.columns = {StringColumn("color")};
  const RawTable table = MakeTable({MakeColumn("color", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 1.0;
  options.delta = 1e-6;
  SeededRng rng(11);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  ASSERT_EQ(domains->size(), 1u);
  const ColumnDomain& d = (*domains)[0];
  EXPECT_TRUE(d.categorical);
  EXPECT_EQ(d.categories, (std::vector<std::string>{"blue", "red"}));  // byte order, not count
  EXPECT_TRUE(d.has_other);       // always: whether a value was dropped is data-dependent
  EXPECT_FALSE(d.has_missing);    // no missing cells: the noisy count of 0 stays below τ
  EXPECT_EQ(d.categories_source, DomainSource::kDp);
  EXPECT_EQ(d.cardinality(), 3u);
  EXPECT_LE(accountant.Total().epsilon, 1.0 + 1e-12);
  EXPECT_GT(accountant.Total().epsilon, 0.99);
}

TEST(DomainsTest, MissingCodeExistsWhenManyCellsAreMissing) {
  std::vector<std::optional<std::string>> cells;
  Repeat(cells, "a", 400);
  Repeat(cells, std::nullopt, 400);
  Schema schema;
  schema.columns = {StringColumn("x")};
  const RawTable table = MakeTable({MakeColumn("x", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 1.0;
  options.delta = 1e-6;
  SeededRng rng(12);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  EXPECT_TRUE((*domains)[0].has_missing);
  EXPECT_EQ((*domains)[0].missing_code(), 2u);  // "a", other, missing
}

TEST(DomainsTest, PublicCategoriesKeepTheUsersOrderAndNeedNoOtherCode) {
  std::vector<std::optional<std::string>> cells;
  Repeat(cells, "low", 100);
  Repeat(cells, "high", 100);
  Schema schema;
  schema.columns = {StringColumn("level")};
  schema.columns[0].public_categories = std::vector<std::string>{"low", "medium", "high"};
  const RawTable table = MakeTable({MakeColumn("level", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 0.5;
  options.delta = 1e-6;
  SeededRng rng(13);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_EQ(d.categories, (std::vector<std::string>{"low", "medium", "high"}));
  EXPECT_FALSE(d.has_other);
  EXPECT_EQ(d.categories_source, DomainSource::kPublic);
}

TEST(DomainsTest, PublicBoundsAreUsedAsIsWithIntegerBins) {
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 200; ++i) cells.push_back(std::to_string(i % 10));
  Schema schema;
  schema.columns = {IntegerColumn("n")};
  schema.columns[0].public_min = 0;
  schema.columns[0].public_max = 9;
  const RawTable table = MakeTable({MakeColumn("n", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 0.5;
  options.delta = 1e-6;
  options.default_bins = 20;
  SeededRng rng(14);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_FALSE(d.categorical);
  EXPECT_EQ(d.lo, 0);
  EXPECT_EQ(d.hi, 9);
  EXPECT_EQ(d.bins, 10);  // one bin per integer: fewer integers than the default 20 bins
  EXPECT_EQ(d.step, 1);
  EXPECT_EQ(d.categories_source, DomainSource::kPublic);
}

TEST(DomainsTest, DpBoundsLandNearTheDataRange) {
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 20000; ++i) cells.push_back(std::to_string(20 + i % 61));  // 20..80
  Schema schema;
  schema.columns = {IntegerColumn("age")};
  const RawTable table = MakeTable({MakeColumn("age", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 1.0;
  options.delta = 1e-6;
  SeededRng rng(15);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_EQ(d.categories_source, DomainSource::kDp);
  // A uniform 20..80 with 20,000 values (328 per integer): the thresholded histogram keeps the
  // cells holding 20 and 80; its cells are at most 7.75 wide over the coarse range [8, 255].
  EXPECT_LE(d.lo, 20);
  EXPECT_GE(d.lo, 12);
  EXPECT_GE(d.hi, 80);
  EXPECT_LE(d.hi, 88);
  EXPECT_EQ(d.bins, 20);
  EXPECT_EQ(d.lo, std::floor(d.lo));
  EXPECT_EQ(d.hi, std::floor(d.hi));
}

// 40 values at ε = 0.1: no bucket of the magnitude histogram stands out, so the DP range would
// be noise. The run stops and says what to do, naming the column.
TEST(DomainsTest, TooFewValuesForPrivateBoundsAskForPublicOnes) {
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 40; ++i) cells.push_back(std::to_string(i % 7));
  Schema schema;
  schema.columns = {IntegerColumn("visits")};
  const RawTable table = MakeTable({MakeColumn("visits", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.epsilon = 0.1;
  options.delta = 1e-6;
  SeededRng rng(16);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(domains.error().message.find("column 'visits'"), std::string::npos);
  EXPECT_NE(domains.error().message.find("public bounds"), std::string::npos);
  // With public bounds the same column is fine.
  schema.columns[0].public_min = 0;
  schema.columns[0].public_max = 10;
  PrivacyAccountant again = Budget(1.0, 1e-6);
  auto with_bounds = BuildDomains(table, schema, options, again, rng, progress);
  ASSERT_TRUE(with_bounds.has_value()) << with_bounds.error().message;
}

TEST(DomainsTest, IdentifierAndIgnoredColumnsHaveNoDomain) {
  std::vector<std::optional<std::string>> ids, values;
  for (int i = 0; i < 100; ++i) {
    ids.push_back("id" + std::to_string(i));
    values.push_back(i % 2 ? "x" : "y");
  }
  Schema schema;
  schema.columns = {StringColumn("id"), StringColumn("v"), StringColumn("dropped")};
  schema.columns[0].role = ColumnRole::kIdentifier;
  schema.columns[2].role = ColumnRole::kIgnore;
  const RawTable table =
      MakeTable({MakeColumn("id", ids), MakeColumn("v", values), MakeColumn("dropped", values)});
  EXPECT_EQ(ModelledColumns(schema), std::vector<int>{1});
  EXPECT_EQ(ColumnsNeedingDpDomain(schema), 1);
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;
  options.delta = 1e-6;
  SeededRng rng(16);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  ASSERT_EQ(domains->size(), 1u);
  EXPECT_EQ((*domains)[0].name, "v");
}

TEST(DomainsTest, RejectsNonsenseBudgets) {
  Schema schema;
  schema.columns = {StringColumn("c")};
  const RawTable table = MakeTable({MakeColumn("c", {std::string("a")})});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  SeededRng rng(17);
  NullProgress progress;
  DomainOptions options;
  options.epsilon = 0;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(domains.error().message.find("epsilon"), std::string::npos);
  options.epsilon = 0.1;
  options.default_bins = 0;
  domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_NE(domains.error().message.find("bins"), std::string::npos);
}

TEST(DomainsTest, RefusesToOverspendTheAccountant) {
  Schema schema;
  schema.columns = {StringColumn("c")};
  const RawTable table = MakeTable({MakeColumn("c", {std::string("a")})});
  PrivacyAccountant accountant = Budget(0.05, 1e-6);
  SeededRng rng(18);
  NullProgress progress;
  DomainOptions options;
  options.epsilon = 0.1;  // more than the budget
  options.delta = 1e-7;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kBudgetExhausted);
}

}  // namespace
}  // namespace deniable
