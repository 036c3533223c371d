// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/jobs.h"

#include <chrono>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include "engine/core/random.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"

namespace deniable::ui {

Result<QByteArray> Sha256OfFile(const QString& path, Progress& progress) {
  QFile file(path);  // local to this thread
  if (!file.open(QIODevice::ReadOnly)) {
    return IoError(path.toStdString() + ": cannot open for reading (" +
                   file.errorString().toStdString() + ")");
  }
  QCryptographicHash hash(QCryptographicHash::Sha256);
  const qint64 total = std::max<qint64>(1, file.size());
  qint64 done = 0;
  constexpr qint64 kChunk = 4 << 20;
  while (!file.atEnd()) {
    const QByteArray chunk = file.read(kChunk);
    if (chunk.isEmpty() && file.error() != QFileDevice::NoError) {
      return IoError(path.toStdString() + ": read error (" + file.errorString().toStdString() + ")");
    }
    hash.addData(chunk);
    done += chunk.size();
    if (progress.IsCancelled()) return Cancelled("hashing cancelled");
    progress.Report(static_cast<double>(done) / static_cast<double>(total), "Computing SHA-256");
  }
  return hash.result().toHex();
}

LoadOutcome LoadData(const LoadRequest& request, Progress& progress) {
  InputSettings input;
  input.path = request.path.toStdString();
  input.csv = request.csv;
  input.categorical_threshold = request.categorical_threshold;
  SubProgress load_progress(progress, 0.0, 0.9);
  auto loaded = LoadInput(input, load_progress);
  if (!loaded) return loaded.error();

  auto data = std::make_shared<LoadedData>();
  data->path = request.path;
  data->table = loaded->table;
  data->inferred = loaded->schema;
  data->schema = loaded->schema;
  if (request.corrections) {
    progress.Report(0.9, "Applying column settings");
    auto corrected = ApplySchemaJson(data->inferred, *request.corrections,
                                     request.corrections_source, data->table.get());
    if (!corrected) return corrected.error();
    data->schema = std::move(corrected.value());
  }
  SubProgress hash_progress(progress, 0.9, 1.0);
  auto sha = Sha256OfFile(request.path, hash_progress);
  if (!sha) return sha.error();
  data->sha256 = sha.value();
  data->bytes = QFileInfo(request.path).size();
  progress.Report(1.0, "Input ready");
  return std::shared_ptr<const LoadedData>(std::move(data));
}

nlohmann::json PrivacySettingsToJson(const PrivacySettings& settings) {
  const ModelSettings& model = settings.model;
  nlohmann::json out{
      {"mode", SynthesisModeName(model.mode)},
      {"epsilon", model.epsilon},
      {"delta", model.delta},
      {"bins", model.bins},
      {"degree", model.degree},
      {"structure_fraction", model.structure_fraction},
      {"other_label", model.other_label},
      {"rows", settings.rows},
      {"reproducible_not_private", settings.reproducible},
      {"seed", settings.seed},
  };
  // The domain share: a number, or "auto" for the rule (model/domain_budget.h).
  if (model.domain_fraction) {
    out["domain_fraction"] = *model.domain_fraction;
  } else {
    out["domain_fraction"] = "auto";
  }
  {
    const DeniableOptions& deniable = model.deniable;
    out["deniable"] = {{"k", deniable.k},
                       {"gamma", deniable.gamma},
                       {"omega_min", deniable.omega_min},
                       {"omega_max", deniable.omega_max},
                       {"epsilon0", deniable.epsilon0},
                       {"maxcost", deniable.maxcost}};
  }
  out["marginals"] = {{"mechanism", MarginalsMechanismName(model.marginals.mechanism)}};
  return out;
}

namespace {

// Reads an optional field of `json` into `out`, checking its JSON type and, for integers, the
// range (nlohmann's get<int>() of 1e300 or of a fraction would be undefined behaviour or a silent
// truncation; found by tests/fuzz/fuzz_project_file.cpp).
template <typename T>
Status ReadField(const nlohmann::json& json, const char* key, const std::string& source, T& out) {
  return ReadOptionalMember(json, key, out, source + ": settings");
}

}  // namespace

Result<PrivacySettings> PrivacySettingsFromJson(const nlohmann::json& json,
                                                const std::string& source) {
  if (!json.is_object()) return ParseError(source + ": settings: expected an object");
  PrivacySettings settings;
  ModelSettings& model = settings.model;
  std::string mode = SynthesisModeName(model.mode);
  Status status = ReadField(json, "mode", source, mode);
  if (!status) return status.error();
  const auto parsed = ParseSynthesisMode(mode);
  if (!parsed) return ParseError(source + ": settings.mode: unknown mode '" + mode + "'");
  model.mode = *parsed;
  for (Status s : {ReadField(json, "epsilon", source, model.epsilon),
                   ReadField(json, "delta", source, model.delta),
                   ReadField(json, "bins", source, model.bins),
                   ReadField(json, "degree", source, model.degree),
                   ReadField(json, "structure_fraction", source, model.structure_fraction),
                   ReadField(json, "other_label", source, model.other_label),
                   ReadField(json, "rows", source, settings.rows),
                   ReadField(json, "reproducible_not_private", source, settings.reproducible),
                   ReadField(json, "seed", source, settings.seed)}) {
    if (!s) return s.error();
  }
  model.domain_fraction.reset();
  if (json.contains("domain_fraction") && !(json["domain_fraction"].is_string() &&
                                            json["domain_fraction"] == "auto")) {
    double fraction = 0;
    if (Status s = ReadField(json, "domain_fraction", source, fraction); !s) return s.error();
    model.domain_fraction = fraction;
  }
  if (json.contains("deniable")) {
    DeniableOptions& deniable = model.deniable;
    const nlohmann::json& d = json["deniable"];
    for (Status s : {ReadField(d, "k", source, deniable.k),
                     ReadField(d, "gamma", source, deniable.gamma),
                     ReadField(d, "omega_min", source, deniable.omega_min),
                     ReadField(d, "omega_max", source, deniable.omega_max),
                     ReadField(d, "epsilon0", source, deniable.epsilon0),
                     ReadField(d, "maxcost", source, deniable.maxcost)}) {
      if (!s) return s.error();
    }
  }
  if (json.contains("marginals")) {
    std::string mechanism = MarginalsMechanismName(model.marginals.mechanism);
    if (Status s = ReadField(json["marginals"], "mechanism", source, mechanism); !s) {
      return s.error();
    }
    const auto parsed_mechanism = ParseMarginalsMechanism(mechanism);
    if (!parsed_mechanism) {
      return ParseError(source + ": settings.marginals.mechanism: unknown mechanism '" +
                        mechanism + "' (aim or mst)");
    }
    model.marginals.mechanism = *parsed_mechanism;
  }
  if (auto valid = model.Validate(); !valid) return valid.error().WithContext(source);
  return settings;
}

AdviceOutcome AdviseSynthesis(const RunRequest& request, Progress& progress) {
  if (!request.data || !request.data->table) return InvalidArgument("no input loaded");
  std::unique_ptr<Rng> rng;
  if (request.settings.reproducible) {
    rng = std::make_unique<SeededRng>(request.settings.seed);
  } else {
    rng = std::make_unique<SecureRng>();
  }
  auto record = std::make_shared<AdviceRecord>();
  record->request = request;
  const LoadedInput input{request.data->table, request.schema};
  auto advice = AdviseDeniable(input, request.settings.model, record->text, *rng, progress);
  if (!advice) return advice.error();
  record->advice = std::move(advice.value());
  return std::shared_ptr<const AdviceRecord>(std::move(record));
}

RunOutcome RunSynthesis(const RunRequest& request, Progress& progress) {
  if (!request.data || !request.data->table) return InvalidArgument("no input loaded");
  if (request.rows == 0) return InvalidArgument("the number of synthetic rows must be positive");
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Rng> rng;
  if (request.settings.reproducible) {
    rng = std::make_unique<SeededRng>(request.settings.seed);
  } else {
    rng = std::make_unique<SecureRng>();
  }
  LoadedInput input{request.data->table, request.schema};
  auto release = RunRelease(input, request.settings.model, request.rows, *rng, progress);
  if (!release) return release.error();

  auto record = std::make_shared<RunRecord>();
  record->request = request;
  auto shared_release = std::make_shared<const ReleaseResult>(std::move(release.value()));
  record->release = shared_release;
  auto review = std::make_shared<ReviewData>();
  review->input_path = request.data->path;
  review->real = request.data->table;
  review->synthetic = shared_release->synthetic;
  review->schema = request.schema;
  review->description = shared_release->model.description;
  review->settings = request.settings.model;
  review->metrics = shared_release->metrics;
  review->summary = shared_release->rows.summary;
  record->review = std::move(review);
  record->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Report(1.0, "Done");
  return std::shared_ptr<const RunRecord>(std::move(record));
}

}  // namespace deniable::ui
