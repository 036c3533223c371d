// SPDX-License-Identifier: Apache-2.0
#include "ui/session/session_values.h"

#include "engine/pipeline/settings_table.h"
#include "engine/schema/schema_json.h"

#include <tuple>
#include <utility>

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

// The model settings come from the settings table (engine/pipeline/settings_table.h): each
// persisted row under its key, in its group's object ("deniable", "marginals" or the top level),
// as its raw value (bins 0, not "auto", as the project files before the table had it).
nlohmann::json PrivacySettingsToJson(const PrivacySettings& settings) {
  nlohmann::json out{
      {"rows", settings.rows},
      {"reproducible_not_private", settings.reproducible},
      {"seed", settings.seed},
      {"deniable", nlohmann::json::object()},
      {"marginals", nlohmann::json::object()},
  };
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!spec.persisted) continue;
    nlohmann::json& group =
        spec.group == SettingGroup::kModel ? out : out[SettingGroupName(spec.group)];
    group[spec.name] = SettingJson(spec, settings.model, /*auto_as_text=*/false);
  }
  return out;
}

namespace {

// The release's settings (not the model's: not in the settings table): a count, a seed and a
// switch. (schema_json.h's OptionalMember here set off g++ 12's -Wnull-dereference, a false
// positive inside nlohmann's iterator.)
Status ReadReleaseSettings(const nlohmann::json& json, const std::string& where,
                           PrivacySettings& settings) {
  for (auto [key, out] : {std::pair<const char*, std::uint64_t*>{"rows", &settings.rows},
                          {"seed", &settings.seed}}) {
    if (!json.contains(key) || json.at(key).is_null()) continue;
    const nlohmann::json& value = json.at(key);
    if (!value.is_number_unsigned()) {
      return ParseError(where + "." + key + ": expected a whole number >= 0 (got " +
                        value.dump() + ")");
    }
    *out = value.get<std::uint64_t>();
  }
  const char* key = "reproducible_not_private";
  if (json.contains(key) && !json.at(key).is_null()) {
    if (!json.at(key).is_boolean()) {
      return ParseError(where + "." + key + ": expected true or false");
    }
    settings.reproducible = json.at(key).get<bool>();
  }
  return OkStatus();
}

}  // namespace

Result<PrivacySettings> PrivacySettingsFromJson(const nlohmann::json& json,
                                                const std::string& source) {
  if (!json.is_object()) return ParseError(source + ": settings: expected an object");
  PrivacySettings settings;
  if (Status s = ReadReleaseSettings(json, source + ": settings", settings); !s) return s.error();
  // Each persisted row of the table, absent = its default; types and bounds as the table says.
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!spec.persisted) continue;
    std::string where = source + ": settings";
    const nlohmann::json* group = &json;
    if (spec.group != SettingGroup::kModel) {
      const auto found = json.find(SettingGroupName(spec.group));
      if (found == json.end() || !found->is_object()) continue;
      group = &*found;
      where += std::string(".") + SettingGroupName(spec.group);
    }
    const auto value = group->find(spec.name);
    if (value == group->end() || value->is_null()) continue;
    if (Status s = SetSettingFromJson(spec, *value, settings.model, where); !s) return s.error();
  }
  if (auto valid = settings.model.Validate(); !valid) return valid.error().WithContext(source);
  return settings;
}

}  // namespace deniable::ui
