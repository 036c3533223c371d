// SPDX-License-Identifier: Apache-2.0
// Step 6, Export: what to write (the reviewed synthetic CSV, the description, the release
// report as HTML and/or PDF, the column settings, the project file) and where; the SHA-256 of the input and of
// every file written; and "Copy as CLI command", the deniable-cli line that reproduces the run
// with --schema pointing to the saved column settings. Writing runs in the background, all or
// nothing, never over the input (ExportFiles).
#pragma once

#include <array>
#include <memory>

#include <QWidget>

#include "engine/core/result.h"
#include "ui/tasks/export_job.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace deniable::ui {

struct ReviewData;
struct AttackAnalysis;
struct RiskAnalysis;
class JobController;
class MessageBanner;
class Session;
class SessionFiles;

class ExportPage : public QWidget {
  Q_OBJECT

 public:
  // kControl: the run's control rows (real rows held out for the attack tests), owner-only;
  // offered only for a run with a control split, off by default.
  enum Output {
    kCsv = 0, kDescription, kReport, kReportPdf, kSchema, kProject, kControl, kOutputCount
  };

  ExportPage(Session* session, JobController* jobs, SessionFiles* files, QWidget* parent = nullptr);

  // Every output's path becomes DIRECTORY/<input name>-<suffix>.
  void setDirectory(const QString& directory);
  void setOutputEnabled(Output output, bool enabled);
  void setOutputPath(Output output, const QString& path);
  QString outputPath(Output output) const;
  bool outputEnabled(Output output) const;

  // Starts the export (false with a message in the banner when it cannot).
  bool startExport();
  // The command for the reviewed run; writes the schema file it names when needed.
  Result<QString> copyCliCommand();
  QString commandText() const;
  QString bannerText() const;
  // The Review's last Disclosure risk analysis and the run it was computed on: an owner report
  // of that run includes it (the main window forwards ReviewPage::riskAnalysed).
  void setRiskAnalysis(std::shared_ptr<const ReviewData> run,
                       std::shared_ptr<const RiskAnalysis> analysis);
  // The Review's last attacks on the release (and the run, and the owner's threshold): an owner
  // report of that run includes them (the main window forwards ReviewPage::attacksAnalysed).
  void setAttackAnalysis(std::shared_ptr<const ReviewData> run,
                         std::shared_ptr<const AttackAnalysis> analysis, double threshold);
  void setOwnerReport(bool owner);

 private:
  QWidget* buildOutputs();
  void refresh();
  // The warning about the reviewed run (a fixed seed; settings changed since it), or empty.
  QString runNotice() const;
  void showRunNotice(const QString& notice);
  void onExportFinished(const QString& message, bool succeeded);
  void showFingerprints(const ExportReport& report);

  struct Row {
    QCheckBox* enabled = nullptr;
    QLineEdit* path = nullptr;
    QPushButton* browse = nullptr;
  };

  Session* session_;
  JobController* jobs_;
  SessionFiles* files_;
  MessageBanner* banner_;
  std::array<Row, kOutputCount> rows_;
  QCheckBox* owner_report_;
  QPushButton* export_;
  QTreeWidget* fingerprints_;
  QPlainTextEdit* command_;
  QPushButton* copy_;
  QString input_path_;
  QString run_notice_;  // the run notice last shown (empty: none)
  std::shared_ptr<const ReviewData> risk_run_;
  std::shared_ptr<const RiskAnalysis> risk_;
  std::shared_ptr<const ReviewData> attacks_run_;
  std::shared_ptr<const AttackAnalysis> attacks_;
  double attack_threshold_ = 0.1;
};

}  // namespace deniable::ui
