// SPDX-License-Identifier: Apache-2.0
// Importing the two description files DataSynthesizer itself wrote for adult.csv
// (../shared/data/fixtures) and generating from them.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/atomic_file.h"
#include "engine/model/datasynthesizer_import.h"
#include "engine/model/description.h"
#include "engine/model/encoding.h"
#include "engine/model/sampler.h"
#include "engine/schema/schema_json.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

int AttributeIndex(const Description& d, const std::string& name) {
  for (std::size_t i = 0; i < d.domains.size(); ++i) {
    if (d.domains[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<double> Frequencies(const std::vector<Code>& codes, std::uint32_t cardinality) {
  std::vector<double> f(cardinality, 0);
  for (Code c : codes) f[c] += 1;
  for (double& x : f) x /= static_cast<double>(codes.size());
  return f;
}

TEST(DataSynthesizerImportTest, CorrelatedDescriptionBecomesANetwork) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fixtures/datasynthesizer-description-adult-correlated-k2.json");
  auto description = ReadDescription(path);
  ASSERT_TRUE(description.has_value()) << description.error().message;
  const Description& d = description.value();
  EXPECT_EQ(d.mode, "correlated");
  EXPECT_EQ(d.source_format, "datasynthesizer");
  EXPECT_EQ(d.schema.columns.size(), 15u);
  ASSERT_EQ(d.domains.size(), 15u);  // 14 in DataSynthesizer's network + native-country
  ASSERT_EQ(d.network.nodes.size(), 15u);
  // The root is the first parent of the first pair: income.
  EXPECT_EQ(d.domains[d.network.nodes[0].attribute].name, "income");
  // workclass | (occupation, age): 15 x 20 configurations (occupation has a missing index).
  const int workclass = AttributeIndex(d, "workclass");
  const BayesNode* node = nullptr;
  for (const BayesNode& n : d.network.nodes) {
    if (n.attribute == workclass) node = &n;
  }
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->parents.size(), 2u);
  EXPECT_EQ(d.domains[node->parents[0]].name, "occupation");
  EXPECT_EQ(d.domains[node->parents[1]].name, "age");
  EXPECT_EQ(node->configurations(), 300u);
  EXPECT_EQ(node->cardinality, 9u);  // 8 categories + missing
  // native-country was not modelled by DataSynthesizer: random strings, with a warning.
  const ColumnDomain& country = d.domains[AttributeIndex(d, "native-country")];
  EXPECT_TRUE(country.random_strings);
  EXPECT_GE(d.warnings.size(), 2u);

  // Generating: the root's marginal must match its table (0.7607 / 0.2393); with 20,000 rows
  // a frequency's standard deviation is <= 0.0036, so 0.02 is over 5 sigma.
  SeededRng rng(8);
  NullProgress progress;
  auto rows = SampleNetwork(d.network, d.cardinalities(), 20000, rng, progress);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  const int income = AttributeIndex(d, "income");
  const auto f = Frequencies(rows->columns[income], d.domains[income].cardinality());
  EXPECT_NEAR(f[0], d.network.nodes[0].probabilities[0], 0.02);
  // Decoding works end to end, including the random strings.
  auto decoded = DecodeToRawTable(rows.value(), d.schema, d.domains, rng, progress);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  EXPECT_EQ(decoded->num_rows(), 20000u);
  EXPECT_EQ(decoded->num_columns(), 15u);
}

TEST(DataSynthesizerImportTest, IndependentDescriptionKeepsMarginalsAndMissingRates) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fixtures/datasynthesizer-description-adult-independent.json");
  auto description = ReadDescription(path);
  ASSERT_TRUE(description.has_value()) << description.error().message;
  const Description& d = description.value();
  EXPECT_EQ(d.mode, "independent");
  ASSERT_EQ(d.network.nodes.size(), 15u);
  for (const BayesNode& node : d.network.nodes) EXPECT_TRUE(node.parents.empty());
  SeededRng rng(9);
  NullProgress progress;
  auto rows = SampleNetwork(d.network, d.cardinalities(), 50000, rng, progress);
  ASSERT_TRUE(rows.has_value());
  const int workclass = AttributeIndex(d, "workclass");
  const ColumnDomain& domain = d.domains[workclass];
  ASSERT_TRUE(domain.has_missing);
  const auto f = Frequencies(rows->columns[workclass], domain.cardinality());
  // missing_rate 0.0573 in the file; sd of a frequency at n = 50,000 is 0.001: 5 sigma = 0.005.
  EXPECT_NEAR(f[domain.missing_code()], 0.05730723557593874, 0.005);
}

// Found by the fuzz smoke in CI (tests/fuzz/corpus/datasynthesizer/regression-stoul-bin-index):
// a conditional table's key with a bin index beyond size_t made std::stoul throw out of the
// importer. It is now a parse error naming the key.
TEST(DataSynthesizerImportTest, AHugeParentBinIndexIsAParseError) {
  auto text = ReadFileToString(
      test_support::SourcePath("tests/fuzz/corpus/datasynthesizer/regression-stoul-bin-index"));
  ASSERT_TRUE(text.has_value());
  auto json = ParseJsonText(*text, "regression.json");
  ASSERT_TRUE(json.has_value()) << json.error().message;
  const auto imported = ImportDataSynthesizerDescription(*json, "regression.json");
  ASSERT_FALSE(imported.has_value());
  EXPECT_EQ(imported.error().code, ErrorCode::kParse);
  EXPECT_NE(imported.error().message.find("out of range"), std::string::npos)
      << imported.error().message;
}

}  // namespace
}  // namespace deniable
