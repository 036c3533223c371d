// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/export_page.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/core/atomic_file.h"
#include "engine/schema/schema_json.h"
#include "ui/app/app_settings.h"
#include "ui/project/cli_command.h"
#include "ui/project/session_files.h"
#include "ui/report/release_report.h"
#include "ui/report/report_charts.h"
#include "ui/review/risk_facts.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/errors.h"
#include "ui/text/format.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/page_header.h"

namespace deniable::ui {
namespace {

struct OutputSpec {
  const char* label;
  const char* suffix;
  const char* filter;
  const char* tip;
};

const OutputSpec kOutputs[ExportPage::kOutputCount] = {
    {"Synthetic data (CSV)", "-synthetic.csv", "CSV (*.csv)",
     "Exactly the synthetic rows you reviewed"},
    {"Description (JSON)", "-description.json", "JSON (*.json)",
     "The private model, its domains and the privacy ledger: 'deniable-cli generate' can make "
     "more rows from it without the real data"},
    {"Release report (HTML)", "-report.html", "HTML (*.html)",
     "A report for the people who receive the data: parameters, ledger, guarantees, charts, "
     "fingerprints"},
    {"Release report (PDF)", "-report.pdf", "PDF (*.pdf)",
     "The same report as a PDF (A4, numbered pages), to print or attach"},
    {"Column settings (schema JSON)", "-schema.json", "JSON (*.json)",
     "The column types and roles, in the format deniable-cli takes with --schema"},
    {"Project (.deniable)", ".deniable", "Deniable project (*.deniable)",
     "Your settings and the input's path and fingerprint, without any data: reopen it later. "
     "Keep it to yourself: it names your input file, and the input's fingerprint lets someone "
     "who knows every record but one test a guess about the last"},
    {kControlRowsLabel, "-control.csv", "CSV (*.csv)",
     "The real rows the run held out for the attack tests (Privacy page), written readable by "
     "you only: real data, not part of the release; keep it to yourself"},
};

QString defaultDirectory(const QString& input) {
  const QString preferred = AppSettings::preferences().export_directory;
  if (!preferred.isEmpty() && QFileInfo(preferred).isDir()) return preferred;
  const QString beside = QFileInfo(input).absolutePath();
  if (QFileInfo(beside).isWritable()) return beside;
  return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

}  // namespace

ExportPage::ExportPage(Session* session, JobController* jobs, SessionFiles* files, QWidget* parent)
    : QWidget(parent), session_(session), jobs_(jobs), files_(files), banner_(new MessageBanner(this)) {
  export_ = new QPushButton(tr("Export"), this);
  export_->setToolTip(tr("Write the chosen files (Ctrl+E). All are written or none; your input "
                         "is never overwritten."));
  connect(export_, &QPushButton::clicked, this, &ExportPage::startExport);

  fingerprints_ = new QTreeWidget(this);
  fingerprints_->setHeaderLabels({tr("File"), tr("SHA-256")});
  fingerprints_->setAlternatingRowColors(true);
  fingerprints_->setRootIsDecorated(false);
  fingerprints_->setToolTip(tr("SHA-256 fingerprints: anyone can check that a file is exactly "
                               "the one released (sha256sum FILE)"));
  auto* fingerprints_box = new QGroupBox(tr("Fingerprints"), this);
  auto* fingerprints_layout = new QVBoxLayout(fingerprints_box);
  fingerprints_layout->addWidget(fingerprints_);

  command_ = new QPlainTextEdit(this);
  command_->setReadOnly(true);
  command_->setMaximumHeight(80);
  command_->setToolTip(tr("The deniable-cli command that makes the same kind of release "
                          "without this window (new random noise each time)"));
  copy_ = new QPushButton(tr("Copy as CLI command"), this);
  copy_->setToolTip(tr("Copy the command to the clipboard; the column settings file it names is "
                       "saved first"));
  connect(copy_, &QPushButton::clicked, this, [this] {
    auto copied = copyCliCommand();
    if (!copied) {
      banner_->showMessage(MessageBanner::Kind::kError, describeError(copied.error()));
    } else {
      banner_->showMessage(MessageBanner::Kind::kInfo, tr("Command copied to the clipboard."));
    }
  });
  auto* command_box = new QGroupBox(tr("Command line"), this);
  auto* command_layout = new QHBoxLayout(command_box);
  command_layout->addWidget(command_, 1);
  command_layout->addWidget(copy_, 0, Qt::AlignTop);

  // Below the header the page scrolls: at 1024 × 700 (issue 12, part 5) the outputs, the
  // fingerprints and the command line do not all fit.
  fingerprints_->setMinimumHeight(90);
  auto* content = new QWidget;
  auto* inner = new QVBoxLayout(content);
  inner->setContentsMargins(0, 0, 0, 0);
  inner->addWidget(banner_);
  inner->addWidget(buildOutputs());
  inner->addWidget(fingerprints_box, 1);
  inner->addWidget(command_box);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kExport, this));
  layout->addWidget(scroll, 1);

  connect(session_, &Session::dataChanged, this, [this] {
    fingerprints_->clear();
    banner_->hide();
    run_notice_.clear();
    if (session_->hasInput() && session_->data()->path != input_path_) {
      input_path_ = session_->data()->path;
      setDirectory(defaultDirectory(input_path_));
    }
    refresh();
  });
  for (auto signal : {&Session::resultChanged, &Session::stateChanged}) {
    connect(session_, signal, this, &ExportPage::refresh);
  }
  connect(jobs_, &JobController::finished, this,
          [this](JobController::Kind kind, JobController::End end, const QString& message) {
            if (kind == JobController::Kind::kExport) {
              onExportFinished(message, end == JobController::End::kSucceeded);
            }
            refresh();
          });
  connect(jobs_, &JobController::started, this, &ExportPage::refresh);
  refresh();
}

QWidget* ExportPage::buildOutputs() {
  auto* box = new QGroupBox(tr("What to write, and where"), this);
  auto* grid = new QGridLayout(box);
  for (int i = 0; i < kOutputCount; ++i) {
    Row& row = rows_[static_cast<std::size_t>(i)];
    const OutputSpec& spec = kOutputs[i];
    row.enabled = new QCheckBox(tr(spec.label), box);
    row.enabled->setChecked(i != kProject && i != kControl);
    row.enabled->setToolTip(tr(spec.tip));
    row.path = new QLineEdit(box);
    row.path->setToolTip(tr("Where to write it"));
    row.browse = new QPushButton(tr("Browse…"), box);
    row.browse->setToolTip(tr("Choose the file name"));
    connect(row.browse, &QPushButton::clicked, this, [this, i] {
      const QString path = QFileDialog::getSaveFileName(this, tr(kOutputs[i].label), outputPath(static_cast<Output>(i)),
                                                        tr(kOutputs[i].filter));
      if (!path.isEmpty()) setOutputPath(static_cast<Output>(i), path);
    });
    connect(row.path, &QLineEdit::textChanged, this, &ExportPage::refresh);
    connect(row.enabled, &QCheckBox::toggled, this, &ExportPage::refresh);
    if (i == kControl) {
      // Beside "Put all in a folder…", with no path field of its own: its file goes beside the
      // others (a line of its own would make the page taller than a 700-pixel window allows).
      row.enabled->setToolTip(tr(spec.tip) + tr(" (written beside the other files as "
                                                 "NAME-control.csv)"));
      row.path->hide();
      row.browse->hide();
      continue;
    }
    grid->addWidget(row.enabled, i, 0);
    grid->addWidget(row.path, i, 1);
    grid->addWidget(row.browse, i, 2);
  }
  auto* folder = new QPushButton(tr("Put all in a folder…"), box);
  folder->setToolTip(tr("Choose one folder for every file (names from the input's name)"));
  connect(folder, &QPushButton::clicked, this, [this] {
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Export folder"),
                                                                QFileInfo(outputPath(kCsv)).absolutePath());
    if (!directory.isEmpty()) setDirectory(directory);
  });
  grid->addWidget(folder, kOutputCount, 0);
  grid->addWidget(rows_[kControl].enabled, kOutputCount, 1, 1, 2);
  grid->addWidget(export_, kOutputCount + 1, 2);
  grid->setColumnStretch(1, 1);
  owner_report_ = new QCheckBox(tr("Add the owner-only part (real-data statistics: do not publish)"),
                                box);
  owner_report_->setToolTip(tr("Adds your input's path and fingerprint, the utility metrics, "
                               "histograms and heatmaps, and the disclosure risk analysis and the "
                               "attacks on the release if you computed them in Review, to the "
                               "report. They are exact statistics "
                               "of the real data: keep such a report to yourself."));
  // Under the names and paths (spanning both columns), so that its text does not widen the
  // path column: the page fits a 1024-pixel-wide window.
  grid->addWidget(owner_report_, kOutputCount + 1, 0, 1, 2);
  return box;
}

void ExportPage::setDirectory(const QString& directory) {
  const QString base = QFileInfo(input_path_).completeBaseName();
  for (int i = 0; i < kOutputCount; ++i) {
    rows_[static_cast<std::size_t>(i)].path->setText(
        QDir(directory).filePath(base + QString::fromLatin1(kOutputs[i].suffix)));
  }
}

void ExportPage::setOutputEnabled(Output output, bool enabled) {
  rows_[static_cast<std::size_t>(output)].enabled->setChecked(enabled);
}

void ExportPage::setOutputPath(Output output, const QString& path) {
  rows_[static_cast<std::size_t>(output)].path->setText(path);
}

QString ExportPage::outputPath(Output output) const {
  return rows_[static_cast<std::size_t>(output)].path->text().trimmed();
}

bool ExportPage::outputEnabled(Output output) const {
  const Row& row = rows_[static_cast<std::size_t>(output)];
  return row.enabled->isEnabled() && row.enabled->isChecked() && !outputPath(output).isEmpty();
}

void ExportPage::refresh() {
  const auto& result = session_->result();
  export_->setEnabled(result != nullptr && !jobs_->busy());
  copy_->setEnabled(result != nullptr);
  // The control rows only for a run that held rows out.
  const bool control = result && result->review && result->review->control;
  const Row& controlRow = rows_[kControl];
  for (QWidget* widget : {static_cast<QWidget*>(controlRow.enabled),
                          static_cast<QWidget*>(controlRow.path),
                          static_cast<QWidget*>(controlRow.browse)}) {
    widget->setEnabled(control);
  }
  if (!result) {
    command_->setPlainText(tr("Run a synthesis first: the command reproduces the reviewed run."));
    if (!session_->hasInput()) banner_->hide();
    return;
  }
  const CliCommandFiles files{session_->data()->path, outputPath(kSchema), outputPath(kCsv),
                              outputEnabled(kDescription) ? outputPath(kDescription) : QString()};
  command_->setPlainText(cliCommand(result->request.settings, result->request.rows, files));
  if (!jobs_->busy()) showRunNotice(runNotice());
}

QString ExportPage::runNotice() const {
  const auto& result = session_->result();
  if (!result) return {};
  if (result->request.settings.reproducible) {
    return tr("This run used a fixed seed (reproducible mode): anyone who knows the seed can "
              "recompute the noise. It is NOT a private release — for testing only.");
  }
  if (session_->resultIsStale()) {
    return tr("The settings changed after the last run. Export writes the run you reviewed "
              "(made with the earlier settings); run again to export the current ones.");
  }
  return {};
}

void ExportPage::showRunNotice(const QString& notice) {
  if (notice == run_notice_) return;  // shown already, or replaced by a newer message
  // A notice that no longer holds (a new run, an undone change) goes away; other messages
  // (an export's outcome) stay.
  if (notice.isEmpty()) {
    if (banner_->isVisibleTo(this) && banner_->text() == run_notice_) banner_->hide();
  } else {
    banner_->showMessage(MessageBanner::Kind::kWarning, notice);
  }
  run_notice_ = notice;
}

bool ExportPage::startExport() {
  const auto& result = session_->result();
  if (!result) {
    banner_->showMessage(MessageBanner::Kind::kError, tr("Run a synthesis first."));
    return false;
  }
  ExportRequest request;
  request.run = result;
  if (outputEnabled(kCsv)) request.csv_path = outputPath(kCsv);
  if (outputEnabled(kDescription)) request.description_path = outputPath(kDescription);
  if (outputEnabled(kControl) && result->review && result->review->control) {
    request.control_path = outputPath(kControl);
  }
  if (outputEnabled(kSchema)) {
    request.text_files.push_back({outputPath(kSchema), tr(kOutputs[kSchema].label),
                                  SchemaJsonText(result->request.schema, /*include_stats=*/false)});
  }
  if (outputEnabled(kProject)) {
    request.text_files.push_back({outputPath(kProject), tr(kOutputs[kProject].label),
                                  projectText(files_->currentProject(), outputPath(kProject))});
  }
  if (outputEnabled(kReport) || outputEnabled(kReportPdf)) {
    if (outputEnabled(kReport)) request.report_path = outputPath(kReport);
    if (outputEnabled(kReportPdf)) request.report_pdf_path = outputPath(kReportPdf);
    ReportContext context;
    context.input_path = result->request.data->path;
    context.input_sha256 = QString::fromLatin1(result->request.data->sha256);
    context.cli_command = commandText();
    ReportOptions options;
    options.audience = owner_report_->isChecked() ? ReportAudience::kOwner : ReportAudience::kShareable;
    if (risk_run_ == result->review) options.risk = risk_;  // only the reviewed run's analysis
    if (attacks_run_ == result->review) {
      options.attacks = attacks_;
      options.attack_threshold = attack_threshold_;
    }
    request.report_title = tr("Synthetic data release report");
    request.report_charts = ReportCharts(result->review, options);
    // On a worker (no QObject here): the labels are translated now.
    request.build_report_html =
        [review = result->review, context, options,
         unreleased =
             QStringList{tr(kOutputs[kProject].label), QString::fromLatin1(kControlRowsLabel)}](
            const StagedExport& staged, const ReportImages& images) mutable -> Result<QString> {
      for (const StagedFile& file : staged.files) {
        // Not part of the release: the project, the control rows (real rows).
        if (unreleased.contains(file.file.what)) continue;
        context.outputs.push_back({file.file.what, file.file.path, QString::fromLatin1(file.file.sha256)});
      }
      return BuildReleaseReportHtml(*review, context, options, images);
    };
  }
  if (!jobs_->startExport(request)) {
    banner_->showMessage(MessageBanner::Kind::kError, tr("Another job is running: wait for it or "
                                                         "cancel it."));
    return false;
  }
  banner_->showMessage(MessageBanner::Kind::kInfo, tr("Exporting…"));
  return true;
}

void ExportPage::onExportFinished(const QString& message, bool succeeded) {
  if (!succeeded) {
    banner_->showMessage(MessageBanner::Kind::kError, message);
    return;
  }
  const ExportReport& report = jobs_->lastExport();
  showFingerprints(report);
  QString text = message + QStringLiteral(".");
  if (report.input_changed) {
    banner_->showMessage(MessageBanner::Kind::kWarning,
                         text + tr(" Warning: the input file changed on disk since it was "
                                   "opened (its SHA-256 differs)."));
  } else {
    banner_->showMessage(MessageBanner::Kind::kInfo, text);
  }
}

void ExportPage::showFingerprints(const ExportReport& report) {
  fingerprints_->clear();
  auto add = [this](const QString& path, const QString& what, std::int64_t bytes,
                    const QByteArray& sha) {
    auto* item = new QTreeWidgetItem(fingerprints_);
    item->setText(0, QStringLiteral("%1\n%2 · %3").arg(QFileInfo(path).fileName(), what, formatBytes(bytes)));
    item->setToolTip(0, path);
    item->setText(1, QString::fromLatin1(sha));
    item->setToolTip(1, tr("SHA-256 of %1 (check with: sha256sum FILE)").arg(QFileInfo(path).fileName()));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setPointSizeF(fingerprints_->font().pointSizeF() * 0.85);
    item->setFont(1, mono);
  };
  const auto& input = session_->result()->request.data;
  add(input->path, tr("Input (never released)"), input->bytes, input->sha256);
  for (const WrittenFile& file : report.files) add(file.path, file.what, file.bytes, file.sha256);
  fingerprints_->resizeColumnToContents(0);
}

Result<QString> ExportPage::copyCliCommand() {
  const auto& result = session_->result();
  if (!result) return FailedPrecondition("run a synthesis first");
  const QString schema_path = outputPath(kSchema);
  if (schema_path.isEmpty()) return InvalidArgument("choose where to save the column settings");
  if (auto s = CheckNotOverwritingInput(schema_path.toStdString(), {result->request.data->path.toStdString()});
      !s) {
    return s.error();
  }
  if (auto s = WriteFileAtomically(schema_path.toStdString(),
                                   SchemaJsonText(result->request.schema, /*include_stats=*/false));
      !s) {
    return s.error();
  }
  const QString command = command_->toPlainText();
  QApplication::clipboard()->setText(command);
  return command;
}

QString ExportPage::commandText() const { return command_->toPlainText(); }
QString ExportPage::bannerText() const { return banner_->text(); }

void ExportPage::setRiskAnalysis(std::shared_ptr<const ReviewData> run,
                                 std::shared_ptr<const RiskAnalysis> analysis) {
  risk_run_ = std::move(run);
  risk_ = std::move(analysis);
}

void ExportPage::setAttackAnalysis(std::shared_ptr<const ReviewData> run,
                                   std::shared_ptr<const AttackAnalysis> analysis,
                                   double threshold) {
  attacks_run_ = std::move(run);
  attacks_ = std::move(analysis);
  attack_threshold_ = threshold;
}

void ExportPage::setOwnerReport(bool owner) { owner_report_->setChecked(owner); }

}  // namespace deniable::ui
