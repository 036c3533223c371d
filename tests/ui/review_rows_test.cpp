// SPDX-License-Identifier: Apache-2.0
// Rows tab: the lazy table model, the off-thread filter and sort, and the two tables moving
// together.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/raw_table_model.h"
#include "ui/review/row_order.h"
#include "ui/review/rows_view.h"

namespace deniable::ui {
namespace {

// A RawTable from rows of texts; "" is a missing cell.
RawTable MakeTable(const std::vector<std::string>& names,
                   const std::vector<std::vector<std::string>>& rows) {
  RawTable table;
  table.source = "test.csv";
  for (const std::string& name : names) table.columns.push_back(RawColumn{name, {}, {}, {}, {}, 0});
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < names.size(); ++c) {
      RawColumn& column = table.columns[c];
      const std::string& text = rows[r][c];
      if (text.empty()) {
        column.codes.push_back(kMissingCode);
        ++column.missing_count;
        continue;
      }
      auto found = std::find(column.dictionary.begin(), column.dictionary.end(), text);
      if (found == column.dictionary.end()) {
        column.dictionary.push_back(text);
        column.counts.push_back(0);
        column.first_row.push_back(static_cast<std::uint32_t>(r));
        found = column.dictionary.end() - 1;
      }
      const auto code = static_cast<std::uint32_t>(found - column.dictionary.begin());
      column.codes.push_back(code);
      ++column.counts[code];
    }
    table.row_line.push_back(r + 2);
  }
  return table;
}

const RawTable& People() {
  static const RawTable table = MakeTable(
      {"age", "name"},
      {{"10", "Bob"}, {"9", "alice"}, {"", "Carol"}, {"100", "ALICE"}, {"9", "dave"}});
  return table;
}

TEST(RowOrderTest, SortsNumbersNumericallyStablyWithMissingLast) {
  auto order = ComputeRowOrder(People(), RowQuery{0, false, -1, ""});
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(order.value(), (std::vector<std::uint32_t>{1, 4, 0, 3, 2}));
  auto descending = ComputeRowOrder(People(), RowQuery{0, true, -1, ""});
  EXPECT_EQ(descending.value(), (std::vector<std::uint32_t>{3, 0, 1, 4, 2}));
}

TEST(RowOrderTest, SortsTextsByBytes) {
  auto order = ComputeRowOrder(People(), RowQuery{1, false, -1, ""});
  ASSERT_TRUE(order.has_value());
  // "ALICE" < "Bob" < "Carol" < "alice" < "dave" in byte order.
  EXPECT_EQ(order.value(), (std::vector<std::uint32_t>{3, 0, 2, 1, 4}));
}

TEST(RowOrderTest, FiltersCaseInsensitivelyInOneOrAnyColumn) {
  auto inName = ComputeRowOrder(People(), RowQuery{-1, false, 1, "aLiCe"});
  EXPECT_EQ(inName.value(), (std::vector<std::uint32_t>{1, 3}));
  auto anywhere = ComputeRowOrder(People(), RowQuery{-1, false, -1, "0"});
  EXPECT_EQ(anywhere.value(), (std::vector<std::uint32_t>{0, 3}));
  auto sortedFilter = ComputeRowOrder(People(), RowQuery{0, true, 1, "a"});
  EXPECT_EQ(sortedFilter.value(), (std::vector<std::uint32_t>{3, 1, 4, 2}));
  auto none = ComputeRowOrder(People(), RowQuery{-1, false, 0, "zzz"});
  EXPECT_TRUE(none.value().empty());
}

TEST(RowOrderTest, RejectsBadColumnsAndStopsWhenCancelled) {
  auto bad = ComputeRowOrder(People(), RowQuery{7, false, -1, ""});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "sort column 7 is not a column of test.csv");
  std::atomic<bool> cancel{true};
  auto cancelled = ComputeRowOrder(People(), RowQuery{-1, false, -1, "a"}, &cancel);
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code, ErrorCode::kCancelled);
}

TEST(RawTableModelTest, ShowsTextsLazilyThroughTheRowOrder) {
  auto table = std::make_shared<const RawTable>(People());
  RawTableModel model;
  model.setTable(table);
  EXPECT_EQ(model.rowCount(), 5);
  EXPECT_EQ(model.columnCount(), 2);
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("name"));
  EXPECT_EQ(model.data(model.index(2, 0)).toString(), QStringLiteral("(missing)"));
  EXPECT_EQ(model.data(model.index(3, 1)).toString(), QStringLiteral("ALICE"));
  model.setRowOrder(std::make_shared<const std::vector<std::uint32_t>>(std::vector<std::uint32_t>{3, 0}));
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.data(model.index(0, 1)).toString(), QStringLiteral("ALICE"));
  EXPECT_EQ(model.headerData(0, Qt::Vertical).toULongLong(), 4u);  // the table's row number
}

TEST(RawTableModelTest, AMillionRowTableCostsNothingUntilShown) {
  std::vector<std::vector<std::string>> few = {{"1"}, {"2"}, {"3"}};
  RawTable table = MakeTable({"x"}, few);
  table.columns[0].codes.resize(1'000'000);
  for (std::size_t r = 0; r < table.columns[0].codes.size(); ++r) {
    table.columns[0].codes[r] = static_cast<std::uint32_t>(r % 3);
  }
  table.row_line.resize(1'000'000);
  RawTableModel model;
  model.setTable(std::make_shared<const RawTable>(std::move(table)));
  EXPECT_EQ(model.rowCount(), 1'000'000);
  EXPECT_EQ(model.data(model.index(999'999, 0)).toString(), QStringLiteral("1"));
}

TEST(RowsViewTest, SortsAndFiltersBothTablesByColumnName) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  RowsView view;
  view.setData(data);
  EXPECT_EQ(view.realModel()->rowCount(), static_cast<int>(data->real->num_rows()));
  EXPECT_EQ(view.syntheticModel()->rowCount(), static_cast<int>(data->synthetic->num_rows()));

  QSignalSpy updated(&view, &RowsView::rowsUpdated);
  view.sortBy(QStringLiteral("age"), Qt::AscendingOrder);
  ASSERT_TRUE(updated.wait(10000));
  ASSERT_FALSE(view.isBusy());
  for (const RawTableModel* model : {view.realModel(), view.syntheticModel()}) {
    const RawTable& table = *model->table();
    const RawColumn& age = table.columns[static_cast<std::size_t>(table.ColumnIndex("age"))];
    ASSERT_EQ(model->rowCount(), static_cast<int>(table.num_rows()));
    double previous = -1e300;
    for (int row = 0; row < model->rowCount(); ++row) {
      const std::uint32_t code = age.codes[model->tableRow(row)];
      if (code == kMissingCode) continue;
      const double value = std::stod(age.dictionary[code]);
      EXPECT_LE(previous, value);
      previous = value;
    }
  }
  updated.clear();
  view.setFilter(QStringLiteral("sex"), QStringLiteral("MALE"));  // "Male" and "Female"
  ASSERT_TRUE(updated.wait(10000));
  for (const RawTableModel* model : {view.realModel(), view.syntheticModel()}) {
    const RawTable& table = *model->table();
    const RawColumn& sex = table.columns[static_cast<std::size_t>(table.ColumnIndex("sex"))];
    auto matches = [&sex](std::uint32_t code) {
      if (code == kMissingCode) return false;
      QString text = QString::fromStdString(sex.dictionary[code]);
      return text.contains(QStringLiteral("male"), Qt::CaseInsensitive);
    };
    const auto expected = std::count_if(sex.codes.begin(), sex.codes.end(), matches);
    ASSERT_GT(expected, 0);
    EXPECT_EQ(model->rowCount(), static_cast<int>(expected));
    for (int row = 0; row < model->rowCount(); ++row) {
      EXPECT_TRUE(matches(sex.codes[model->tableRow(row)]));
    }
  }
  EXPECT_TRUE(view.statusText().contains(QStringLiteral("Sorted by age (ascending)")));
}

}  // namespace
}  // namespace deniable::ui
