// SPDX-License-Identifier: Apache-2.0
// The values a session holds: the loaded input, the privacy settings (with their equality and
// their project-file JSON), a run's request and record, the deniable mode's advice. Immutable
// once made and shared by pointer, so a background job can be handed what it needs by copy.
// The Session holds them; the background jobs (ui/tasks/jobs.h) make them. Nothing here
// includes ui/tasks: ui/tasks depends on ui/session, never the other way round.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

// The input as the session holds it. Immutable once made.
struct LoadedData {
  QString path;
  std::shared_ptr<const RawTable> table;
  Schema inferred;          // as inferred from the data (with stats)
  Schema schema;            // inferred + corrections (with stats for the corrected types)
  QByteArray sha256;        // lower-case hex of the file's bytes
  std::int64_t bytes = 0;
};

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

// Every field of the settings and of the engine's ModelSettings, DeniableOptions and
// MarginalsSettings inside them. session_values.cpp destructures each struct into all its
// members with a structured binding, so a field added to one of them later stops the build
// until it is compared there too.
bool operator==(const PrivacySettings& a, const PrivacySettings& b);

// True when two settings make the same kind of release: every field compared (operator==)
// except the worker thread counts, which a
// run takes from the preferences and which do not change what it produces. The Session's
// "settings changed since the run" and undo merging use it.
bool SameSettings(const PrivacySettings& a, const PrivacySettings& b);

// The settings as JSON for the project file, and back, with errors naming the field. Every
// setting a user can choose in the GUI or the CLI is written (the worker threads are a
// preference, not a setting; fields only the engine sets, e.g. the resolved model ε, are not):
// FromJson(ToJson(s)) == s for such settings.
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

// The engine advisor's proposals and pass-rate sweep (k × ω) for a run's settings. Computed on
// the real data: for the owner's eyes only, never part of a release.
struct AdviceRecord {
  RunRequest request;      // what it was computed for
  nlohmann::json advice;   // Advice::ToJson()
  std::string text;        // Advice::ToText()
};

}  // namespace deniable::ui
