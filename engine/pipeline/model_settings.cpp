// SPDX-License-Identifier: Apache-2.0
// The model settings (synthesis_job.h): the modes' names, validation, the JSON the release
// records, the automatic bin count and the plain-language guarantee.
#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/marginals/aim.h"
#include "engine/pipeline/run_job_internal.h"
#include "engine/pipeline/synthesis_job.h"

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
  constexpr double kTheta = 8;  // PrivBayesOptions::usefulness_theta
  if (mode == SynthesisMode::kIndependent || mode == SynthesisMode::kRandom ||
      mode == SynthesisMode::kMarginals) {
    return kMostBins;  // marginals: MST compresses rare bins, AIM caps the model size
  }
  const double limit = std::max(noisy_rows, 0.0) * std::max(model_epsilon, 0.0) *
                       (1 - structure_fraction) /
                       (static_cast<double>(std::max<std::size_t>(columns, 1)) * kTheta);
  return static_cast<int>(
      std::clamp(std::round(std::sqrt(limit)), static_cast<double>(kFewestBins),
                 static_cast<double>(kMostBins)));
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

Status ModelSettings::Validate() const {
  auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  if (!positive(epsilon)) {
    return InvalidArgument("--epsilon must be finite and positive (got " + Number(epsilon) + ")");
  }
  if (!(delta > 0 && delta < 1e-3)) {
    return InvalidArgument("--delta must be in (0, 0.001) (got " + Number(delta) + ")");
  }
  if (domain_fraction && !(*domain_fraction >= 0 && *domain_fraction < 1)) {
    return InvalidArgument("--domain-fraction must be in [0, 1) or auto (got " +
                           Number(*domain_fraction) + ")");
  }
  if (bins < 0 || bins > 1000) {
    return InvalidArgument("--bins must be between 1 and 1000, or auto (got " +
                           std::to_string(bins) + ")");
  }
  if (degree < 1 || degree > 6) {
    return InvalidArgument("--degree must be between 1 and 6 (got " + std::to_string(degree) + ")");
  }
  if (!(structure_fraction > 0 && structure_fraction < 1)) {
    return InvalidArgument("--structure-fraction must be in (0, 1) (got " +
                           Number(structure_fraction) + ")");
  }
  if (mode == SynthesisMode::kDeniable) return deniable.Validate();
  if (mode == SynthesisMode::kMarginals) {
    if (marginals.rounds < 0 || marginals.rounds > 100000) {
      return InvalidArgument("--rounds must be between 1 and 100000, or 0 for automatic (got " +
                             std::to_string(marginals.rounds) + ")");
    }
    if (!(marginals.max_model_mb >= 0 && marginals.max_model_mb <= 4096)) {
      return InvalidArgument("--max-model-mb must be in (0, 4096] or 0 for the default (got " +
                             Number(marginals.max_model_mb) + ")");
    }
    if (marginals.iterations < 0 || marginals.iterations > 1000000) {
      return InvalidArgument("--iterations must be between 1 and 1000000, or 0 (got " +
                             std::to_string(marginals.iterations) + ")");
    }
  }
  return OkStatus();
}

nlohmann::json ModelSettings::ToJson() const {
  nlohmann::json out;
  out["mode"] = SynthesisModeName(mode);
  out["epsilon"] = epsilon;
  out["delta"] = delta;
  if (domain_fraction) {
    out["domain_fraction"] = *domain_fraction;
  } else {
    out["domain_fraction"] = "auto";
  }
  if (bins > 0) {
    out["bins"] = bins;
  } else {
    out["bins"] = "auto";
  }
  if (mode == SynthesisMode::kCorrelated) {
    out["degree"] = degree;
    out["structure_fraction"] = structure_fraction;
  }
  if (mode == SynthesisMode::kMarginals) {
    out["mechanism"] = MarginalsMechanismName(marginals.mechanism);
    if (marginals.mechanism == MarginalsMechanism::kAim) {
      out["rounds"] = marginals.rounds > 0 ? nlohmann::json(marginals.rounds) : nlohmann::json("auto");
      out["max_model_mb"] = marginals.max_model_mb > 0 ? marginals.max_model_mb : kDefaultAimModelMb;
      if (!marginals.target.empty()) out["target"] = marginals.target;
    }
  }
  if (mode == SynthesisMode::kDeniable) {
    out["k"] = deniable.k;
    out["gamma"] = deniable.gamma;
    out["omega_min"] = deniable.omega_min;
    out["omega_max"] = deniable.omega_max;
    out["epsilon0"] = deniable.epsilon0;
    out["deterministic_test"] = deniable.deterministic_test;
    out["structure"] = DeniableStructureName(deniable.structure);
    out["maxcost"] = deniable.maxcost;
    out["split"] = {deniable.split_structure, deniable.split_parameters, deniable.split_seeds};
    out["max_candidates"] = deniable.max_candidates;
  }
  return out;
}

}  // namespace deniable
