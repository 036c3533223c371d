// SPDX-License-Identifier: Apache-2.0
// A small, strict command-line parser: every option is declared with its help text, unknown
// options and missing values are usage errors (exit code 2) naming the option.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/result.h"

namespace deniable::cli {

struct OptionSpec {
  std::string name;         // "--epsilon"
  std::string short_name;   // "-o" or ""
  std::string value_name;   // "E"; empty for a flag
  std::string help;
};

struct CommandSpec {
  std::string name;
  std::string usage;        // "INPUT.csv --mode M [...]"
  std::string summary;      // one line
  std::string details;      // paragraphs shown by --help
  std::vector<std::string> positionals;  // names, all required
  std::vector<OptionSpec> options;
};

class ParsedArgs {
 public:
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> get(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

  // Typed getters: kInvalidArgument naming the option and the text when it does not parse.
  Result<double> GetDouble(const std::string& name, double fallback) const;
  Result<long long> GetInteger(const std::string& name, long long fallback) const;

 private:
  friend Result<ParsedArgs> Parse(const CommandSpec& spec, const std::vector<std::string>& args);
  std::map<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

// "--help" is handled by the caller (it checks for it before parsing).
Result<ParsedArgs> Parse(const CommandSpec& spec, const std::vector<std::string>& args);

std::string HelpText(const CommandSpec& spec);

}  // namespace deniable::cli
