// SPDX-License-Identifier: Apache-2.0
// The product requirement for categorical domains, measured with the owner's forecast on real
// data: on a wide table (5,000 rows × 30 categorical columns) every category holding >= 5% of
// the rows must survive the DP set union. The composite table is the lead's generator
// (widetable.py) redone here: the first 5,000 rows of the columns with at most 60 distinct
// values (90 for mplsstops) of adult.csv, mplsstops.csv, flchain.csv and fertility.csv, side by
// side, first 30 columns; every cell text is a value (no missing tokens, as Python's csv
// reader sees it). Also adult.csv alone (48,842 rows, its 10 columns with <= 60 values).
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/dp/set_union.h"
#include "engine/io/csv_reader.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

// Appends the columns of `path` with at most `max_distinct` distinct texts in its first `rows`
// rows (0: all rows) to `input`, until it has `max_groups` groups.
void AppendCategoricalColumns(const std::string& path, std::size_t rows, std::size_t max_distinct,
                              std::size_t max_groups, SetUnionInput& input) {
  CsvReadOptions options;
  options.missing_tokens.clear();
  options.max_rows = rows;
  NullProgress progress;
  auto table = ReadCsv(path, options, progress);
  ASSERT_TRUE(table.has_value()) << table.error().message;
  for (const RawColumn& column : table->columns) {
    if (input.values.size() == max_groups) return;
    if (column.distinct() > max_distinct) continue;
    if (input.values.empty()) input.records = column.num_rows();
    ASSERT_EQ(column.num_rows(), input.records) << path;
    std::vector<std::uint32_t> values(column.codes);
    const auto missing = static_cast<std::uint32_t>(column.distinct());  // none without tokens
    for (std::uint32_t& v : values) v = v == kMissingCode ? missing : v;
    input.values.push_back(std::move(values));
    input.value_counts.push_back(missing + 1);
  }
}

// Categories holding >= 5% of the rows that are kept with probability < 0.99.
int LostFrequentCategories(const SetUnionInput& input, double epsilon,
                           SetUnionMechanism mechanism) {
  SetUnionOptions options;
  options.epsilon = epsilon;
  options.delta = 1e-9;
  options.mechanism = mechanism;
  auto forecast = ForecastSetUnion(input, options);
  EXPECT_TRUE(forecast.has_value()) << forecast.error().message;
  if (!forecast) return -1;
  int lost = 0;
  for (std::size_t g = 0; g < input.values.size(); ++g) {
    for (std::size_t v = 0; v < forecast->counts[g].size(); ++v) {
      const bool frequent =
          static_cast<double>(forecast->counts[g][v]) >= 0.05 * static_cast<double>(input.records);
      if (frequent && forecast->keep_probability[g][v] < 0.99) ++lost;
    }
  }
  return lost;
}

int FrequentCategories(const SetUnionInput& input) {
  int frequent = 0;
  for (std::size_t g = 0; g < input.values.size(); ++g) {
    std::vector<std::uint64_t> counts(input.value_counts[g], 0);
    for (std::uint32_t v : input.values[g]) ++counts[v];
    for (std::uint64_t c : counts) {
      frequent += static_cast<double>(c) >= 0.05 * static_cast<double>(input.records) ? 1 : 0;
    }
  }
  return frequent;
}

const double kEpsilons[] = {0.3, 0.5, 0.7, 1.0};

// Rows: ε; columns: lost frequent categories under Policy Laplace and Policy Gaussian.
std::vector<std::pair<int, int>> LostTable(const SetUnionInput& input, const std::string& title) {
  std::vector<std::pair<int, int>> lost;
  std::ostringstream text;
  text << title << ": " << input.records << " rows x " << input.values.size() << " columns, "
       << FrequentCategories(input) << " categories with >= 5% of rows\n"
       << "  union ε   lost (keep prob < 0.99): Policy Laplace   Policy Gaussian\n";
  for (double epsilon : kEpsilons) {
    lost.emplace_back(LostFrequentCategories(input, epsilon, SetUnionMechanism::kPolicyLaplace),
                      LostFrequentCategories(input, epsilon, SetUnionMechanism::kPolicyGaussian));
    text << "  " << epsilon << "                                   " << lost.back().first
         << "                 " << lost.back().second << "\n";
  }
  std::cout << text.str();
  return lost;
}

TEST(SetUnionE2eTest, WideTableKeepsEveryFivePercentCategoryUnderPolicyGaussian) {
  DENIABLE_REQUIRE_SHARED_FILE(adult, "adult.csv");
  DENIABLE_REQUIRE_SHARED_FILE(mplsstops, "mplsstops.csv");
  DENIABLE_REQUIRE_SHARED_FILE(flchain, "flchain.csv");
  DENIABLE_REQUIRE_SHARED_FILE(fertility, "fertility.csv");
  SetUnionInput input;
  AppendCategoricalColumns(adult, 5000, 60, 30, input);
  AppendCategoricalColumns(mplsstops, 5000, 90, 30, input);
  AppendCategoricalColumns(flchain, 5000, 60, 30, input);
  AppendCategoricalColumns(fertility, 5000, 60, 30, input);
  ASSERT_EQ(input.records, 5000u);
  ASSERT_EQ(input.values.size(), 30u);
  const auto lost = LostTable(input, "wide table");
  EXPECT_EQ(lost[2].second, 0) << "Policy Gaussian at union ε = 0.7";
  EXPECT_EQ(lost[3].second, 0) << "Policy Gaussian at union ε = 1.0";
  for (std::size_t i = 0; i < lost.size(); ++i) {
    EXPECT_LE(lost[i].second, lost[i].first) << "ε = " << kEpsilons[i];
  }
  EXPECT_GT(lost[2].first, 10) << "Policy Laplace at union ε = 0.7";
}

TEST(SetUnionE2eTest, AdultKeepsEveryFivePercentCategory) {
  DENIABLE_REQUIRE_SHARED_FILE(adult, "adult.csv");
  SetUnionInput input;
  AppendCategoricalColumns(adult, 0, 60, 30, input);
  ASSERT_EQ(input.records, 48842u);
  const auto lost = LostTable(input, "adult.csv");
  for (std::size_t i = 0; i < lost.size(); ++i) {
    EXPECT_EQ(lost[i].second, 0) << "Policy Gaussian at union ε = " << kEpsilons[i];
  }
}

}  // namespace
}  // namespace deniable
