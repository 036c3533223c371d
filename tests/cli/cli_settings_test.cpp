// SPDX-License-Identifier: Apache-2.0
// The CLI takes every model setting's flag from the settings table (issue 12, part 7): for each
// row with a flag of its own, a value past its bounds is a usage error naming the flag, the
// help lists the flag with the table's help text, and the flag is refused in a mode it does
// not apply to.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "engine/pipeline/settings_table.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string Demo() { return test_support::SourcePath("resources/demo/adult_sample.csv"); }

const char* ModeFor(const SettingSpec& spec) {
  for (SynthesisMode mode : {SynthesisMode::kCorrelated, SynthesisMode::kDeniable,
                             SynthesisMode::kMarginals}) {
    if (spec.modes & ModeBit(mode)) return SynthesisModeName(mode);
  }
  return "independent";
}

TEST(CliSettingsTest, EveryFlagPastItsBoundsIsAUsageErrorNamingTheFlag) {
  const std::string output = test_support::TempDir() + "/x.csv";
  int checked = 0;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag || spec.parse_text != nullptr || !std::isfinite(spec.maximum) ||
        (spec.kind != SettingKind::kInteger && spec.kind != SettingKind::kReal)) {
      continue;
    }
    const double above = spec.maximum_inclusive ? spec.maximum + 1 : spec.maximum;
    const std::string text = spec.kind == SettingKind::kInteger
                                 ? std::to_string(static_cast<long long>(above))
                                 : nlohmann::json(above).dump();
    const CliRun run = Cli({"synthesize", Demo(), "--mode", ModeFor(spec), spec.cli_flag, text,
                            "-n", "10", "-o", output});
    EXPECT_EQ(run.exit_code, 2) << spec.cli_flag << " " << text;
    EXPECT_NE(run.err.find(std::string(spec.cli_flag) + " must be " + SettingBoundsText(spec)),
              std::string::npos)
        << run.err;
    ++checked;
  }
  EXPECT_GE(checked, 10);
  EXPECT_FALSE(std::filesystem::exists(output));
}

TEST(CliSettingsTest, HelpListsEveryFlagWithTheTablesHelp) {
  const CliRun help = Cli({"synthesize", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag) continue;
    EXPECT_NE(help.out.find(spec.cli_flag), std::string::npos) << spec.cli_flag;
    // The help's first words (the line wraps after the flag column).
    EXPECT_NE(help.out.find(std::string(spec.help).substr(0, 20)), std::string::npos)
        << spec.cli_flag;
  }
}

TEST(CliSettingsTest, ModeSpecificFlagsAreRefusedElsewhere) {
  const std::string output = test_support::TempDir() + "/x.csv";
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag || spec.group == SettingGroup::kModel) continue;
    const bool deniable = spec.group == SettingGroup::kDeniable;
    std::vector<std::string> args = {"synthesize", Demo(), "--mode",
                                     deniable ? "marginals" : "deniable", spec.cli_flag};
    if (*spec.value_name) args.push_back(SettingText(spec, ModelSettings()));
    for (const char* rest : {"-n", "10", "-o"}) args.emplace_back(rest);
    args.push_back(output);
    const CliRun run = Cli(args);
    EXPECT_EQ(run.exit_code, 2) << spec.cli_flag;
    EXPECT_NE(run.err.find(std::string(spec.cli_flag) + " applies to --mode " +
                           (deniable ? "deniable" : "marginals") + " only"),
              std::string::npos)
        << run.err;
  }
  const CliRun mst = Cli({"synthesize", Demo(), "--mode", "marginals", "--mechanism", "mst",
                          "--rounds", "5", "-n", "10", "-o", output});
  EXPECT_EQ(mst.exit_code, 2);
  EXPECT_NE(mst.err.find("--rounds applies to --mechanism aim only"), std::string::npos)
      << mst.err;
}

}  // namespace
}  // namespace deniable
