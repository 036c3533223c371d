// SPDX-License-Identifier: Apache-2.0
#include "ui/project/session_files.h"

#include <QDir>
#include <QFileInfo>

#include "engine/core/atomic_file.h"
#include "engine/schema/schema_json.h"
#include "ui/app/app_settings.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"

namespace deniable::ui {

SessionFiles::SessionFiles(Session* session, JobController* jobs, QObject* parent)
    : QObject(parent), session_(session), jobs_(jobs) {
  connect(jobs_, &JobController::finished, this,
          [this](JobController::Kind kind, JobController::End end) {
            if (kind == JobController::Kind::kLoad) {
              onLoadFinished(end == JobController::End::kSucceeded);
            }
          });
}

Status SessionFiles::openPath(const QString& path) {
  if (path.endsWith(QStringLiteral(".deniable"), Qt::CaseInsensitive)) return openProject(path);
  return openCsv(path);
}

Status SessionFiles::openCsv(const QString& path) {
  if (!QFileInfo(path).isFile()) return IoError(path.toStdString() + ": no such file");
  LoadRequest request;
  request.path = QFileInfo(path).absoluteFilePath();
  if (!jobs_->startLoad(request)) return FailedPrecondition("another job is running; wait or cancel it");
  pending_recent_ = request.path;
  expected_sha256_.clear();
  return OkStatus();
}

Status SessionFiles::openDemo() {
  const QString path = AppSettings::demoDatasetPath();
  if (!QFileInfo::exists(path)) {
    return IoError("the demo dataset is not installed (looked for " + path.toStdString() + ")");
  }
  // The demo's public facts: the codebook's category lists (resources/demo/README.md), as the
  // CLI demo uses them. Without the file the demo opens with the inferred columns.
  const QString schema = QFileInfo(path).absoluteDir().filePath(
      QFileInfo(path).completeBaseName() + QStringLiteral(".schema.json"));
  if (!QFileInfo::exists(schema)) return openCsv(path);
  auto corrections = ReadJsonFile(schema.toStdString());
  if (!corrections) return corrections.error();
  LoadRequest request;
  request.path = QFileInfo(path).absoluteFilePath();
  request.corrections = corrections.value();
  request.corrections_source = QFileInfo(schema).fileName().toStdString();
  if (!jobs_->startLoad(request)) return FailedPrecondition("another job is running; wait or cancel it");
  pending_recent_ = request.path;
  expected_sha256_.clear();
  return OkStatus();
}

Status SessionFiles::openProject(const QString& path) {
  auto project = readProject(path);
  if (!project) return project.error();
  if (!QFileInfo(project->input_path).isFile()) {
    return IoError(QFileInfo(path).fileName().toStdString() + ": its input file " +
                   project->input_path.toStdString() + " was not found");
  }
  LoadRequest request;
  request.path = project->input_path;
  request.corrections = project->corrections;
  request.corrections_source = QFileInfo(path).fileName().toStdString() + ": columns";
  if (!jobs_->startLoad(request, &project->settings)) {
    return FailedPrecondition("another job is running; wait or cancel it");
  }
  pending_recent_ = QFileInfo(path).absoluteFilePath();
  expected_sha256_ = project->input_sha256;
  project_path_ = pending_recent_;
  return OkStatus();
}

Project SessionFiles::currentProject() const {
  Project project;
  if (session_->hasInput()) {
    project.input_path = session_->data()->path;
    project.input_sha256 = session_->data()->sha256;
  }
  project.corrections = session_->corrections();
  project.settings = session_->settings();
  return project;
}

Status SessionFiles::saveProject(const QString& path) {
  if (!session_->hasInput()) return FailedPrecondition("open a CSV file before saving a project");
  const std::string destination = path.toStdString();
  if (auto s = CheckNotOverwritingInput(destination, {session_->data()->path.toStdString()}); !s) {
    return s.error();
  }
  if (auto s = WriteFileAtomically(destination, projectText(currentProject(), path)); !s) return s;
  project_path_ = QFileInfo(path).absoluteFilePath();
  AppSettings::addRecentFile(project_path_);
  return OkStatus();
}

void SessionFiles::onLoadFinished(bool succeeded) {
  const QString opened_path = pending_recent_;
  pending_recent_.clear();
  if (!succeeded || opened_path.isEmpty()) return;
  AppSettings::addRecentFile(opened_path);
  if (!expected_sha256_.isEmpty() && session_->hasInput() &&
      session_->data()->sha256 != expected_sha256_) {
    emit warning(tr("The input file has changed since the project was saved (its SHA-256 "
                    "differs). The saved settings were applied; check the columns and the "
                    "results before you release anything."));
  }
  expected_sha256_.clear();
  emit opened(opened_path);
}

}  // namespace deniable::ui
