// SPDX-License-Identifier: Apache-2.0
// CompareTables speed: Adult resampled to 1.5M rows (the scale of make_scale.py's file) against
// an independent 1.5M-row resample, 15 columns, 105 pairs; with 1 and 2 threads.
//   build-*/bench/metrics_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/io/csv_reader.h"
#include "engine/metrics/marginals.h"
#include "engine/schema/infer_schema.h"

namespace deniable {
namespace {

constexpr std::size_t kRows = 1'500'000;

// `rows` rows drawn uniformly with replacement from `source` (dictionaries kept as they are).
RawTable Resample(const RawTable& source, std::size_t rows, Rng& rng) {
  std::vector<std::size_t> picks(rows);
  for (std::size_t& pick : picks) pick = UniformBelow(rng, source.num_rows());
  RawTable table;
  table.source = source.source + " resampled";
  for (const RawColumn& from : source.columns) {
    RawColumn column;
    column.name = from.name;
    column.dictionary = from.dictionary;
    column.counts.assign(from.distinct(), 0);
    column.first_row.assign(from.distinct(), 0);
    column.codes.reserve(rows);
    for (std::size_t pick : picks) {
      const std::uint32_t code = from.codes[pick];
      column.codes.push_back(code);
      if (code == kMissingCode) {
        ++column.missing_count;
      } else {
        ++column.counts[code];
      }
    }
    table.columns.push_back(std::move(column));
  }
  table.row_line.resize(rows);
  return table;
}

struct Fixture {
  RawTable real;
  RawTable synthetic;
  Schema schema;
};

const Fixture& LoadFixture() {
  static const Fixture* fixture = [] {
    NullProgress progress;
    auto adult = ReadCsv(std::string(DENIABLE_SHARED_DATA_DIR) + "/adult.csv", {}, progress);
    if (!adult) {
      std::fprintf(stderr, "%s\n", adult.error().message.c_str());
      std::exit(1);
    }
    SeededRng rng(1);
    auto* f = new Fixture{Resample(*adult, kRows, rng), Resample(*adult, kRows, rng),
                          InferSchema(*adult, {})};
    return f;
  }();
  return *fixture;
}

void BM_CompareTables(benchmark::State& state) {
  const Fixture& fixture = LoadFixture();
  CompareOptions options;
  options.threads = static_cast<int>(state.range(0));
  NullProgress progress;
  for (auto _ : state) {
    auto report = CompareTables(fixture.real, fixture.synthetic, fixture.schema, options, progress);
    if (!report) state.SkipWithError(report.error().message.c_str());
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(2 * kRows));
}
BENCHMARK(BM_CompareTables)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
