// SPDX-License-Identifier: Apache-2.0
// The input and model settings from a command's options (ReadInputSettings, ReadModelSettings,
// SplitNames; declared in commands.h): shared by the commands' files.
#include <algorithm>
#include <sstream>
#include <string>

#include "app/cli/commands.h"
#include "engine/pipeline/settings_table.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema_json.h"

namespace deniable::cli {

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) items.push_back(item);
  if (text.empty() || text.back() == ',') items.push_back("");
  return items;
}

Result<InputSettings> ReadInputSettings(const ParsedArgs& args, const std::string& path) {
  InputSettings input;
  input.path = path;
  if (auto d = args.get("--delimiter")) {
    if (*d == "tab" || *d == "\\t") {
      input.csv.delimiter = '\t';
    } else if (d->size() == 1 && (*d == "," || *d == ";" || *d == "|" || *d == "\t")) {
      input.csv.delimiter = (*d)[0];
    } else {
      return InvalidArgument("--delimiter must be one of , ; | tab (got '" + *d + "')");
    }
  }
  if (auto m = args.get("--missing")) {
    input.csv.missing_tokens.clear();
    std::stringstream stream(*m);
    std::string token;
    while (std::getline(stream, token, ',')) input.csv.missing_tokens.push_back(token);
    if (m->empty() || m->back() == ',') input.csv.missing_tokens.emplace_back();
  }
  auto threshold = args.GetInteger("--categorical-threshold", 20);
  if (!threshold) return threshold.error();
  if (threshold.value() < 1 || threshold.value() > 100000) {
    return InvalidArgument("--categorical-threshold must be between 1 and 100000 (got " +
                           std::to_string(threshold.value()) + ")");
  }
  input.categorical_threshold = static_cast<int>(threshold.value());
  if (auto schema_path = args.get("--schema")) {
    auto json = ReadJsonFile(*schema_path);
    if (!json) return json.error();
    input.schema = std::move(json.value());
    input.schema_source = *schema_path;
  }
  return input;
}


// Every model setting's flag from the settings table (engine/pipeline/settings_table.h): its
// parsing, bounds and messages are the table's; a deniable or marginals setting given in
// another mode (or an AIM one with --mechanism mst) is refused, naming where it applies.
Result<ModelSettings> ReadModelSettings(const ParsedArgs& args) {
  ModelSettings settings;
  const SettingSpec& mode = Setting("mode");
  // Without --mode: the default mode (ModelSettings, marginals; docs/utility.md says why).
  const std::string mode_text = args.get(mode.cli_flag).value_or(SynthesisModeName(settings.mode));
  if (Status s = SetSettingFromText(mode, mode_text, settings); !s) return s.error();
  // The mechanism before the settings that apply to one mechanism only.
  const SettingSpec& mechanism = Setting("mechanism");
  if (settings.mode == SynthesisMode::kMarginals && args.has(mechanism.cli_flag)) {
    if (Status s = SetSettingFromText(mechanism, *args.get(mechanism.cli_flag), settings); !s) {
      return s.error();
    }
  }
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag || &spec == &mode || &spec == &mechanism || !args.has(spec.cli_flag)) {
      continue;
    }
    const bool mode_specific = spec.group != SettingGroup::kModel;
    if (mode_specific && !SettingApplies(spec, settings)) {
      // A marginals setting for MST names the mechanism; any other, the mode.
      const bool wrong_mechanism = spec.aim_only && settings.mode == SynthesisMode::kMarginals;
      SettingSpec shown = spec;
      shown.aim_only = wrong_mechanism;
      return InvalidArgument(NotApplicableMessage(shown));
    }
    if (Status s = SetSettingFromText(spec, *args.get(spec.cli_flag), settings); !s) {
      return s.error();
    }
  }
  if (settings.mode != SynthesisMode::kMarginals && args.has(mechanism.cli_flag)) {
    return InvalidArgument(NotApplicableMessage(mechanism));
  }
  if (settings.mode != SynthesisMode::kDeniable && args.has("--audit-dir")) {
    return InvalidArgument("--audit-dir applies to --mode deniable only");
  }
  if (auto s = settings.Validate(); !s) return s.error();
  return settings;
}

}  // namespace deniable::cli
