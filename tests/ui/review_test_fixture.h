// SPDX-License-Identifier: Apache-2.0
// ReviewData from a real, seeded run of the engine on the bundled demo dataset (10,000 rows of
// Adult), computed once per test binary and shared by the review and report tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/deniable/guarantees.h"
#include "engine/pipeline/synthesis_job.h"
#include "tests/support/paths.h"
#include "ui/review/review_data.h"

namespace deniable::test_support {

inline std::string DemoDatasetPath() { return SourcePath("resources/demo/adult_sample.csv"); }

// What the Review shows for a release made by RunRelease on `input` with `settings`.
inline std::shared_ptr<ui::ReviewData> ReviewDataOf(const LoadedInput& input,
                                                     const ModelSettings& settings,
                                                     const ReleaseResult& release) {
  auto data = std::make_shared<ui::ReviewData>();
  data->real = input.table;
  data->synthetic = release.synthetic;
  data->schema = input.schema;
  data->description = release.model.description;
  data->settings = settings;
  data->metrics = release.metrics;
  data->summary = release.rows.summary;
  return data;
}

// One RunRelease per mode (random, independent, correlated), seed 7, 2,000 synthetic rows.
// Returns nullptr (and records a test failure) when the engine fails.
inline std::shared_ptr<const ui::ReviewData> DemoReviewData(
    SynthesisMode mode = SynthesisMode::kCorrelated) {
  static std::map<SynthesisMode, std::shared_ptr<const ui::ReviewData>> cache;
  if (auto it = cache.find(mode); it != cache.end()) return it->second;
  NullProgress progress;
  InputSettings input_settings;
  input_settings.path = DemoDatasetPath();
  auto input = LoadInput(input_settings, progress);
  if (!input) {
    ADD_FAILURE() << "LoadInput: " << input.error().message;
    return nullptr;
  }
  ModelSettings settings;
  settings.mode = mode;
  settings.epsilon = 1.0;
  settings.threads = 1;
  SeededRng rng(7);
  auto release = RunRelease(input.value(), settings, /*rows=*/2000, rng, progress);
  if (!release) {
    ADD_FAILURE() << "RunRelease: " << release.error().message;
    return nullptr;
  }
  auto data = ReviewDataOf(input.value(), settings, release.value());
  data->input_path = QString::fromStdString(input_settings.path);
  cache[mode] = data;
  return data;
}

// The correlated run presented as a deniable release: what the Review shows for that mode
// (σ order, re-sampled attributes, pass rate, per-record and whole-release guarantees). The
// guarantees are computed by the engine's deniable/guarantees.h for k = 50, γ = 4, ε0 = 1.
inline std::shared_ptr<const ui::ReviewData> DemoDeniableReviewData(int omega_min, int omega_max) {
  auto base = DemoReviewData(SynthesisMode::kCorrelated);
  if (!base) return nullptr;
  auto data = std::make_shared<ui::ReviewData>(*base);
  data->settings.mode = SynthesisMode::kDeniable;
  data->description.mode = "deniable";
  data->description.parameters["omega_min"] = omega_min;
  data->description.parameters["omega_max"] = omega_max;
  ReleaseGuarantees g;
  g.k = 50;
  g.gamma = 4;
  g.epsilon0 = 1;
  g.omega_min = omega_min;
  g.omega_max = omega_max;
  g.record = BestRecordGuarantee(g.k, g.gamma, g.epsilon0, 0x1.0p-30);
  g.fail_floor = AutomaticFailFloor(g.k, g.gamma, g.epsilon0, g.record.t);
  g.attempt = AttemptCost(g.k, g.gamma, g.epsilon0, g.record.t, g.fail_floor);
  g.structure = PrivacyCost{0.9, 0x1.0p-31};
  g.parameters = PrivacyCost{0.9, 0};
  g.model = PrivacyCost{0.9, 0x1.0p-31};
  g.model_amplified = PrivacyCost{0.3, 1e-10};
  g.attempts_cap = 100000;
  g.synthesis = PrivacyCost{3.5, 1e-7};
  g.synthesis_composition = "advanced";
  g.synthesis_charged = true;
  g.release = PrivacyCost{4.5, 2e-7};
  g.release_amplified = PrivacyCost{3.25, 1e-7};
  data->summary.guarantee = g.ToJson();
  data->summary.candidates = 2600;
  data->summary.passed = 2000;
  return data;
}

}  // namespace deniable::test_support
