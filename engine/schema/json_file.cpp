// SPDX-License-Identifier: Apache-2.0
// Reading JSON files with syntax errors reported as FILE:LINE:COLUMN.
#include <algorithm>

#include "engine/core/atomic_file.h"
#include "engine/schema/schema_json.h"

namespace deniable {

Result<nlohmann::json> ParseJsonText(std::string_view text, const std::string& source_name) {
  try {
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/true,
                                 /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is the 1-based offset of the last byte read: report its line and column.
    const std::size_t end =
        std::min<std::size_t>(error.byte == 0 ? 0 : error.byte - 1, text.size());
    const std::string_view before = text.substr(0, end);
    const auto line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t last_newline = before.rfind('\n');
    const std::size_t column =
        last_newline == std::string_view::npos ? end + 1 : end - last_newline;
    std::string what = error.what();
    const std::size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return ParseError(source_name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                      ": JSON syntax error: " + what);
  }
}

Result<nlohmann::json> ReadJsonFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  return ParseJsonText(*text, path);
}

}  // namespace deniable
