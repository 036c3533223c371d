// SPDX-License-Identifier: Apache-2.0
// Opening and saving what a session is made of: a CSV (or the demo dataset) and project files.
// Loading runs in the JobController's background job; when it succeeds the file becomes a
// recent file and, for a project, its input's SHA-256 is checked against the one saved.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include "engine/core/result.h"
#include "ui/project/project_file.h"

namespace deniable::ui {

class JobController;
class Session;

class SessionFiles : public QObject {
  Q_OBJECT

 public:
  SessionFiles(Session* session, JobController* jobs, QObject* parent = nullptr);

  // A .deniable path opens the project, anything else as a CSV. kFailedPrecondition while a
  // job runs.
  Status openPath(const QString& path);
  Status openCsv(const QString& path);
  // The bundled demo dataset, with its public facts (the codebook's category lists, from
  // adult_sample.schema.json beside it) applied as column settings.
  Status openDemo();
  Status openProject(const QString& path);
  Status saveProject(const QString& path);

  Project currentProject() const;
  // The project file last opened or saved (empty if none).
  const QString& projectPath() const { return project_path_; }

 signals:
  void opened(const QString& path);  // a CSV or project was opened successfully
  void warning(const QString& text);

 private:
  void onLoadFinished(bool succeeded);

  Session* session_;
  JobController* jobs_;
  QString pending_recent_;
  QByteArray expected_sha256_;
  QString project_path_;
};

}  // namespace deniable::ui
