// SPDX-License-Identifier: Apache-2.0
// Fuzzes the schema JSON reader (engine/schema): a user's corrections (`--schema`, the project
// file's "columns") applied to the schema inferred from a small fixed table, with the table (as
// the CLI does) and without it, then written back and re-applied. Any input must give a schema
// or a kParse error naming the JSON path.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/io/csv_reader.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"

namespace {

using namespace deniable;

// One column of each kind the corrections can touch: an identifier, a datetime, a small integer
// category, strings, a float with decimals, a free-text column.
constexpr std::string_view kBaseCsv =
    "id,date,policePrecinct,race,neighborhood,lat,MDC,note\n"
    "A-001,2017-01-03 08:15:00,1,White,Camden,44.9801,MDC,early\n"
    "A-002,2017-02-11 21:40:00,2,Black,Folwell,45.0123,other,\n"
    "A-003,2017-03-07 13:05:00,3,Unknown,Camden,44.9512,MDC,late shift\n"
    "A-004,2017-04-22 02:55:00,4,White,Longfellow,44.9305,MDC,NA\n"
    "A-005,2017-05-30 17:20:00,5,Asian,Folwell,45.0411,other,check\n"
    "A-006,2017-06-18 11:45:00,1,Black,Longfellow,44.9688,MDC,\n";

struct Base {
  RawTable table;
  Schema schema;
};

const Base& GetBase() {
  static const Base base = [] {
    NullProgress progress;
    Base b{ParseCsv(kBaseCsv, "base.csv", CsvReadOptions{}, progress).value(), {}};
    InferOptions infer;
    infer.today_days = 20'000;
    b.schema = InferSchema(b.table, infer);
    return b;
  }();
  return base;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Base& base = GetBase();
  auto json = ParseJsonText(std::string_view(reinterpret_cast<const char*>(data), size),
                            "fuzz.json");
  if (!json) return 0;
  (void)ApplySchemaJson(base.schema, json.value(), "fuzz.json", nullptr);
  auto schema = ApplySchemaJson(base.schema, json.value(), "fuzz.json", &base.table);
  if (!schema) return 0;
  // What inspect writes must be accepted back unchanged.
  auto again = ParseJsonText(SchemaJsonText(schema.value(), true, &base.table), "again.json");
  if (!again || !ApplySchemaJson(base.schema, again.value(), "again.json", &base.table)) {
    __builtin_trap();
  }
  return 0;
}
