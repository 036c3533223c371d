// SPDX-License-Identifier: Apache-2.0
#include "ui/tasks/jobs.h"

#include <chrono>
#include <vector>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include "engine/core/random.h"
#include "engine/evaluate/control_split.h"
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
  std::shared_ptr<const RawTable> control;
  if (request.settings.model.control_fraction > 0) {
    // The control split (engine/evaluate/control_split.h), with the run's generator, before the
    // model reads anything: the domains, counts and model are learned from the training rows
    // only. The schema is the metadata the owner reviewed in the Columns step (types, roles,
    // public domains), set on the whole file as the CLI's --schema file would be.
    auto split = SplitControlRows(*request.data->table, request.settings.model.control_fraction,
                                  *rng);
    if (!split) return split.error();
    input.table = std::make_shared<const RawTable>(std::move(split->train));
    control = std::make_shared<const RawTable>(std::move(split->control));
  }
  auto release = RunRelease(input, request.settings.model, request.rows, *rng, progress);
  if (!release) return release.error();

  auto record = std::make_shared<RunRecord>();
  record->request = request;
  auto shared_release = std::make_shared<const ReleaseResult>(std::move(release.value()));
  record->release = shared_release;
  auto review = std::make_shared<ReviewData>();
  review->input_path = request.data->path;
  review->real = input.table;
  review->control = std::move(control);
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
