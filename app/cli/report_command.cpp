// SPDX-License-Identifier: Apache-2.0
// deniable-cli report (#11): the release report, as HTML or PDF, from a release's files — the
// same report the desktop app's Export step writes (ui/report/release_report.h), built from the
// same ReviewData.
//
// The only command that starts Qt: the report's charts are Qt Widgets rendered offscreen, so
// this command creates a QApplication on the "offscreen" platform (unless QT_QPA_PLATFORM names
// another) after every file has been read; no other command creates one. Built only with the
// desktop app (DENIABLE_BUILD_GUI): deniable-cli links deniable_ui for it.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <QApplication>
#include <QtGlobal>
#include <QFileInfo>
#include <QLocale>

#include "app/cli/commands.h"
#include "app/cli/stderr_progress.h"
#include "engine/core/atomic_file.h"
#include "engine/io/csv_reader.h"
#include "engine/metrics/marginals.h"
#include "engine/model/description.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema_json.h"
#include "ui/app/app_setup.h"
#include "ui/report/release_report.h"
#include "ui/review/review_data.h"
#include "ui/review/risk_facts.h"

namespace deniable::cli {
namespace {

using ui::RiskAnalysis;
using ui::RiskColumns;
using ui::RiskRequest;

// Qt's notes that concern a desktop session, not an offscreen render (no XDG_RUNTIME_DIR, a
// platform without window hints) would read as problems on a terminal: they are dropped; any
// other message is printed as Qt prints it.
void FilterQtMessages(QtMsgType type, const QMessageLogContext& /*context*/, const QString& text) {
  if (type == QtDebugMsg || type == QtInfoMsg) return;
  if (text.startsWith(QStringLiteral("QStandardPaths: XDG_RUNTIME_DIR not set")) ||
      text.startsWith(QStringLiteral("This plugin does not support"))) {
    return;
  }
  std::fprintf(stderr, "%s\n", text.toLocal8Bit().constData());
}

// The run's settings as far as a report needs them (mode, ε, δ), from the description file.
ModelSettings SettingsOf(const Description& description) {
  ModelSettings settings;
  settings.mode = ParseSynthesisMode(description.mode).value_or(SynthesisMode::kCorrelated);
  const nlohmann::json& parameters = description.parameters;
  if (parameters.is_object()) {
    if (parameters.contains("epsilon") && parameters["epsilon"].is_number()) {
      settings.epsilon = parameters["epsilon"].get<double>();
    }
    if (parameters.contains("delta") && parameters["delta"].is_number()) {
      settings.delta = parameters["delta"].get<double>();
    }
  }
  return settings;
}

// What a deniable release's summary says about its candidates (the description keeps the
// run's summary under guarantee.run); the other modes have none.
SynthesisSummary SummaryOf(const Description& description, std::size_t rows) {
  SynthesisSummary summary;
  summary.rows = rows;
  summary.guarantee = description.guarantee;
  summary.privacy = description.privacy;
  const nlohmann::json& run = description.guarantee.value("run", nlohmann::json());
  if (run.is_object()) {
    summary.candidates = run.value("attempts", std::uint64_t{0});
    summary.passed = run.value("passed", std::uint64_t{0});
  }
  return summary;
}

// Every modelled column of the description must be in the synthetic file: otherwise the two
// files are not one release.
Status CheckSameRelease(const Description& description, const RawTable& synthetic,
                        const std::string& description_path, const std::string& synthetic_path) {
  for (const ColumnSchema& column : description.schema.columns) {
    if (!column.is_modelled()) continue;
    if (synthetic.ColumnIndex(column.name) < 0) {
      return InvalidArgument(synthetic_path + ": has no column '" + column.name + "' of " +
                             description_path + "; are they the files of one release?");
    }
  }
  return OkStatus();
}

// The Disclosure risk analysis of the real table for the owner part, or null with a note on
// stderr when there is no sensitive attribute. An explicit --sensitive that cannot be analysed
// is an error.
Result<std::shared_ptr<const RiskAnalysis>> AnalyseRisk(const ParsedArgs& args,
                                                        const LoadedInput& real, double epsilon,
                                                        bool quiet, Progress& progress) {
  const RiskColumns columns = ui::riskColumnsOf(real.schema);
  const auto sensitive_option = args.get("--sensitive");
  const QString sensitive =
      sensitive_option ? QString::fromStdString(*sensitive_option) : columns.sensitive;
  QStringList quasi = columns.quasi;
  if (auto option = args.get("--quasi")) {
    quasi.clear();
    for (const std::string& name : SplitNames(*option)) {
      if (name.empty()) return InvalidArgument("--quasi has an empty column name ('" + *option + "')");
      if (real.table->ColumnIndex(name) < 0) {
        return InvalidArgument("--quasi: '" + name + "' is not a column of the real table");
      }
      quasi << QString::fromStdString(name);
    }
  }
  if (sensitive.isEmpty()) {
    if (!quiet) {
      std::fprintf(stderr,
                   "deniable-cli: note: no sensitive attribute (--sensitive C, or the role "
                   "\"sensitive\" in the schema): the report has no disclosure risk part\n");
    }
    return std::shared_ptr<const RiskAnalysis>();
  }
  const TableRiskOptions options = ui::riskOptions(sensitive, quasi, epsilon, 10, 0.1, 1.05);
  const QString problem = ui::riskRequestProblem(*real.table, options);
  if (!problem.isEmpty()) {
    return InvalidArgument((sensitive_option ? "--sensitive: " : "the schema's sensitive column: ") +
                           problem.toStdString());
  }
  RiskRequest request;
  request.table = real.table;
  request.options = options;
  request.epsilon = epsilon;
  auto analysis = ui::computeRisk(request, progress);
  if (!analysis) return analysis.error();
  return analysis.value();
}

int RunReport(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  const auto description_path = args.get("--description");
  const auto synthetic_path = args.get("--synthetic");
  const auto output = args.get("--output");
  const auto real_path = args.get("--real");
  const bool owner = args.has("--owner");
  if (!description_path) {
    return ReportError(InvalidArgument("--description D.json is required: the release's description file"));
  }
  if (!synthetic_path) {
    return ReportError(InvalidArgument("--synthetic S.csv is required: the release's synthetic data"));
  }
  if (!output) {
    return ReportError(InvalidArgument("-o REPORT.html or -o REPORT.pdf is required (the format "
                                       "follows the extension)"));
  }
  if (owner && !real_path) {
    return ReportError(InvalidArgument("--owner needs --real REAL.csv: the owner part compares "
                                       "the release with the real data"));
  }
  if (real_path && !owner) {
    return ReportError(InvalidArgument(
        "--real is read only for the owner part: add --owner (a shareable report holds no "
        "statistic of the real data)"));
  }
  if (!owner && (args.has("--sensitive") || args.has("--quasi") || args.has("--schema"))) {
    return ReportError(InvalidArgument("--sensitive, --quasi and --schema concern the real data: "
                                       "they need --owner --real REAL.csv"));
  }
  auto histograms = args.GetInteger("--histograms", 4);
  if (!histograms) return ReportError(histograms.error());
  if (histograms.value() < 0 || histograms.value() > 100) {
    return ReportError(InvalidArgument("--histograms must be between 0 and 100 (got " +
                                       std::to_string(histograms.value()) + ")"));
  }
  if (auto s = CheckNotOverwritingInput(*output, {*description_path, *synthetic_path,
                                                   real_path.value_or(*description_path)});
      !s) {
    return ReportError(s.error());
  }

  // Every file is read (and the owner's figures computed) before Qt starts.
  auto description = ReadDescription(*description_path);
  if (!description) return ReportError(description.error());
  if (description->reproducible_not_private && !quiet) {
    std::fprintf(stderr, "deniable-cli: WARNING: %s was made with a fixed seed (--seed): it is "
                         "reproducible and NOT a private release; the report says so.\n",
                 description_path->c_str());
  }
  StderrProgress progress(quiet);
  CsvReadOptions csv;
  csv.missing_tokens = description->schema.missing_tokens;
  SubProgress synthetic_progress(progress, 0.0, 0.2);
  auto synthetic = ReadCsv(*synthetic_path, csv, synthetic_progress);
  if (!synthetic) {
    progress.Finish();
    return ReportError(synthetic.error());
  }
  if (auto s = CheckSameRelease(description.value(), synthetic.value(), *description_path,
                                *synthetic_path);
      !s) {
    progress.Finish();
    return ReportError(s.error());
  }
  auto data = std::make_shared<ui::ReviewData>();
  data->description = description.value();
  data->settings = SettingsOf(data->description);
  data->summary = SummaryOf(data->description, synthetic->num_rows());
  data->synthetic = std::make_shared<const RawTable>(std::move(synthetic.value()));
  data->schema = data->description.schema;

  ui::ReportOptions options;
  options.histograms = static_cast<int>(histograms.value());
  ui::ReportContext context;
  if (owner) {
    options.audience = ui::ReportAudience::kOwner;
    // The real table read with the run's column settings (the description's schema) unless
    // --schema gives others.
    auto input = ReadInputSettings(args, *real_path);
    if (!input) {
      progress.Finish();
      return ReportError(input.error());
    }
    if (!input->schema) {
      input->schema = SchemaToJson(data->description.schema, /*include_stats=*/false);
      input->schema_source = *description_path;
    }
    SubProgress real_progress(progress, 0.2, 0.5);
    auto real = LoadInput(input.value(), real_progress);
    if (!real) {
      progress.Finish();
      return ReportError(real.error());
    }
    SubProgress compare_progress(progress, 0.5, 0.8);
    auto metrics = CompareTables(*real->table, *data->synthetic, real->schema, CompareOptions{},
                                 compare_progress);
    if (!metrics) {
      progress.Finish();
      return ReportError(metrics.error());
    }
    SubProgress risk_progress(progress, 0.8, 1.0);
    auto risk = AnalyseRisk(args, real.value(), data->settings.epsilon, quiet, risk_progress);
    if (!risk) {
      progress.Finish();
      return ReportError(risk.error());
    }
    options.risk = risk.value();
    data->real = real->table;
    data->schema = real->schema;
    data->metrics = std::move(metrics.value());
    data->input_path = QString::fromStdString(*real_path);
  }
  progress.Finish();

  // Qt starts here, offscreen unless the caller chose a platform.
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  qInstallMessageHandler(FilterQtMessages);
  static int argc = 1;
  static char name[] = "deniable-cli";
  static char* argv[] = {name, nullptr};
  QApplication app(argc, argv);
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  ui::ensureResources();
  if (ui::ensureFonts() == 0) {
    return ReportError(FailedPrecondition(
        "no font found: the report's text cannot be rendered (install fonts-dejavu-core)"));
  }
  struct Named {
    std::string path;
    const char* what;
  };
  for (const Named& file : {Named{*synthetic_path, "Synthetic data (CSV)"},
                            Named{*description_path, "Description (JSON)"}}) {
    const QString path = QString::fromStdString(file.path);
    auto sha = ui::FileSha256(path);
    if (!sha) return ReportError(sha.error());
    context.outputs.push_back({QString::fromUtf8(file.what), path, sha.value()});
  }
  if (owner) {
    context.input_path = QFileInfo(QString::fromStdString(*real_path)).absoluteFilePath();
    auto sha = ui::FileSha256(QString::fromStdString(*real_path));
    if (!sha) return ReportError(sha.error());
    context.input_sha256 = sha.value();
  }
  const QString destination = QString::fromStdString(*output);
  if (auto s = ui::WriteReleaseReport(destination, *data, context, options); !s) {
    return ReportError(s.error());
  }
  if (!quiet) {
    std::printf("Wrote the %s release report (%s) to %s%s\n", owner ? "owner's" : "shareable",
                ui::ReportFormatOf(destination) == ui::ReportFormat::kPdf ? "PDF" : "HTML",
                output->c_str(),
                owner ? " — it holds statistics of the real data: do not publish it" : "");
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> ReportCommands() {
  return {
      {{"report",
        "--description D.json --synthetic S.csv -o REPORT.html|REPORT.pdf [--owner --real REAL.csv]",
        "the release report (HTML or PDF): guarantees, ledger, domains, model, file hashes",
        "The report the desktop app's Export step writes, from a release's files: the guarantee\n"
        "and its verdict, the parameters, the privacy ledger, the domains' provenance, the model's\n"
        "picture and the SHA-256 of S.csv and D.json. The format follows -o's extension (.pdf:\n"
        "PDF on A4; anything else: one self-contained HTML file). By default the report is\n"
        "shareable: it holds only what the release reveals. With --owner --real REAL.csv it adds\n"
        "a marked part for the data owner only (statistics of the real data: do not publish):\n"
        "the input's SHA-256, the utility metrics and charts and, when a sensitive attribute is\n"
        "given (--sensitive, or the role \"sensitive\" in the schema), the disclosure risk\n"
        "analysis at the release's epsilon (as 'deniable-cli risk') with the recommended epsilon.\n"
        "REAL.csv is read with the description's column settings unless --schema gives others.\n"
        "This command renders charts with Qt offscreen (QT_QPA_PLATFORM=offscreen unless set).",
        {},
        {{"--description", "", "D.json", "the release's description file (required)"},
         {"--synthetic", "", "S.csv", "the release's synthetic data (required)"},
         {"--output", "-o", "REPORT", "where to write the report: .html or .pdf (required)"},
         {"--owner", "", "", "add the owner-only part (needs --real)"},
         {"--real", "", "REAL.csv", "the real data the release was made from (owner part)"},
         {"--schema", "", "S.json", "column settings of REAL.csv (default: the description's)"},
         {"--sensitive", "", "C", "owner part: the sensitive column of the disclosure risk"},
         {"--quasi", "", "A,B", "owner part: the risk's quasi-identifiers (default: the roles)"},
         {"--histograms", "", "N", "owner part: charts of the N attributes that differ most (4)"},
         {"--delimiter", "", "C", "field delimiter of REAL.csv (default: detected)"},
         {"--missing", "", "LIST", "comma-separated missing-value tokens of REAL.csv"},
         {"--quiet", "-q", "", "no progress output"}}},
       RunReport},
  };
}

}  // namespace deniable::cli
