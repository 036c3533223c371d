// SPDX-License-Identifier: Apache-2.0
// The Columns step (attribute typing wizard) on a small file with typos: suggestions, a type
// change listing the values that do not fit with their line numbers, and the schema JSON it
// saves being exactly what the CLI reads back.
#include "ui/pages/columns_page.h"

#include <QTemporaryDir>
#include <QTreeWidget>
#include <gtest/gtest.h>

#include "engine/schema/schema_json.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/schema_model.h"
#include "ui/session/session.h"
#include "ui/session/workflow_state.h"

namespace deniable::ui {
namespace {

QString Fixture() { return QStringLiteral(DENIABLE_TEST_DATA_DIR "/ui/people_with_typos.csv"); }

class ColumnsPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LoadRequest request;
    request.path = Fixture();
    NullProgress progress;
    auto data = LoadData(request, progress);
    ASSERT_TRUE(data.has_value()) << data.error().message;
    session_.setData(data.value());
    page_ = std::make_unique<ColumnsPage>(&session_);
  }
  QModelIndex Cell(const std::string& column, int field) const {
    return page_->model()->index(session_.schema().ColumnIndex(column), field);
  }
  Session session_;
  std::unique_ptr<ColumnsPage> page_;
};

TEST_F(ColumnsPageTest, AnIdentifierIsSuggestedAndExplained) {
  EXPECT_EQ(Cell("id", SchemaModel::kRole).data().toString(), QStringLiteral("identifier"));
  EXPECT_TRUE(Cell("id", SchemaModel::kRole).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("regenerated, never copied")));
  EXPECT_EQ(Cell("city", SchemaModel::kRole).data().toString(), QStringLiteral("attribute"));
}

TEST_F(ColumnsPageTest, ChangingATypeListsTheValuesThatDoNotFitWithTheirLines) {
  ASSERT_EQ(Cell("age", SchemaModel::kType).data().toString(), QStringLiteral("String"));
  EXPECT_EQ(computeStepStates(session_, false)[1].state, StepState::kDone);
  ASSERT_TRUE(page_->model()->setData(Cell("age", SchemaModel::kType), QStringLiteral("Integer"),
                                      Qt::EditRole));
  EXPECT_EQ(Cell("age", SchemaModel::kFailed).data().toString(), QStringLiteral("2 cells (2 values)"));
  EXPECT_EQ(computeStepStates(session_, false)[1].state, StepState::kAttention);
  page_->selectColumn(session_.schema().ColumnIndex("age"));
  QTreeWidget* failed = page_->failedValuesView();
  std::map<QString, QString> lines;
  for (int i = 0; i < failed->topLevelItemCount(); ++i) {
    lines[failed->topLevelItem(i)->text(0)] = failed->topLevelItem(i)->text(2);
  }
  EXPECT_EQ(lines, (std::map<QString, QString>{{QStringLiteral("forty"), QStringLiteral("4")},
                                               {QStringLiteral("3O"), QStringLiteral("7")}}));
}

TEST_F(ColumnsPageTest, SavedSchemaIsWhatTheCliReadsBack) {
  ASSERT_TRUE(page_->model()->setData(Cell("age", SchemaModel::kType), QStringLiteral("Integer"),
                                      Qt::EditRole));
  ASSERT_TRUE(page_->model()->setData(Cell("city", SchemaModel::kRole), QStringLiteral("sensitive"),
                                      Qt::EditRole));
  ASSERT_TRUE(session_.editColumns(
      {{"columns", nlohmann::json::array({{{"name", "age"}, {"public", {{"min", 0}, {"max", 120}}}}})}},
      "bounds"));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("schema.json"));
  ASSERT_TRUE(page_->saveSchema(path).has_value());
  auto json = ReadJsonFile(path.toStdString());
  ASSERT_TRUE(json.has_value());
  EXPECT_FALSE(json.value()["columns"][0].contains("stats"));  // the owner's statistics stay home
  // What `deniable-cli ... --schema schema.json` does with it.
  InputSettings cli;
  cli.path = Fixture().toStdString();
  cli.schema = json.value();
  cli.schema_source = "schema.json";
  NullProgress progress;
  auto loaded = LoadInput(cli, progress);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(SchemaToJson(loaded->schema, /*include_stats=*/true),
            SchemaToJson(session_.schema(), /*include_stats=*/true));
  // And loading it back into a fresh session reproduces the columns.
  Session other;
  other.setData(session_.data());
  ColumnsPage other_page(&other);
  ASSERT_TRUE(other_page.loadSchema(path).has_value());
  EXPECT_EQ(SchemaToJson(other.schema(), true), SchemaToJson(session_.schema(), true));
}

TEST_F(ColumnsPageTest, SavingOverTheInputIsRefused) {
  auto status = page_->saveSchema(Fixture());
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace deniable::ui
