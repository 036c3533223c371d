// SPDX-License-Identifier: Apache-2.0
#include "app/cli/args.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace deniable::cli {

std::optional<std::string> ParsedArgs::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

Result<double> ParsedArgs::GetDouble(const std::string& name, double fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (text->empty() || end != text->c_str() + text->size() || errno == ERANGE ||
      !std::isfinite(value)) {
    return InvalidArgument(name + " expects a number (got '" + *text + "')");
  }
  return value;
}

Result<long long> ParsedArgs::GetInteger(const std::string& name, long long fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  long long value = 0;
  const char* begin = text->data();
  const char* end = begin + text->size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text->empty() || ec != std::errc() || ptr != end) {
    return InvalidArgument(name + " expects an integer (got '" + *text + "')");
  }
  return value;
}

Result<ParsedArgs> Parse(const CommandSpec& spec, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() > 1 && arg[0] == '-' && !(arg.size() > 1 && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.'))) {
      std::string name = arg, value;
      bool inline_value = false;
      if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
        name = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        inline_value = true;
      }
      const OptionSpec* option = nullptr;
      for (const OptionSpec& candidate : spec.options) {
        if (candidate.name == name || (!candidate.short_name.empty() && candidate.short_name == name)) {
          option = &candidate;
        }
      }
      if (option == nullptr) {
        return InvalidArgument("unknown option '" + name + "' for '" + spec.name +
                               "' (see deniable-cli " + spec.name + " --help)");
      }
      if (parsed.values_.count(option->name)) {
        return InvalidArgument("option " + option->name + " given twice");
      }
      if (option->value_name.empty()) {
        if (inline_value) return InvalidArgument(option->name + " takes no value");
        parsed.values_[option->name] = "1";
      } else {
        if (!inline_value) {
          if (i + 1 >= args.size()) {
            return InvalidArgument(option->name + " needs a value (" + option->value_name + ")");
          }
          value = args[++i];
        }
        parsed.values_[option->name] = value;
      }
    } else {
      parsed.positionals_.push_back(arg);
    }
  }
  if (parsed.positionals_.size() != spec.positionals.size()) {
    std::ostringstream message;
    message << "'" << spec.name << "' expects " << spec.positionals.size() << " argument"
            << (spec.positionals.size() == 1 ? "" : "s");
    if (!spec.positionals.empty()) {
      message << " (";
      for (std::size_t i = 0; i < spec.positionals.size(); ++i) {
        message << (i ? " " : "") << spec.positionals[i];
      }
      message << ")";
    }
    message << ", got " << parsed.positionals_.size() << "; usage: deniable-cli " << spec.name
            << " " << spec.usage;
    return InvalidArgument(message.str());
  }
  return parsed;
}

std::string HelpText(const CommandSpec& spec) {
  std::ostringstream out;
  out << "Usage: deniable-cli " << spec.name << " " << spec.usage << "\n\n" << spec.summary << "\n";
  if (!spec.details.empty()) out << "\n" << spec.details << "\n";
  out << "\nOptions:\n";
  for (const OptionSpec& option : spec.options) {
    std::string left = "  ";
    if (!option.short_name.empty()) left += option.short_name + ", ";
    left += option.name;
    if (!option.value_name.empty()) left += " " + option.value_name;
    out << left;
    if (left.size() < 28) out << std::string(28 - left.size(), ' ');
    else out << "\n" << std::string(28, ' ');
    out << option.help << "\n";
  }
  out << "  -h, --help                show this help\n";
  return out.str();
}

}  // namespace deniable::cli
