// SPDX-License-Identifier: Apache-2.0
// Property: every cell of every release parses as its column's type. For every CSV in the
// shared data folder and every mode (random, independent, correlated, deniable) at ε = 1 with a
// fixed seed (and the marginals mode, AIM), the synthetic CSV is written the way the CLI writes it (WriteSyntheticCsv), read
// back with the schema's CSV settings, and each non-missing cell is checked against the schema
// the release carries (the description's):
//  * Integer, Float: the cell parses as the type (typed_values.h);
//  * Float with decimals d >= 0: the cell has at most d digits after the point (output keeps
//    the input's precision);
//  * DateTime: the cell parses with the column's datetime format and two-digit-year window, so
//    it is a valid calendar date and time in that format.
// The header must be the schema's released columns in order. Every failing cell is collected
// and listed (file, mode, column, type, count, examples) before the test fails.
//
// Time: large tables are cut to their first 5,000 rows (a temp copy); 2,000 rows are released
// per run; the whole test takes a few seconds. Tables under 2,000 rows get public bounds for
// their non-categorical numeric columns in a test schema (their DP bounds need more rows at
// this ε); the bounds are read off the data, which is fine for a test and never for a release.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/io/csv_reader.h"
#include "engine/model/encoding.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/datetime.h"
#include "engine/schema/typed_values.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxInputRows = 5000;
constexpr std::size_t kReleasedRows = 2000;
constexpr std::size_t kBoundsBelowRows = 2000;
constexpr std::uint64_t kSeed = 20240601;
constexpr std::size_t kExamples = 5;

// Copies the header and the first `max_rows` records of `from` (quote-aware: a quoted field may
// hold a line break) to `to`. Returns whether the file was cut.
bool CopyFirstRows(const std::string& from, const std::string& to, std::size_t max_rows) {
  std::ifstream in(from, std::ios::binary);
  std::ofstream out(to, std::ios::binary);
  std::size_t records = 0;  // the header is record 0
  bool quoted = false;
  char c = 0;
  while (in.get(c)) {
    out.put(c);
    if (c == '"') quoted = !quoted;
    if (c == '\n' && !quoted && ++records > max_rows) return true;
  }
  return false;
}

// A test schema declaring the data's range public for the non-categorical, modelled numeric
// columns (see the header comment: test only).
nlohmann::json BoundsSchema(const LoadedInput& input) {
  nlohmann::json columns = nlohmann::json::array();
  for (std::size_t i = 0; i < input.schema.columns.size(); ++i) {
    const ColumnSchema& column = input.schema.columns[i];
    if (!column.is_numeric() || column.categorical || !column.is_modelled()) continue;
    const std::vector<double> values = NumericRowValues(input.table->columns[i], column);
    double lo = INFINITY;
    double hi = -INFINITY;
    for (double value : values) {
      if (std::isnan(value)) continue;
      lo = std::min(lo, value);
      hi = std::max(hi, value);
    }
    if (!(lo <= hi)) continue;
    nlohmann::json bounds;
    if (column.type == DataType::kDateTime) {
      std::string lo_text;
      std::string hi_text;
      FormatNumericCell(lo, column, lo_text);
      FormatNumericCell(hi, column, hi_text);
      bounds = {{"min", lo_text}, {"max", hi_text}};
    } else {
      bounds = {{"min", lo}, {"max", hi}};
    }
    columns.push_back({{"name", column.name}, {"public", bounds}});
  }
  return {{"columns", columns}};
}

// Failing cells of one column in one run.
struct Failure {
  std::string column;
  std::string type;
  std::string rule;
  std::uint64_t cells = 0;
  std::vector<std::string> examples;
};

// Checks one released cell against its column; "" when fine, else the rule it breaks.
std::string CheckCell(const std::string& text, const ColumnSchema& column) {
  switch (column.type) {
    case DataType::kString:
      return "";
    case DataType::kInteger:
    case DataType::kFloat:
      if (!ParseNumericCell(text, column)) return "does not parse as " + std::string(DataTypeName(column.type));
      if (column.type == DataType::kFloat && column.decimals >= 0 &&
          ClassifyNumberText(text).PlainDecimals() > column.decimals) {
        return "more than " + std::to_string(column.decimals) + " decimals";
      }
      return "";
    case DataType::kDateTime:
      if (!ParseNumericCell(text, column)) {
        return "not a valid date in format '" + column.datetime_format + "'";
      }
      return "";
  }
  return "";
}

// Runs one mode on one input and checks the written CSV; failures are appended. A documented
// refusal (kFailedPrecondition: e.g. the deniable mode on a 50-row table has too few seeds for
// k) writes no cell, so it cannot break the property: it goes to `refusals`.
void CheckRelease(const LoadedInput& input, SynthesisMode mode, const std::string& dir,
                  std::vector<Failure>& failures, std::string& errors, std::string& refusals) {
  ModelSettings settings;
  settings.mode = mode;
  settings.epsilon = 1.0;
  settings.threads = 1;
  SeededRng rng(kSeed);
  NullProgress progress;
  const auto refused_or_error = [&](const char* step, const Error& error) {
    (error.code == ErrorCode::kFailedPrecondition ? refusals : errors) +=
        std::string(SynthesisModeName(mode)) + ": " + step + ": " + error.message + "\n";
  };
  auto model = LearnModel(*input.table, input.schema, settings, rng, progress);
  if (!model) return refused_or_error("learn", model.error());
  auto rows = Synthesize(*model, *input.table, kReleasedRows, rng, progress);
  if (!rows) return refused_or_error("synthesize", rows.error());
  const Schema& schema = model->description.schema;  // what the release carries
  const std::string path = dir + "/synthetic-" + SynthesisModeName(mode) + ".csv";
  DecodeOptions decode;
  decode.delimiter = input.table->dialect.delimiter;
  if (auto s = WriteSyntheticCsv(path, rows->encoded, schema, model->description.domains, decode,
                                 rng, progress);
      !s) {
    errors += std::string(SynthesisModeName(mode)) + ": write: " + s.error().message + "\n";
    return;
  }
  CsvReadOptions read;
  read.delimiter = decode.delimiter;
  read.missing_tokens = schema.missing_tokens;
  auto written = ReadCsv(path, read, progress);
  if (!written) {
    errors += std::string(SynthesisModeName(mode)) + ": read back: " + written.error().message + "\n";
    return;
  }
  std::vector<const ColumnSchema*> released;
  for (const ColumnSchema& column : schema.columns) {
    if (column.role != ColumnRole::kIgnore) released.push_back(&column);
  }
  if (written->num_columns() != released.size()) {
    errors += std::string(SynthesisModeName(mode)) + ": " + std::to_string(written->num_columns()) +
              " columns written, " + std::to_string(released.size()) + " released\n";
    return;
  }
  for (std::size_t c = 0; c < released.size(); ++c) {
    const ColumnSchema& column = *released[c];
    const RawColumn& raw = written->columns[c];
    if (raw.name != column.name) {
      errors += std::string(SynthesisModeName(mode)) + ": column " + std::to_string(c) + " is '" +
                raw.name + "', expected '" + column.name + "'\n";
      continue;
    }
    std::map<std::string, Failure> by_rule;
    for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
      const std::string rule = CheckCell(raw.dictionary[k], column);
      if (rule.empty()) continue;
      Failure& failure = by_rule[rule];
      failure.column = column.name;
      failure.type = DataTypeName(column.type);
      if (column.type == DataType::kDateTime) failure.type += " " + column.datetime_format;
      if (column.type == DataType::kFloat) failure.type += " (" + std::to_string(column.decimals) + " decimals)";
      failure.rule = rule;
      failure.cells += raw.counts[k];
      if (failure.examples.size() < kExamples) failure.examples.push_back(raw.dictionary[k]);
    }
    for (auto& [rule, failure] : by_rule) failures.push_back(std::move(failure));
  }
}

TEST(TypedOutputE2eTest, EveryCellOfEveryModeParsesAsItsColumnsType) {
  const fs::path data(test_support::SharedDataPath(""));
  if (!fs::is_directory(data)) {
    GTEST_SKIP() << "shared data folder " << data << " is absent; skipped";
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (entry.is_regular_file() && entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no CSV in " << data;
  const std::string dir = test_support::TempDir();
  std::ostringstream report;
  std::size_t failing_runs = 0;
  std::size_t runs = 0;
  std::size_t refusals = 0;
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, data).string();
    std::string stem = name;
    std::replace(stem.begin(), stem.end(), '/', '-');
    const std::string copy = dir + "/" + stem;
    const bool cut = CopyFirstRows(file.string(), copy, kMaxInputRows);
    InputSettings input_settings;
    input_settings.path = copy;
    NullProgress progress;
    auto input = LoadInput(input_settings, progress);
    ASSERT_TRUE(input.has_value()) << name << ": " << input.error().message;
    if (input->table->num_rows() < kBoundsBelowRows) {
      input_settings.schema = BoundsSchema(*input);
      input_settings.schema_source = "bounds for " + name;
      input = LoadInput(input_settings, progress);
      ASSERT_TRUE(input.has_value()) << name << ": " << input.error().message;
    }
    const std::string run_dir = dir + "/" + stem + ".out";
    fs::create_directories(run_dir);
    for (SynthesisMode mode : {SynthesisMode::kRandom, SynthesisMode::kIndependent,
                               SynthesisMode::kCorrelated, SynthesisMode::kDeniable,
                               SynthesisMode::kMarginals}) {
      std::vector<Failure> failures;
      std::string errors;
      std::string refused;
      CheckRelease(*input, mode, run_dir, failures, errors, refused);
      ++runs;
      if (!refused.empty()) {
        ++refusals;
        std::printf("%s: refused (no output to check): %s", name.c_str(), refused.c_str());
      }
      if (failures.empty() && errors.empty()) continue;
      ++failing_runs;
      report << name << (cut ? " (first 5,000 rows)" : "") << ", " << SynthesisModeName(mode)
             << ":\n" << errors;
      for (const Failure& failure : failures) {
        report << "  column '" << failure.column << "' (" << failure.type << "): "
               << failure.cells << " cells " << failure.rule << ", e.g.";
        for (const std::string& example : failure.examples) report << " '" << example << "'";
        report << "\n";
      }
    }
  }
  std::printf("%zu runs over %zu files, %zu refused\n", runs, files.size(), refusals);
  EXPECT_LE(refusals, runs / 10) << "most runs must write a release to check";
  EXPECT_EQ(failing_runs, 0u) << failing_runs << " of " << runs
                              << " runs wrote cells that do not parse as their type:\n"
                              << report.str();
}

}  // namespace
}  // namespace deniable
