// SPDX-License-Identifier: Apache-2.0
#include "ui/session/session_values.h"

#include "engine/schema/schema_json.h"

#include <tuple>
#include <type_traits>
#include <vector>

namespace deniable::ui {

namespace {

// A tuple of references to ALL the members of a struct, in order. The structured binding
// must name every member: adding one to the struct makes it fail to compile.
auto Fields(const MarginalsSettings& m) {
  const auto& [mechanism, rounds, max_model_mb, target, iterations] = m;
  return std::tie(mechanism, rounds, max_model_mb, target, iterations);
}

auto Fields(const DeniableOptions& d) {
  const auto& [k, gamma, omega_min, omega_max, epsilon0, deterministic_test, record_delta,
               fail_floor, structure, model_epsilon, structure_delta, row_count_fraction, maxcost,
               usefulness_theta, bucket_count, dirichlet_alpha, privbayes_degree, split_structure,
               split_parameters, split_seeds, records, max_candidates, threads,
               charge_release_to_budget, seed_count_epsilon, seed_count_delta] = d;
  return std::tie(k, gamma, omega_min, omega_max, epsilon0, deterministic_test, record_delta,
                  fail_floor, structure, model_epsilon, structure_delta, row_count_fraction,
                  maxcost, usefulness_theta, bucket_count, dirichlet_alpha, privbayes_degree,
                  split_structure, split_parameters, split_seeds, records, max_candidates, threads,
                  charge_release_to_budget, seed_count_epsilon, seed_count_delta);
}

bool Equal(const ModelSettings& a, const ModelSettings& b) {
  // deniable and marginals are compared with their own Fields.
  auto fields = [](const ModelSettings& m) {
    const auto& [mode, epsilon, delta, domain_fraction, bins, degree, structure_fraction,
                 deniable_options, marginals_settings, other_label, threads, control_fraction] = m;
    return std::tie(mode, epsilon, delta, domain_fraction, bins, degree, structure_fraction,
                    other_label, threads, control_fraction);
  };
  return fields(a) == fields(b) && Fields(a.deniable) == Fields(b.deniable) &&
         Fields(a.marginals) == Fields(b.marginals);
}

}  // namespace

bool operator==(const PrivacySettings& a, const PrivacySettings& b) {
  auto fields = [](const PrivacySettings& p) {
    const auto& [model, rows, reproducible, seed] = p;
    return std::tie(rows, reproducible, seed);  // model: Equal
  };
  return fields(a) == fields(b) && Equal(a.model, b.model);
}

bool SameSettings(const PrivacySettings& a, const PrivacySettings& b) {
  auto without_threads = [](PrivacySettings settings) {
    settings.model.threads = 0;
    settings.model.deniable.threads = 0;
    return settings;
  };
  return without_threads(a) == without_threads(b);
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
                       {"maxcost", deniable.maxcost},
                       {"deterministic_test", deniable.deterministic_test},
                       {"structure", DeniableStructureName(deniable.structure)},
                       {"split", {deniable.split_structure, deniable.split_parameters,
                                  deniable.split_seeds}},
                       {"max_candidates", deniable.max_candidates}};
  }
  const MarginalsSettings& marginals = model.marginals;
  out["marginals"] = {{"mechanism", MarginalsMechanismName(marginals.mechanism)},
                      {"rounds", marginals.rounds},
                      {"max_model_mb", marginals.max_model_mb},
                      {"target", marginals.target},
                      {"iterations", marginals.iterations}};
  return out;
}

namespace {

// Reads an optional field of `json` into `out`, checking its JSON type and, for integers, the
// range (nlohmann's get<int>() of 1e300 or of a fraction would be undefined behaviour or a
// silent truncation; found by tests/fuzz/fuzz_project_file.cpp). Lists (the split) keep
// nlohmann's typed read.
template <typename T>
Status ReadField(const nlohmann::json& json, const char* key, const std::string& source, T& out) {
  if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
    return ReadOptionalMember(json, key, out, source + ": settings");
  }
  if (!json.contains(key)) return OkStatus();
  try {
    out = json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    return ParseError(source + ": settings." + key + ": wrong type (got " + json.at(key).dump() +
                      ")");
  }
  return OkStatus();
}

// settings.deniable.structure: one of DeniableStructureName's names.
Status ReadDeniableStructure(const nlohmann::json& json, const std::string& source,
                             DeniableStructure& out) {
  std::string name = DeniableStructureName(out);
  if (Status s = ReadField(json, "structure", source, name); !s) return s;
  for (DeniableStructure structure : {DeniableStructure::kCfs, DeniableStructure::kPrivBayes,
                                      DeniableStructure::kMarginals}) {
    if (name == DeniableStructureName(structure)) {
      out = structure;
      return OkStatus();
    }
  }
  return ParseError(source + ": settings.deniable.structure: unknown structure '" + name +
                    "' (cfs, privbayes or marginals)");
}

// settings.deniable.split: [D_T, D_P, D_S] shares (checked by Validate).
Status ReadSplit(const nlohmann::json& json, const std::string& source, DeniableOptions& out) {
  if (!json.contains("split")) return OkStatus();
  std::vector<double> shares;
  if (Status s = ReadField(json, "split", source, shares); !s) return s;
  if (shares.size() != 3) {
    return ParseError(source + ": settings.deniable.split: expected 3 shares (got " +
                      json["split"].dump() + ")");
  }
  out.split_structure = shares[0];
  out.split_parameters = shares[1];
  out.split_seeds = shares[2];
  return OkStatus();
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
                     ReadField(d, "maxcost", source, deniable.maxcost),
                     ReadField(d, "deterministic_test", source, deniable.deterministic_test),
                     ReadField(d, "max_candidates", source, deniable.max_candidates)}) {
      if (!s) return s.error();
    }
    if (Status s = ReadDeniableStructure(d, source, deniable.structure); !s) return s.error();
    if (Status s = ReadSplit(d, source, deniable); !s) return s.error();
  }
  if (json.contains("marginals")) {
    const nlohmann::json& m = json["marginals"];
    std::string mechanism = MarginalsMechanismName(model.marginals.mechanism);
    for (Status s : {ReadField(m, "mechanism", source, mechanism),
                     ReadField(m, "rounds", source, model.marginals.rounds),
                     ReadField(m, "max_model_mb", source, model.marginals.max_model_mb),
                     ReadField(m, "target", source, model.marginals.target),
                     ReadField(m, "iterations", source, model.marginals.iterations)}) {
      if (!s) return s.error();
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

}  // namespace deniable::ui
