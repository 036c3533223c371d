// SPDX-License-Identifier: Apache-2.0
// Runs the deniable-cli executable (DENIABLE_CLI_PATH) with arguments and captures its exit
// code, standard output and standard error: shared by the CLI tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/atomic_file.h"

namespace deniable {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline CliRun Cli(const std::vector<std::string>& args) {
  static int counter = 0;
  const std::string dir = std::filesystem::temp_directory_path().string();
  const std::string out = dir + "/deniable-cli-test-" + std::to_string(getpid()) + "-" +
                          std::to_string(++counter);
  std::string command = Quote(DENIABLE_CLI_PATH);
  for (const std::string& arg : args) command += " " + Quote(arg);
  command += " >" + out + ".out 2>" + out + ".err";
  const int status = std::system(command.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadFileToString(out + ".out").value();
  run.err = ReadFileToString(out + ".err").value();
  std::filesystem::remove(out + ".out");
  std::filesystem::remove(out + ".err");
  return run;
}

}  // namespace deniable
