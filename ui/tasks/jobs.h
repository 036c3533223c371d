// SPDX-License-Identifier: Apache-2.0
// The background jobs' work functions: values in (ui/session/session_values.h), values out, no
// QObject touched.
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
#include "ui/session/session_values.h"

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

using LoadOutcome = Result<std::shared_ptr<const LoadedData>>;

// Reads, infers, applies the corrections (failing with their error message), hashes the file.
LoadOutcome LoadData(const LoadRequest& request, Progress& progress);

// ---- Run ----------------------------------------------------------------------------------

using RunOutcome = Result<std::shared_ptr<const RunRecord>>;

// RunRelease with a SecureRng (or, only when settings.reproducible, a SeededRng).
RunOutcome RunSynthesis(const RunRequest& request, Progress& progress);

// ---- Advice (deniable mode) ---------------------------------------------------------------

using AdviceOutcome = Result<std::shared_ptr<const AdviceRecord>>;

AdviceOutcome AdviseSynthesis(const RunRequest& request, Progress& progress);

// SHA-256 of a file as lower-case hex; errors name the path. Polls `progress` to cancel.
Result<QByteArray> Sha256OfFile(const QString& path, Progress& progress);

}  // namespace deniable::ui
