// SPDX-License-Identifier: Apache-2.0
// Private adaptive histograms (engine/histogram).
//   Speed (Google Benchmark, SecureRng, one core): one column of 1.5M values, resampled from the
//   shared datasets (like ../shared/data/make_scale.py): the whole column call (map, sort, adaptive
//   stage, second pass). Target: well under a second per column.
//   Accuracy (--tables [--seeds N]): the markdown tables of docs/adaptive-histograms.md
//   (bench/histogram_tables.h).
//
//   cmake --build build -j2 --target histogram_bench
//   ./build/bench/histogram_bench                       # speed
//   ./build/bench/histogram_bench --tables --seeds 5    # accuracy tables
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench/histogram_tables.h"

namespace deniable::bench {
namespace {

constexpr std::size_t kRows = 1'500'000;

template <typename T>
std::vector<T> Resample(const std::vector<T>& from, std::size_t n, std::uint64_t seed) {
  SeededRng rng(seed);
  std::vector<T> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(from[UniformBelow(rng, from.size())]);
  return out;
}

HistogramOptions SpeedOptions() {
  HistogramOptions o;  // improved, adaptive ε = 0.25 (spends 0.5), counts ε = 0.5
  return o;
}

// Times learn(accountant, rng, progress) -> Result<histogram>, counting kRows items; `bins`
// reads the bin count of a result.
template <typename Learn, typename Bins>
void TimeColumn(benchmark::State& state, Learn learn, Bins bins) {
  SecureRng rng;
  NullProgress progress;
  double last_bins = 0;
  for (auto _ : state) {
    auto accountant = Unlimited();
    auto h = learn(accountant, rng, progress);
    if (!h) {
      state.SkipWithError(h.error().message.c_str());
      return;
    }
    last_bins = static_cast<double>(bins(*h));
    benchmark::DoNotOptimize(h);
  }
  state.counters["bins"] = last_bins;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRows));
}

// range(0): 0 adult capital-gain (a 92% spike at 0), 1 adult fnlwgt (wide integers),
// 2 flchain creatinine (decimals), 3 continuous (fnlwgt × a uniform in [0, 1): all distinct).
void BM_NumericHistogram(benchmark::State& state) {
  const char* file = state.range(0) == 2 ? "flchain.csv" : "adult.csv";
  const char* name = state.range(0) == 0 ? "capital-gain"
                     : state.range(0) == 2 ? "creatinine"
                                           : "fnlwgt";
  auto table = LoadShared(file);
  if (!table) {
    state.SkipWithError("shared datasets absent");
    return;
  }
  const NumericColumn column = *Numbers(*table, name);
  std::vector<double> values = Resample(column.values, kRows, 1);
  NumericHistogramOptions options;
  options.domain.decimals = column.decimals;
  if (state.range(0) == 3) {
    SeededRng jitter(2);
    for (double& x : values) x *= UniformUnit(jitter);
    options.domain.lattice = LatticeKind::kContinuous;
  }
  options.histogram = SpeedOptions();
  TimeColumn(
      state,
      [&](PrivacyAccountant& a, Rng& rng, Progress& p) {
        return LearnNumericHistogram(values, options, a, name, "all", rng, p);
      },
      [](const NumericHistogram& h) { return h.bins.size(); });
}
BENCHMARK(BM_NumericHistogram)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// The same column through the basic algorithm (20 levels) and direct synthesis (20 levels).
void BM_NumericOtherAlgorithms(benchmark::State& state) {
  auto table = LoadShared("adult.csv");
  if (!table) {
    state.SkipWithError("shared datasets absent");
    return;
  }
  const std::vector<double> values = Resample(Numbers(*table, "fnlwgt")->values, kRows, 1);
  NumericHistogramOptions options;
  SeededRng total_rng(6);
  options.histogram = state.range(0) == 0 ? BasicAt(1.0) : DirectAt(1.0, kRows, total_rng);
  state.SetLabel(state.range(0) == 0 ? "basic" : "direct");
  TimeColumn(
      state,
      [&](PrivacyAccountant& a, Rng& rng, Progress& p) {
        return LearnNumericHistogram(values, options, a, "fnlwgt", "all", rng, p);
      },
      [](const NumericHistogram& h) { return h.bins.size(); });
}
BENCHMARK(BM_NumericOtherAlgorithms)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// mplsstops dates (calendar, minutes) and coordinates (quadtree, 1e-5°), resampled.
void BM_DateTimeCalendar(benchmark::State& state) {
  auto table = LoadShared("mplsstops.csv");
  if (!table) {
    state.SkipWithError("shared datasets absent");
    return;
  }
  const std::vector<double> values = Resample(Numbers(*table, "date")->values, kRows, 3);
  DateTimeHistogramOptions options;
  options.resolution_seconds = 60;
  options.histogram = SpeedOptions();
  TimeColumn(
      state,
      [&](PrivacyAccountant& a, Rng& rng, Progress& p) {
        return LearnDateTimeHistogram(values, options, a, "date", "all", rng, p);
      },
      [](const DateTimeHistogram& h) { return h.bins.size(); });
}
BENCHMARK(BM_DateTimeCalendar)->Unit(benchmark::kMillisecond);

void BM_GeoQuadtree(benchmark::State& state) {
  const std::vector<GeoPoint> points = MplsPoints();
  if (points.empty()) {
    state.SkipWithError("shared datasets absent");
    return;
  }
  const std::vector<GeoPoint> values = Resample(points, kRows, 4);
  GeoHistogramOptions options;
  options.histogram = SpeedOptions();
  TimeColumn(
      state,
      [&](PrivacyAccountant& a, Rng& rng, Progress& p) {
        return LearnGeoHistogram(values, options, a, "stops", "all", rng, p);
      },
      [](const GeoHistogram& h) { return h.cells.size(); });
}
BENCHMARK(BM_GeoQuadtree)->Unit(benchmark::kMillisecond);

// Strings: range(0) 0 = mplsstops neighborhood (87 names), 1 = mplsstops date text (51,920
// mostly distinct strings of 19 bytes; fills the 2^20-node cap).
void BM_StringTrie(benchmark::State& state) {
  auto table = LoadShared("mplsstops.csv");
  if (!table) {
    state.SkipWithError("shared datasets absent");
    return;
  }
  const std::vector<std::string> values =
      Resample(Texts(*table, state.range(0) == 0 ? "neighborhood" : "date"), kRows, 5);
  StringHistogramOptions options;
  options.histogram = SpeedOptions();
  TimeColumn(
      state,
      [&](PrivacyAccountant& a, Rng& rng, Progress& p) {
        return LearnStringHistogram(values, options, a, "s", "all", rng, p);
      },
      [](const StringHistogram& h) { return h.bins.size(); });
}
BENCHMARK(BM_StringTrie)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace deniable::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tables") == 0) {
      int seeds = 5;
      for (int j = 1; j + 1 < argc; ++j) {
        if (std::strcmp(argv[j], "--seeds") == 0) seeds = std::max(1, std::atoi(argv[j + 1]));
      }
      return deniable::bench::RunTables(seeds);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
