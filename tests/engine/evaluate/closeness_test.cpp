// SPDX-License-Identifier: Apache-2.0
// The mixed distance, copies and DCR on hand-made tables (engine/evaluate/closeness.h).
#include "engine/evaluate/closeness.h"

#include <gtest/gtest.h>

#include "engine/evaluate/control_split.h"
#include "tests/support/fake_progress.h"
#include "tests/support/test_tables.h"

namespace deniable {
namespace {

using test_support::MakeColumn;
using test_support::MakeTable;

Schema TwoColumnSchema() {
  Schema schema;
  // Numeric first in the file: the encoding puts categories first.
  schema.columns = {test_support::TypedColumn("x", DataType::kInteger, false),
                    test_support::TypedColumn("c", DataType::kString, true)};
  return schema;
}

RawTable Table(const std::vector<std::optional<std::string>>& c,
               const std::vector<std::optional<std::string>>& x, const std::string& source) {
  return MakeTable({MakeColumn("x", x), MakeColumn("c", c)}, source);
}

TEST(ClosenessTest, MixedEncodingNormalisesNumbersOverAllThreeTables) {
  const RawTable train = Table({"a", "b"}, {"0", "10"}, "train.csv");
  const RawTable control = Table({"a", std::nullopt}, {"20", std::nullopt}, "control.csv");
  const RawTable synthetic = Table({"c", "a"}, {"5", "x"}, "synthetic.csv");
  auto tables = EncodeMixedTables(train, control, synthetic, TwoColumnSchema());
  ASSERT_TRUE(tables.has_value()) << tables.error().message;
  ASSERT_EQ(tables->columns.size(), 2u);
  EXPECT_EQ(tables->columns[0].name, "c");  // categorical first
  EXPECT_EQ(tables->columns[1].kind, MixedKind::kNumeric);
  EXPECT_EQ(tables->columns[1].min, 0);
  EXPECT_EQ(tables->columns[1].max, 20);
  EXPECT_DOUBLE_EQ(tables->train.row(1)[1], 0.5);
  const std::size_t kinds = tables->train.categorical;  // 1: the first column
  // (a, 0) vs (a, 20): 1; missing vs missing: 0; missing vs value: 1; "x" is no number: missing.
  EXPECT_DOUBLE_EQ(MixedDistance(tables->train.row(0), tables->control.row(0), kinds, 2, 9), 1.0);
  EXPECT_DOUBLE_EQ(MixedDistance(tables->control.row(1), tables->control.row(1), kinds, 2, 9), 0);
  EXPECT_DOUBLE_EQ(MixedDistance(tables->train.row(0), tables->control.row(1), kinds, 2, 9), 2.0);
  EXPECT_DOUBLE_EQ(MixedDistance(tables->synthetic.row(1), tables->control.row(1), kinds, 2, 9),
                   1.0);
  // Early exit: stops once above the bound.
  EXPECT_GT(MixedDistance(tables->train.row(0), tables->control.row(1), kinds, 2, 0.5), 0.5);
  // A column missing from one table is named with the table.
  const RawTable bad = MakeTable({MakeColumn("x", {"1"})}, "bad.csv");
  auto missing = EncodeMixedTables(train, control, bad, TwoColumnSchema());
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("bad.csv"), std::string::npos);
}

TEST(ClosenessTest, CopiesAndDistanceToClosestRecordOnAHandMadeTable) {
  // x spans 0..10 in all three tables, so a unit of x costs 0.1.
  const RawTable train = Table({"a", "b", "a", "b"}, {"0", "10", "5", "0"}, "train.csv");
  const RawTable control = Table({"a", "c", "b", "a"}, {"10", "5", "5", "0"}, "control.csv");
  const RawTable synthetic = Table({"a", "b", "c", "a"}, {"0", "5", "10", "2"}, "synthetic.csv");
  auto tables = EncodeMixedTables(train, control, synthetic, TwoColumnSchema());
  ASSERT_TRUE(tables.has_value());
  const CopyCounts copies = CountCopies(tables.value());
  EXPECT_EQ(copies.synthetic_rows, 4u);
  EXPECT_EQ(copies.copies_of_train, 1u);  // (a, 0)
  EXPECT_EQ(copies.copies_of_unique_train, 1u);
  EXPECT_EQ(copies.train_rows_copied, 1u);
  EXPECT_EQ(copies.copies_of_control, 2u);  // (a, 0) and (b, 5)
  EXPECT_EQ(copies.copies_of_unique_control, 2u);
  test_support::FakeProgress progress;
  auto dcr = DistanceToClosestRecord(tables.value(), {}, progress);
  ASSERT_TRUE(dcr.has_value());
  EXPECT_EQ(dcr->synthetic_rows, 4u);
  EXPECT_EQ(dcr->reference_rows, 4u);
  // To training: (a,0) → 0; (b,5) → (b,10) or (b,0): 0.5; (c,10) → (b,10): 1; (a,2) → (a,0): 0.2.
  EXPECT_NEAR(dcr->to_train.mean, (0 + 0.5 + 1 + 0.2) / 4, 1e-12);
  EXPECT_DOUBLE_EQ(dcr->to_train.p05, 0);
  EXPECT_DOUBLE_EQ(dcr->to_train.median, 0.2);  // nearest rank: the 2nd of 0, 0.2, 0.5, 1
  EXPECT_DOUBLE_EQ(dcr->to_train.zero_share, 0.25);
  EXPECT_DOUBLE_EQ(dcr->to_train_all.mean, dcr->to_train.mean);  // the 4 rows are all of them
  // To control: (a,0) → 0; (b,5) → 0; (c,10) → (c,5): 0.5; (a,2) → (a,0): 0.2.
  EXPECT_NEAR(dcr->to_control.mean, (0 + 0 + 0.5 + 0.2) / 4, 1e-12);
  EXPECT_DOUBLE_EQ(dcr->to_control.zero_share, 0.5);
  // Closer to training: a tie (½), control, control, a tie (½) → 1 of 4.
  EXPECT_DOUBLE_EQ(dcr->closer_to_train.rate, 0.25);
  EXPECT_EQ(dcr->closer_to_train.trials, 4u);
  const Interval wilson = WilsonInterval(1, 4);
  EXPECT_DOUBLE_EQ(dcr->closer_to_train.interval.low, wilson.low);
}

TEST(ClosenessTest, NearestNeighboursDoNotDependOnTheThreadCount) {
  std::vector<std::optional<std::string>> c, x;
  for (int i = 0; i < 300; ++i) {
    c.push_back(std::string(1, static_cast<char>('a' + (i * 7) % 5)));
    x.push_back(std::to_string((i * 37) % 101));
  }
  const RawTable t = Table(c, x, "t.csv");
  auto tables = EncodeMixedTables(t, t, t, TwoColumnSchema());
  ASSERT_TRUE(tables.has_value());
  test_support::FakeProgress progress;
  auto one = NearestNeighbours(tables->synthetic, tables->train, 1, progress);
  auto three = NearestNeighbours(tables->synthetic, tables->train, 3, progress);
  ASSERT_TRUE(one.has_value() && three.has_value());
  for (std::size_t q = 0; q < one->size(); ++q) {
    EXPECT_EQ((*one)[q].index, (*three)[q].index);
    EXPECT_EQ((*one)[q].distance, 0);  // every row is its own nearest
  }
  test_support::FakeProgress cancelling(1);
  EXPECT_EQ(NearestNeighbours(tables->synthetic, tables->train, 2, cancelling).error().code,
            ErrorCode::kCancelled);
}

TEST(ClosenessTest, ControlSplitHoldsOutTheRequestedShareAndReencodes) {
  std::vector<std::optional<std::string>> c, x;
  for (int i = 0; i < 10; ++i) {
    c.push_back(i < 5 ? "a" : "b");
    x.push_back(std::to_string(i));
  }
  const RawTable t = Table(c, x, "t.csv");
  SeededRng rng(7);
  auto split = SplitControlRows(t, 0.3, rng);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->control.num_rows(), 3u);
  EXPECT_EQ(split->train.num_rows(), 7u);
  // Every input row lands in exactly one part, with its line number; dictionaries are exact.
  std::vector<int> seen(10, 0);
  for (const RawTable* part : {&split->train, &split->control}) {
    const RawColumn& xs = part->columns[0];
    std::uint64_t total = 0;
    for (std::size_t r = 0; r < part->num_rows(); ++r) {
      const int value = std::stoi(xs.dictionary[xs.codes[r]]);
      ++seen[value];
      EXPECT_EQ(part->row_line[r], static_cast<std::uint64_t>(value) + 2);
    }
    for (std::uint64_t count : xs.counts) total += count;
    EXPECT_EQ(total, part->num_rows());
    EXPECT_EQ(xs.dictionary.size(), part->num_rows());
  }
  EXPECT_EQ(seen, std::vector<int>(10, 1));
  // The original table less the control rows is the training table, row for row.
  auto [training, removed] = RemoveControlRows(t, split->control);
  EXPECT_TRUE(removed);
  EXPECT_EQ(training.row_line, split->train.row_line);
  EXPECT_EQ(training.columns[0].dictionary, split->train.columns[0].dictionary);
  // Not every control row in the table: unchanged.
  auto [unchanged, removed_none] = RemoveControlRows(split->train, split->control);
  EXPECT_FALSE(removed_none);
  EXPECT_EQ(unchanged.num_rows(), 7u);
  SeededRng again(7);
  EXPECT_EQ(SplitControlRows(t, 0.3, again)->control.row_line, split->control.row_line);
  for (double bad : {0.0, 1.0, -0.1, 0.01}) {
    auto refused = SplitControlRows(t, bad, rng);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().message.rfind("control-fraction", 0), 0u);
  }
}

}  // namespace
}  // namespace deniable
