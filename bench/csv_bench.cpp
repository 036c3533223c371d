// SPDX-License-Identifier: Apache-2.0
// CSV throughput (engine/io): ReadCsv of the 1.5M-row scale file (issue 2 target: >= 150 MB/s
// on this 2-core machine) and of adult.csv, the one-thread parse for comparison, and WriteCsv /
// WriteRawTable. Bytes/s are of the CSV text (input for reads, output for writes); times are
// wall-clock (the reader uses two threads).
//
//   python3 ../shared/data/make_scale.py /tmp/deniable-scale.csv   # once, ~10 s, 162 MB
//   cmake --build build -j2 --target csv_bench && ./build/bench/csv_bench
// DENIABLE_SCALE_CSV overrides the scale file's path.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/io/csv_reader.h"
#include "engine/io/csv_writer.h"

namespace deniable {
namespace {

std::string ScalePath() {
  const char* env = std::getenv("DENIABLE_SCALE_CSV");
  return env != nullptr ? env : "/tmp/deniable-scale.csv";
}

std::string AdultPath() { return std::string(DENIABLE_SHARED_DATA_DIR) + "/adult.csv"; }

// Skips the benchmark with a how-to message when the file is absent.
bool RequireFile(benchmark::State& state, const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  state.SkipWithError(
      (path + " is absent; create it with: python3 " DENIABLE_SHARED_DATA_DIR "/make_scale.py " +
       path + " (or set DENIABLE_SCALE_CSV)")
          .c_str());
  return false;
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("deniable-csv-bench-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

void ReadFile(benchmark::State& state, const std::string& path) {
  if (!RequireFile(state, path)) return;
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
  NullProgress progress;
  std::size_t rows = 0;
  for (auto _ : state) {
    Result<RawTable> table = ReadCsv(path, CsvReadOptions{}, progress);
    if (!table) {
      state.SkipWithError(table.error().message.c_str());
      return;
    }
    rows = table->num_rows();
    benchmark::DoNotOptimize(table->columns.data());
  }
  state.SetBytesProcessed(bytes * static_cast<std::int64_t>(state.iterations()));
  state.counters["rows"] = static_cast<double>(rows);
}

void BM_ReadCsvScale(benchmark::State& state) { ReadFile(state, ScalePath()); }
BENCHMARK(BM_ReadCsvScale)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

void BM_ReadCsvAdult(benchmark::State& state) { ReadFile(state, AdultPath()); }
BENCHMARK(BM_ReadCsvAdult)->Unit(benchmark::kMillisecond)->UseRealTime();

// One thread, from memory (ParseCsv with max_rows set never splits the text; it copies it once
// into a padded buffer, which is included).
void BM_ParseCsvScaleOneThread(benchmark::State& state) {
  const std::string path = ScalePath();
  if (!RequireFile(state, path)) return;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  CsvReadOptions options;
  options.max_rows = static_cast<std::size_t>(-1);
  NullProgress progress;
  for (auto _ : state) {
    Result<RawTable> table = ParseCsv(text, "scale", options, progress);
    if (!table) {
      state.SkipWithError(table.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(table->columns.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) *
                          static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ParseCsvScaleOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

void WriteTable(benchmark::State& state, const std::string& source, bool use_callback) {
  if (!RequireFile(state, source)) return;
  NullProgress progress;
  Result<RawTable> table = ReadCsv(source, CsvReadOptions{}, progress);
  if (!table) {
    state.SkipWithError(table.error().message.c_str());
    return;
  }
  const RawTable& raw = *table;
  const CsvWriteOptions options = WriteOptionsFor(raw.dialect);
  std::vector<std::string> header;
  for (const RawColumn& column : raw.columns) header.push_back(column.name);
  const std::string out = TempPath("out.csv");
  for (auto _ : state) {
    Status written = use_callback
                         ? WriteCsv(
                               out, header, raw.num_rows(),
                               [&](std::size_t row, std::size_t column, std::string& text) {
                                 const RawColumn& c = raw.columns[column];
                                 if (c.is_missing(row)) return false;
                                 text += c.dictionary[c.codes[row]];
                                 return true;
                               },
                               options, progress)
                         : WriteRawTable(out, raw, options, progress);
    if (!written) {
      state.SkipWithError(written.error().message.c_str());
      break;
    }
  }
  std::error_code ec;
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(out, ec));
  std::filesystem::remove(out, ec);
  state.SetBytesProcessed(bytes * static_cast<std::int64_t>(state.iterations()));
}

// Includes the fsync of the atomic write.
void BM_WriteRawTableScale(benchmark::State& state) { WriteTable(state, ScalePath(), false); }
BENCHMARK(BM_WriteRawTableScale)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteCsvCallbackScale(benchmark::State& state) { WriteTable(state, ScalePath(), true); }
BENCHMARK(BM_WriteCsvCallbackScale)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteCsvCallbackAdult(benchmark::State& state) { WriteTable(state, AdultPath(), true); }
BENCHMARK(BM_WriteCsvCallbackAdult)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
