// SPDX-License-Identifier: Apache-2.0
#include "app/cli/commands.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

#include "app/cli/stderr_progress.h"
#include "engine/core/atomic_file.h"
#include "engine/core/random.h"
#include "engine/io/csv_writer.h"
#include "engine/metrics/marginals.h"
#include "engine/model/description.h"
#include "engine/model/encoding.h"
#include "engine/pipeline/settings_table.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/column_review.h"

namespace deniable::cli {
namespace {

using Clock = std::chrono::steady_clock;

// A model setting's option: its flag, value name and help come from the settings table
// (engine/pipeline/settings_table.h), as ReadModelSettings' parsing does.
OptionSpec SettingOption(const char* name) {
  const SettingSpec& spec = Setting(name);
  return OptionSpec{spec.cli_flag, "", spec.value_name, spec.help};
}

const OptionSpec kSchema{"--schema", "", "S.json", "column settings (types, roles, public domains) from 'inspect', possibly edited"};
const OptionSpec kDelimiter{"--delimiter", "", "C", "field delimiter (default: detected among , ; TAB |); 'tab' for TAB"};
const OptionSpec kMissing{"--missing", "", "LIST", "comma-separated missing-value tokens (default: empty,NA,N/A,null,?,NaN)"};
const OptionSpec kThreshold{"--categorical-threshold", "", "N", "columns with at most N distinct values are categorical (default 20)"};
const OptionSpec kMode = SettingOption("mode");
const OptionSpec kEpsilon = SettingOption("epsilon");
const OptionSpec kDelta = SettingOption("delta");
const OptionSpec kDegree = SettingOption("degree");
const OptionSpec kBins = SettingOption("bins");
const OptionSpec kStructure = SettingOption("structure_fraction");
const OptionSpec kDomainFraction = SettingOption("domain_fraction");
const OptionSpec kSeed{"--seed", "", "S", "fixed random seed: reproducible, NOT a private release (testing only)"};
const OptionSpec kThreads = SettingOption("threads");
const OptionSpec kQuiet{"--quiet", "-q", "", "no progress or summary output"};
const OptionSpec kRows{"--rows", "-n", "N", "number of synthetic rows to write"};
// Deniable mode (plausible deniability, issue #3).
const OptionSpec kK = SettingOption("k");
const OptionSpec kGamma = SettingOption("gamma");
const OptionSpec kOmega = SettingOption("omega_min");
const OptionSpec kEpsilon0 = SettingOption("epsilon0");
const OptionSpec kDeterministic = SettingOption("deterministic_test");
const OptionSpec kMaxcost = SettingOption("maxcost");
const OptionSpec kSplit = SettingOption("split");
const OptionSpec kMaxCandidates = SettingOption("max_candidates");
const OptionSpec kStructureMethod = SettingOption("structure");
// Marginals mode (select-measure-generate, issue 10).
const OptionSpec kMechanism = SettingOption("mechanism");
const OptionSpec kRounds = SettingOption("rounds");
const OptionSpec kMaxModelMb = SettingOption("max_model_mb");
const OptionSpec kTarget = SettingOption("target");
const OptionSpec kIterations = SettingOption("iterations");
const OptionSpec kAuditDir{"--audit-dir", "", "DIR", "deniable: write what an independent checker needs to recount k' (owner's eyes only, never part of a release)"};

int ExitCodeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return kExitUsage;
    case ErrorCode::kParse: return kExitBadInput;
    default: return kExitFailure;
  }
}

std::unique_ptr<Rng> MakeRng(const ParsedArgs& args, bool quiet, Result<long long>& seed_error) {
  seed_error = 0LL;
  if (!args.has("--seed")) return std::make_unique<SecureRng>();
  auto seed = args.GetInteger("--seed", 0);
  if (!seed) {
    seed_error = seed.error();
    return nullptr;
  }
  if (!quiet) {
    std::fprintf(stderr, "deniable-cli: WARNING: --seed makes the run reproducible: anyone who "
                         "knows the seed can recompute the noise. This is NOT a private release.\n");
  }
  return std::make_unique<SeededRng>(static_cast<std::uint64_t>(seed.value()));
}


Result<std::size_t> ReadRowCount(const ParsedArgs& args) {
  if (!args.has("--rows")) return InvalidArgument("-n (number of synthetic rows) is required");
  auto rows = args.GetInteger("--rows", 0);
  if (!rows) return rows.error();
  if (rows.value() < 1 || rows.value() > 2'000'000'000LL) {
    return InvalidArgument("-n must be between 1 and 2,000,000,000 (got " +
                           std::to_string(rows.value()) + ")");
  }
  return static_cast<std::size_t>(rows.value());
}

Result<std::string> RequireOutput(const ParsedArgs& args, std::initializer_list<std::string_view> inputs) {
  auto output = args.get("--output");
  if (!output || output->empty()) return InvalidArgument("-o OUTPUT is required");
  if (auto s = CheckNotOverwritingInput(*output, inputs); !s) return s.error();
  return *output;
}

// Without --schema the types and formats were inferred from the data without DP and go out with
// the release (docs/schema.md, "Privacy note"): say so, once, after a run.
void NoteInferredSchema(const ParsedArgs& args) {
  if (args.has("--schema")) return;
  std::printf("Note: column types and formats (decimals, date-time formats, identifier patterns) "
              "were inferred from the data and are published with the release; check them with "
              "'deniable-cli inspect' and pass them back with --schema (docs/schema.md).\n");
}

// Display-only members of a description (ledger, guarantee): a hand-edited file's member of the
// wrong kind prints as the fallback rather than failing the command.
double NumberOr(const nlohmann::json& object, const char* key, double fallback) {
  return object.is_object() && object.contains(key) && object[key].is_number()
             ? object[key].get<double>()
             : fallback;
}
std::string TextOr(const nlohmann::json& object, const char* key, const char* fallback) {
  return object.is_object() && object.contains(key) && object[key].is_string()
             ? object[key].get<std::string>()
             : std::string(fallback);
}

// The guarantee's one-line statement.
std::string StatementOf(const nlohmann::json& guarantee) {
  return TextOr(guarantee, "statement", "");
}

// The ledger as text.
std::string FormatLedger(const nlohmann::json& privacy) {
  std::ostringstream out;
  if (!privacy.is_object() || !privacy.contains("entries") || !privacy["entries"].is_array()) {
    return "";
  }
  out << "Privacy ledger:\n";
  for (const auto& entry : privacy["entries"]) {
    const auto& cost = entry.is_object() && entry.contains("cost") ? entry["cost"]
                                                                   : nlohmann::json::object();
    char line[512];
    const double rho = NumberOr(entry, "rho_each", 0);
    if (rho > 0) {  // zCDP entries compose by adding ρ; one conversion for all (the total)
      const double coupling = NumberOr(entry, "delta_each", 0) * NumberOr(entry, "count", 1);
      char kind[64];
      if (coupling > 0) {
        std::snprintf(kind, sizeof kind, "(zCDP) τ %.3g", coupling);
      } else {
        std::snprintf(kind, sizeof kind, "(zCDP)");
      }
      std::snprintf(line, sizeof line, "  ρ %-10.4g %-12s %-6s %s\n",
                    rho * NumberOr(entry, "count", 1), kind,
                    TextOr(entry, "partition", "all").c_str(), TextOr(entry, "label", "").c_str());
    } else {
      std::snprintf(line, sizeof line, "  ε %-10.4g δ %-9.3g %-6s %s\n",
                    NumberOr(cost, "epsilon", 0), NumberOr(cost, "delta", 0),
                    TextOr(entry, "partition", "all").c_str(), TextOr(entry, "label", "").c_str());
    }
    out << line;
  }
  if (privacy.contains("zcdp_delta")) {
    out << "  zCDP entries: ρ values add up; their sum is converted once to (ε, δ) at δ = "
        << NumberOr(privacy, "zcdp_delta", 0)
        << " (Canonne-Kamath-Steinke; plus e^ε·τ for an entry with a coupling τ) and included "
           "below\n";
  }
  if (privacy.contains("total")) {
    out << "  total: ε = " << NumberOr(privacy["total"], "epsilon", 0)
        << ", δ = " << NumberOr(privacy["total"], "delta", 0) << "\n";
  }
  return out.str();
}

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// ---- describe / synthesize --------------------------------------------------------------------

struct Learned {
  LoadedInput input;
  LearnedModel model;
  std::shared_ptr<const RawTable> control;  // --control-fraction: the held-out rows
  double control_fraction;
};

Result<Learned> LoadAndLearn(const ParsedArgs& args, Rng& rng, StderrProgress& progress) {
  auto input_settings = ReadInputSettings(args, args.positionals()[0]);
  if (!input_settings) return input_settings.error();
  auto settings = ReadModelSettings(args);
  if (!settings) return settings.error();
  // The control split (synthesize only): held out before anything is learned.
  double control_fraction = 0;
  if (args.has("--control-fraction")) {
    auto fraction = args.GetDouble("--control-fraction", 0);
    if (!fraction) return fraction.error();
    control_fraction = fraction.value();
    if (!(control_fraction > 0 && control_fraction < 1)) {
      return InvalidArgument("--control-fraction must be in (0, 1) (got " +
                             args.get("--control-fraction").value_or("") + ")");
    }
    if (!args.has("--control-out")) {
      return InvalidArgument("--control-fraction needs --control-out FILE (where the held-out "
                             "rows are written)");
    }
  } else if (args.has("--control-out")) {
    return InvalidArgument("--control-out needs --control-fraction F");
  }
  SubProgress load_progress(progress, 0.0, 0.4);
  auto input = LoadInputWithControl(input_settings.value(), control_fraction, &rng, load_progress);
  if (!input) {
    Error error = input.error();
    if (error.message.rfind("control-fraction", 0) == 0) error.message = "--" + error.message;
    return error;
  }
  if (input->control) settings->control_fraction = control_fraction;
  // The columns' review warnings (a non-unique identifier, a rare target class, values outside
  // a declared list...): on stderr, before the run, for the owner.
  if (!args.has("--quiet")) {
    for (const std::string& warning : SchemaWarnings(input->input.schema, *input->input.table)) {
      std::fprintf(stderr, "deniable-cli: warning: %s\n", warning.c_str());
    }
  }
  SubProgress learn_progress(progress, 0.4, 0.8);
  auto model = LearnModel(*input->input.table, input->input.schema, settings.value(), rng, learn_progress);
  if (!model) return model.error();
  return Learned{std::move(input->input), std::move(model.value()), input->control,
                 control_fraction};
}

int RunDescribe(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  const auto start = Clock::now();
  auto output = RequireOutput(args, {args.positionals()[0]});
  if (!output) return ReportError(output.error());
  Result<long long> seed_error = 0LL;
  auto rng = MakeRng(args, quiet, seed_error);
  if (!rng) return ReportError(seed_error.error());
  StderrProgress progress(quiet);
  auto learned = LoadAndLearn(args, *rng, progress);
  progress.Finish();
  if (!learned) return ReportError(learned.error());
  if (auto s = WriteDescription(output.value(), learned->model.description); !s) {
    return ReportError(s.error());
  }
  if (!quiet) {
    std::printf("Description written to %s (%.2f s)\n", output->c_str(), Seconds(start));
    std::fputs(FormatLedger(learned->model.description.privacy).c_str(), stdout);
    std::printf("Guarantee: %s\n",
                StatementOf(learned->model.description.guarantee).c_str());
    NoteInferredSchema(args);
  }
  return kExitOk;
}

int RunSynthesize(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  const auto start = Clock::now();
  const std::string input_path = args.positionals()[0];
  auto output = RequireOutput(args, {input_path});
  if (!output) return ReportError(output.error());
  auto description_path = args.get("--description");
  if (description_path) {
    if (auto s = CheckNotOverwritingInput(*description_path, {input_path}); !s) {
      return ReportError(s.error());
    }
    if (*description_path == output.value()) {
      return ReportError(InvalidArgument("--description and -o name the same file"));
    }
  }
  auto control_path = args.get("--control-out");
  if (control_path) {
    if (auto s = CheckNotOverwritingInput(*control_path, {input_path, output.value()}); !s) {
      return ReportError(s.error());
    }
    if (description_path && *description_path == *control_path) {
      return ReportError(InvalidArgument("--description and --control-out name the same file"));
    }
  }
  auto rows = ReadRowCount(args);
  if (!rows) return ReportError(rows.error());
  Result<long long> seed_error = 0LL;
  auto rng = MakeRng(args, quiet, seed_error);
  if (!rng) return ReportError(seed_error.error());
  StderrProgress progress(quiet);
  auto learned = LoadAndLearn(args, *rng, progress);
  if (!learned) {
    progress.Finish();
    return ReportError(learned.error());
  }
  SubProgress sample_progress(progress, 0.8, 0.9);
  auto synthetic = Synthesize(learned->model, *learned->input.table, rows.value(), *rng,
                              sample_progress);
  if (!synthetic) {
    progress.Finish();
    return ReportError(synthetic.error());
  }
  SubProgress write_progress(progress, 0.9, 1.0);
  if (learned->model.deniable) {  // the release's ledger and guarantee include the test
    learned->model.description.privacy = synthetic->summary.privacy;
    learned->model.description.guarantee = synthetic->summary.guarantee;
  }
  if (auto audit = args.get("--audit-dir")) {
    if (auto s = WriteDeniableAuditFor(learned->model, synthetic.value(), *audit); !s) {
      progress.Finish();
      return ReportError(s.error());
    }
  }
  const Description& description = learned->model.description;
  DecodeOptions decode;
  decode.delimiter = learned->input.table->dialect.delimiter;
  if (auto s = WriteSyntheticCsv(output.value(), synthetic->encoded, description.schema,
                                 description.domains, decode, *rng, write_progress);
      !s) {
    progress.Finish();
    return ReportError(s.error());
  }
  if (description_path) {
    if (auto s = WriteDescription(*description_path, description); !s) {
      progress.Finish();
      return ReportError(s.error());
    }
  }
  if (const auto& control = learned->control; control && control_path) {
    CsvWriteOptions control_options = WriteOptionsFor(control->dialect);
    control_options.owner_only = true;  // real rows
    NullProgress quiet_write;
    if (auto s = WriteRawTable(*control_path, *control, control_options, quiet_write); !s) {
      progress.Finish();
      return ReportError(s.error());
    }
  }
  progress.Finish();
  if (!quiet) {
    std::printf("Wrote %zu synthetic rows to %s%s%s (%.2f s)\n", rows.value(), output->c_str(),
                description_path ? " and the description to " : "",
                description_path ? description_path->c_str() : "", Seconds(start));
    if (learned->control && control_path) {
      std::printf("Held out %zu random rows (%.3g of the input) before learning: written to %s "
                  "(owner-only; for 'deniable-cli evaluate --control')\n",
                  learned->control->num_rows(), learned->control_fraction,
                  control_path->c_str());
    }
    std::fputs(FormatLedger(description.privacy).c_str(), stdout);
    if (learned->model.deniable) std::printf("%s\n", synthetic->summary.text.c_str());
    if (!synthetic->summary.model_text.empty()) {
      std::printf("%s\n", synthetic->summary.model_text.c_str());
    }
    std::printf("Guarantee for the whole release: %s\n",
                StatementOf(description.guarantee).c_str());
    for (const std::string& warning : learned->model.warnings) {
      std::printf("Warning: %s\n", warning.c_str());
    }
    if (description_path) {
      for (const std::string& warning : description.warnings) {
        std::printf("Note on %s: %s\n", description_path->c_str(), warning.c_str());
      }
    }
    NoteInferredSchema(args);
  }
  return kExitOk;
}

// ---- generate ---------------------------------------------------------------------------------

int RunGenerate(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  const auto start = Clock::now();
  const std::string description_path = args.positionals()[0];
  auto output = RequireOutput(args, {description_path});
  if (!output) return ReportError(output.error());
  auto rows = ReadRowCount(args);
  if (!rows) return ReportError(rows.error());
  Result<long long> seed_error = 0LL;
  auto rng = MakeRng(args, quiet, seed_error);
  if (!rng) return ReportError(seed_error.error());
  auto description = ReadDescription(description_path);
  if (!description) return ReportError(description.error());
  StderrProgress progress(quiet);
  SubProgress sample_progress(progress, 0.0, 0.5);
  auto encoded = GenerateFromDescription(description.value(), rows.value(), *rng, sample_progress);
  if (!encoded) {
    progress.Finish();
    return ReportError(encoded.error());
  }
  SubProgress write_progress(progress, 0.5, 1.0);
  DecodeOptions decode;
  if (description->schema.delimiter != 0) decode.delimiter = description->schema.delimiter;
  auto written = WriteSyntheticCsv(output.value(), encoded.value(), description->schema,
                                   description->domains, decode, *rng, write_progress);
  progress.Finish();
  if (!written) return ReportError(written.error());
  if (!quiet) {
    std::printf("Wrote %zu synthetic rows to %s from %s (%.2f s)\n", rows.value(),
                output->c_str(), description_path.c_str(), Seconds(start));
    if (description->guarantee.contains("statement")) {
      std::printf("Guarantee (from the description): %s\n",
                  description->guarantee["statement"].get<std::string>().c_str());
    }
    for (const std::string& warning : description->warnings) {
      std::printf("Warning: %s\n", warning.c_str());
    }
  }
  return kExitOk;
}

// ---- compare ----------------------------------------------------------------------------------

int RunCompare(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  const std::string real_path = args.positionals()[0];
  const std::string synthetic_path = args.positionals()[1];
  auto real_settings = ReadInputSettings(args, real_path);
  if (!real_settings) return ReportError(real_settings.error());
  StderrProgress progress(quiet);
  SubProgress real_progress(progress, 0.0, 0.4);
  auto real = LoadInput(real_settings.value(), real_progress);
  if (!real) {
    progress.Finish();
    return ReportError(real.error());
  }
  InputSettings synthetic_settings;
  synthetic_settings.path = synthetic_path;
  synthetic_settings.csv = real_settings->csv;
  SubProgress synthetic_progress(progress, 0.4, 0.7);
  auto synthetic = ReadCsv(synthetic_path, synthetic_settings.csv, synthetic_progress);
  if (!synthetic) {
    progress.Finish();
    return ReportError(synthetic.error());
  }
  SubProgress compare_progress(progress, 0.7, 1.0);
  CompareOptions options;
  auto report = CompareTables(*real->table, synthetic.value(), real->schema, options,
                              compare_progress);
  progress.Finish();
  if (!report) return ReportError(report.error());
  if (auto output = args.get("--output")) {
    if (auto s = CheckNotOverwritingInput(*output, {real_path, synthetic_path}); !s) {
      return ReportError(s.error());
    }
    if (auto s = WriteFileAtomically(*output, MetricReportToJson(report.value()).dump(2) + "\n"); !s) {
      return ReportError(s.error());
    }
  }
  if (!quiet) std::fputs(MetricReportSummary(report.value()).c_str(), stdout);
  return kExitOk;
}

// ---- advise -----------------------------------------------------------------------------------

int RunAdvise(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  auto input_settings = ReadInputSettings(args, args.positionals()[0]);
  if (!input_settings) return ReportError(input_settings.error());
  auto settings = ReadModelSettings(args);
  if (!settings) return ReportError(settings.error());
  if (settings->mode != SynthesisMode::kDeniable) {
    return ReportError(InvalidArgument("advise is for --mode deniable"));
  }
  Result<long long> seed_error = 0LL;
  auto rng = MakeRng(args, quiet, seed_error);
  if (!rng) return ReportError(seed_error.error());
  StderrProgress progress(quiet);
  SubProgress load_progress(progress, 0.0, 0.3);
  auto input = LoadInput(input_settings.value(), load_progress);
  if (!input) {
    progress.Finish();
    return ReportError(input.error());
  }
  SubProgress advise_progress(progress, 0.3, 1.0);
  std::string text;
  auto advice = AdviseDeniable(input.value(), settings.value(), text, *rng, advise_progress);
  progress.Finish();
  if (!advice) return ReportError(advice.error());
  if (auto output = args.get("--output")) {
    if (auto s = CheckNotOverwritingInput(*output, {input_settings->path}); !s) {
      return ReportError(s.error());
    }
    if (auto s = WriteFileAtomically(*output, advice->dump(2) + "\n"); !s) {
      return ReportError(s.error());
    }
  }
  if (!quiet) {
    std::printf("For your eyes only: the pass rates below come from the real data.\n%s",
                text.c_str());
  }
  return kExitOk;
}

}  // namespace

int ReportError(const Error& error) {
  std::fprintf(stderr, "deniable-cli: error: %s\n", error.message.c_str());
  return ExitCodeFor(error.code);
}

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {{"inspect", "INPUT.csv [-o schema.json] [options]",
        "infer the columns' types, roles and statistics; write them as schema JSON",
        "The schema JSON lists each column's type (Integer, Float, DateTime, String), whether it\n"
        "is categorical, its role (attribute, identifier, quasi-identifier, sensitive, target,\n"
        "ignore), formats (datetime format and two-digit-year window, decimals, identifier\n"
        "pattern), and statistics for YOUR eyes only (missing rate, distinct values, values that\n"
        "failed to parse, and a review: warnings, notes, public vocabularies that hold the\n"
        "column's values). Edit it and pass it back with --schema to any command: declare public\n"
        "bounds, category lists or vocabularies there (\"public\": {\"min\", \"max\",\n"
        "\"categories\", \"vocabulary\"}); a target needs its class list declared. It also says what\n"
        "private domain discovery would keep at --epsilon: which values merge into Other, how\n"
        "fine the numeric bins get.",
        {"INPUT.csv"},
        {{"--output", "-o", "schema.json", "write the schema here (default: standard output)"},
         kSchema, kDelimiter, kMissing, kThreshold,
         {"--epsilon", "", "E", "the ε to forecast the private domains at (default 1)"}, kDelta,
         kDomainFraction, kMode, kQuiet}},
       RunInspect},
      {{"describe", "INPUT.csv [--mode M] [--epsilon E] [--degree K] [--schema S.json] -o description.json",
        "learn a differentially private model and write the dataset description file",
        "The description holds the public schema, the domains with their provenance, the model\n"
        "and the privacy ledger; 'generate' samples from it without the real data.",
        {"INPUT.csv"},
        {{"--output", "-o", "description.json", "where to write the description"},
         kMode, kEpsilon, kDelta, kDegree, kBins, kStructure, kDomainFraction, kMechanism, kRounds,
         kMaxModelMb, kTarget, kIterations, kSchema, kDelimiter, kMissing, kThreshold, kSeed,
         kThreads, kQuiet}},
       RunDescribe},
      {{"generate", "description.json -n N -o synthetic.csv",
        "sample synthetic rows from a description file (Deniable's or DataSynthesizer's)",
        "Sampling is post-processing of the private model: it costs no privacy.",
        {"description.json"},
        {{"--output", "-o", "synthetic.csv", "where to write the synthetic CSV"}, kRows, kSeed,
         kThreads, kQuiet}},
       RunGenerate},
      {{"synthesize", "INPUT.csv [--mode M] [--epsilon E] [--degree K] [--schema S.json] -n N -o synthetic.csv [--description D.json]",
        "describe and generate in one step",
        "",
        {"INPUT.csv"},
        {{"--output", "-o", "synthetic.csv", "where to write the synthetic CSV"},
         {"--description", "", "D.json", "also write the description file"}, kRows, kMode,
         kEpsilon, kDelta, kDegree, kBins, kStructure, kDomainFraction, kK, kGamma, kOmega,
         kEpsilon0, kDeterministic, kMaxcost, kSplit, kMaxCandidates, kStructureMethod,
         kAuditDir, kMechanism, kRounds, kMaxModelMb, kTarget, kIterations, kSchema, kDelimiter,
         kMissing, kThreshold, kSeed, kThreads, kQuiet,
         {"--control-fraction", "", "F",
          "hold out this share of random rows before learning (for evaluate; costs no privacy)"},
         {"--control-out", "", "FILE", "where the held-out control rows go (owner-only file)"}}},
       RunSynthesize},
      {{"advise", "INPUT.csv --mode deniable [--k K] [--gamma G] [--omega W|A-B] [-o advice.json]",
        "deniable mode: propose k, ε0 and t, and sweep the pass rate over k × ω",
        "Learns a model on a scratch ledger (nothing is released), proposes parameters for a\n"
        "per-record target, and estimates the share of candidates that pass the privacy test\n"
        "for a grid of k and ω (the paper's Figure 6). The pass rates come from the real data:\n"
        "they are for the data owner only.",
        {"INPUT.csv"},
        {{"--output", "-o", "advice.json", "also write the advice as JSON"}, kMode, kEpsilon,
         kDelta, kK, kGamma, kOmega, kEpsilon0, kDeterministic, kMaxcost, kSplit,
         kStructureMethod, kDomainFraction, kBins, kSchema, kDelimiter, kMissing, kThreshold,
         kSeed, kThreads, kQuiet}},
       RunAdvise},
      {{"compare", "REAL.csv SYNTHETIC.csv [--schema S.json] [-o metrics.json]",
        "measure how close a synthetic table is to the real one",
        "Per-column total variation distance (TVD), mean TVD over all 2-way marginals and the\n"
        "normalised mutual-information matrices. Numeric columns with more than 20 distinct\n"
        "values are cut into 20 equal-width bins over the real column's range; other columns\n"
        "are compared by value; missing is a category; identifier columns are left out.",
        {"REAL.csv", "SYNTHETIC.csv"},
        {{"--output", "-o", "metrics.json", "also write the metrics as JSON"}, kSchema,
         kDelimiter, kMissing, kThreshold, kQuiet}},
       RunCompare},
  };
  static const std::vector<Command> all = [] {
    std::vector<Command> list = commands;
    for (Command& command : RiskCommands()) list.push_back(std::move(command));
    for (Command& command : EvaluateCommands()) list.push_back(std::move(command));
#ifdef DENIABLE_CLI_REPORT
    for (Command& command : ReportCommands()) list.push_back(std::move(command));
#endif
    return list;
  }();
  return all;
}

}  // namespace deniable::cli
