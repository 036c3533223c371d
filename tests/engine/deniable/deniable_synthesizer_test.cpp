// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/deniable_synthesizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/core/progress.h"
#include "engine/deniable/plausibility.h"
#include "engine/deniable/seed_model.h"
#include "tests/engine/deniable/deniable_test_util.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

// 8 correlated attributes with small cardinalities, 6,000 rows.
EncodedTable Data(std::size_t rows = 6000) {
  SeededRng rng(7);
  const std::vector<std::uint32_t> cardinalities = {2, 3, 4, 2, 3, 5, 2, 4};
  std::vector<std::vector<int>> parents = {{}, {0}, {1}, {0, 2}, {3}, {4}, {5, 1}, {6}};
  const BayesNet truth =
      test_support::RandomNetwork(cardinalities, {0, 1, 2, 3, 4, 5, 6, 7}, parents, rng);
  return test_support::SampleTable(truth, cardinalities, rows, rng);
}

PrivacyAccountant Accountant() { return PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value(); }

DeniableOptions Options() {
  DeniableOptions options;
  options.k = 10;
  options.gamma = 4;
  options.omega_min = 2;
  options.omega_max = 6;
  options.records = 500;
  options.model_epsilon = 2;
  options.bucket_count = 3;
  options.maxcost = 12;
  options.threads = 2;
  options.charge_release_to_budget = false;  // most tests are not about the ledger
  return options;
}

Result<DeniableRun> RunWithSeed(const EncodedTable& data, const DeniableOptions& options,
                                std::uint64_t seed, Progress& progress) {
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(seed);
  return RunDeniable(data, options, {}, accountant, rng, progress);
}

// A released record recounted from scratch by the oracle: k' for the seed and ω that made it
// (#12 item 6: not the record's largest group, which at a wide ω range every record has).
std::uint32_t OwnSeedCount(const DeniableRun& run, const EncodedTable& data, std::size_t row) {
  const SeedModel model = SeedModel::Create(run.model.network, run.model.cardinalities).value();
  const EncodedTable seeds = SelectRows(data, run.split.seed_rows);
  const std::vector<Code> y = test_support::RowInOrder(run.release.records, model.order(), row);
  std::vector<double> q(static_cast<std::size_t>(run.model.omega.max) + 1);
  SuffixProbabilities(model, y.data(), run.model.omega.max, q.data());
  const RecordOrigin& origin = run.release.origins.records[row];
  const auto seed =
      std::find(run.split.seed_rows.begin(), run.split.seed_rows.end(), origin.seed_row);
  EXPECT_NE(seed, run.split.seed_rows.end());
  const std::uint32_t k_prime =
      CountPlausibleSeedsBruteForce(seeds, model.order(), run.model.omega, 4.0, y.data(),
                                    q.data(),
                                    static_cast<std::size_t>(seed - run.split.seed_rows.begin()))
          .k_prime;
  EXPECT_EQ(origin.k_prime, k_prime) << "record " << row;
  return k_prime;
}

TEST(SynthesizeDeniableTest, DeterministicTestNeverReleasesFewerThanKPlausibleSeeds) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.deterministic_test = true;
  options.k = 25;
  for (int omega : {3, 0}) {  // fixed ω = 3, then the random range [2, 6]
    if (omega != 0)
      options.omega_min = options.omega_max = omega;
    else {
      options.omega_min = 2;
      options.omega_max = 6;
    }
    NullProgress progress;
    auto run = RunWithSeed(data, options, 1, progress);
    ASSERT_TRUE(run.has_value()) << run.error().message;
    ASSERT_EQ(run->release.records.rows, 500u);
    EXPECT_LT(run->release.stats.passed, run->release.stats.candidates);  // the test did reject
    for (std::size_t r = 0; r < run->release.records.rows; r += 5) {
      ASSERT_GE(OwnSeedCount(*run, data, r), 25u) << "record " << r << ", omega " << omega;
    }
    EXPECT_FALSE(run->release.guarantees.randomized);
    EXPECT_FALSE(std::isfinite(run->release.guarantees.release.epsilon));
  }
}

TEST(SynthesizeDeniableTest, ResultsDoNotDependOnTheNumberOfThreads) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.records = 12000;  // several blocks of attempts
  options.max_candidates = 40000;
  std::vector<EncodedTable> outputs;
  for (unsigned threads : {1u, 2u, 3u}) {
    options.threads = threads;
    NullProgress progress;
    auto run = RunWithSeed(data, options, 42, progress);
    ASSERT_TRUE(run.has_value()) << run.error().message;
    outputs.push_back(run->release.records);
    EXPECT_EQ(run->release.stats.passed, 12000u);
    EXPECT_GT(run->release.stats.attempts, 2 * kBlockAttempts);  // spans several blocks
  }
  EXPECT_EQ(outputs[0].columns, outputs[1].columns);
  EXPECT_EQ(outputs[0].columns, outputs[2].columns);
}

TEST(SynthesizeDeniableTest, ReleasedRecordsUseOnlyDomainCodesAndAreShuffled) {
  const EncodedTable data = Data();
  NullProgress progress;
  auto run = RunWithSeed(data, Options(), 3, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  const EncodedTable& out = run->release.records;
  EXPECT_EQ(out.cardinalities, data.cardinalities);
  for (std::size_t a = 0; a < out.num_attributes(); ++a) {
    for (Code c : out.columns[a]) ASSERT_LT(c, data.cardinalities[a]);
  }
  const ReleaseStats& s = run->release.stats;
  EXPECT_EQ(s.attempts, s.candidates + s.floor_failures);
  EXPECT_GE(s.attempts, 500u);
  EXPECT_EQ(s.seeds, run->split.seed_rows.size());
}

TEST(SynthesizeDeniableTest, ChargesTAttemptsOnDsAndReportsTheGuarantees) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.max_candidates = 5000;
  options.k = 30;
  options.charge_release_to_budget = true;
  PrivacyAccountant accountant = Accountant();
  SeededRng rng(4);
  NullProgress progress;
  auto run = RunDeniable(data, options, {}, accountant, rng, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  const ReleaseGuarantees& g = run->release.guarantees;
  const LedgerEntry& last = accountant.entries().back();
  EXPECT_EQ(last.partition, "D_S");
  EXPECT_EQ(last.count, 5000u);
  EXPECT_DOUBLE_EQ(last.epsilon_each, g.attempt.epsilon);
  EXPECT_TRUE(g.synthesis_charged);
  // k = 30, ε0 = 1, record δ = 2^-30: the largest t with e^{-(30 - t)} <= 2^-30 ≈ 9.3e-10 is
  // t = 9 (e^{-21} ≈ 7.6e-10; t = 10 gives e^{-20} ≈ 2.1e-9); ε = 1 + ln(1 + 4/9).
  EXPECT_EQ(g.record.t, 9);
  EXPECT_TRUE(g.record.meets_delta);
  EXPECT_NEAR(g.record.cost.epsilon, 1 + std::log(1 + 4.0 / 9), 1e-12);
  EXPECT_NEAR(g.record.cost.delta, std::exp(-21.0), 1e-20);
  // The automatic failure floor makes ⊥ cost no more than a record: ε_A = ε_record.
  EXPECT_NEAR(g.fail_floor, 1 / (1 + 31 * (std::exp(1.0) - 1) * (1 + 4.0 / 9)), 1e-12);
  EXPECT_NEAR(g.attempt.epsilon, g.record.cost.epsilon, 1e-12);
  // Before the attempts, |D_S| >= k is decided on a DP lower bound (ε = 0.5, δ = 1e-9 on D_S):
  // an audit found the exact-size refusal outside the ledger.
  const LedgerEntry& check = accountant.entries()[accountant.entries().size() - 2];
  EXPECT_EQ(check.partition, "D_S");
  EXPECT_NEAR(check.epsilon_each, 0.5, 1e-9);
  EXPECT_EQ(check.delta_each, 1e-9);
  EXPECT_NE(check.label.find("is D_S at least k records?"), std::string::npos) << check.label;
  // Sequential composition (no slack): the check + 5000 · ε_A.
  EXPECT_NEAR(g.synthesis.epsilon, 0.5 + 5000 * g.attempt.epsilon, 1e-9);
  EXPECT_NEAR(accountant.TotalOf("D_S").epsilon, g.synthesis.epsilon, 1e-9);
  // Model: ε = 2 on D_T and on D_P, the max of the two.
  EXPECT_NEAR(g.model.epsilon, 2.0, 1e-12);
  EXPECT_NEAR(g.release.epsilon, std::max(2.0, g.synthesis.epsilon), 1e-9);
  EXPECT_NEAR(accountant.Total().epsilon, g.release.epsilon, 1e-9);
  EXPECT_NE(run->release.SummaryText().find("Per released record"), std::string::npos);
  const nlohmann::json summary = run->release.SummaryJson();
  EXPECT_EQ(summary["records"], 500);
  // The releasable summary never tells the floor's ⊥ from the test's, nor describes D_S.
  EXPECT_FALSE(summary.contains("candidates"));
  EXPECT_FALSE(summary.contains("floor_failures"));
  EXPECT_FALSE(summary.contains("seeds"));
  EXPECT_EQ(run->release.OwnerStatsJson()["seeds"], run->split.seed_rows.size());
}

TEST(SynthesizeDeniableTest, CanReleaseWithThePerRecordGuaranteeOnly) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.charge_release_to_budget = false;
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{5, 1e-3}).value();
  SeededRng rng(4);
  NullProgress progress;
  auto run = RunDeniable(data, options, {}, accountant, rng, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  EXPECT_FALSE(run->release.guarantees.synthesis_charged);
  EXPECT_EQ(accountant.TotalOf("D_S").epsilon, 0.0);
  EXPECT_NE(run->release.SummaryText().find("NOT charged"), std::string::npos);
}

TEST(SynthesizeDeniableTest, RefusesASynthesisAboveTheBudget) {
  const EncodedTable data = Data();
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{5, 1e-3}).value();
  SeededRng rng(4);
  NullProgress progress;
  DeniableOptions options = Options();
  options.charge_release_to_budget = true;
  auto run = RunDeniable(data, options, {}, accountant, rng, progress);
  ASSERT_FALSE(run.has_value());
  EXPECT_EQ(run.error().code, ErrorCode::kBudgetExhausted);
  EXPECT_NE(run.error().message.find("per released record"), std::string::npos);
}

TEST(SynthesizeDeniableTest, RefusesToChargeARunWithoutAnyDp) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.k = 1;  // Theorem 1 needs 1 <= t < k
  options.charge_release_to_budget = true;
  NullProgress progress;
  auto run = RunWithSeed(data, options, 5, progress);
  ASSERT_FALSE(run.has_value());
  EXPECT_EQ(run.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(run.error().message.find("k = 1 gives no differential privacy"), std::string::npos);
}

TEST(SynthesizeDeniableTest, ExplainsWhenTheCapMakesTheRequestUnreachable) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.k = 2000;  // hardly any candidate has that many plausible seeds
  options.max_candidates = 2000;
  NullProgress progress;
  auto run = RunWithSeed(data, options, 5, progress);
  ASSERT_FALSE(run.has_value());
  EXPECT_EQ(run.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(run.error().message.find("of attempts passed"), std::string::npos)
      << run.error().message;
  EXPECT_NE(run.error().message.find("2000 candidate attempts"), std::string::npos);
}

// Too few seeds for k. An uncharged run (no whole-release DP claimed) refuses on the exact size;
// a charged run never decides on it (that refusal would be outside the ledger): about 35 seeds
// are plenty for k = 10, but their DP lower bound (a noisy count minus a margin of 40 at
// ε = 0.5, δ = 1e-9) is not, so the run stops and says why.
TEST(SynthesizeDeniableTest, RefusesFewerSeedsThanKOnTheExactOrTheDpCount) {
  struct Case {
    std::size_t rows;
    int k;
    bool charged;
    std::vector<std::string> said;
  };
  for (const Case& c : {Case{100, 80, false, {"k = 80"}},
                        Case{60, 10, true, {"a DP lower bound of |D_S|", "minus a margin of 40"}}}) {
    DeniableOptions options = Options();
    options.k = c.k;
    options.charge_release_to_budget = c.charged;
    NullProgress progress;
    auto run = RunWithSeed(Data(c.rows), options, 6, progress);
    ASSERT_FALSE(run.has_value()) << c.rows;
    EXPECT_EQ(run.error().code, ErrorCode::kFailedPrecondition);
    for (const std::string& text : c.said) {
      EXPECT_NE(run.error().message.find(text), std::string::npos) << run.error().message;
    }
  }
}

TEST(SynthesizeDeniableTest, CancelsDuringLearningAndDuringSynthesis) {
  const EncodedTable data = Data();
  DeniableOptions options = Options();
  options.records = 5'000'000;
  test_support::FakeProgress early(/*cancel_after_reports=*/2);
  auto run = RunWithSeed(data, options, 7, early);
  ASSERT_FALSE(run.has_value());
  EXPECT_EQ(run.error().code, ErrorCode::kCancelled);

  PrivacyAccountant accountant = Accountant();
  SeededRng rng(8);
  NullProgress quiet;
  auto split = SplitRows(data.rows, options, accountant, rng);
  ASSERT_TRUE(split.has_value());
  auto model = LearnDeniableModel(data, *split, options, {}, accountant, rng, quiet);
  ASSERT_TRUE(model.has_value());
  test_support::FakeProgress late(/*cancel_after_reports=*/3);  // after three blocks
  auto release = SynthesizeDeniable(data, *split, *model, options, accountant, rng, late);
  ASSERT_FALSE(release.has_value());
  EXPECT_EQ(release.error().code, ErrorCode::kCancelled);
}

TEST(SynthesizeDeniableTest, EveryStructureLearnerReleases) {
  const EncodedTable data = Data();
  for (DeniableStructure structure :
       {DeniableStructure::kCfs, DeniableStructure::kPrivBayes, DeniableStructure::kMarginals}) {
    DeniableOptions options = Options();
    options.structure = structure;
    PrivacyAccountant accountant = Accountant();
    SeededRng rng(9);
    NullProgress progress;
    auto run = RunDeniable(data, options, {}, accountant, rng, progress);
    ASSERT_TRUE(run.has_value()) << DeniableStructureName(structure) << ": " << run.error().message;
    EXPECT_EQ(run->release.records.rows, 500u);
    EXPECT_EQ(run->model.ToJson()["structure"], DeniableStructureName(structure));
    // D_T pays for a structure except in the marginals baseline; D_P always pays ε = 2.
    const double structure_epsilon = accountant.TotalOf("D_T").epsilon;
    if (structure == DeniableStructure::kMarginals) {
      EXPECT_EQ(structure_epsilon, 0.0);
      for (const BayesNode& node : run->model.network.nodes) EXPECT_TRUE(node.parents.empty());
    } else {
      EXPECT_NEAR(structure_epsilon, 2.0, 1e-9);
    }
    // The tables' shares less the accountant's one spend margin (PrivacyAccountant::Spendable).
    EXPECT_LE(accountant.TotalOf("D_P").epsilon, 2.0);
    EXPECT_NEAR(accountant.TotalOf("D_P").epsilon, 2.0, 2.0 * 2 * PrivacyAccountant::kSpendMargin);
  }
}

TEST(SynthesizeDeniableTest, HandlesOneAttributeAndIdenticalRows) {
  // One attribute: automatic ω = [1, 1], nothing copied, every seed plausible (k' = |D_S|).
  EncodedTable one;
  one.rows = 400;
  one.cardinalities = {3};
  one.columns = {std::vector<Code>(400, 2)};
  DeniableOptions options;
  options.k = 20;
  options.records = 50;
  options.deterministic_test = true;
  NullProgress progress;
  auto run = RunWithSeed(one, options, 1, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  EXPECT_EQ(run->model.omega.min, 1);
  EXPECT_EQ(run->release.stats.passed, 50u);
  EXPECT_EQ(run->release.stats.candidates, 50u);  // every candidate passes
  // Identical rows with ω = 1 of 3 attributes: every candidate shares the copied prefix with
  // all seeds.
  EncodedTable same;
  same.rows = 300;
  same.cardinalities = {2, 2, 4};
  same.columns = {std::vector<Code>(300, 1), std::vector<Code>(300, 0),
                  std::vector<Code>(300, 3)};
  options.omega_min = options.omega_max = 1;
  auto identical = RunWithSeed(same, options, 2, progress);
  ASSERT_TRUE(identical.has_value()) << identical.error().message;
  EXPECT_EQ(identical->release.stats.passed, 50u);
}

TEST(DeniableOptionsTest, ParsesTheCliForms) {
  DeniableOptions options;
  ASSERT_TRUE(ParseOmegaSpec("9", options).has_value());
  EXPECT_EQ(options.omega_min, 9);
  EXPECT_EQ(options.omega_max, 9);
  ASSERT_TRUE(ParseOmegaSpec("5-11", options).has_value());
  EXPECT_EQ(options.omega_min, 5);
  EXPECT_EQ(options.omega_max, 11);
  for (const char* bad : {"", "11-5", "a", "5-", "-3", "0", "5-11-2"}) {
    auto s = ParseOmegaSpec(bad, options);
    ASSERT_FALSE(s.has_value()) << bad;
    EXPECT_NE(s.error().message.find(std::string("(got '") + bad + "')"), std::string::npos);
  }
  EXPECT_EQ(options.omega_min, 5);  // unchanged by the failures
  ASSERT_TRUE(ParseSplitSpec("0.2,0.2,0.6", options).has_value());
  EXPECT_DOUBLE_EQ(options.split_seeds, 0.6);
  EXPECT_FALSE(ParseSplitSpec("0.2,0.2", options).has_value());
  EXPECT_FALSE(ParseSplitSpec("0.2,0.2,x", options).has_value());
  auto sum = ParseSplitSpec("0.3,0.3,0.3", options);
  ASSERT_FALSE(sum.has_value());
  EXPECT_NE(sum.error().message.find("sum to 1"), std::string::npos);
  EXPECT_DOUBLE_EQ(options.split_seeds, 0.6);
}

TEST(DeniableOptionsTest, ValidateNamesTheParameterAndItsValue) {
  DeniableOptions options;
  EXPECT_TRUE(options.Validate().has_value());
  options.gamma = 1.0;
  EXPECT_NE(options.Validate().error().message.find("gamma must be finite and > 1 (got 1)"),
            std::string::npos);
  options = DeniableOptions{};
  options.omega_min = 7;
  options.omega_max = 5;
  EXPECT_NE(options.Validate().error().message.find("omega_min 7, omega_max 5"), std::string::npos);
  options = DeniableOptions{};
  options.split_seeds = 0.5;
  EXPECT_NE(options.Validate().error().message.find("sum to 1"), std::string::npos);
  options = DeniableOptions{};
  options.epsilon0 = -1;
  EXPECT_NE(options.Validate().error().message.find("epsilon0"), std::string::npos);
  options.deterministic_test = true;  // ε0 is not used then
  EXPECT_TRUE(options.Validate().has_value());
  // Automatic ω: the paper's [5, 11] of m = 11, scaled to m.
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 11).value().min, 5);
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 11).value().max, 11);
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 15).value().min, 7);
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 15).value().max, 15);
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 2).value().min, 1);
  EXPECT_EQ(ResolveOmega(DeniableOptions{}, 2).value().max, 2);
  options = DeniableOptions{};
  options.omega_min = 2;
  options.omega_max = 9;
  EXPECT_NE(ResolveOmega(options, 8).error().message.find("m = 8 (got 9)"), std::string::npos);
}

}  // namespace
}  // namespace deniable
