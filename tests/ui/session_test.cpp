// SPDX-License-Identifier: Apache-2.0
// Session: undoable column and privacy edits (one drag = one step), the corrections it saves,
// and when results become stale.
#include "ui/session/session.h"

#include <QUndoStack>
#include <gtest/gtest.h>

#include "engine/schema/schema_json.h"
#include "tests/ui/ui_test_support.h"

namespace deniable::ui {
namespace {

using test_support::loadDemo;

const ColumnSchema& Column(const Session& session, const std::string& name) {
  return session.schema().columns[static_cast<std::size_t>(session.schema().ColumnIndex(name))];
}

TEST(SessionTest, LoadDataInfersHashesAndKeepsTheInferredSchema) {
  auto data = loadDemo();
  ASSERT_TRUE(data);
  EXPECT_EQ(data->table->num_rows(), 10000u);
  EXPECT_EQ(data->table->num_columns(), 15u);
  EXPECT_EQ(data->sha256.size(), 64);
  EXPECT_EQ(SchemaToJson(data->schema, true), SchemaToJson(data->inferred, true));
  EXPECT_EQ(data->inferred.columns[0].name, "age");
  EXPECT_EQ(data->inferred.columns[0].type, DataType::kInteger);
}

TEST(SessionTest, ColumnEditIsOneUndoStepAndRoundTrips) {
  Session session;
  session.setData(loadDemo());
  ASSERT_EQ(Column(session, "age").type, DataType::kInteger);
  ASSERT_TRUE(session.editColumns({{"columns", nlohmann::json::array({{{"name", "age"}, {"type", "Float"}}})}},
                                  "age to Float"));
  EXPECT_EQ(Column(session, "age").type, DataType::kFloat);
  EXPECT_EQ(session.undoStack()->count(), 1);
  session.undoStack()->undo();
  EXPECT_EQ(Column(session, "age").type, DataType::kInteger);
  session.undoStack()->redo();
  EXPECT_EQ(Column(session, "age").type, DataType::kFloat);
}

TEST(SessionTest, RefusedColumnEditChangesNothingAndNamesTheProblem) {
  Session session;
  session.setData(loadDemo());
  const nlohmann::json before = SchemaToJson(session.schema(), false);
  auto status = session.editColumns(
      {{"columns", nlohmann::json::array({{{"name", "age"}, {"type", "Int"}}})}}, "bad");
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kParse);
  EXPECT_NE(status.error().message.find("Int"), std::string::npos) << status.error().message;
  EXPECT_EQ(SchemaToJson(session.schema(), false), before);
  EXPECT_EQ(session.undoStack()->count(), 0);
}

TEST(SessionTest, CorrectionsReproduceTheSchemaFromTheInferredOne) {
  Session session;
  session.setData(loadDemo());
  ASSERT_TRUE(session.editColumns(
      {{"columns", nlohmann::json::array({{{"name", "fnlwgt"}, {"role", "ignore"}},
                                          {{"name", "age"}, {"public", {{"min", 0}, {"max", 120}}}},
                                          {{"name", "education-num"}, {"type", "String"}}})}},
      "several"));
  const nlohmann::json corrections = session.corrections();
  EXPECT_EQ(corrections["columns"].size(), 3u);
  auto again = ApplySchemaJson(session.data()->inferred, corrections, "corrections",
                               session.data()->table.get());
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(SchemaToJson(again.value(), false), SchemaToJson(session.schema(), false));
}

TEST(SessionTest, OneGestureIsOneUndoStep) {
  Session session;
  session.setData(loadDemo());
  const double start = session.settings().model.epsilon;
  const int gesture = session.newGesture();
  for (double epsilon : {1.2, 1.5, 2.0, 3.0}) {
    PrivacySettings next = session.settings();
    next.model.epsilon = epsilon;
    session.editSettings(next, "drag ε", gesture);
  }
  EXPECT_EQ(session.undoStack()->count(), 1);
  EXPECT_DOUBLE_EQ(session.settings().model.epsilon, 3.0);
  session.undoStack()->undo();
  EXPECT_DOUBLE_EQ(session.settings().model.epsilon, start);
  // Two separate edits (no gesture) are two steps.
  for (double epsilon : {0.5, 0.25}) {
    PrivacySettings next = session.settings();
    next.model.epsilon = epsilon;
    session.editSettings(next, "set ε");
  }
  EXPECT_EQ(session.undoStack()->count(), 2);  // the undone drag was replaced
}

TEST(SessionTest, ADragBackToTheStartLeavesNoUndoStep) {
  Session session;
  session.setData(loadDemo());
  const double start = session.settings().model.epsilon;
  const int gesture = session.newGesture();
  for (double epsilon : {2.0, start}) {
    PrivacySettings next = session.settings();
    next.model.epsilon = epsilon;
    session.editSettings(next, "drag ε", gesture);
  }
  EXPECT_EQ(session.undoStack()->count(), 0);
}

TEST(SessionTest, ResultBecomesStaleWhenSettingsChangeAndFreshWhenUndone) {
  Session session;
  session.setData(loadDemo());
  auto record = std::make_shared<RunRecord>();
  record->request.data = session.data();
  record->request.schema = session.schema();
  record->request.settings = session.settings();
  record->request.rows = session.outputRows();
  session.setResult(record);
  EXPECT_FALSE(session.resultIsStale());
  PrivacySettings next = session.settings();
  next.model.epsilon = 0.3;
  session.editSettings(next, "ε");
  EXPECT_TRUE(session.resultIsStale());
  session.undoStack()->undo();
  EXPECT_FALSE(session.resultIsStale());
  next = session.settings();
  next.rows = 500;
  session.editSettings(next, "rows");
  EXPECT_TRUE(session.resultIsStale());
}

}  // namespace
}  // namespace deniable::ui
