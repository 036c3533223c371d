// SPDX-License-Identifier: Apache-2.0
#include "engine/model/encoding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>

#include "engine/io/csv_reader.h"
#include "engine/model/domains.h"
#include "engine/model/id_generator.h"
#include "tests/support/paths.h"
#include "tests/support/test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeTable;

ColumnDomain Categorical(std::vector<std::string> categories, bool other, bool missing) {
  ColumnDomain d;
  d.categorical = true;
  d.categories = std::move(categories);
  d.has_other = other;
  d.has_missing = missing;
  return d;
}

ColumnDomain IntegerBins(double lo, double hi, int bins, bool missing) {
  ColumnDomain d;
  d.type = DataType::kInteger;
  d.categorical = false;
  d.SetEqualWidth(lo, hi, bins, 1);
  d.has_missing = missing;
  return d;
}

TEST(ColumnDomainTest, IntegerBinsCoverEveryIntegerExactlyOnce) {
  const ColumnDomain d = IntegerBins(0, 9, 5, false);  // width 2: {0,1} {2,3} ... {8,9}
  for (int v = 0; v <= 9; ++v) EXPECT_EQ(d.BinOf(v), static_cast<std::uint32_t>(v / 2)) << v;
  EXPECT_EQ(d.BinOf(-5), 0u);   // clamped into the edge bins
  EXPECT_EQ(d.BinOf(100), 4u);
  for (std::uint32_t b = 0; b < 5; ++b) {
    EXPECT_EQ(d.FirstPointOf(b), 2.0 * b);
    EXPECT_EQ(d.LastPointOf(b), 2.0 * b + 1);
  }
  // An uneven split: 17..90 (74 integers) in 20 bins; every integer in exactly one bin.
  const ColumnDomain age = IntegerBins(17, 90, 20, false);
  int covered = 0;
  for (std::uint32_t b = 0; b < 20; ++b) {
    const double first = age.FirstPointOf(b), last = age.LastPointOf(b);
    ASSERT_LE(first, last);
    for (double v = first; v <= last; ++v) EXPECT_EQ(age.BinOf(v), b);
    covered += static_cast<int>(last - first + 1);
  }
  EXPECT_EQ(covered, 74);
}

// Beyond 2^53, x + 1 == x in double: the edge corrections must still stop (a fuzzed description
// with "max": 1e308 once spun here forever). The answers stay inside the domain and ordered.
TEST(ColumnDomainTest, IntegerEdgesTerminateBeyondTwoToThe53) {
  const ColumnDomain huge = IntegerBins(0, 1e300, 20, false);
  double previous_last = -1;
  for (std::uint32_t b = 0; b < 20; ++b) {
    const double first = huge.FirstPointOf(b), last = huge.LastPointOf(b);
    EXPECT_GE(first, huge.lo) << b;
    EXPECT_LE(last, huge.hi) << b;
    EXPECT_LE(first, last) << b;
    EXPECT_GE(first, previous_last) << b;  // an edge integer may be reported on both sides
    previous_last = last;
  }
}

TEST(ColumnDomainTest, ContinuousBinsIncludeBothEnds) {
  ColumnDomain d;
  d.categorical = false;
  d.type = DataType::kFloat;
  d.SetEqualWidth(0, 1, 4, 0);
  EXPECT_EQ(d.BinOf(0.0), 0u);
  EXPECT_EQ(d.BinOf(0.25), 1u);  // an edge belongs to the bin on its right
  EXPECT_EQ(d.BinOf(1.0), 3u);   // hi is in the last bin
  EXPECT_EQ(d.CodeLabel(3), "[0.75, 1]");
  EXPECT_EQ(d.CodeLabel(0), "[0, 0.25)");
}

TEST(EncodeTest, MapsValuesToCodesWithOtherAndMissing) {
  Schema schema;
  ColumnSchema c;
  c.name = "color";
  c.type = DataType::kString;
  c.categorical = true;
  ColumnSchema n;
  n.name = "n";
  n.type = DataType::kInteger;
  schema.columns = {c, n};
  const RawTable table = MakeTable(
      {MakeColumn("color", {std::string("red"), std::string("blue"), std::string("pink"), std::nullopt}),
       MakeColumn("n", {std::string("0"), std::string("9"), std::nullopt, std::string("oops")})});
  const std::vector<ColumnDomain> domains = {Categorical({"blue", "red"}, true, true),
                                             IntegerBins(0, 9, 5, true)};
  NullProgress progress;
  auto encoded = Encode(table, schema, domains, progress);
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  EXPECT_EQ(encoded->rows, 4u);
  EXPECT_EQ(encoded->columns[0], (std::vector<Code>{1, 0, 2, 3}));  // red, blue, other, missing
  EXPECT_EQ(encoded->columns[1], (std::vector<Code>{0, 4, 5, 5}));  // unparsable reads as missing
  EXPECT_EQ(encoded->cardinalities, (std::vector<std::uint32_t>{4, 6}));
}

TEST(EncodeTest, NumericCategoriesMatchByValue) {
  Schema schema;
  ColumnSchema c;
  c.name = "level";
  c.type = DataType::kInteger;
  c.categorical = true;
  schema.columns = {c};
  const RawTable table = MakeTable({MakeColumn("level", {std::string("1"), std::string("+1"), std::string("2")})});
  NullProgress progress;
  auto encoded = Encode(table, schema, {Categorical({"1", "2"}, false, false)}, progress);
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  EXPECT_EQ(encoded->columns[0], (std::vector<Code>{0, 0, 1}));
}

TEST(DecodeTest, WritesLabelsValuesInsideBinsFreshIdsAndDropsIgnoredColumns) {
  Schema schema;
  ColumnSchema id;
  id.name = "id";
  id.type = DataType::kString;
  id.role = ColumnRole::kIdentifier;
  id.id_pattern = "P-####";
  ColumnSchema color;
  color.name = "color";
  color.type = DataType::kString;
  color.categorical = true;
  ColumnSchema dropped;
  dropped.name = "secret";
  dropped.role = ColumnRole::kIgnore;
  ColumnSchema age;
  age.name = "age";
  age.type = DataType::kInteger;
  ColumnSchema weight;
  weight.name = "weight";
  weight.type = DataType::kFloat;
  weight.decimals = 2;
  schema.columns = {id, color, dropped, age, weight};

  ColumnDomain w;
  w.categorical = false;
  w.type = DataType::kFloat;
  w.SetEqualWidth(50, 100, 5, 0);
  w.has_missing = true;
  const std::vector<ColumnDomain> domains = {Categorical({"blue", "red"}, true, true),
                                             IntegerBins(17, 90, 20, false), w};
  EncodedTable synthetic;
  synthetic.rows = 1000;
  synthetic.cardinalities = {4, 20, 6};
  synthetic.columns.resize(3);
  for (std::size_t r = 0; r < synthetic.rows; ++r) {
    synthetic.columns[0].push_back(static_cast<Code>(r % 4));
    synthetic.columns[1].push_back(static_cast<Code>(r % 20));
    synthetic.columns[2].push_back(static_cast<Code>(r % 6));
  }
  SeededRng rng(3);
  NullProgress progress;
  auto decoded = DecodeToRawTable(synthetic, schema, domains, rng, progress);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  ASSERT_EQ(decoded->num_columns(), 4u);  // "secret" is ignored
  EXPECT_EQ(decoded->columns[0].name, "id");
  EXPECT_EQ(decoded->columns[1].name, "color");
  EXPECT_EQ(decoded->columns[2].name, "age");
  EXPECT_EQ(decoded->columns[3].name, "weight");
  // Identifiers: unique, in the pattern.
  EXPECT_EQ(decoded->columns[0].dictionary.size(), 1000u);
  const std::regex id_shape("P-[0-9]{4,}");
  for (const std::string& value : decoded->columns[0].dictionary) {
    EXPECT_TRUE(std::regex_match(value, id_shape)) << value;
  }
  const ColumnDomain& age_domain = domains[1];
  for (std::size_t r = 0; r < synthetic.rows; ++r) {
    // Labels.
    const std::uint32_t raw_color = decoded->columns[1].codes[r];
    const char* expected_color[] = {"blue", "red", "Other", nullptr};
    if (expected_color[r % 4] == nullptr) {
      EXPECT_EQ(raw_color, kMissingCode);
    } else {
      EXPECT_EQ(decoded->columns[1].dictionary[raw_color], expected_color[r % 4]);
    }
    // Integers inside their bin.
    const double age_value = std::stod(decoded->columns[2].dictionary[decoded->columns[2].codes[r]]);
    EXPECT_EQ(age_value, std::floor(age_value));
    EXPECT_EQ(age_domain.BinOf(age_value), r % 20);
    // Floats inside their bin, two decimals, missing for the missing code.
    const std::uint32_t raw_weight = decoded->columns[3].codes[r];
    if (r % 6 == 5) {
      EXPECT_EQ(raw_weight, kMissingCode);
    } else {
      const std::string& text = decoded->columns[3].dictionary[raw_weight];
      const double value = std::stod(text);
      EXPECT_GE(value, 50 + 10.0 * (r % 6) - 0.005);
      EXPECT_LE(value, 60 + 10.0 * (r % 6) + 0.005);
      EXPECT_LE(text.size() - text.find('.'), 3u) << text;
    }
  }
}

TEST(DecodeTest, SameSeedGivesTheSameCsvAndTheFileRoundTrips) {
  Schema schema;
  ColumnSchema age;
  age.name = "age";
  age.type = DataType::kInteger;
  schema.columns = {age};
  const std::vector<ColumnDomain> domains = {IntegerBins(0, 99, 10, true)};
  EncodedTable synthetic;
  synthetic.rows = 50;
  synthetic.cardinalities = {11};
  synthetic.columns = {std::vector<Code>(50)};
  for (std::size_t r = 0; r < 50; ++r) synthetic.columns[0][r] = static_cast<Code>(r % 11);
  const std::string dir = test_support::TempDir();
  NullProgress progress;
  for (const char* name : {"a.csv", "b.csv"}) {
    SeededRng rng(99);
    ASSERT_TRUE(WriteSyntheticCsv(dir + "/" + name, synthetic, schema, domains, {}, rng, progress)
                    .has_value());
  }
  CsvReadOptions read;
  auto a = ReadCsv(dir + "/a.csv", read, progress);
  auto b = ReadCsv(dir + "/b.csv", read, progress);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(a->columns[0].codes, b->columns[0].codes);
  EXPECT_EQ(a->columns[0].dictionary, b->columns[0].dictionary);
  EXPECT_EQ(a->num_rows(), 50u);
  EXPECT_EQ(a->columns[0].missing_count, 4u);  // codes 10 at rows 10, 21, 32, 43
}

TEST(IdGeneratorTest, UniqueValuesInThePatternAndWidensWhenTooSmall) {
  SeededRng rng(5);
  auto ids = GenerateUniqueIds("\\A#-a", 50, rng);  // literal 'A', a digit, '-', a letter
  ASSERT_TRUE(ids.has_value());
  std::set<std::string> unique(ids->begin(), ids->end());
  EXPECT_EQ(unique.size(), 50u);
  for (const std::string& id : *ids) {
    EXPECT_TRUE(std::regex_match(id, std::regex("A[0-9]-[a-z][0-9]*"))) << id;
  }
  // 10 digits cannot hold 1000 distinct values: digits are appended.
  auto more = GenerateUniqueIds("#", 1000, rng);
  ASSERT_TRUE(more.has_value());
  EXPECT_EQ(std::set<std::string>(more->begin(), more->end()).size(), 1000u);
}

}  // namespace
}  // namespace deniable
