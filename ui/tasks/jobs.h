// SPDX-License-Identifier: Apache-2.0
// The background jobs' values and work functions: values in, values out, no QObject touched.
// They run on a worker thread through runInBackground (run_in_background.h); tests may call
// them directly with a NullProgress.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/io/csv_reader.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

// ---- Load ---------------------------------------------------------------------------------

struct LoadRequest {
  QString path;
  CsvReadOptions csv;
  int categorical_threshold = 20;
  // Column corrections to apply after inference (a project file's, or a schema file's).
  std::optional<nlohmann::json> corrections;
  std::string corrections_source = "project";
};

// The input as the session holds it. Immutable once made.
struct LoadedData {
  QString path;
  std::shared_ptr<const RawTable> table;
  Schema inferred;          // as inferred from the data (with stats)
  Schema schema;            // inferred + corrections (with stats for the corrected types)
  QByteArray sha256;        // lower-case hex of the file's bytes
  std::int64_t bytes = 0;
};

using LoadOutcome = Result<std::shared_ptr<const LoadedData>>;

// Reads, infers, applies the corrections (failing with their error message), hashes the file.
LoadOutcome LoadData(const LoadRequest& request, Progress& progress);

// ---- Run ----------------------------------------------------------------------------------

// The number of synthetic rows until the user chooses: a public constant, so that by default
// the release says nothing about the input's size (0, "as many as the input", would).
inline constexpr std::uint64_t kDefaultSyntheticRows = 10'000;

// Everything the Privacy page sets: one undoable value.
struct PrivacySettings {
  ModelSettings model;
  // Synthetic rows to produce; 0 = as many as the input has (that reveals the input's size).
  std::uint64_t rows = kDefaultSyntheticRows;
  bool reproducible = false;    // fixed seed: reproducible, NOT a private release (testing)
  std::uint64_t seed = 1;
};

// The settings as JSON (every field, for the project file and equality); and back, with
// errors naming the field.
nlohmann::json PrivacySettingsToJson(const PrivacySettings& settings);
Result<PrivacySettings> PrivacySettingsFromJson(const nlohmann::json& json,
                                                const std::string& source);

struct RunRequest {
  std::shared_ptr<const LoadedData> data;
  Schema schema;              // the corrected schema the run uses
  PrivacySettings settings;
  std::size_t rows = 0;       // resolved (never 0)
};

// A finished run: what Review shows and Export writes. Immutable once made.
struct RunRecord {
  RunRequest request;
  std::shared_ptr<const ReleaseResult> release;
  std::shared_ptr<const ReviewData> review;
  double seconds = 0;
};

using RunOutcome = Result<std::shared_ptr<const RunRecord>>;

// RunRelease with a SecureRng (or, only when settings.reproducible, a SeededRng).
RunOutcome RunSynthesis(const RunRequest& request, Progress& progress);

// ---- Advice (deniable mode) ---------------------------------------------------------------

// The engine advisor's proposals and pass-rate sweep (k × ω) for a run's settings. Computed on
// the real data: for the owner's eyes only, never part of a release.
struct AdviceRecord {
  RunRequest request;      // what it was computed for
  nlohmann::json advice;   // Advice::ToJson()
  std::string text;        // Advice::ToText()
};

using AdviceOutcome = Result<std::shared_ptr<const AdviceRecord>>;

AdviceOutcome AdviseSynthesis(const RunRequest& request, Progress& progress);

// SHA-256 of a file as lower-case hex; errors name the path. Polls `progress` to cancel.
Result<QByteArray> Sha256OfFile(const QString& path, Progress& progress);

}  // namespace deniable::ui
