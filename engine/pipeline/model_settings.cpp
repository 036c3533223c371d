// SPDX-License-Identifier: Apache-2.0
// The model settings (synthesis_job.h): the modes' names, validation, the JSON the release
// records, the automatic bin count and the plain-language guarantee.
#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/marginals/aim.h"
#include "engine/pipeline/run_job_internal.h"
#include "engine/pipeline/settings_table.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/geo_pairs.h"

namespace deniable {

using internal::Number;

// The most bins of a numeric column when the user did not set them: PrivBayes (and the deniable
// mode's tables) can give a child with B codes a parent with 4 buckets only when 4·B <= its
// θ-usefulness limit n̂·ε_tables/(m·θ); B = √(limit), within [5, 20], leaves room for a
// parent or two. The independent and random modes have no parents: 20. Measured on flchain
// (7,874 × 11), compas (11,757 × 6), adult and mplsstops at ε = 1 (2 seeds, 2-way TVD):
// fixed 20 bins 0.127 / 0.132 / 0.059 / 0.085, 12 bins 0.124 / 0.112 / 0.057 / 0.086, 8 bins
// 0.118 / 0.118 / 0.058 / 0.095; the rule picks 5 / 10 / 13 / 13.
int AutomaticBins(SynthesisMode mode, double noisy_rows, double model_epsilon, std::size_t columns,
                  double structure_fraction) {
  constexpr int kMostBins = 20, kFewestBins = 5;
  // The independent mode's histograms are one per column, so a bin costs one noisy count and
  // no table grows with it: finer bins keep a band's steps apart (COMPAS' age bins straddled
  // age_cat's 45 in 5 of 6 seeds at 20, so the dependency search could not find the pair; at
  // 32 in 1 of 6). Measured against 20 on the whole suite (6 seeds × ε 0.3/1/3): 2 cells
  // better (Adult ε = 1, flchain ε = 0.3), none worse, COMPAS ε = 1 −12%; 40 was level with 32
  // but flchain's 1-way TVD rose at ε = 1 (docs/utility.md, stop 32).
  constexpr int kIndependentBins = 32;
  constexpr double kTheta = 6;  // PrivBayesOptions::usefulness_theta
  if (mode == SynthesisMode::kIndependent) return kIndependentBins;
  if (mode == SynthesisMode::kRandom || mode == SynthesisMode::kMarginals) {
    return kMostBins;  // marginals: MST compresses rare bins, AIM caps the model size
  }
  const double limit = std::max(noisy_rows, 0.0) * std::max(model_epsilon, 0.0) *
                       (1 - structure_fraction) /
                       (static_cast<double>(std::max<std::size_t>(columns, 1)) * kTheta);
  return static_cast<int>(
      std::clamp(std::round(std::sqrt(limit)), static_cast<double>(kFewestBins),
                 static_cast<double>(kMostBins)));
}

bool ModelsGeoPairsJointly(SynthesisMode mode) {
  return mode != SynthesisMode::kCorrelated && mode != SynthesisMode::kMarginals;
}

Result<Schema> ModelSchemaFor(const Schema& schema, SynthesisMode mode) {
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (std::string problem = GeoPairProblem(schema, i); !problem.empty()) {
      return FailedPrecondition(problem);
    }
  }
  if (ModelsGeoPairsJointly(mode)) return schema;
  Schema dissolved = schema;
  for (ColumnSchema& column : dissolved.columns) column.geo_longitude.clear();
  return dissolved;
}

MissingMarkers MissingMarkersOf(SynthesisMode mode) {
  return mode == SynthesisMode::kMarginals ? MissingMarkers::kModel : MissingMarkers::kSetUnion;
}

const char* SynthesisModeName(SynthesisMode mode) {
  switch (mode) {
    case SynthesisMode::kRandom: return "random";
    case SynthesisMode::kIndependent: return "independent";
    case SynthesisMode::kCorrelated: return "correlated";
    case SynthesisMode::kDeniable: return "deniable";
    case SynthesisMode::kMarginals: return "marginals";
  }
  return "unknown";
}

const char* MarginalsMechanismName(MarginalsMechanism mechanism) {
  return mechanism == MarginalsMechanism::kMst ? "mst" : "aim";
}

std::optional<MarginalsMechanism> ParseMarginalsMechanism(std::string_view name) {
  if (name == "mst") return MarginalsMechanism::kMst;
  if (name == "aim") return MarginalsMechanism::kAim;
  return std::nullopt;
}

std::optional<SynthesisMode> ParseSynthesisMode(std::string_view name) {
  if (name == "random") return SynthesisMode::kRandom;
  if (name == "independent") return SynthesisMode::kIndependent;
  if (name == "correlated") return SynthesisMode::kCorrelated;
  if (name == "deniable") return SynthesisMode::kDeniable;
  if (name == "marginals") return SynthesisMode::kMarginals;
  return std::nullopt;
}

std::string PlainGuarantee(double epsilon, double delta) {
  std::string text = "Whether or not any one person's record is in the input, every possible "
                     "output is at most " + Number(std::exp(epsilon)) +
                     " times more (or less) likely (ε = " + Number(epsilon) + ")";
  if (delta > 0) text += ", except with probability at most δ = " + Number(delta);
  return text + ".";
}

// Every setting of the table within its bounds (settings_table.h), in any mode: a project
// file holds every mode's settings and a mode switch must not make them invalid. Then the
// deniable mode's cross-field rules (the split sums to 1, ω_min <= ω_max, ...).
Status ModelSettings::Validate() const {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (auto problem = SettingProblem(spec, spec.get(*this))) {
      return InvalidArgument(SettingLabel(spec) + " " + *problem);
    }
  }
  if (mode == SynthesisMode::kDeniable) return deniable.Validate();
  return OkStatus();
}

// The description's record of the settings: every described setting that applies to the mode,
// with "auto" for a value chosen by rule.
nlohmann::json ModelSettings::ToJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!spec.described || !SettingApplies(spec, *this)) continue;
    nlohmann::json value = spec.describe != nullptr ? spec.describe(*this)
                                                    : SettingJson(spec, *this, true);
    if (!value.is_null()) out[spec.name] = std::move(value);
  }
  return out;
}

}  // namespace deniable
