// SPDX-License-Identifier: Apache-2.0
#include "ui/project/project_file.h"

#include <QDir>
#include <QFileInfo>

#include "engine/schema/schema_json.h"

namespace deniable::ui {
namespace {
constexpr char kFormat[] = "deniable-project";
constexpr int kVersion = 1;
}  // namespace

std::string projectText(const Project& project, const QString& project_path) {
  const QString relative =
      QFileInfo(project_path).absoluteDir().relativeFilePath(project.input_path);
  nlohmann::ordered_json json;
  json["format"] = kFormat;
  json["version"] = kVersion;
  json["input"] = {{"path", project.input_path.toStdString()},
                   {"relative_path", relative.toStdString()},
                   {"sha256", project.input_sha256.toStdString()}};
  json["columns"] = project.corrections;
  json["settings"] = PrivacySettingsToJson(project.settings);
  return json.dump(2) + "\n";
}

Result<Project> readProject(const QString& path) {
  auto json = ReadJsonFile(path.toStdString());
  if (!json) return json.error();
  const std::string source = QFileInfo(path).fileName().toStdString();
  const nlohmann::json& root = json.value();
  if (!root.is_object() || !root.contains("format") || root["format"] != kFormat) {
    return ParseError(source + ": not a Deniable project (expected \"format\": \"" + kFormat + "\")");
  }
  if (!root.contains("version") || root["version"] != kVersion) {
    return ParseError(source + ": version: unsupported project version " +
                      root.value("version", nlohmann::json()).dump() + " (expected 1)");
  }
  if (!root.contains("input") || !root["input"].is_object() ||
      !root["input"].value("path", nlohmann::json()).is_string()) {
    return ParseError(source + ": input.path: expected a string");
  }
  const nlohmann::json& input = root["input"];
  Project project;
  project.input_path = QString::fromStdString(input["path"].get<std::string>());
  if (!QFileInfo::exists(project.input_path) && input.contains("relative_path") &&
      input["relative_path"].is_string()) {
    const QString relative = QFileInfo(path).absoluteDir().filePath(
        QString::fromStdString(input["relative_path"].get<std::string>()));
    if (QFileInfo::exists(relative)) project.input_path = QFileInfo(relative).absoluteFilePath();
  }
  if (input.contains("sha256") && input["sha256"].is_string()) {
    project.input_sha256 = QByteArray::fromStdString(input["sha256"].get<std::string>());
  }
  project.corrections = root.value("columns", nlohmann::json::object());
  if (!project.corrections.is_object()) return ParseError(source + ": columns: expected an object");
  auto settings = PrivacySettingsFromJson(root.value("settings", nlohmann::json::object()), source);
  if (!settings) return settings.error();
  project.settings = settings.value();
  return project;
}

}  // namespace deniable::ui
