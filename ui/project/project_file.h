// SPDX-License-Identifier: Apache-2.0
// The project file (".deniable", JSON "deniable-project" version 1): the privacy settings, the
// column corrections (a partial schema JSON, the CLI's format), and the input's path and
// SHA-256 — no real data: no values, no counts, no statistics. Reopening it reloads the input,
// re-applies the corrections and settings, and warns when the input's hash changed.
//
//   {"format": "deniable-project", "version": 1,
//    "input": {"path": "/abs/adult.csv", "relative_path": "adult.csv", "sha256": "…"},
//    "columns": {…partial schema JSON…}, "settings": {…PrivacySettingsToJson…}}
#pragma once

#include <string>

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "ui/tasks/jobs.h"

namespace deniable::ui {

struct Project {
  QString input_path;          // absolute
  QByteArray input_sha256;     // lower-case hex
  nlohmann::json corrections;  // partial schema JSON
  PrivacySettings settings;
};

// The file's text; `project_path` is where it will be written (for the relative input path).
std::string projectText(const Project& project, const QString& project_path);

// Reads and validates a project file. The input path is resolved: the stored absolute path
// when that file exists, else the relative one (a project moved together with its data).
// Errors name the file and the JSON path.
Result<Project> readProject(const QString& path);

}  // namespace deniable::ui
