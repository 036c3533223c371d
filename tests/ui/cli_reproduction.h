// SPDX-License-Identifier: Apache-2.0
// For the workflow tests: the GUI's last run exported, then the CLI command the Export page
// shows, run with the deniable-cli built from the same sources (tests/CMakeLists.txt makes
// ui_tests depend on it). A seeded run must come out byte for byte the same both ways.
#pragma once

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/export_page.h"
#include "ui/project/cli_command.h"
#include "ui/session/session.h"

namespace deniable::ui::test_support {

inline QString CliPath() {
#ifdef DENIABLE_CLI_PATH
  return QStringLiteral(DENIABLE_CLI_PATH);
#else
  return QString();
#endif
}

inline QByteArray ReadAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct CliReproduction {
  QStringList args;                        // the CLI command's arguments
  QByteArray gui_csv, gui_description;     // what the Export page wrote
  QByteArray cli_csv, cli_description;     // what the CLI wrote
};

// Exports the window's last run into a temporary folder and runs the CLI command for it.
// Records a test failure (and returns what it has) when a step fails.
inline CliReproduction ReproduceWithCli(MainWindow& window) {
  CliReproduction out;
  QTemporaryDir dir;
  ExportPage* exporter = window.exportPage();
  exporter->setDirectory(dir.path());
  const JobOutcome exported = runJob(*window.jobs(), [exporter] { ASSERT_TRUE(exporter->startExport()); });
  EXPECT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();
  const Session& session = *window.session();
  const QString cli_output = dir.filePath(QStringLiteral("cli.csv"));
  const QString cli_description = dir.filePath(QStringLiteral("cli-description.json"));
  out.args = cliArguments(session.result()->request.settings, session.result()->request.rows,
                          {session.data()->path, exporter->outputPath(ExportPage::kSchema),
                           cli_output, cli_description});
  QProcess cli;
  cli.start(CliPath(), out.args);
  EXPECT_TRUE(cli.waitForFinished(120'000));
  EXPECT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  out.gui_csv = ReadAll(exporter->outputPath(ExportPage::kCsv));
  out.gui_description = ReadAll(exporter->outputPath(ExportPage::kDescription));
  out.cli_csv = ReadAll(cli_output);
  out.cli_description = ReadAll(cli_description);
  return out;
}

}  // namespace deniable::ui::test_support
