// SPDX-License-Identifier: Apache-2.0
// Fuzzes the dataset description reader (engine/model/description.cpp, format
// "deniable-description"): JSON text -> DescriptionFromJson, as ReadDescription does (which
// turns a stray nlohmann exception into a kParse error), then a few rows generated from what it
// accepted. Any input must give a description or a kParse error; generation from an accepted
// one must not crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/model/description.h"
#include "engine/schema/schema_json.h"
#include "tests/fuzz/generate_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deniable;
  auto json = ParseJsonText(std::string_view(reinterpret_cast<const char*>(data), size),
                            "fuzz.json");
  if (!json) return 0;
  Result<Description> description = ParseError("not read");
  try {
    description = DescriptionFromJson(json.value(), "fuzz.json");
  } catch (const nlohmann::json::exception&) {
    return 0;  // ReadDescription's net: a kParse error naming the file
  }
  if (description) fuzz::GenerateFewRows(description.value());
  return 0;
}
