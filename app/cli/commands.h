// SPDX-License-Identifier: Apache-2.0
// The deniable-cli commands. Each returns an exit code: 0 ok, 1 failure, 2 usage error,
// 3 bad input data.
#pragma once

#include <string>
#include <vector>

#include "app/cli/args.h"
#include "engine/core/result.h"
#include "engine/pipeline/synthesis_job.h"

namespace deniable {
struct ModelSettings;
}

namespace deniable::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitBadInput = 3;

// Prints "deniable-cli: error: <message>" and returns the exit code for the error's kind.
int ReportError(const Error& error);

struct Command {
  CommandSpec spec;
  int (*run)(const ParsedArgs& args);
};

const std::vector<Command>& Commands();

// The model settings from a synthesize/describe/advise command's options (--mode, ε, the modes'
// options, bounds checked): kInvalidArgument naming the option. Pure; fuzzed by
// tests/fuzz/fuzz_cli_args.cpp.
Result<ModelSettings> ReadModelSettings(const ParsedArgs& args);

// risk-theory and risk (risk_commands.cpp, #11).
std::vector<Command> RiskCommands();

// evaluate (evaluate_command.cpp, #11): attacks on a release and its ML utility.
std::vector<Command> EvaluateCommands();

// report (report_command.cpp, #11): the release report as HTML or PDF. Only in a build with the
// desktop app (DENIABLE_CLI_REPORT): it renders charts with Qt.
std::vector<Command> ReportCommands();

// Shared by the commands' files (read_settings.cpp).
Result<InputSettings> ReadInputSettings(const ParsedArgs& args, const std::string& path);
// A comma-separated list of column names ("a,b"); an empty name stays ("a," -> "a", "") so
// that the caller can refuse it by name.
std::vector<std::string> SplitNames(const std::string& text);

// inspect (inspect_command.cpp): the inferred schema, the columns' review, the domains' forecast.
int RunInspect(const ParsedArgs& args);

}  // namespace deniable::cli
