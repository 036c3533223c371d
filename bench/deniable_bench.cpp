// SPDX-License-Identifier: Apache-2.0
// Speed of the plausibly deniable synthesis (engine/deniable), issue 3's targets:
//  * BM_DeniableCandidates: candidates generated and tested per second on ONE core, adult.csv,
//    k = 50, γ = 4, ω ∈R [5, 11], randomised test (target >= 1,000,000/s; SGF: 4/s);
//  * BM_DeniableRelease/threads: the whole release loop (100,000 records from adult) on 1 and
//    2 threads (the output is identical for both);
//  * BM_DeniableScaleEndToEnd: the 1.5M-row file from make_scale.py, read + encode + learn
//    (ε = 1) + synthesize 1,000,000 released records (target <= 15 s, peak memory <= 2 GB).
//    Skipped when /tmp/deniable-scale.csv is absent:
//      python3 ../shared/data/make_scale.py /tmp/deniable-scale.csv
//
//   cmake -S . -B build-pd -DDENIABLE_BUILD_BENCH=ON && cmake --build build-pd --target
//   deniable_bench
//   ./build-pd/bench/deniable_bench
// Every model is learned with DP as `deniable-cli synthesize --epsilon 1` does it (domains
// ε = 0.3 on all rows, model ε = 0.7 on D_T and D_P);
// SeededRng is used so that runs are comparable (SecureRng costs about the same per word).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/deniable/candidate_generator.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/deniable/privacy_test.h"
#include "engine/io/csv_reader.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/schema/infer_schema.h"

namespace deniable {
namespace {

struct Loaded {
  EncodedTable data;
  std::vector<std::vector<std::uint32_t>> buckets;
  double load_seconds = 0;
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// CSV -> inferred schema -> DP domains (ε = 0.3, the CLI's share at --epsilon 1) -> codes.
std::unique_ptr<Loaded> Load(const std::string& path, PrivacyAccountant& accountant, Rng& rng) {
  const auto start = std::chrono::steady_clock::now();
  NullProgress progress;
  auto table = ReadCsv(path, CsvReadOptions{}, progress);
  if (!table) return nullptr;
  const Schema schema = InferSchema(*table, InferOptions{});
  const DomainOptions domain_options =
      DomainOptionsFor(schema, 0.3, static_cast<double>(table->num_rows()));
  auto domains = BuildDomains(*table, schema, domain_options, accountant, rng, progress);
  if (!domains) return nullptr;
  auto encoded = Encode(*table, schema, *domains, progress);
  if (!encoded) return nullptr;
  auto loaded = std::make_unique<Loaded>();
  loaded->data = std::move(*encoded);
  loaded->buckets = BucketMapsForDomains(*domains, DeniableOptions{}.bucket_count);
  loaded->load_seconds = Seconds(start);
  return loaded;
}

DeniableOptions PaperOptions() {
  DeniableOptions options;  // k = 50, γ = 4, ε0 = 1, ω ∈R [5, 11], randomised test
  options.omega_min = 5;
  options.omega_max = 11;
  options.model_epsilon = 0.7;
  options.charge_release_to_budget = false;  // per-record guarantee; the ledger is not timed
  return options;
}

PrivacyAccountant BigAccountant() {
  return PrivacyAccountant::Create(PrivacyCost{1e12, 0.5}, 1e-9).value();
}

struct AdultFixture {
  std::unique_ptr<Loaded> loaded;
  DataSplit split;
  DeniableModel model;
  std::unique_ptr<PreparedSeeds> seeds;
};

AdultFixture* Adult() {
  static std::unique_ptr<AdultFixture> fixture = [] {
    const std::string path = std::string(DENIABLE_SHARED_DATA_DIR) + "/adult.csv";
    auto f = std::make_unique<AdultFixture>();
    PrivacyAccountant accountant = BigAccountant();
    SeededRng rng(1);
    f->loaded = Load(path, accountant, rng);
    if (!f->loaded) return std::unique_ptr<AdultFixture>();
    NullProgress progress;
    const DeniableOptions options = PaperOptions();
    f->split = SplitRows(f->loaded->data.rows, options, accountant, rng).value();
    f->model = LearnDeniableModel(f->loaded->data, f->split, options, f->loaded->buckets,
                                  accountant, rng, progress)
                   .value();
    f->seeds = std::make_unique<PreparedSeeds>(
        PrepareSeeds(f->loaded->data, f->split.seed_rows, f->model, 5, progress).value());
    return f;
  }();
  return fixture.get();
}

void BM_DeniableCandidates(benchmark::State& state) {
  AdultFixture* adult = Adult();
  if (adult == nullptr) {
    state.SkipWithError("adult.csv not found or not loadable");
    return;
  }
  const DeniableOptions options = PaperOptions();
  const ReleaseGuarantees g = PlanGuarantees(options, OmegaRange{5, 11}, BigAccountant(), 1);
  const PrivacyTest test = PrivacyTest::Randomized(options.k, options.epsilon0, g.fail_floor);
  CandidateGenerator generator(*adult->seeds, OmegaRange{5, 11}, options.gamma);
  SeededRng rng(2);
  std::uint64_t passed = 0, tested = 0;
  for (auto _ : state) {
    if (test.FloorFails(rng)) continue;
    ++tested;
    passed += test.Passes(generator.Next(rng), rng);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["pass_rate"] = static_cast<double>(passed) / static_cast<double>(tested);
  state.counters["seeds"] = static_cast<double>(adult->seeds->index.size());
}
BENCHMARK(BM_DeniableCandidates);

void BM_DeniableRelease(benchmark::State& state) {
  AdultFixture* adult = Adult();
  if (adult == nullptr) {
    state.SkipWithError("adult.csv not found or not loadable");
    return;
  }
  DeniableOptions options = PaperOptions();
  options.records = 100'000;
  options.threads = static_cast<unsigned>(state.range(0));
  std::uint64_t attempts = 0;
  for (auto _ : state) {
    PrivacyAccountant accountant = BigAccountant();
    SeededRng rng(3);
    NullProgress progress;
    auto release = SynthesizeDeniable(adult->loaded->data, adult->split, adult->model, options,
                                      accountant, rng, progress);
    if (!release) {
      state.SkipWithError(release.error().message.c_str());
      return;
    }
    attempts += release->stats.attempts;
    state.counters["pass_rate"] = release->stats.pass_rate();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(attempts));
}
BENCHMARK(BM_DeniableRelease)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DeniableScaleEndToEnd(benchmark::State& state) {
  const std::string path = "/tmp/deniable-scale.csv";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("run: python3 ../shared/data/make_scale.py /tmp/deniable-scale.csv");
    return;
  }
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    PrivacyAccountant accountant = BigAccountant();
    SeededRng rng(4);
    auto loaded = Load(path, accountant, rng);
    if (!loaded) {
      state.SkipWithError("cannot load the scale file");
      return;
    }
    const auto learn_start = std::chrono::steady_clock::now();
    DeniableOptions options = PaperOptions();
    options.records = 1'000'000;
    options.threads = 2;
    NullProgress progress;
    auto run = RunDeniable(loaded->data, options, loaded->buckets, accountant, rng, progress);
    if (!run) {
      state.SkipWithError(run.error().message.c_str());
      return;
    }
    state.counters["load_s"] = loaded->load_seconds;
    state.counters["learn_synthesize_s"] = Seconds(learn_start);
    state.counters["total_s"] = Seconds(start);
    state.counters["pass_rate"] = run->release.stats.pass_rate();
    state.counters["attempts"] = static_cast<double>(run->release.stats.attempts);
    state.counters["index_MB"] = static_cast<double>(run->release.stats.index_bytes) / 1e6;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}
BENCHMARK(BM_DeniableScaleEndToEnd)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
