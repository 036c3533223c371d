// SPDX-License-Identifier: Apache-2.0
// Schema inference, datetime parse/format and schema JSON speed (Google Benchmark).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <string>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/datetime.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

const RawTable& Table(const std::string& path) {
  static std::map<std::string, RawTable> tables;
  auto it = tables.find(path);
  if (it == tables.end()) {
    NullProgress progress;
    auto table = ReadCsv(path, CsvReadOptions{}, progress);
    if (!table) { fprintf(stderr, "%s\n", table.error().message.c_str()); std::exit(1); }
    it = tables.emplace(path, std::move(*table)).first;
  }
  return it->second;
}

std::string Shared(const char* name) { return std::string(DENIABLE_SHARED_DATA_DIR) + "/" + name; }

void BM_InferSchema(benchmark::State& state, std::string path) {
  const RawTable& table = Table(path);
  for (auto _ : state) {
    Schema schema = InferSchema(table, InferOptions{});
    benchmark::DoNotOptimize(schema);
  }
  state.counters["rows"] = static_cast<double>(table.num_rows());
}
BENCHMARK_CAPTURE(BM_InferSchema, adult, Shared("adult.csv"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_InferSchema, mplsstops, Shared("mplsstops.csv"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_InferSchema, scale_1_5M, std::string(std::getenv("DENIABLE_SCALE_CSV") ? std::getenv("DENIABLE_SCALE_CSV") : "/tmp/deniable-scale.csv"))->Unit(benchmark::kMillisecond);

// ParseDateTime over mplsstops' 51,873 distinct "YYYY-MM-DD HH:MM:SS" texts.
void BM_ParseDateTime(benchmark::State& state) {
  const RawColumn& column = Table(Shared("mplsstops.csv")).columns[1];
  for (auto _ : state) {
    double sum = 0;
    for (const std::string& text : column.dictionary) sum += *ParseDateTime(text, "%Y-%m-%d %H:%M:%S");
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(column.dictionary.size()));
}
BENCHMARK(BM_ParseDateTime);

void BM_FormatDateTime(benchmark::State& state) {
  const RawColumn& column = Table(Shared("mplsstops.csv")).columns[1];
  std::vector<double> values;
  for (const std::string& text : column.dictionary) values.push_back(*ParseDateTime(text, "%Y-%m-%d %H:%M:%S"));
  std::string out;
  for (auto _ : state) {
    out.clear();
    for (double v : values) FormatDateTime(v, "%Y-%m-%d %H:%M:%S", out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(values.size()));
}
BENCHMARK(BM_FormatDateTime);

void BM_NumericRowValues(benchmark::State& state) {
  const RawTable& table = Table(std::getenv("DENIABLE_SCALE_CSV") ? std::getenv("DENIABLE_SCALE_CSV") : "/tmp/deniable-scale.csv");
  ColumnSchema column;
  column.type = DataType::kInteger;
  for (auto _ : state) {
    auto values = NumericRowValues(table.columns[2], column);  // fnlwgt
    benchmark::DoNotOptimize(values);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(table.num_rows()));
}
BENCHMARK(BM_NumericRowValues)->Unit(benchmark::kMillisecond);

void BM_SchemaJsonRoundTrip(benchmark::State& state) {
  const RawTable& table = Table(Shared("mplsstops.csv"));
  const Schema schema = InferSchema(table, InferOptions{});
  for (auto _ : state) {
    auto json = ParseJsonText(SchemaJsonText(schema, true), "s.json");
    auto back = ApplySchemaJson(schema, *json, "s.json", &table);
    benchmark::DoNotOptimize(back);
  }
}
BENCHMARK(BM_SchemaJsonRoundTrip)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
