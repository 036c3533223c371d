// SPDX-License-Identifier: Apache-2.0
// Reading the input (LoadInput, LoadInputWithControl; synthesis_job.h): the CSV with the schema
// file's CSV settings, the control split, schema inference and the user's corrections.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/evaluate/control_split.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"

namespace deniable {
namespace {

// Reads "csv": {"delimiter": ",", "missing_tokens": [...]} from a schema JSON, if present, so a
// schema file reproduces how the CSV was read.
Status ApplyCsvSettings(const nlohmann::json& schema, const std::string& source,
                        CsvReadOptions& csv) {
  if (!schema.is_object() || !schema.contains("csv")) return OkStatus();
  const nlohmann::json& settings = schema["csv"];
  if (!settings.is_object()) return ParseError(source + ": csv: expected an object");
  if (settings.contains("delimiter") && !settings["delimiter"].is_null()) {
    if (!settings["delimiter"].is_string() || settings["delimiter"].get<std::string>().size() > 1) {
      return ParseError(source + ": csv.delimiter: expected a one-character string");
    }
    const std::string delimiter = settings["delimiter"].get<std::string>();
    csv.delimiter = delimiter.empty() ? 0 : delimiter[0];
  }
  if (settings.contains("missing_tokens")) {
    try {
      csv.missing_tokens = settings["missing_tokens"].get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception&) {
      return ParseError(source + ": csv.missing_tokens: expected an array of strings");
    }
  }
  return OkStatus();
}

// Schema inference and the user's corrections on a table as read (LoadInput's second half).
Result<LoadedInput> InferInput(RawTable table, const InputSettings& settings,
                               const CsvReadOptions& csv, Progress& progress) {
  progress.Report(0.85, "Inferring column types");
  InferOptions infer;
  infer.categorical_threshold = settings.categorical_threshold;
  Schema schema = InferSchema(table, infer);
  schema.delimiter = table.dialect.delimiter;
  schema.missing_tokens = csv.missing_tokens;
  if (settings.schema) {
    // With the table, a type change recomputes the column's stats and detects its format.
    auto corrected = ApplySchemaJson(schema, *settings.schema, settings.schema_source, &table);
    if (!corrected) return corrected.error();
    schema = std::move(corrected.value());
  }
  progress.Report(1.0, "Input ready");
  LoadedInput input;
  input.table = std::make_shared<const RawTable>(std::move(table));
  input.schema = std::move(schema);
  return input;
}

}  // namespace

Result<LoadedInput> LoadInput(const InputSettings& settings, Progress& progress) {
  auto loaded = LoadInputWithControl(settings, 0, nullptr, progress);
  if (!loaded) return loaded.error();
  return std::move(loaded->input);
}

Result<LoadedSplitInput> LoadInputWithControl(const InputSettings& settings,
                                              double control_fraction, Rng* rng,
                                              Progress& progress) {
  CsvReadOptions csv = settings.csv;
  if (settings.schema) {
    if (auto s = ApplyCsvSettings(*settings.schema, settings.schema_source, csv); !s) {
      return s.error();
    }
  }
  SubProgress read_progress(progress, 0.0, 0.8);
  auto table = ReadCsv(settings.path, csv, read_progress);
  if (!table) return table.error();
  if (control_fraction == 0) {
    auto input = InferInput(std::move(table.value()), settings, csv, progress);
    if (!input) return input.error();
    return LoadedSplitInput{std::move(input.value()), nullptr};
  }
  if (rng == nullptr) return InvalidArgument("control-fraction needs a random generator");
  // Before anything is learned (schema inference included): engine/evaluate/control_split.h.
  auto split = SplitControlRows(table.value(), control_fraction, *rng);
  if (!split) return split.error();
  auto input = InferInput(std::move(split->train), settings, csv, progress);
  if (!input) return input.error();
  return LoadedSplitInput{std::move(input.value()),
                          std::make_shared<const RawTable>(std::move(split->control))};
}

}  // namespace deniable
