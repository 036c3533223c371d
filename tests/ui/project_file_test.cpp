// SPDX-License-Identifier: Apache-2.0
#include "ui/project/project_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "engine/core/atomic_file.h"

namespace deniable::ui {
namespace {

Project SampleProject(const QString& input) {
  Project project;
  project.input_path = input;
  project.input_sha256 = QByteArray(64, 'a');
  project.corrections = {{"format", "deniable-schema"},
                         {"version", 1},
                         {"columns", nlohmann::json::array({{{"name", "age"}, {"type", "Float"}}})}};
  project.settings.model.mode = SynthesisMode::kIndependent;
  project.settings.model.epsilon = 0.5;
  project.settings.rows = 99;
  return project;
}

void Write(const QString& path, const std::string& text) {
  ASSERT_TRUE(WriteFileAtomically(path.toStdString(), text).has_value());
}

TEST(ProjectFileTest, RoundTripsAndHoldsNoData) {
  QTemporaryDir dir;
  const QString input = dir.filePath(QStringLiteral("in.csv"));
  Write(input, "age\n30\n");
  const QString path = dir.filePath(QStringLiteral("p.deniable"));
  const std::string text = projectText(SampleProject(input), path);
  EXPECT_EQ(text.find("30"), std::string::npos);  // no value of the data
  Write(path, text);
  auto project = readProject(path);
  ASSERT_TRUE(project.has_value()) << project.error().message;
  EXPECT_EQ(project->input_path, input);
  EXPECT_EQ(project->input_sha256, QByteArray(64, 'a'));
  EXPECT_EQ(project->corrections, SampleProject(input).corrections);
  EXPECT_EQ(PrivacySettingsToJson(project->settings), PrivacySettingsToJson(SampleProject(input).settings));
}

TEST(ProjectFileTest, FindsAMovedInputBesideTheProject) {
  QTemporaryDir first;
  QTemporaryDir second;
  const QString input = first.filePath(QStringLiteral("data/in.csv"));
  ASSERT_TRUE(QDir(first.path()).mkpath(QStringLiteral("data")));
  Write(input, "age\n30\n");
  const QString path = first.filePath(QStringLiteral("p.deniable"));
  Write(path, projectText(SampleProject(input), path));
  // Move project and data together.
  ASSERT_TRUE(QDir(second.path()).mkpath(QStringLiteral("data")));
  ASSERT_TRUE(QFile::rename(input, second.filePath(QStringLiteral("data/in.csv"))));
  ASSERT_TRUE(QFile::rename(path, second.filePath(QStringLiteral("p.deniable"))));
  auto project = readProject(second.filePath(QStringLiteral("p.deniable")));
  ASSERT_TRUE(project.has_value());
  EXPECT_EQ(project->input_path, second.filePath(QStringLiteral("data/in.csv")));
}

TEST(ProjectFileTest, ErrorsNameTheFileAndTheField) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("bad.deniable"));
  Write(path, R"({"format": "something-else"})");
  auto wrong = readProject(path);
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.error().code, ErrorCode::kParse);
  EXPECT_NE(wrong.error().message.find("bad.deniable"), std::string::npos);

  Write(path, R"({"format": "deniable-project", "version": 1, "input": {"path": "x.csv"},
                  "settings": {"epsilon": -1}})");
  auto invalid = readProject(path);
  ASSERT_FALSE(invalid.has_value());
  EXPECT_NE(invalid.error().message.find("epsilon"), std::string::npos) << invalid.error().message;

  // Numbers out of an integer field's range or with a fraction: an error, not a cast (found by
  // tests/fuzz/fuzz_project_file.cpp; tests/fuzz/corpus/project_file/regression-*).
  for (const char* settings : {R"({"bins": 1e300})", R"({"seed": -5e40})", R"({"rows": -1})",
                               R"({"deniable": {"k": 2.5}})", R"({"deniable": {"maxcost": 1e30}})",
                               R"({"degree": 4294967298})"}) {
    Write(path, std::string(R"({"format": "deniable-project", "version": 1, "input": {"path": "x.csv"}, "settings": )") +
                    settings + "}");
    auto out_of_range = readProject(path);
    ASSERT_FALSE(out_of_range.has_value()) << settings;
    EXPECT_EQ(out_of_range.error().code, ErrorCode::kParse);
    EXPECT_NE(out_of_range.error().message.find("bad.deniable: settings."), std::string::npos)
        << out_of_range.error().message;
  }

  Write(path, R"({"format": "deniable-project", "version": 1, "input": {"path": "x.csv"},
                  "settings": {"mode": "magic"}})");
  auto mode = readProject(path);
  ASSERT_FALSE(mode.has_value());
  EXPECT_NE(mode.error().message.find("settings.mode"), std::string::npos) << mode.error().message;
}

}  // namespace
}  // namespace deniable::ui
