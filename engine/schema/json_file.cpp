// SPDX-License-Identifier: Apache-2.0
// Reading JSON files with syntax errors reported as FILE:LINE:COLUMN.
#include <algorithm>

#include "engine/core/atomic_file.h"
#include "engine/schema/schema_json.h"

namespace deniable {

namespace {

// "LINE:COLUMN" (1-based) of the byte at `offset` in `text`.
std::string LineColumn(std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, std::min(offset, text.size()));
  const auto line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t last_newline = before.rfind('\n');
  const std::size_t column =
      last_newline == std::string_view::npos ? before.size() + 1 : before.size() - last_newline;
  return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

Result<nlohmann::json> ParseJsonText(std::string_view text, const std::string& source_name) {
  try {
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/true,
                                 /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is the 1-based offset of the last byte read: report its line and column.
    const std::size_t end = error.byte == 0 ? 0 : error.byte - 1;
    std::string what = error.what();
    const std::size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return ParseError(source_name + ":" + LineColumn(text, end) + ": JSON syntax error: " + what);
  } catch (const nlohmann::json::out_of_range& error) {
    // A number beyond double's range (406 "number overflow parsing '1e999'"; found by
    // tests/fuzz/fuzz_description.cpp). The exception carries no position: locate the number.
    std::string what = error.what();
    const std::size_t quote = what.find('\'');
    std::string number;
    if (quote != std::string::npos && what.size() > quote + 1) {
      number = what.substr(quote + 1, what.size() - quote - 2);
    }
    const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
    return ParseError(source_name + ":" + LineColumn(text, at == std::string_view::npos ? 0 : at) +
                      ": JSON number out of range: " +
                      (number.empty() ? what : number + " (beyond ±1.8e308)"));
  }
}

Result<nlohmann::json> ReadJsonFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  return ParseJsonText(*text, path);
}

}  // namespace deniable
