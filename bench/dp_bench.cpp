// SPDX-License-Identifier: Apache-2.0
// Speed of the DP samplers (ns per draw), with the release generator (SecureRng) and the test
// generator (SeededRng). The plausible-deniability test needs SampleLaplaceCdfAtInteger at
// >= 1M candidates/s/core.
//   cmake --build build-dp --target dp_bench && build-dp/bench/dp_bench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/dp/discrete_gaussian_mechanism.h"
#include "engine/dp/dp_bounds.h"
#include "engine/dp/exponential_mechanism.h"
#include "engine/dp/secure_sampling.h"
#include "engine/dp/set_union.h"
#include "engine/io/csv_reader.h"

namespace deniable {
namespace {

struct Secure {
  static std::unique_ptr<Rng> Make() { return std::make_unique<SecureRng>(); }
};
struct Seeded {
  static std::unique_ptr<Rng> Make() { return std::make_unique<SeededRng>(42); }
};

// The raw cost of one 64-bit word through the virtual Rng interface, for scale.
template <typename Generator>
void BM_RngWord(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  for (auto _ : state) benchmark::DoNotOptimize(rng());
  state.SetItemsProcessed(state.iterations());
}

template <typename Generator>
void BM_LaplaceCdfAtInteger(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  std::int64_t j = -static_cast<std::int64_t>(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(SampleLaplaceCdfAtInteger(j, 0.5, rng));
    j = j >= state.range(0) ? -state.range(0) : j + 1;  // sweep k' − k over [−r, r]
  }
  state.SetItemsProcessed(state.iterations());
}

template <typename Generator>
void BM_BernoulliExp(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  const double x = static_cast<double>(state.range(0)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(SampleBernoulliExp(x, rng));
  state.SetItemsProcessed(state.iterations());
}

template <typename Generator>
void BM_DiscreteLaplace(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  const double scale = static_cast<double>(state.range(0)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(SampleDiscreteLaplace(scale, rng));
  state.SetItemsProcessed(state.iterations());
}

template <typename Generator>
void BM_DiscretizedLaplace(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  for (auto _ : state) benchmark::DoNotOptimize(AddDiscretizedLaplace(12.5, 3.0, rng));
  state.SetItemsProcessed(state.iterations());
}

template <typename Generator>
void BM_ExponentialMechanism(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  const auto mechanism = ExponentialMechanism::Create(1.0, 1.0).value();
  std::vector<double> utilities(static_cast<std::size_t>(state.range(0)));
  for (std::size_t i = 0; i < utilities.size(); ++i) utilities[i] = static_cast<double>(i % 97);
  for (auto _ : state) benchmark::DoNotOptimize(mechanism.Select(utilities, rng));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}


// DP bounds of a 1.5M-value column (the scale file's size): sort + histogram + two EMs.
void BM_EstimateBounds(benchmark::State& state) {
  SecureRng rng;
  std::vector<double> values(static_cast<std::size_t>(state.range(0)));
  SeededRng fill(1);
  for (double& v : values) v = static_cast<double>(fill() >> 11) * 0x1p-53 * 1000.0 - 20.0;
  for (auto _ : state) {
    auto accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
    benchmark::DoNotOptimize(
        EstimateBounds(values, {.epsilon = 1.0}, accountant, "x", "all", rng).value());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Exact discrete Gaussian N_Z(0, σ²), σ² = range(0) (CKS Algorithm 3).
template <typename Generator>
void BM_DiscreteGaussian(benchmark::State& state) {
  const std::unique_ptr<Rng> holder = Generator::Make();
  Rng& rng = *holder;
  const auto sigma_squared = static_cast<double>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(SampleDiscreteGaussian(sigma_squared, rng));
  state.SetItemsProcessed(state.iterations());
}

// adult.csv, every column a group (48,842 × 15; every distinct text an item), as the domain
// builder feeds the set union.
const SetUnionInput& AdultUnionInput() {
  static const SetUnionInput input = [] {
    SetUnionInput result;
    const std::string path = std::string(DENIABLE_SHARED_DATA_DIR) + "/adult.csv";
    if (!std::filesystem::exists(path)) return result;
    NullProgress progress;
    auto table = ReadCsv(path, CsvReadOptions{}, progress);
    if (!table) return result;
    result.records = table->num_rows();
    for (const RawColumn& column : table->columns) {
      const auto missing = static_cast<std::uint32_t>(column.distinct());
      std::vector<std::uint32_t> values(column.codes);
      for (std::uint32_t& v : values) v = v == kMissingCode ? missing : v;
      result.values.push_back(std::move(values));
      result.value_counts.push_back(missing + 1);
    }
    return result;
  }();
  return input;
}

// One DP set union over Adult at ε = 0.4, δ = 1e-9 (range(0): 0 Laplace, 1 Gaussian).
void BM_SetUnionAdult(benchmark::State& state) {
  const SetUnionInput& input = AdultUnionInput();
  if (input.records == 0) {
    state.SkipWithError("adult.csv is absent");
    return;
  }
  SecureRng rng;
  NullProgress progress;
  SetUnionOptions options;
  options.epsilon = 0.4;
  options.mechanism =
      state.range(0) == 1 ? SetUnionMechanism::kPolicyGaussian : SetUnionMechanism::kPolicyLaplace;
  for (auto _ : state) {
    auto accountant = PrivacyAccountant::Create({1.0, 1e-6}).value();
    benchmark::DoNotOptimize(
        DpSetUnion(input, options, accountant, "categories", "all", rng, progress).value());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(input.records));
}

// The owner's forecast of the Policy Gaussian union on Adult (kForecastOrders orders).
void BM_ForecastSetUnionAdult(benchmark::State& state) {
  const SetUnionInput& input = AdultUnionInput();
  if (input.records == 0) {
    state.SkipWithError("adult.csv is absent");
    return;
  }
  SetUnionOptions options;
  options.epsilon = 0.4;
  for (auto _ : state) benchmark::DoNotOptimize(ForecastSetUnion(input, options).value());
}

BENCHMARK(BM_DiscreteGaussian<Secure>)->Arg(1)->Arg(100)->Arg(1000000);
BENCHMARK(BM_DiscreteGaussian<Seeded>)->Arg(1)->Arg(100)->Arg(1000000);
BENCHMARK(BM_SetUnionAdult)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ForecastSetUnionAdult)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EstimateBounds)->Arg(48842)->Arg(1500000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RngWord<Secure>);
BENCHMARK(BM_RngWord<Seeded>);
BENCHMARK(BM_LaplaceCdfAtInteger<Secure>)->Arg(5)->Arg(50);
BENCHMARK(BM_LaplaceCdfAtInteger<Seeded>)->Arg(5)->Arg(50);
BENCHMARK(BM_BernoulliExp<Secure>)->Arg(5)->Arg(30);
BENCHMARK(BM_BernoulliExp<Seeded>)->Arg(5)->Arg(30);
BENCHMARK(BM_DiscreteLaplace<Secure>)->Arg(7)->Arg(10)->Arg(100000);
BENCHMARK(BM_DiscreteLaplace<Seeded>)->Arg(7)->Arg(10)->Arg(100000);
BENCHMARK(BM_DiscretizedLaplace<Secure>);
BENCHMARK(BM_ExponentialMechanism<Secure>)->Arg(100)->Arg(100000);

}  // namespace
}  // namespace deniable

BENCHMARK_MAIN();
