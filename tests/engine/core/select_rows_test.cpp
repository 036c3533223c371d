// SPDX-License-Identifier: Apache-2.0
#include "engine/core/select_rows.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace deniable {
namespace {

using Codes = std::vector<std::uint32_t>;

// "b", missing, "a", "b", "c": dictionary b, a, c in order of first appearance.
RawColumn FiveCells() {
  RawColumn column;
  column.name = "letter";
  column.dictionary = {"b", "a", "c"};
  column.counts = {2, 1, 1};
  column.first_row = {0, 2, 4};
  column.codes = {0, kMissingCode, 1, 0, 2};
  column.missing_count = 1;
  return column;
}

// Rows in any order, with repeats (a resample): the dictionary, counts and first rows are those
// of the selected cells only, in their new order.
TEST(SelectRawColumnRowsTest, ReencodesRepeatedRowsInTheirNewOrder) {
  const RawColumn out = SelectRawColumnRows(FiveCells(), {4, 1, 4, 2});
  EXPECT_EQ(out.name, "letter");
  EXPECT_EQ(out.dictionary, (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ(out.counts, (std::vector<std::uint64_t>{2, 1}));
  EXPECT_EQ(out.first_row, (Codes{0, 3}));
  EXPECT_EQ(out.codes, (Codes{0, kMissingCode, 0, 1}));
  EXPECT_EQ(out.missing_count, 1u);
}

TEST(SelectRawColumnRowsTest, NoRowsGiveAnEmptyColumn) {
  const RawColumn out = SelectRawColumnRows(FiveCells(), {});
  EXPECT_EQ(out.name, "letter");
  EXPECT_TRUE(out.dictionary.empty());
  EXPECT_TRUE(out.codes.empty());
  EXPECT_EQ(out.missing_count, 0u);
}

// The table keeps its source, dialect and the selected rows' line numbers.
TEST(SelectRawRowsTest, KeepsSourceDialectAndLineNumbers) {
  RawTable table;
  table.source = "input.csv";
  table.dialect.delimiter = ';';
  table.columns = {FiveCells()};
  table.row_line = {2, 3, 5, 6, 7};  // row 1 spans two lines
  const RawTable out = SelectRawRows(table, {3, 0});
  EXPECT_EQ(out.source, "input.csv");
  EXPECT_EQ(out.dialect.delimiter, ';');
  EXPECT_EQ(out.row_line, (std::vector<std::uint64_t>{6, 2}));
  ASSERT_EQ(out.columns.size(), 1u);
  EXPECT_EQ(out.columns[0].dictionary, (std::vector<std::string>{"b"}));
  EXPECT_EQ(out.columns[0].counts, (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(out.columns[0].codes, (Codes{0, 0}));
}

}  // namespace
}  // namespace deniable
