// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/metrics/marginals.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"

namespace deniable {
namespace {

std::string Number(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

// Reads "csv": {"delimiter": ",", "missing_tokens": [...]} from a schema JSON, if present, so a
// schema file reproduces how the CSV was read.
Status ApplyCsvSettings(const nlohmann::json& schema, const std::string& source,
                        CsvReadOptions& csv) {
  if (!schema.is_object() || !schema.contains("csv")) return OkStatus();
  const nlohmann::json& settings = schema["csv"];
  if (!settings.is_object()) return ParseError(source + ": csv: expected an object");
  if (settings.contains("delimiter") && !settings["delimiter"].is_null()) {
    if (!settings["delimiter"].is_string() || settings["delimiter"].get<std::string>().size() > 1) {
      return ParseError(source + ": csv.delimiter: expected a one-character string");
    }
    const std::string delimiter = settings["delimiter"].get<std::string>();
    csv.delimiter = delimiter.empty() ? 0 : delimiter[0];
  }
  if (settings.contains("missing_tokens")) {
    try {
      csv.missing_tokens = settings["missing_tokens"].get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception&) {
      return ParseError(source + ": csv.missing_tokens: expected an array of strings");
    }
  }
  return OkStatus();
}

}  // namespace

const char* SynthesisModeName(SynthesisMode mode) {
  switch (mode) {
    case SynthesisMode::kRandom: return "random";
    case SynthesisMode::kIndependent: return "independent";
    case SynthesisMode::kCorrelated: return "correlated";
    case SynthesisMode::kDeniable: return "deniable";
  }
  return "unknown";
}

std::optional<SynthesisMode> ParseSynthesisMode(std::string_view name) {
  if (name == "random") return SynthesisMode::kRandom;
  if (name == "independent") return SynthesisMode::kIndependent;
  if (name == "correlated") return SynthesisMode::kCorrelated;
  if (name == "deniable") return SynthesisMode::kDeniable;
  return std::nullopt;
}

std::string PlainGuarantee(double epsilon, double delta) {
  std::string text = "Whether or not any one person's record is in the input, every possible "
                     "output is at most " + Number(std::exp(epsilon)) +
                     " times more (or less) likely (ε = " + Number(epsilon) + ")";
  if (delta > 0) text += ", except with probability at most δ = " + Number(delta);
  return text + ".";
}

Status ModelSettings::Validate() const {
  auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  if (!positive(epsilon)) {
    return InvalidArgument("--epsilon must be finite and positive (got " + Number(epsilon) + ")");
  }
  if (!(delta > 0 && delta < 1e-3)) {
    return InvalidArgument("--delta must be in (0, 0.001) (got " + Number(delta) + ")");
  }
  if (!(domain_fraction > 0 && domain_fraction < 1)) {
    return InvalidArgument("the domain share of epsilon must be in (0, 1) (got " +
                           Number(domain_fraction) + ")");
  }
  if (bins < 1 || bins > 1000) {
    return InvalidArgument("--bins must be between 1 and 1000 (got " + std::to_string(bins) + ")");
  }
  if (degree < 1 || degree > 6) {
    return InvalidArgument("--degree must be between 1 and 6 (got " + std::to_string(degree) + ")");
  }
  if (!(structure_fraction > 0 && structure_fraction < 1)) {
    return InvalidArgument("--structure-fraction must be in (0, 1) (got " +
                           Number(structure_fraction) + ")");
  }
  return OkStatus();
}

nlohmann::json ModelSettings::ToJson() const {
  nlohmann::json out;
  out["mode"] = SynthesisModeName(mode);
  out["epsilon"] = epsilon;
  out["delta"] = delta;
  out["domain_fraction"] = domain_fraction;
  out["bins"] = bins;
  if (mode == SynthesisMode::kCorrelated) {
    out["degree"] = degree;
    out["structure_fraction"] = structure_fraction;
  }
  return out;
}

Result<LoadedInput> LoadInput(const InputSettings& settings, Progress& progress) {
  CsvReadOptions csv = settings.csv;
  if (settings.schema) {
    if (auto s = ApplyCsvSettings(*settings.schema, settings.schema_source, csv); !s) {
      return s.error();
    }
  }
  SubProgress read_progress(progress, 0.0, 0.8);
  auto table = ReadCsv(settings.path, csv, read_progress);
  if (!table) return table.error();
  progress.Report(0.85, "Inferring column types");
  InferOptions infer;
  infer.categorical_threshold = settings.categorical_threshold;
  Schema schema = InferSchema(table.value(), infer);
  schema.delimiter = table->dialect.delimiter;
  schema.missing_tokens = csv.missing_tokens;
  if (settings.schema) {
    // With the table, a type change recomputes the column's stats and detects its format.
    auto corrected = ApplySchemaJson(schema, *settings.schema, settings.schema_source,
                                     &table.value());
    if (!corrected) return corrected.error();
    schema = std::move(corrected.value());
  }
  progress.Report(1.0, "Input ready");
  LoadedInput input;
  input.table = std::make_shared<const RawTable>(std::move(table.value()));
  input.schema = std::move(schema);
  return input;
}

Result<LearnedModel> LearnModel(const RawTable& table, const Schema& schema,
                                const ModelSettings& settings, Rng& rng, Progress& progress) {
  if (auto s = settings.Validate(); !s) return s.error();
  if (settings.mode == SynthesisMode::kDeniable) {
    return InvalidArgument("the deniable mode is run through LearnDeniable (engine/deniable)");
  }
  if (ModelledColumns(schema).empty()) {
    return FailedPrecondition("no column is modelled: every column is an identifier or ignored");
  }
  auto accountant = PrivacyAccountant::Create(PrivacyCost{settings.epsilon, settings.delta});
  if (!accountant) return accountant.error();
  LearnedModel model{Description{}, std::move(accountant.value()), !rng.is_secure(), {}};

  // 1. Domains (random mode spends the whole budget there: it uses nothing else).
  const bool random = settings.mode == SynthesisMode::kRandom;
  DomainOptions domain_options;
  domain_options.epsilon = random ? settings.epsilon : settings.epsilon * settings.domain_fraction;
  domain_options.delta = settings.delta;
  domain_options.default_bins = settings.bins;
  domain_options.other_label = settings.other_label;
  SubProgress domain_progress(progress, 0.0, 0.2);
  auto domains = BuildDomains(table, schema, domain_options, model.accountant, rng, domain_progress);
  if (!domains) return domains.error();

  // 2. The model.
  std::vector<std::uint32_t> cardinalities;
  for (const ColumnDomain& d : domains.value()) cardinalities.push_back(d.cardinality());
  Result<BayesNet> network = UniformNetwork(cardinalities);
  if (!random) {
    SubProgress encode_progress(progress, 0.2, 0.3);
    auto encoded = Encode(table, schema, domains.value(), encode_progress);
    if (!encoded) return encoded.error();
    // What is left of the budget, a hair less so that rounding can never overspend.
    const double model_epsilon = model.accountant.Remaining().epsilon * (1 - 1e-9);
    SubProgress learn_progress(progress, 0.3, 1.0);
    if (settings.mode == SynthesisMode::kIndependent) {
      IndependentOptions options;
      options.epsilon = model_epsilon;
      network = LearnIndependent(encoded.value(), options, model.accountant, "all", rng,
                                 learn_progress);
    } else {
      PrivBayesOptions options;
      options.degree = settings.degree;
      options.epsilon = model_epsilon;
      options.structure_fraction = settings.structure_fraction;
      network = LearnPrivBayes(encoded.value(), options, model.accountant, "all", rng,
                               learn_progress);
    }
    if (!network) return network.error();
  }

  Description& description = model.description;
  description.mode = SynthesisModeName(settings.mode);
  description.parameters = settings.ToJson();
  description.schema = schema;
  for (ColumnSchema& column : description.schema.columns) column.stats = ColumnStats{};
  description.domains = std::move(domains.value());
  description.network = std::move(network.value());
  description.privacy = model.accountant.ToJson();
  const PrivacyCost total = model.accountant.Total();
  description.guarantee = {
      {"epsilon", total.epsilon},
      {"delta", total.delta},
      {"scope", "the whole release: description file and any number of synthetic rows "
                "generated from it (post-processing)"},
      {"statement", PlainGuarantee(total.epsilon, total.delta)}};
  description.reproducible_not_private = model.reproducible_not_private;
  if (model.reproducible_not_private) {
    model.warnings.push_back("made with a fixed seed: reproducible, NOT a private release");
  }
  progress.Report(1.0, "Model learned");
  return model;
}

Result<EncodedTable> GenerateFromDescription(const Description& description, std::size_t rows,
                                             Rng& rng, Progress& progress) {
  return SampleNetwork(description.network, description.cardinalities(), rows, rng, progress);
}

Result<SyntheticRows> Synthesize(const LearnedModel& model, const RawTable& /*table*/,
                                 std::size_t rows, Rng& rng, Progress& progress) {
  auto encoded = GenerateFromDescription(model.description, rows, rng, progress);
  if (!encoded) return encoded.error();
  SyntheticRows out;
  out.encoded = std::move(encoded.value());
  out.summary.rows = rows;
  out.summary.guarantee = model.description.guarantee;
  std::ostringstream text;
  text << "Synthesized " << rows << " rows in " << model.description.mode << " mode.\n"
       << "Guarantee for the whole release: " << model.description.guarantee["statement"].get<std::string>();
  out.summary.text = text.str();
  return out;
}

}  // namespace deniable

namespace deniable {

Result<ReleaseResult> RunRelease(const LoadedInput& input, const ModelSettings& settings,
                                 std::size_t rows, Rng& rng, Progress& progress) {
  if (!input.table) return InvalidArgument("no input table loaded");
  SubProgress learn_progress(progress, 0.0, 0.5);
  auto model = LearnModel(*input.table, input.schema, settings, rng, learn_progress);
  if (!model) return model.error();
  SubProgress sample_progress(progress, 0.5, 0.7);
  auto synthetic = Synthesize(model.value(), *input.table, rows, rng, sample_progress);
  if (!synthetic) return synthetic.error();
  SubProgress decode_progress(progress, 0.7, 0.85);
  const Description& description = model->description;
  auto decoded = DecodeToRawTable(synthetic->encoded, description.schema, description.domains,
                                  rng, decode_progress);
  if (!decoded) return decoded.error();
  decoded->dialect = input.table->dialect;
  SubProgress compare_progress(progress, 0.85, 1.0);
  CompareOptions compare;
  compare.threads = static_cast<int>(settings.threads);
  auto metrics = CompareTables(*input.table, decoded.value(), input.schema, compare,
                               compare_progress);
  if (!metrics) return metrics.error();
  ReleaseResult result{std::move(model.value()), std::move(synthetic.value()),
                       std::make_shared<const RawTable>(std::move(decoded.value())),
                       std::move(metrics.value())};
  return result;
}

RunEstimate EstimateRun(std::size_t input_rows, std::size_t columns, std::size_t output_rows,
                        const ModelSettings& settings) {
  // Calibrated on this project's benchmarks (bench/README.md) on a 2-core machine: reading,
  // encoding and counting are linear in cells; PrivBayes's structure search grows with the
  // number of candidate parent sets; sampling and writing are linear in output cells.
  const double in_cells = static_cast<double>(input_rows) * static_cast<double>(columns);
  const double out_cells = static_cast<double>(output_rows) * static_cast<double>(columns);
  double seconds = 0.2 + in_cells * 60e-9 + out_cells * 80e-9;
  if (settings.mode == SynthesisMode::kCorrelated) {
    const double m = static_cast<double>(columns);
    double parent_sets = 1;
    for (int d = 0; d < settings.degree; ++d) parent_sets *= m / (d + 1);
    seconds += static_cast<double>(input_rows) * m * parent_sets * 1.5e-9;
  }
  RunEstimate estimate;
  estimate.seconds = seconds;
  // Raw table ~ 4 bytes per cell + dictionaries; encoded tables 2 bytes per cell; decoded output.
  estimate.peak_megabytes = 50 + (in_cells * 7 + out_cells * 14) / 1e6;
  return estimate;
}

}  // namespace deniable
