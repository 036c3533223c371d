// SPDX-License-Identifier: Apache-2.0
// deniable-cli: everything the GUI does, headless, from the same engine.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/stderr_progress.h"

namespace {

void PrintOverview() {
  std::printf(
      "deniable-cli: turn a sensitive CSV into a differentially private synthetic one.\n\n"
      "Usage: deniable-cli COMMAND [ARGS] [OPTIONS]   (deniable-cli COMMAND --help)\n\n"
      "Commands:\n");
  for (const auto& command : deniable::cli::Commands()) {
    std::printf("  %-11s %s\n", command.spec.name.c_str(), command.spec.summary.c_str());
  }
  std::printf("\nExit codes: 0 ok, 1 failure, 2 usage error, 3 bad input data.\n");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace deniable::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintOverview();
    return args.empty() ? kExitUsage : kExitOk;
  }
  if (args[0] == "--version") {
    std::printf("deniable-cli 0.1.0\n");
    return kExitOk;
  }
  const Command* command = nullptr;
  for (const Command& candidate : Commands()) {
    if (candidate.spec.name == args[0]) command = &candidate;
  }
  if (command == nullptr) {
    std::fprintf(stderr, "deniable-cli: error: unknown command '%s' (try deniable-cli --help)\n",
                 args[0].c_str());
    return kExitUsage;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string& arg : rest) {
    if (arg == "--help" || arg == "-h") {
      std::fputs(HelpText(command->spec).c_str(), stdout);
      return kExitOk;
    }
  }
  StderrProgress::InstallInterruptHandler();
  try {
    auto parsed = Parse(command->spec, rest);
    if (!parsed) return ReportError(parsed.error());
    return command->run(parsed.value());
  } catch (const std::bad_alloc&) {
    return ReportError(deniable::InternalError("out of memory"));
  } catch (const std::exception& e) {  // boundary: exceptions become errors
    return ReportError(deniable::InternalError(e.what()));
  }
}
