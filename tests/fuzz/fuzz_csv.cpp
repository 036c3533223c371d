// SPDX-License-Identifier: Apache-2.0
// Fuzzes the CSV reader (engine/io) and what `inspect` does next with a table it accepted:
// schema inference (type, datetime-format and vocabulary detection over arbitrary text) and the
// inspect JSON with its column review. Any input must give a table or a kParse error; a crash,
// sanitizer report, uncaught exception or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deniable;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)DetectDelimiter(text);
  NullProgress progress;
  CsvReadOptions preview;
  preview.max_rows = 2;
  (void)ParseCsv(text, "fuzz.csv", preview, progress);
  auto table = ParseCsv(text, "fuzz.csv", CsvReadOptions{}, progress);
  if (!table) return 0;
  InferOptions infer;
  infer.today_days = 20'000;  // a fixed "today" (2024-10-04) keeps runs reproducible
  const Schema schema = InferSchema(table.value(), infer);
  (void)SchemaJsonText(schema, /*include_stats=*/true, &table.value());
  return 0;
}
