// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/deniable_synthesizer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <numeric>

#include "engine/core/parallel.h"
#include "engine/deniable/candidate_generator.h"
#include "engine/deniable/entropy.h"
#include "engine/deniable/privacy_test.h"

namespace deniable {
namespace {

// The outcome of one block of attempts.
struct BlockResult {
  std::vector<Code> codes;                // passed candidates, position order, m codes each
  std::vector<std::uint32_t> attempt;     // per pass: its attempt index within the block
  std::vector<std::uint32_t> candidates;  // per pass: candidates tested in the block up to it
  std::uint64_t attempts = 0;
  std::uint64_t floor_failures = 0;
  std::uint64_t tested = 0;
  std::vector<RecordOrigin> origins;  // per pass: seed (sorted position in the index), ω, k'
};

// One block of attempts of Mechanism 1 (floor, candidate, test).
void RunBlock(CandidateGenerator& generator, const PrivacyTest& test, std::uint64_t attempts,
              Rng& rng, BlockResult& out) {
  out.attempts = attempts;
  for (std::uint64_t a = 0; a < attempts; ++a) {
    if (test.FloorFails(rng)) {
      ++out.floor_failures;
      continue;
    }
    const std::uint32_t k_prime = generator.Next(rng);
    ++out.tested;
    if (test.Passes(k_prime, rng)) {
      out.origins.push_back(RecordOrigin{static_cast<std::uint32_t>(generator.seed()),
                                         generator.omega_used(), k_prime});
      const std::vector<Code>& y = generator.candidate();
      out.codes.insert(out.codes.end(), y.begin(), y.end());
      out.attempt.push_back(static_cast<std::uint32_t>(a));
      out.candidates.push_back(static_cast<std::uint32_t>(out.tested));
    }
  }
}

PrivacyCost MaxCost(PrivacyCost a, PrivacyCost b) {
  return PrivacyCost{std::max(a.epsilon, b.epsilon), std::max(a.delta, b.delta)};
}

PrivacyCost OwnSpends(const PrivacyAccountant& accountant, const std::string& partition) {
  std::vector<PrivacyCost> costs;
  for (const LedgerEntry& e : accountant.entries()) {
    if (e.partition == partition) costs.push_back(e.cost);
  }
  return SequentialComposition(costs);
}

std::string Percent(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3g%%", 100 * x);
  return buffer;
}

}  // namespace

ReleaseGuarantees PlanGuarantees(const DeniableOptions& options, OmegaRange omega,
                                 const PrivacyAccountant& accountant, std::uint64_t attempts_cap) {
  ReleaseGuarantees g;
  g.randomized = !options.deterministic_test;
  g.k = options.k;
  g.gamma = options.gamma;
  g.epsilon0 = options.epsilon0;
  g.omega_min = omega.min;
  g.omega_max = omega.max;
  g.split_structure = options.split_structure;
  g.split_parameters = options.split_parameters;
  g.split_seeds = options.split_seeds;
  g.structure = accountant.TotalOf("D_T");
  g.parameters = accountant.TotalOf("D_P");
  g.model = MaxCost(g.structure, g.parameters);
  g.attempts_cap = attempts_cap;
  g.all_spends = OwnSpends(accountant, "all");
  const double rates[3] = {options.split_structure, options.split_parameters, options.split_seeds};
  if (g.randomized) {
    g.record =
        BestRecordGuarantee(options.k, options.gamma, options.epsilon0, options.record_delta);
    g.fail_floor = options.fail_floor >= 0
                       ? options.fail_floor
                       : AutomaticFailFloor(options.k, options.gamma, options.epsilon0, g.record.t);
    g.attempt = AttemptCost(options.k, options.gamma, options.epsilon0, g.record.t, g.fail_floor);
    const double slack = accountant.advanced_delta_slack();
    const PrivacyCost attempts =
        BestComposition(g.attempt.epsilon, g.attempt.delta, attempts_cap, slack);
    const PrivacyCost sequential =
        BestComposition(g.attempt.epsilon, g.attempt.delta, attempts_cap, 0.0);
    g.synthesis_composition = attempts.epsilon < sequential.epsilon ? "advanced" : "sequential";
    g.seed_count = PrivacyCost{options.seed_count_epsilon, options.seed_count_delta};
    g.synthesis = SequentialComposition({g.seed_count, attempts});
  } else {
    g.synthesis = PrivacyCost{INFINITY, 1.0};
    g.synthesis_composition = "none (deterministic test)";
  }
  const PrivacyCost parts[3] = {g.structure, g.parameters, g.synthesis};
  const PrivacyCost model_parts[3] = {g.structure, g.parameters, PrivacyCost{}};
  g.model_amplified = AmplifyBySplit(model_parts, rates, 3);
  g.release = SequentialComposition({g.all_spends, MaxCost(g.model, g.synthesis)});
  g.release_amplified = SequentialComposition({g.all_spends, AmplifyBySplit(parts, rates, 3)});
  if (!std::isfinite(g.synthesis.epsilon)) {
    g.release = g.release_amplified = PrivacyCost{INFINITY, 1.0};
  }
  return g;
}

Result<DeniableRelease> SynthesizeDeniable(const EncodedTable& data, const DataSplit& split,
                                           const DeniableModel& model,
                                           const DeniableOptions& options,
                                           PrivacyAccountant& accountant, Rng& rng,
                                           Progress& progress) {
  return internal::SynthesizeDeniableWithTest(data, split, model, options, accountant, rng,
                                              progress, nullptr);
}

Result<DeniableRelease> internal::SynthesizeDeniableWithTest(
    const EncodedTable& data, const DataSplit& split, const DeniableModel& model,
    const DeniableOptions& options, PrivacyAccountant& accountant, Rng& rng, Progress& progress,
    const PrivacyTest* test_override) {
  if (Status s = options.Validate(); !s) return s.error();
  const std::size_t records = options.records == 0 ? data.rows : options.records;
  if (records == 0) return FailedPrecondition("nothing to release: 0 records requested");
  const OmegaRange omega = model.omega;
  const int m = static_cast<int>(model.network.nodes.size());
  if (omega.min < 0 || omega.max > m || omega.min > omega.max) {
    return InvalidArgument("the model's omega range [" + std::to_string(omega.min) + ", " +
                           std::to_string(omega.max) + "] does not fit m = " + std::to_string(m));
  }
  const bool charged = !options.deterministic_test && options.charge_release_to_budget;
  if (!charged && split.seed_rows.size() < static_cast<std::size_t>(options.k)) {
    // No whole-release DP is claimed on this path (deterministic test, or the per-record
    // guarantee only), so the owner may be told the exact reason.
    return FailedPrecondition("D_S has fewer rows than k = " + std::to_string(options.k) +
                              ": no record could have k plausible seeds (Theorem 1 also needs "
                              "|D_S| >= k); use more data, a larger split_seeds or a smaller k");
  }
  DeniableRelease release;
  ReleaseStats& stats = release.stats;
  stats.attempts_cap = ResolveCandidateCap(options, records);
  release.guarantees = PlanGuarantees(options, omega, accountant, stats.attempts_cap);
  const ReleaseGuarantees& g = release.guarantees;
  if (charged && !std::isfinite(g.attempt.epsilon)) {
    return InvalidArgument("k = " + std::to_string(options.k) +
                           " gives no differential privacy (Theorem 1 needs k >= 2); use k >= 2, "
                           "the deterministic test, or the per-record guarantee only");
  }
  if (charged) {
    // |D_S| >= k, decided privately (DeniableOptions::seed_count_epsilon): proceeding means
    // |D_S| >= k except with probability seed_count_delta, which the plan's synthesis cost
    // includes. The exact size never decides anything.
    auto bound = NoisyRowCountLowerBound(split.seed_rows.size(), options.seed_count_epsilon,
                                         options.seed_count_delta, accountant, "D_S", rng,
                                         "is D_S at least k records?");
    if (!bound) return bound.error();
    if (bound->lower < options.k) {
      return FailedPrecondition(
          "too few seed records for k = " + std::to_string(options.k) + ": a DP lower bound of "
          "|D_S| is " + std::to_string(bound->lower) + " (a noisy count of " +
          std::to_string(bound->noisy) + " minus a margin of " + std::to_string(bound->margin) +
          "), and plausible deniability needs at least k seeds; use more data, a larger seed "
          "share (--split), or a smaller k");
    }
    LedgerEntry entry;
    entry.label = "plausibly deniable synthesis: " + std::to_string(stats.attempts_cap) +
                  " candidate attempts (k = " + std::to_string(options.k) + ")";
    entry.mechanism = "Mechanism 1 with Privacy Test 2 and failure floor";
    entry.partition = "D_S";
    entry.reference = "PD paper Theorem 1; docs/deniable.md (failure output, composition)";
    entry.epsilon_each = g.attempt.epsilon;
    entry.delta_each = g.attempt.delta;
    entry.sensitivity = 1;
    entry.count = stats.attempts_cap;
    if (Status s = accountant.Spend(entry); !s) {
      return Error{s.error().code,
                   s.error().message +
                       " — the whole synthesis over T = " + std::to_string(stats.attempts_cap) +
                       " attempts costs ε = " + std::to_string(g.synthesis.epsilon) +
                       " (per released record: ε = " + std::to_string(g.record.cost.epsilon) +
                       "); raise the budget, lower max_candidates, or release with the "
                       "per-record guarantee only"};
    }
    release.guarantees.synthesis_charged = true;
  }
  // The seed index last: no refusal above needs it.
  SubProgress index_progress(progress, 0.0, 0.05);
  auto prepared = PrepareSeeds(data, split.seed_rows, model, omega.min, index_progress);
  if (!prepared) return prepared.error();
  stats.seeds = prepared->index.size();
  stats.index_bytes = prepared->index.MemoryBytes();

  const PrivacyTest test =
      test_override != nullptr ? *test_override
      : g.randomized           ? PrivacyTest::Randomized(options.k, options.epsilon0, g.fail_floor)
                               : PrivacyTest::Deterministic(options.k);
  const std::uint64_t blocks = (stats.attempts_cap + kBlockAttempts - 1) / kBlockAttempts;
  const std::size_t producers = ThreadCount(options.threads, blocks);
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::uint64_t, BlockResult> finished;
  std::atomic<std::uint64_t> next_block{0};
  // Producers (workers 1..producers) run blocks of attempts.
  auto produce = [&](StopFlag& stop) {
    CandidateGenerator generator(*prepared, omega, options.gamma);
    while (!stop.stopped()) {
      const std::uint64_t b = next_block.fetch_add(1);
      if (b >= blocks) return;
      const std::uint64_t attempts =
          std::min(kBlockAttempts, stats.attempts_cap - b * kBlockAttempts);
      std::unique_ptr<Rng> block_rng = rng.Fork(b);
      BlockResult result;
      RunBlock(generator, test, attempts, *block_rng, result);
      {
        std::lock_guard<std::mutex> lock(mutex);
        finished.emplace(b, std::move(result));
      }
      changed.notify_one();
    }
  };

  // The consumer (worker 0, the calling thread) takes blocks in order: the first `records`
  // passes, whatever the thread count.
  std::vector<Code> released;  // position order
  released.reserve(records * static_cast<std::size_t>(m));
  std::vector<RecordOrigin> origins;  // seeds as sorted positions in the index
  origins.reserve(records);
  bool cancelled = false;
  SubProgress run_progress(progress, 0.05, 1.0);
  auto consume = [&](StopFlag& stop) {
    std::uint64_t consumed = 0;
    while (consumed < blocks && stats.passed < records && !stop.stopped()) {
      BlockResult block;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait_for(lock, std::chrono::milliseconds(50),
                         [&] { return finished.count(consumed) != 0; });
        auto it = finished.find(consumed);
        if (it == finished.end()) {
          lock.unlock();
          if (run_progress.IsCancelled()) {
            cancelled = true;
            return;
          }
          continue;
        }
        block = std::move(it->second);
        finished.erase(it);
      }
      const std::size_t passes = block.attempt.size();
      const std::size_t take = std::min<std::size_t>(passes, records - stats.passed);
      released.insert(
          released.end(), block.codes.begin(),
          block.codes.begin() + static_cast<std::ptrdiff_t>(take * static_cast<std::size_t>(m)));
      origins.insert(origins.end(), block.origins.begin(),
                     block.origins.begin() + static_cast<std::ptrdiff_t>(take));
      if (take > 0 && stats.passed + take == records) {
        // The last record came from this block: count its attempts up to that pass only.
        stats.attempts += block.attempt[take - 1] + 1;
        stats.candidates += block.candidates[take - 1];
        stats.floor_failures += (block.attempt[take - 1] + 1) - block.candidates[take - 1];
      } else {
        stats.attempts += block.attempts;
        stats.candidates += block.tested;
        stats.floor_failures += block.floor_failures;
      }
      stats.passed += take;
      ++consumed;
      if (run_progress.IsCancelled()) {
        cancelled = true;
        return;
      }
      run_progress.Report(static_cast<double>(stats.passed) / static_cast<double>(records),
                          "Synthesizing plausibly deniable records");
    }
  };
  Status ran = ForkJoin(1 + producers, "plausibly deniable synthesis",
                        [&](std::size_t worker, StopFlag& stop) {
                          if (worker != 0) return produce(stop);
                          consume(stop);
                          stop.Stop();  // enough records, cancelled, or a producer failed
                        });
  if (!ran) return ran.error();
  if (cancelled) return Cancelled("plausibly deniable synthesis cancelled");
  if (stats.passed < records) {
    return FailedPrecondition(
        "only " + std::to_string(stats.passed) + " of " + std::to_string(records) +
        " records passed the privacy test within the cap of " + std::to_string(stats.attempts_cap) +
        " candidate attempts (" + Percent(stats.attempt_pass_rate()) + " of attempts passed" +
        "); lower k, widen omega (more re-sampled attributes pass "
        "more often), request fewer records, or raise max_candidates (the whole-release "
        "guarantee is composed over it)");
  }

  // Released table, attribute-major, rows in a random order (independent of seeds and blocks).
  std::vector<std::uint32_t> permutation(records);
  std::iota(permutation.begin(), permutation.end(), 0u);
  Shuffle(std::span<std::uint32_t>(permutation), rng);
  EncodedTable& out = release.records;
  out.rows = records;
  out.cardinalities = model.cardinalities;
  out.columns.assign(model.cardinalities.size(), std::vector<Code>(records));
  release.origins.records.resize(records);
  release.origins.fail_floor = g.randomized ? g.fail_floor : 0.0;
  release.origins.attempts_cap = stats.attempts_cap;
  for (std::size_t r = 0; r < records; ++r) {
    // The owner's record of where it came from: the seed as a data row of the input.
    RecordOrigin origin = origins[permutation[r]];
    origin.seed_row = split.seed_rows[prepared->index.SeedRow(origin.seed_row)];
    release.origins.records[r] = origin;
    const Code* y =
        released.data() + static_cast<std::size_t>(permutation[r]) * static_cast<std::size_t>(m);
    for (int i = 0; i < m; ++i) {
      out.columns[static_cast<std::size_t>(prepared->model.AttributeAt(i))][r] = y[i];
    }
  }
  progress.Report(1.0, "Synthesizing plausibly deniable records");
  return release;
}

nlohmann::json DeniableRelease::SummaryJson() const {
  nlohmann::json j;
  j["records"] = records.rows;
  j["attempts_cap"] = stats.attempts_cap;
  j["attempts"] = stats.attempts;
  j["passed"] = stats.passed;
  j["attempt_pass_rate"] = stats.attempt_pass_rate();
  j["guarantees"] = guarantees.ToJson();
  return j;
}

std::string DeniableRelease::SummaryText() const {
  const std::string text =
      "Released " + std::to_string(records.rows) + " records after " +
      std::to_string(stats.attempts) + " candidate attempts (" +
      Percent(stats.attempt_pass_rate()) + " passed; about " + Percent(guarantees.fail_floor) +
      " of attempts stop at the failure floor), cap T = " + std::to_string(stats.attempts_cap) +
      "\n";
  return text + guarantees.ToText();
}

nlohmann::json DeniableRelease::OwnerStatsJson() const {
  nlohmann::json j;
  j["for_the_data_owner_only"] = true;
  j["candidates"] = stats.candidates;
  j["floor_failures"] = stats.floor_failures;
  j["candidate_pass_rate"] = stats.pass_rate();
  j["seeds"] = stats.seeds;
  j["index_bytes"] = stats.index_bytes;
  return j;
}

std::string DeniableRelease::OwnerStatsText() const {
  return "For the data owner only: " + std::to_string(stats.candidates) + " candidates tested, " +
         Percent(stats.pass_rate()) + " of them passed; " + std::to_string(stats.floor_failures) +
         " attempts stopped at the failure floor; " + std::to_string(stats.seeds) +
         " seeds in D_S\n";
}

Result<DeniableRun> RunDeniable(const EncodedTable& data, const DeniableOptions& options,
                                std::vector<std::vector<std::uint32_t>> bucket_maps,
                                PrivacyAccountant& accountant, Rng& rng, Progress& progress,
                                const std::vector<std::string>* names) {
  auto split = SplitRows(data.rows, options, accountant, rng);
  if (!split) return split.error();
  SubProgress learn(progress, 0.0, 0.3);
  auto model = LearnDeniableModel(data, *split, options, std::move(bucket_maps), accountant, rng,
                                  learn, names);
  if (!model) return model.error();
  SubProgress synthesize(progress, 0.3, 1.0);
  auto release = SynthesizeDeniable(data, *split, *model, options, accountant, rng, synthesize);
  if (!release) return release.error();
  return DeniableRun{std::move(*split), std::move(*model), std::move(*release)};
}

}  // namespace deniable
