// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/export_job.h"

#include <filesystem>
#include <system_error>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include "engine/core/atomic_file.h"
#include "engine/io/csv_writer.h"
#include "engine/model/description.h"
#include "ui/report/report_pdf.h"

namespace deniable::ui {
namespace {

// A hidden name beside the destination, so the final rename stays on one file system.
QString StagingPath(const QString& destination) {
  const QFileInfo info(destination);
  return info.dir().filePath(QStringLiteral(".") + info.fileName() +
                             QStringLiteral(".deniable-export"));
}

struct Planned {
  QString destination;
  QString what;
};

Status CheckDestinations(const std::vector<Planned>& planned, const QString& input) {
  const std::string input_path = input.toStdString();
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const std::string path = planned[i].destination.toStdString();
    if (auto s = CheckNotOverwritingInput(path, {input_path}); !s) return s.error();
    for (std::size_t j = 0; j < i; ++j) {
      if (QFileInfo(planned[i].destination).absoluteFilePath() ==
          QFileInfo(planned[j].destination).absoluteFilePath()) {
        return InvalidArgument(planned[i].what.toStdString() + " and " +
                               planned[j].what.toStdString() + " name the same file " + path);
      }
    }
  }
  return OkStatus();
}

// Fingerprints a staged file; the cancel poll is left out (hashing is short).
Status Fingerprint(StagedFile& file) {
  NullProgress progress;
  auto sha = Sha256OfFile(file.staging, progress);
  if (!sha) return sha.error();
  file.file.sha256 = sha.value();
  file.file.bytes = QFileInfo(file.staging).size();
  return OkStatus();
}

}  // namespace

void DiscardExport(StagedExport& staged) {
  for (const StagedFile& file : staged.files) {
    if (!file.staging.isEmpty()) QFile::remove(file.staging);
  }
  staged.files.clear();
}

StageOutcome StageExport(const ExportRequest& request, Progress& progress) {
  if (!request.run || !request.run->release || !request.run->release->synthetic) {
    return FailedPrecondition("there is no reviewed release to export: run first");
  }
  const RunRecord& run = *request.run;
  const QString input = run.request.data->path;
  std::vector<Planned> planned;
  if (!request.csv_path.isEmpty()) planned.push_back({request.csv_path, "Synthetic data (CSV)"});
  if (!request.description_path.isEmpty()) {
    planned.push_back({request.description_path, "Description (JSON)"});
  }
  for (const TextFile& file : request.text_files) planned.push_back({file.path, file.what});
  const RawTable* control = run.review ? run.review->control.get() : nullptr;
  if (!request.control_path.isEmpty()) {
    if (control == nullptr) return InvalidArgument("this run held no rows out: no control rows");
    planned.push_back({request.control_path, kControlRowsLabel});
  }
  if (!request.report_path.isEmpty()) planned.push_back({request.report_path, "Release report (HTML)"});
  if (!request.report_pdf_path.isEmpty()) {
    planned.push_back({request.report_pdf_path, "Release report (PDF)"});
  }
  if (planned.empty()) return InvalidArgument("nothing to export: choose at least one file");
  if (auto s = CheckDestinations(planned, input); !s) return s.error();

  auto staged = std::make_shared<StagedExport>();
  auto fail = [&staged](const Error& error) -> StageOutcome {
    DiscardExport(*staged);
    return error;
  };
  auto stage = [&staged](const QString& destination, const QString& what) -> StagedFile& {
    staged->files.push_back(StagedFile{WrittenFile{destination, what, {}, 0}, StagingPath(destination)});
    return staged->files.back();
  };
  if (!request.csv_path.isEmpty()) {
    StagedFile& file = stage(request.csv_path, planned.front().what);
    const RawTable& synthetic = *run.release->synthetic;
    CsvWriteOptions options;
    options.delimiter = synthetic.dialect.delimiter;
    options.crlf = synthetic.dialect.crlf;
    options.missing_tokens = run.request.schema.missing_tokens;
    SubProgress write_progress(progress, 0.0, 0.7);
    write_progress.Report(0.0, "Writing the synthetic CSV");
    if (auto s = WriteRawTable(file.staging.toStdString(), synthetic, options, write_progress); !s) {
      return fail(s.error());
    }
  }
  if (!request.description_path.isEmpty()) {
    progress.Report(0.7, "Writing the description");
    StagedFile& file = stage(request.description_path, QStringLiteral("Description (JSON)"));
    if (auto s = WriteDescription(file.staging.toStdString(), run.release->model.description); !s) {
      return fail(s.error());
    }
  }
  for (const TextFile& text : request.text_files) {
    StagedFile& file = stage(text.path, text.what);
    if (auto s = WriteFileAtomically(file.staging.toStdString(), text.contents); !s) {
      return fail(s.error());
    }
  }
  if (!request.control_path.isEmpty()) {
    progress.Report(0.75, "Writing the control rows");
    StagedFile& file = stage(request.control_path, QString::fromLatin1(kControlRowsLabel));
    CsvWriteOptions options;
    options.delimiter = control->dialect.delimiter;
    options.crlf = control->dialect.crlf;
    options.missing_tokens = run.request.schema.missing_tokens;
    options.owner_only = true;  // real rows (engine/evaluate/control_split.h)
    NullProgress quiet;
    if (auto s = WriteRawTable(file.staging.toStdString(), *control, options, quiet); !s) {
      return fail(s.error());
    }
  }
  progress.Report(0.8, "Computing SHA-256");
  for (StagedFile& file : staged->files) {
    if (auto s = Fingerprint(file); !s) return fail(s.error());
  }
  NullProgress uncancellable;
  auto input_sha = Sha256OfFile(input, uncancellable);
  if (input_sha) {
    staged->input_sha256 = input_sha.value();
    staged->input_changed = input_sha.value() != run.request.data->sha256;
  }
  if (progress.IsCancelled()) return fail(Cancelled("export cancelled; nothing was written"));
  progress.Report(1.0, "Files ready");
  return staged;
}

Status StageText(StagedExport& staged, const QString& path, const QString& what,
                 const std::string& contents) {
  staged.files.push_back(StagedFile{WrittenFile{path, what, {}, 0}, StagingPath(path)});
  StagedFile& file = staged.files.back();
  if (auto s = WriteFileAtomically(file.staging.toStdString(), contents); !s) {
    file.staging.clear();
    return s;
  }
  return Fingerprint(file);
}

Status StageReport(StagedExport& staged, const ExportRequest& request, const QString& html) {
  if (!request.report_path.isEmpty()) {
    if (Status s = StageText(staged, request.report_path, QObject::tr("Release report (HTML)"),
                             html.toStdString());
        !s) {
      return s;
    }
  }
  if (!request.report_pdf_path.isEmpty()) {
    const QByteArray pdf = ReleaseReportPdf(html, request.report_title);
    if (Status s = StageText(staged, request.report_pdf_path, QObject::tr("Release report (PDF)"),
                             std::string(pdf.constData(), static_cast<std::size_t>(pdf.size())));
        !s) {
      return s;
    }
  }
  return OkStatus();
}

ExportOutcome CommitExport(StagedExport& staged) {
  // rename(2) within a directory replaces the destination atomically. Only a file system
  // failing between two renames could leave some destinations replaced.
  ExportReport report;
  for (StagedFile& file : staged.files) {
    std::error_code error;
    std::filesystem::rename(std::filesystem::path(file.staging.toStdString()),
                            std::filesystem::path(file.file.path.toStdString()), error);
    if (error) {
      const std::string path = file.file.path.toStdString();
      DiscardExport(staged);
      return IoError(path + ": cannot move the written file into place (" + error.message() + ")");
    }
    file.staging.clear();
    report.files.push_back(file.file);
  }
  report.input_sha256 = staged.input_sha256;
  report.input_changed = staged.input_changed;
  return report;
}

ExportOutcome ExportFiles(const ExportRequest& request, Progress& progress) {
  auto staged = StageExport(request, progress);
  if (!staged) return staged.error();
  return CommitExport(*staged.value());
}

}  // namespace deniable::ui
