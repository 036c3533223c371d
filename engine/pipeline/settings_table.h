// SPDX-License-Identifier: Apache-2.0
// The one declarative table of the model settings (issue 12, part 7: "one source of truth").
//
// Each row says, for one setting of ModelSettings (and of the DeniableOptions and
// MarginalsSettings inside it): its name (= its JSON key in the project file and in the
// description's "parameters"), the project file's group ("deniable", "marginals" or top level),
// a title for people, its CLI flag, help text, kind, default, bounds (inclusive or not), the
// value that means "automatic", the modes it applies to, the range (or the preset values) a GUI
// control offers, and get/set accessors. Everything else is derived from it:
//   ModelSettings::Validate()   the bounds, with messages naming the flag (or the key)
//   ModelSettings::ToJson()     the description's record of the settings
//   app/cli                     the options' help and the parsing of each flag
//   ui/session                  the project file's settings (read and written)
//   ui/pages                    the sliders' and spin boxes' ranges and tooltips, δ's choices
//   ui/report                   the release report's names of the settings
// Cross-field rules (the split sums to 1, ω_min <= ω_max) stay in DeniableOptions::Validate.
//
// Not here: the release's row count and seed (a run's, not the model's), the input's CSV
// options, the worker threads' preference in the project file (a row with no JSON key), and the
// fields only the engine sets (DeniableOptions::model_epsilon, records, ...).
//
// Example:
//   for (const SettingSpec& spec : ModelSettingsTable()) {
//     if (auto problem = SettingProblem(spec, spec.get(settings))) ...
//   }
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "engine/pipeline/synthesis_job.h"

namespace deniable {

enum class SettingKind { kReal, kInteger, kBool, kChoice, kText, kRealList };

// The project file's object a setting is written in: settings, settings.deniable or
// settings.marginals.
enum class SettingGroup { kModel, kDeniable, kMarginals };
const char* SettingGroupName(SettingGroup group);  // "", "deniable", "marginals"

// A bit per SynthesisMode.
constexpr unsigned ModeBit(SynthesisMode mode) { return 1u << static_cast<unsigned>(mode); }
inline constexpr unsigned kAllModes = 0x1F;

struct SettingSpec {
  const char* name = "";        // the JSON key, e.g. "bins"
  const char* title = "";       // a short name for people: "Bins of numeric columns" (the
                                // report's settings, the GUI's labels)
  SettingGroup group = SettingGroup::kModel;
  const char* cli_flag = "";    // "--bins"; "" = no flag of its own
  const char* value_name = "";  // "B"; "" for a flag without a value
  const char* help = "";        // the CLI's help and the GUI's tooltip
  SettingKind kind = SettingKind::kReal;
  // Bounds of a number (kReal, kInteger, and each element of a kRealList).
  double minimum = 0;
  double maximum = 0;
  bool minimum_inclusive = true;
  bool maximum_inclusive = true;
  // The setting has a "by rule" value, written and read as "auto" (and, in the project file,
  // as the raw auto_value, e.g. bins 0). get() returns auto_value (or "auto") for it.
  bool has_auto = false;
  double auto_value = 0;
  // A GUI control's range (within the bounds; the bounds themselves when both are finite).
  double control_minimum = 0;
  double control_maximum = 0;
  std::vector<std::string> choices;  // kChoice: the accepted names
  std::vector<double> presets;       // kReal: the values a GUI drop-down offers (δ); else empty
  unsigned modes = kAllModes;        // the modes it applies to
  bool aim_only = false;             // marginals: applies to --mechanism aim only
  bool persisted = true;             // written to the project file and compared as a setting
  bool described = true;             // in the description's record of the settings
  nlohmann::json (*get)(const ModelSettings&) = nullptr;
  // Receives a checked value, or the string "auto" for a has_auto setting.
  void (*set)(ModelSettings&, const nlohmann::json&) = nullptr;
  // Optional: a text form of its own (--omega "5-11", --split "0.21,0.21,0.58"), parsed and
  // checked here; and how the description records the value, if not as SettingJson.
  Status (*parse_text)(const std::string&, ModelSettings&) = nullptr;
  std::string (*format_text)(const ModelSettings&) = nullptr;
  nlohmann::json (*describe)(const ModelSettings&) = nullptr;
  // A valid value other than the default (tests flip each setting to it).
  nlohmann::json example;
};

// The table, in the order the CLI's help and the project file list them.
const std::vector<SettingSpec>& ModelSettingsTable();
const SettingSpec* FindSetting(std::string_view name);  // nullptr if unknown
const SettingSpec& Setting(std::string_view name);       // asserts it exists

// The flag, or the key for a setting with no flag of its own: what messages name.
std::string SettingLabel(const SettingSpec& spec);

// Whether `spec` applies to `settings`' mode (and mechanism).
bool SettingApplies(const SettingSpec& spec, const ModelSettings& settings);
// "--k applies to --mode deniable only", for a setting given where it does not apply.
std::string NotApplicableMessage(const SettingSpec& spec);

// What is wrong with `value` for `spec` ("must be between 2 and 1000, or auto (got 1)"), or
// nullopt if it is acceptable. "auto" is accepted where the setting has an automatic value.
std::optional<std::string> SettingProblem(const SettingSpec& spec, const nlohmann::json& value);

// The bounds in words: "between 2 and 1000, or auto", "in (0, 1)", "finite and positive".
std::string SettingBoundsText(const SettingSpec& spec);

// Sets `spec` from a JSON value ("auto" allowed where automatic): kParse "WHERE.NAME: ..." when
// the value has the wrong type or is out of bounds.
Status SetSettingFromJson(const SettingSpec& spec, const nlohmann::json& value,
                          ModelSettings& settings, const std::string& where);

// Sets `spec` from a command line's text (a number, a name, "auto", a comma-separated list):
// kInvalidArgument naming the flag when it does not parse or is out of bounds.
Status SetSettingFromText(const SettingSpec& spec, const std::string& text,
                          ModelSettings& settings);

// The value as JSON: "auto" for the automatic value when auto_as_text, the raw value otherwise.
nlohmann::json SettingJson(const SettingSpec& spec, const ModelSettings& settings,
                           bool auto_as_text);

// The value as a command line gives it ("auto", "0.25", "0.21,0.21,0.58", "true").
std::string SettingText(const SettingSpec& spec, const ModelSettings& settings);

// True when `a` and `b` hold the same value of every persisted setting of the table.
bool SameTableSettings(const ModelSettings& a, const ModelSettings& b);

}  // namespace deniable
