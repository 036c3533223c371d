// SPDX-License-Identifier: Apache-2.0
// The settings table (issue 12, part 7): every row's default validates, values past its bounds
// are refused with a message naming the flag (or the key), its JSON and text forms round-trip,
// and the flag's text sets exactly that setting.
#include "engine/pipeline/settings_table.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace deniable {
namespace {

using json = nlohmann::json;

// Settings in a mode the row applies to (AIM for the AIM-only rows).
ModelSettings InItsMode(const SettingSpec& spec) {
  ModelSettings settings;
  for (SynthesisMode mode : {SynthesisMode::kCorrelated, SynthesisMode::kDeniable,
                             SynthesisMode::kMarginals, SynthesisMode::kIndependent,
                             SynthesisMode::kRandom}) {
    if (spec.modes & ModeBit(mode)) {
      settings.mode = mode;
      break;
    }
  }
  return settings;
}

bool IsNumber(const SettingSpec& spec) {
  return spec.kind == SettingKind::kReal || spec.kind == SettingKind::kInteger;
}

TEST(SettingsTableTest, NamesAndFlagsAreUniqueAndEveryRowIsComplete) {
  std::set<std::string> names, flags, titles;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    // The report names each setting by its title: one per setting, none shared.
    EXPECT_FALSE(std::string(spec.title).empty()) << spec.name;
    EXPECT_TRUE(titles.insert(spec.title).second) << spec.title;
    if (*spec.cli_flag) {
      EXPECT_TRUE(flags.insert(spec.cli_flag).second) << spec.cli_flag;
    }
    EXPECT_NE(spec.get, nullptr) << spec.name;
    EXPECT_NE(spec.set, nullptr) << spec.name;
    EXPECT_FALSE(std::string(spec.help).empty()) << spec.name;
    EXPECT_FALSE(spec.example.is_null()) << spec.name;
    EXPECT_EQ(FindSetting(spec.name), &spec);
    if (IsNumber(spec)) {
      EXPECT_GE(spec.control_minimum, spec.has_auto ? std::min(spec.minimum, 0.0) : spec.minimum)
          << spec.name;
      EXPECT_LE(spec.control_maximum, spec.maximum) << spec.name;
      EXPECT_LT(spec.control_minimum, spec.control_maximum) << spec.name;
    }
  }
  EXPECT_EQ(FindSetting("no such setting"), nullptr);
}

// A drop-down's preset values (δ, the control split) are values the setting accepts, within
// the range a control offers, and include the default.
TEST(SettingsTableTest, PresetsAreAcceptedValuesAndIncludeTheDefault) {
  const ModelSettings defaults;
  int with_presets = 0;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (spec.presets.empty()) continue;
    ++with_presets;
    EXPECT_EQ(spec.kind, SettingKind::kReal) << spec.name;
    for (double value : spec.presets) {
      EXPECT_EQ(SettingProblem(spec, value), std::nullopt) << spec.name << " " << value;
      EXPECT_GE(value, spec.control_minimum) << spec.name;
      EXPECT_LE(value, spec.control_maximum) << spec.name;
    }
    const double value = spec.get(defaults).get<double>();
    EXPECT_NE(std::find(spec.presets.begin(), spec.presets.end(), value), spec.presets.end())
        << spec.name;
  }
  EXPECT_EQ(with_presets, 2);
  EXPECT_EQ(Setting("delta").presets,
            (std::vector<double>{1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12}));
}

TEST(SettingsTableTest, EveryDefaultValidatesAndEveryExampleDiffersAndValidates) {
  const ModelSettings defaults;
  ASSERT_TRUE(defaults.Validate().has_value()) << defaults.Validate().error().message;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    EXPECT_FALSE(SettingProblem(spec, spec.get(defaults)).has_value()) << spec.name;
    EXPECT_NE(spec.get(defaults), spec.example) << spec.name << ": the example is the default";
    ModelSettings changed = InItsMode(spec);
    ASSERT_TRUE(SetSettingFromJson(spec, spec.example, changed, "settings").has_value())
        << spec.name;
    if (std::string(spec.name) == "omega_min") changed.deniable.omega_max = 9;
    EXPECT_EQ(spec.get(changed), spec.example) << spec.name;
    const Status valid = changed.Validate();
    EXPECT_TRUE(valid.has_value()) << spec.name << ": " << valid.error().message;
  }
}

// Below the minimum and above the maximum (or just at an excluded bound): refused by Validate
// (naming the flag), by the JSON reader (naming the key) and by the command line (the flag).
TEST(SettingsTableTest, ValuesPastTheBoundsAreRefusedNamingTheSetting) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!IsNumber(spec)) continue;
    std::vector<double> bad;
    const double below = spec.minimum_inclusive ? spec.minimum - 1 : spec.minimum;
    if (!(spec.has_auto && below == spec.auto_value)) bad.push_back(below);
    if (std::isfinite(spec.maximum)) {
      bad.push_back(spec.maximum_inclusive ? spec.maximum + 1 : spec.maximum);
    }
    for (double value : bad) {
      const json number = spec.kind == SettingKind::kInteger
                              ? json(static_cast<long long>(value)) : json(value);
      SCOPED_TRACE(std::string(spec.name) + " = " + number.dump());
      const auto problem = SettingProblem(spec, number);
      ASSERT_TRUE(problem.has_value());
      EXPECT_NE(problem->find("must be " + SettingBoundsText(spec)), std::string::npos)
          << *problem;

      ModelSettings settings = InItsMode(spec);
      const Status read = SetSettingFromJson(spec, number, settings, "p.deniable: settings");
      ASSERT_FALSE(read.has_value());
      EXPECT_EQ(read.error().code, ErrorCode::kParse);
      EXPECT_EQ(read.error().message.rfind("p.deniable: settings." + std::string(spec.name) +
                                               ": must be ", 0), 0u)
          << read.error().message;

      if (*spec.cli_flag && spec.parse_text == nullptr) {
        const Status parsed = SetSettingFromText(spec, number.dump(), settings);
        ASSERT_FALSE(parsed.has_value());
        EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgument);
        EXPECT_EQ(parsed.error().message.rfind(std::string(spec.cli_flag) + " must be ", 0), 0u)
            << parsed.error().message;
      }
    }
  }
}

// Validate sees every row: a value past a bound set directly in the struct is refused.
TEST(SettingsTableTest, ValidateChecksEveryNumericRowInEveryMode) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!IsNumber(spec) || !std::isfinite(spec.maximum) || spec.kind != SettingKind::kInteger) {
      continue;
    }
    ModelSettings settings;  // correlated: the deniable and marginals rows are checked too
    spec.set(settings, json(static_cast<long long>(spec.maximum)));
    EXPECT_TRUE(SettingProblem(spec, spec.get(settings)) == std::nullopt) << spec.name;
    spec.set(settings, json(static_cast<double>(spec.maximum) + 1));
    const Status status = settings.Validate();
    ASSERT_FALSE(status.has_value()) << spec.name;
    EXPECT_EQ(status.error().message.rfind(SettingLabel(spec) + " must be ", 0), 0u)
        << status.error().message;
  }
}

TEST(SettingsTableTest, TheBinsBoundsAreOneSetAndAutoIsZero) {
  const SettingSpec& bins = Setting("bins");
  EXPECT_EQ(SettingBoundsText(bins), "between 2 and 1000, or 0 / auto for automatic");
  EXPECT_EQ(bins.control_minimum, 2);
  EXPECT_EQ(bins.control_maximum, 1000);
  ModelSettings settings;
  ASSERT_TRUE(SetSettingFromText(bins, "auto", settings).has_value());
  EXPECT_EQ(settings.bins, 0);
  EXPECT_EQ(SettingJson(bins, settings, true), "auto");
  EXPECT_EQ(SettingJson(bins, settings, false), 0);
  ASSERT_TRUE(SetSettingFromText(bins, "1000", settings).has_value());
  EXPECT_EQ(settings.bins, 1000);
  EXPECT_EQ(SetSettingFromText(bins, "1", settings).error().message,
            "--bins must be between 2 and 1000, or 0 / auto for automatic (got 1)");
  EXPECT_EQ(SetSettingFromText(bins, "100000", settings).error().message,
            "--bins must be between 2 and 1000, or 0 / auto for automatic (got 100000)");
  EXPECT_EQ(SetSettingFromText(bins, "many", settings).error().message,
            "--bins expects an integer (got 'many')");
}

// The text a command line gives (SettingText) parses back to the same value, for every row.
TEST(SettingsTableTest, TextFormRoundTripsEveryExample) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag) continue;
    ModelSettings changed = InItsMode(spec);
    ASSERT_TRUE(SetSettingFromJson(spec, spec.example, changed, "settings").has_value());
    if (std::string(spec.name) == "omega_min") changed.deniable.omega_max = 9;
    ModelSettings parsed = InItsMode(spec);
    const std::string text = SettingText(spec, changed);
    const Status status = SetSettingFromText(spec, text, parsed);
    ASSERT_TRUE(status.has_value()) << spec.name << " '" << text << "': "
                                    << status.error().message;
    EXPECT_EQ(spec.get(parsed), spec.get(changed)) << spec.name << " '" << text << "'";
  }
}

TEST(SettingsTableTest, CompositeFlagsSetTheirFields) {
  ModelSettings settings;
  ASSERT_TRUE(SetSettingFromText(Setting("omega_min"), "5-11", settings).has_value());
  EXPECT_EQ(settings.deniable.omega_min, 5);
  EXPECT_EQ(settings.deniable.omega_max, 11);
  EXPECT_EQ(SettingText(Setting("omega_min"), settings), "5-11");
  ASSERT_TRUE(SetSettingFromText(Setting("split"), "0.25,0.25,0.5", settings).has_value());
  EXPECT_EQ(settings.deniable.split_seeds, 0.5);
  EXPECT_EQ(SettingText(Setting("split"), settings), "0.25,0.25,0.5");
  const Status bad = SetSettingFromText(Setting("split"), "0.5,0.5", settings);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message.rfind("--split must be three fractions", 0), 0u)
      << bad.error().message;
}

TEST(SettingsTableTest, ChoicesAreCheckedByName) {
  ModelSettings settings;
  const Status bad = SetSettingFromText(Setting("structure"), "tree", settings);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "--structure must be cfs, privbayes or marginals (got 'tree')");
  EXPECT_EQ(SetSettingFromText(Setting("mode"), "magic", settings).error().message,
            "--mode must be random, independent, correlated, deniable or marginals (got "
            "'magic')");
}

// Every persisted row counts for the table's equality; the threads (a preference) do not.
TEST(SettingsTableTest, EqualitySeesEveryPersistedSetting) {
  const ModelSettings defaults;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    ModelSettings changed;
    spec.set(changed, spec.example);
    EXPECT_EQ(SameTableSettings(defaults, changed), !spec.persisted) << spec.name;
  }
}

TEST(SettingsTableTest, NotApplicableMessagesNameTheModeOrMechanism) {
  EXPECT_EQ(NotApplicableMessage(Setting("k")), "--k applies to --mode deniable only");
  EXPECT_EQ(NotApplicableMessage(Setting("iterations")),
            "--iterations applies to --mode marginals only");
  EXPECT_EQ(NotApplicableMessage(Setting("rounds")), "--rounds applies to --mechanism aim only");
  ModelSettings settings;
  settings.mode = SynthesisMode::kMarginals;
  EXPECT_TRUE(SettingApplies(Setting("rounds"), settings));
  settings.marginals.mechanism = MarginalsMechanism::kMst;
  EXPECT_FALSE(SettingApplies(Setting("rounds"), settings));
  EXPECT_TRUE(SettingApplies(Setting("iterations"), settings));
  EXPECT_FALSE(SettingApplies(Setting("k"), settings));
}

// The description's record: the mode's settings only, "auto" for a value chosen by rule.
TEST(SettingsTableTest, DescriptionRecordsTheModesSettings) {
  ModelSettings settings;
  settings.mode = SynthesisMode::kDeniable;
  const json record = settings.ToJson();
  EXPECT_EQ(record["mode"], "deniable");
  EXPECT_EQ(record["bins"], "auto");
  EXPECT_EQ(record["domain_fraction"], "auto");
  EXPECT_EQ(record["k"], 50);
  EXPECT_EQ(record["split"], (json{0.21, 0.21, 0.58}));
  EXPECT_EQ(record["deterministic_test"], false);
  EXPECT_FALSE(record.contains("degree"));
  EXPECT_FALSE(record.contains("rounds"));
  EXPECT_FALSE(record.contains("threads"));
  settings.mode = SynthesisMode::kMarginals;
  const json marginals = settings.ToJson();
  EXPECT_EQ(marginals["mechanism"], "aim");
  EXPECT_EQ(marginals["rounds"], "auto");
  EXPECT_EQ(marginals["max_model_mb"], 2.0);
  EXPECT_FALSE(marginals.contains("target"));
  EXPECT_FALSE(marginals.contains("k"));
}

}  // namespace
}  // namespace deniable
