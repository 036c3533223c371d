// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domains.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/random.h"
#include "engine/model/encoding.h"
#include "engine/schema/datetime.h"
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

DomainOptions UnionOnly(double epsilon, double delta) {
  DomainOptions options;
  options.budget.union_epsilon = epsilon;
  options.budget.union_columns = 1;
  options.delta = delta;
  return options;
}

DomainOptions HistogramOnly(double epsilon_each) {
  DomainOptions options;
  options.budget.histogram_epsilon = epsilon_each;
  options.budget.histogram_columns = 1;
  options.delta = 1e-6;
  return options;
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
  const DomainOptions options = UnionOnly(1.0, 1e-6);
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
  const DomainOptions options = UnionOnly(1.0, 1e-6);
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
  const DomainOptions options = UnionOnly(0.5, 1e-6);
  SeededRng rng(13);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_EQ(d.categories, (std::vector<std::string>{"low", "medium", "high"}));
  EXPECT_FALSE(d.has_other);
  EXPECT_EQ(d.categories_source, DomainSource::kPublic);
}

// The marginals mode (MissingMarkers::kModel): the set union learns only the values of the
// columns without a public list, none of the missing markers, and every categorical column keeps
// a missing code for the model's 1-way marginal to keep or drop (marginals/measure.h).
TEST(DomainsTest, WhenTheModelDecidesMissingMarkersOnlyUnknownValuesEnterTheUnion) {
  std::vector<std::optional<std::string>> color, level;
  for (int i = 0; i < 2000; ++i) {
    color.push_back(i % 2 ? "red" : "blue");
    level.push_back(i % 3 ? std::optional<std::string>("low") : std::nullopt);
  }
  Schema schema;
  schema.columns = {StringColumn("color"), StringColumn("level")};
  schema.columns[1].public_categories = std::vector<std::string>{"low", "high"};
  const RawTable table = MakeTable({MakeColumn("color", color), MakeColumn("level", level)});
  for (const MissingMarkers markers : {MissingMarkers::kSetUnion, MissingMarkers::kModel}) {
    PrivacyAccountant accountant = Budget(1.0, 1e-6);
    DomainOptions options = UnionOnly(1.0, 1e-6);
    options.missing_markers = markers;
    SeededRng rng(21);
    NullProgress progress;
    auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
    ASSERT_TRUE(domains.has_value()) << domains.error().message;
    const ColumnDomain& c = (*domains)[0];
    const ColumnDomain& l = (*domains)[1];
    EXPECT_EQ(c.categories, (std::vector<std::string>{"blue", "red"}));
    ASSERT_EQ(accountant.entries().size(), 1u);
    if (markers == MissingMarkers::kModel) {
      // No missing cell in color, yet a missing code: the model's noisy count drops it.
      EXPECT_TRUE(c.has_missing);
      EXPECT_TRUE(l.has_missing);
      EXPECT_EQ(accountant.entries()[0].label, "categories of the columns without a public list");
      EXPECT_NE(l.provenance.find("the model's noisy 1-way marginal"), std::string::npos);
    } else {
      EXPECT_FALSE(c.has_missing);  // the union found none
      EXPECT_TRUE(l.has_missing);   // 667 missing cells: found
      EXPECT_EQ(accountant.entries()[0].label, "categories and missing markers of all columns");
      EXPECT_NE(l.provenance.find("DP set union"), std::string::npos);
    }
  }
}

// The budget rule counts the union's groups: every non-histogram column when the union decides
// the missing markers, only the columns whose values it learns when the model does.
TEST(DomainsTest, TheUnionShareCountsOnlyItsOwnColumnsWhenTheModelDecidesMissingMarkers) {
  Schema schema;
  schema.columns.push_back(StringColumn("unknown"));
  for (int i = 0; i < 9; ++i) {
    schema.columns.push_back(StringColumn("public" + std::to_string(i)));
    schema.columns.back().public_categories = std::vector<std::string>{"a", "b"};
  }
  // 10,000 rows: kept rows max(150, min(300, 500)) = 300; share 30.6·√groups / 300 / ε.
  const DomainBudget by_union = PlanDomainBudget(schema, 1.0, 10000, std::nullopt);
  const DomainBudget by_model =
      PlanDomainBudget(schema, 1.0, 10000, std::nullopt, MissingMarkers::kModel);
  EXPECT_EQ(by_union.union_columns, 1);
  EXPECT_EQ(by_model.union_columns, 1);
  EXPECT_NEAR(by_union.union_epsilon, kUnionConstant * std::sqrt(10.0) / 300, 1e-9);
  EXPECT_NEAR(by_model.union_epsilon, kMinUnionShare, 1e-9);  // 0.102 clamped up to 0.12
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
  DomainOptions options;  // no budget: a declared-public domain costs nothing
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
  EXPECT_TRUE(d.has_missing);  // no budget to decide it: always present
  EXPECT_EQ(d.categories_source, DomainSource::kPublic);
  EXPECT_EQ(accountant.Total().epsilon, 0);
}

TEST(DomainsTest, AdaptiveHistogramFindsTheRangeTheSpikeAndNoOtherCode) {
  // 20,000 values: a spike at 40 (half of them) and a uniform 20..80 for the rest.
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 20000; ++i) cells.push_back(std::to_string(i % 2 ? 40 : 20 + i % 61));
  Schema schema;
  schema.columns = {IntegerColumn("hours")};
  const RawTable table = MakeTable({MakeColumn("hours", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  const DomainOptions options = HistogramOnly(0.5);
  SeededRng rng(15);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_EQ(d.categories_source, DomainSource::kDp);
  EXPECT_FALSE(d.categorical);
  EXPECT_EQ(d.step, 1);
  // The range: the magnitude buckets [16, 32), [32, 64), [64, 128) hold the data; the empty
  // leaves at either end (16..19, 82..127: noise only) are trimmed, so the range is the data's
  // 20..80 to within a leaf (seeded).
  EXPECT_EQ(d.lo, 20);
  EXPECT_EQ(d.hi, 81);
  // The spike is a bin of its own, holding exactly 40.
  const std::uint32_t spike = d.BinOf(40);
  EXPECT_EQ(d.FirstPointOf(spike), 40);
  EXPECT_EQ(d.LastPointOf(spike), 40);
  EXPECT_FALSE(d.has_missing);
  EXPECT_LE(d.bins, 2 * options.default_bins);
  // Spent: the adaptive stage 2·(0.25/2) and the counts 0.25, as documented.
  EXPECT_NEAR(accountant.Total().epsilon, 0.5, 1e-12);
}

TEST(DomainsTest, NumericColumnsWithoutBudgetOrPublicBoundsAskForThem) {
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 40; ++i) cells.push_back(std::to_string(i % 7));
  Schema schema;
  schema.columns = {IntegerColumn("visits")};
  const RawTable table = MakeTable({MakeColumn("visits", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  DomainOptions options;  // no domain budget
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
  auto with_bounds = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_TRUE(with_bounds.has_value()) << with_bounds.error().message;
}

// A categorical Integer column (codes 1..5 and a rare 9) takes part in the set union: its
// frequent values are kept, there is no "Other", and the rare value is encoded as the nearest
// kept one — every decoded value is one of the column's integers.
TEST(DomainsTest, CategoricalIntegersKeepTheirValuesAndNeverOther) {
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 10000; ++i) cells.push_back(std::to_string(1 + i % 5));
  Repeat(cells, "9", 3);
  Schema schema;
  schema.columns = {IntegerColumn("code")};
  schema.columns[0].categorical = true;
  const RawTable table = MakeTable({MakeColumn("code", cells)});
  PrivacyAccountant accountant = Budget(1.0, 1e-6);
  SeededRng rng(19);
  NullProgress progress;
  auto domains = BuildDomains(table, schema, UnionOnly(0.5, 1e-6), accountant, rng, progress);
  ASSERT_TRUE(domains.has_value()) << domains.error().message;
  const ColumnDomain& d = (*domains)[0];
  EXPECT_TRUE(d.categorical);
  EXPECT_FALSE(d.has_other);
  EXPECT_EQ(d.unknown, UnknownValues::kNearestValue);
  EXPECT_EQ(d.categories, (std::vector<std::string>{"1", "2", "3", "4", "5"}));  // numeric order
  auto encoded = Encode(table, schema, domains.value(), progress);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->columns[0].back(), 4);  // 9 -> 5, the nearest kept value
}

TEST(DomainsTest, LatticeStepsFollowTypesAndFormats) {
  ColumnSchema c;
  c.type = DataType::kInteger;
  EXPECT_EQ(LatticeStepOf(c), 1);
  c.type = DataType::kFloat;
  c.decimals = 2;
  EXPECT_DOUBLE_EQ(LatticeStepOf(c), 0.01);
  c.decimals = -1;
  EXPECT_EQ(LatticeStepOf(c), 0);
  c.type = DataType::kDateTime;
  c.datetime_format = "%Y-%m-%d";
  EXPECT_EQ(LatticeStepOf(c), 86400);
  c.datetime_format = "%Y-%m-%d %H:%M";
  EXPECT_EQ(LatticeStepOf(c), 60);
  c.datetime_format = "%Y-%m-%d %H:%M:%S";
  EXPECT_EQ(LatticeStepOf(c), 1);
  c.datetime_format = "%Y-%m-%dT%H:%M:%3f";
  EXPECT_EQ(LatticeStepOf(c), 1);
}

TEST(DomainsTest, TwoDigitYearDatesStayInsideTheirCenturyWindow) {
  // %y with the window 1930-2029: dates at both ends of the window. A leaf beyond it would
  // write a year that reads back a century off (2031 -> "31" -> 1931).
  ColumnSchema column;
  column.name = "born";
  column.type = DataType::kDateTime;
  column.categorical = false;
  column.datetime_format = "%d/%m/%y";
  column.two_digit_year_start = 1930;
  // Public bounds wider than the window (1900-2099): the window still wins.
  column.public_min = -2208988800.0;  // 1900-01-01
  column.public_max = 4102444799.0;   // 2099-12-31 23:59:59
  std::vector<std::optional<std::string>> cells;
  for (int i = 0; i < 6000; ++i) {
    const int year = i % 2 ? 30 + i % 4 : 26 + i % 4;  // 1930..1933 and 2026..2029
    cells.push_back(std::to_string(1 + i % 28) + "/" + std::to_string(1 + i % 12) + "/" +
                    (year < 10 ? "0" : "") + std::to_string(year));
  }
  Schema schema;
  schema.columns = {column};
  const RawTable table = MakeTable({MakeColumn("born", cells)});
  const auto window = DateTimeFormatRange(column.datetime_format, column.two_digit_year_start);
  ASSERT_TRUE(window.has_value());
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    PrivacyAccountant accountant = Budget(1.0, 1e-6);
    SeededRng rng(seed);
    NullProgress progress;
    auto domains = BuildDomains(table, schema, HistogramOnly(0.5), accountant, rng, progress);
    ASSERT_TRUE(domains.has_value()) << domains.error().message;
    const ColumnDomain& d = (*domains)[0];
    EXPECT_GE(d.lo, window->lo) << "seed " << seed << " lo " << d.lo << " hi " << d.hi;
    EXPECT_LT(d.hi, window->hi) << "seed " << seed;
  }
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
  const DomainOptions options = UnionOnly(0.5, 1e-6);
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
  DomainOptions options = UnionOnly(-1, 1e-6);
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(domains.error().message.find("budget"), std::string::npos);
  options = UnionOnly(0.1, 1e-6);
  options.default_bins = 0;
  domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_NE(domains.error().message.find("bins"), std::string::npos);
  // A categorical column without a public list needs a union budget.
  const DomainOptions none;
  domains = BuildDomains(table, schema, none, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(domains.error().message.find("column 'c'"), std::string::npos);
}

TEST(DomainsTest, RefusesToOverspendTheAccountant) {
  Schema schema;
  schema.columns = {StringColumn("c")};
  const RawTable table = MakeTable({MakeColumn("c", {std::string("a")})});
  PrivacyAccountant accountant = Budget(0.05, 1e-6);
  SeededRng rng(18);
  NullProgress progress;
  const DomainOptions options = UnionOnly(0.1, 1e-7);  // more than the budget
  auto domains = BuildDomains(table, schema, options, accountant, rng, progress);
  ASSERT_FALSE(domains.has_value());
  EXPECT_EQ(domains.error().code, ErrorCode::kBudgetExhausted);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// The owner's forecast: the union's columns say below how many rows values merge, numeric
// columns how fine their bins get, public ones that they cost nothing; nothing is spent.
TEST(DomainForecastTest, SaysWhatEachColumnKeepsWithoutSpending) {
  std::vector<std::optional<std::string>> colors, sizes, levels;
  for (int i = 0; i < 6000; ++i) {
    colors.push_back(i % 1000 < 600 ? "red" : i % 1000 < 998 ? "blue" : "green");  // green: 12
    sizes.push_back(std::to_string(i % 97));
    levels.push_back(i % 2 ? "low" : "high");
  }
  Schema schema;
  schema.columns = {StringColumn("color"), IntegerColumn("size"), StringColumn("level")};
  schema.columns[2].public_categories = std::vector<std::string>{"low", "high"};
  const RawTable table = MakeTable(
      {MakeColumn("color", colors), MakeColumn("size", sizes), MakeColumn("level", levels)});
  // A cancel (the GUI's, when the owner edits on) stops it with kCancelled.
  struct Cancelled final : Progress {
    void Report(double, std::string_view) override {}
    bool IsCancelled() const override { return true; }
  } cancelled;
  auto stopped = ForecastDomains(table, schema, 1.0, 1e-9, std::nullopt, &cancelled);
  ASSERT_FALSE(stopped.has_value());
  EXPECT_EQ(stopped.error().code, ErrorCode::kCancelled);
  auto forecast = ForecastDomains(table, schema, 1.0, 1e-9, std::nullopt);
  ASSERT_TRUE(forecast.has_value()) << forecast.error().message;
  ASSERT_EQ(forecast->columns.size(), 3u);
  const ColumnForecast& color = forecast->columns[0];
  EXPECT_EQ(color.need, DomainNeed::kSetUnion);
  EXPECT_EQ(color.values, 3u);
  EXPECT_EQ(color.likely_kept, 2u);     // red and blue, not the 12-row green
  EXPECT_GT(color.merge_below, 12u);
  EXPECT_LE(color.merge_below, 2388u);  // at most one more than blue's rows would be wrong
  EXPECT_NE(color.summary.find("merge into Other"), std::string::npos);
  const ColumnForecast& size = forecast->columns[1];
  EXPECT_EQ(size.need, DomainNeed::kHistogram);
  EXPECT_GT(size.rows_per_leaf, 0);
  EXPECT_NE(size.summary.find("bins where the data is"), std::string::npos);
  EXPECT_EQ(forecast->columns[2].summary, "declared public: costs no ε");
  // The plan the run would use, from the same rule.
  EXPECT_GT(forecast->budget.union_epsilon, 0);
  EXPECT_GT(forecast->budget.histogram_epsilon, 0);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// A numeric column without public bounds: how many rows a cluster far from the rest needs in
// one power-of-two range to seed the range (numeric_bins.h rule 1, p = 1e-5). The counts' noise
// has scale 1/ε₂, ε₂ ≈ ε/2 of the column's ε. Laplace (a pure-ε mode): the Chernoff bound for one
// Laplace, min over u of e^{-u·t}/(1 − u²) = 1e-5, solved by hand at t = 14.55 scales (u = 0.934).
// The marginals mode: a discrete Gaussian of σ = 1/ε₂ combined with the group's own count
// (σ_g = √2·σ): σ_c = σ/√1.5, and √(2 ln 1e5)·σ_c = 3.918σ.
TEST(DomainForecastTest, SaysHowManyRowsAClusterFarFromTheRestNeeds) {
  std::vector<std::optional<std::string>> losses;
  for (int i = 0; i < 6000; ++i) losses.push_back(i % 20 == 0 ? std::to_string(1500 + i % 400) : "0");
  Schema schema;
  schema.columns = {IntegerColumn("loss")};
  const RawTable table = MakeTable({MakeColumn("loss", losses)});
  for (const MissingMarkers markers : {MissingMarkers::kSetUnion, MissingMarkers::kModel}) {
    auto forecast = ForecastDomains(table, schema, 1.0, 1e-9, std::nullopt, nullptr, markers);
    ASSERT_TRUE(forecast.has_value()) << forecast.error().message;
    const ColumnForecast& loss = forecast->columns[0];
    ASSERT_EQ(loss.need, DomainNeed::kHistogram);
    const double counts_epsilon = loss.epsilon / 2;
    const double scales = markers == MissingMarkers::kModel ? 3.918 : 14.55;
    EXPECT_NEAR(static_cast<double>(loss.cluster_rows), scales / counts_epsilon,
                0.01 * scales / counts_epsilon + 1);
    // The 300 losses in [1024, 2048) are far from the zeros (the magnitudes between them are
    // empty): below 653 in the pure-ε plan, so likely lost; above 176 in the marginals mode's.
    if (markers == MissingMarkers::kModel) {
      EXPECT_LT(loss.cluster_rows, 300);
      EXPECT_TRUE(loss.likely_lost.empty());
    } else {
      EXPECT_GT(loss.cluster_rows, 300);
      ASSERT_EQ(loss.likely_lost.size(), 1u);
      EXPECT_EQ(loss.likely_lost[0].lo, 1024);
      EXPECT_EQ(loss.likely_lost[0].hi, 2047);
      EXPECT_EQ(loss.likely_lost[0].rows, 300u);
    }
    EXPECT_NE(loss.summary.find("need about " + std::to_string(loss.cluster_rows) +
                                " rows within one power-of-two range"),
              std::string::npos)
        << loss.summary;
  }
  // Public bounds: no range to find, no figure.
  schema.columns[0].public_min = 0;
  schema.columns[0].public_max = 4096;
  auto bounded = ForecastDomains(table, schema, 1.0, 1e-9, std::nullopt);
  ASSERT_TRUE(bounded.has_value());
  EXPECT_EQ(bounded->columns[0].cluster_rows, 0);
  EXPECT_TRUE(bounded->columns[0].likely_lost.empty());
  // A date-time's coarse range is calendar decades, not powers of two: no figure, no list.
  std::vector<std::optional<std::string>> days;
  for (int i = 0; i < 6000; ++i) days.push_back(i % 20 == 0 ? "1950-01-01" : "2020-05-17");
  Schema dates;
  dates.columns = {IntegerColumn("day")};
  dates.columns[0].type = DataType::kDateTime;
  dates.columns[0].datetime_format = "%Y-%m-%d";
  auto dated = ForecastDomains(MakeTable({MakeColumn("day", days)}), dates, 1.0, 1e-9, std::nullopt);
  ASSERT_TRUE(dated.has_value()) << dated.error().message;
  ASSERT_EQ(dated->columns[0].need, DomainNeed::kHistogram);
  EXPECT_EQ(dated->columns[0].cluster_rows, 0);
  EXPECT_TRUE(dated->columns[0].likely_lost.empty());
  EXPECT_EQ(dated->columns[0].summary.find("power-of-two"), std::string::npos);
}

}  // namespace
}  // namespace deniable

