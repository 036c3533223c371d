// SPDX-License-Identifier: Apache-2.0
// Fuzzes deniable-cli's argument parsing (app/cli/args.cpp) over the real command table, and the
// model settings read from the parsed options (ReadModelSettings: modes, ω and split specs,
// numbers and their bounds). Input: the first byte picks the command, the rest is the argument
// list, NUL-separated. Nothing is run.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "engine/pipeline/synthesis_job.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deniable::cli;
  if (size == 0) return 0;
  const std::vector<Command>& commands = Commands();
  const Command& command = commands[data[0] % commands.size()];
  std::vector<std::string> args(1);
  for (std::size_t i = 1; i < size; ++i) {
    if (data[i] == 0) {
      args.emplace_back();
    } else {
      args.back().push_back(static_cast<char>(data[i]));
    }
  }
  (void)HelpText(command.spec);
  auto parsed = Parse(command.spec, args);
  if (!parsed) return 0;
  for (const OptionSpec& option : command.spec.options) {
    (void)parsed->GetDouble(option.name, 0.0);
    (void)parsed->GetInteger(option.name, 0);
  }
  for (const OptionSpec& option : command.spec.options) {
    if (option.name == "--mode") {
      (void)ReadModelSettings(parsed.value());
      break;
    }
  }
  return 0;
}
