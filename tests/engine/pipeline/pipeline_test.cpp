// SPDX-License-Identifier: Apache-2.0
// The pipeline on the bundled demo dataset (10,000 rows of Adult): every mode runs, the ledger
// adds up to the budget, a fixed seed reproduces the output, and bad settings are refused.
#include "engine/pipeline/synthesis_job.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/io/csv_writer.h"
#include "engine/model/domains.h"
#include "tests/support/fake_progress.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

LoadedInput LoadDemo() {
  InputSettings settings;
  settings.path = test_support::SourcePath("resources/demo/adult_sample.csv");
  NullProgress progress;
  auto input = LoadInput(settings, progress);
  EXPECT_TRUE(input.has_value()) << input.error().message;
  return std::move(input.value());
}

TEST(PipelineTest, EveryDataSynthesizerModeSpendsExactlyItsBudget) {
  const LoadedInput input = LoadDemo();
  ASSERT_EQ(input.table->num_rows(), 10000u);
  for (SynthesisMode mode : {SynthesisMode::kRandom, SynthesisMode::kIndependent,
                             SynthesisMode::kCorrelated}) {
    ModelSettings settings;
    settings.mode = mode;
    settings.epsilon = 1.0;
    SeededRng rng(1);
    NullProgress progress;
    auto model = LearnModel(*input.table, input.schema, settings, rng, progress);
    ASSERT_TRUE(model.has_value()) << SynthesisModeName(mode) << ": " << model.error().message;
    const PrivacyCost total = model->accountant.Total();
    EXPECT_LE(total.epsilon, 1.0) << SynthesisModeName(mode);
    EXPECT_GT(total.epsilon, 1.0 - 1e-6) << SynthesisModeName(mode);
    EXPECT_LE(total.delta, 1e-9);
    EXPECT_TRUE(model->reproducible_not_private);
    EXPECT_EQ(model->description.domains.size(), ModelledColumns(input.schema).size());
    EXPECT_TRUE(model->description.guarantee.contains("statement"));
    auto rows = Synthesize(model.value(), *input.table, 500, rng, progress);
    ASSERT_TRUE(rows.has_value()) << rows.error().message;
    EXPECT_EQ(rows->encoded.rows, 500u);
  }
}

TEST(PipelineTest, SameSeedSameReleaseDifferentSeedDifferentRelease) {
  const LoadedInput input = LoadDemo();
  ModelSettings settings;
  settings.mode = SynthesisMode::kCorrelated;
  auto run = [&](std::uint64_t seed) {
    SeededRng rng(seed);
    NullProgress progress;
    auto result = RunRelease(input, settings, 2000, rng, progress);
    EXPECT_TRUE(result.has_value()) << result.error().message;
    return std::move(result.value());
  };
  const ReleaseResult a = run(42), b = run(42), c = run(43);
  EXPECT_EQ(a.rows.encoded.columns, b.rows.encoded.columns);
  EXPECT_EQ(a.model.description.privacy, b.model.description.privacy);
  for (std::size_t col = 0; col < a.synthetic->num_columns(); ++col) {
    EXPECT_EQ(a.synthetic->columns[col].dictionary, b.synthetic->columns[col].dictionary);
    EXPECT_EQ(a.synthetic->columns[col].codes, b.synthetic->columns[col].codes);
  }
  EXPECT_NE(a.rows.encoded.columns, c.rows.encoded.columns);
  EXPECT_EQ(a.synthetic->num_rows(), 2000u);
  EXPECT_TRUE(a.metrics.mean_pair_tvd.has_value());
}

TEST(PipelineTest, CancelledRunReturnsCancelled) {
  const LoadedInput input = LoadDemo();
  ModelSettings settings;
  test_support::FakeProgress progress(/*cancel_after_reports=*/3);
  SeededRng rng(1);
  auto result = RunRelease(input, settings, 1000, rng, progress);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kCancelled);
}

TEST(PipelineTest, RefusesNonsenseSettingsNamingTheParameter) {
  struct Case {
    std::function<void(ModelSettings&)> set;
    const char* name;
  };
  const std::vector<Case> cases = {
      {[](ModelSettings& s) { s.epsilon = -1; }, "--epsilon"},
      {[](ModelSettings& s) { s.epsilon = std::nan(""); }, "--epsilon"},
      {[](ModelSettings& s) { s.delta = 0.5; }, "--delta"},
      {[](ModelSettings& s) { s.degree = 0; }, "--degree"},
      {[](ModelSettings& s) { s.bins = -1; }, "--bins"},  // 0 = by rule
      {[](ModelSettings& s) { s.bins = 1001; }, "--bins"},
      {[](ModelSettings& s) { s.structure_fraction = 1.5; }, "--structure-fraction"},
  };
  for (const Case& c : cases) {
    ModelSettings settings;
    c.set(settings);
    const Status status = settings.Validate();
    ASSERT_FALSE(status.has_value()) << c.name;
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(status.error().message.find(c.name), std::string::npos) << status.error().message;
  }
}

TEST(PipelineTest, AllColumnsIgnoredIsAClearError) {
  LoadedInput input = LoadDemo();
  for (ColumnSchema& column : input.schema.columns) column.role = ColumnRole::kIgnore;
  ModelSettings settings;
  SeededRng rng(1);
  NullProgress progress;
  auto model = LearnModel(*input.table, input.schema, settings, rng, progress);
  ASSERT_FALSE(model.has_value());
  EXPECT_EQ(model.error().code, ErrorCode::kFailedPrecondition);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

TEST(PipelineDeniableTest, LedgerHoldsDomainsModelAndTheTestAndTheStatementIsWholeRelease) {
  const LoadedInput input = LoadDemo();
  ModelSettings settings;
  settings.mode = SynthesisMode::kDeniable;
  settings.deniable.k = 20;
  SeededRng rng(4);
  NullProgress progress;
  auto result = RunRelease(input, settings, 300, rng, progress);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->synthetic->num_rows(), 300u);
  const nlohmann::json& privacy = result->model.description.privacy;
  std::set<std::string> partitions;
  for (const auto& entry : privacy["entries"]) partitions.insert(entry["partition"]);
  EXPECT_EQ(partitions, (std::set<std::string>{"all", "D_T", "D_P", "D_S"}));
  const nlohmann::json& guarantee = result->model.description.guarantee;
  const std::string statement = guarantee["statement"];
  EXPECT_NE(statement.find("k = 20"), std::string::npos) << statement;
  EXPECT_NE(statement.find("Whole release"), std::string::npos) << statement;
  // The ledger's total is the whole-release guarantee (it includes the test over T attempts).
  EXPECT_GT(privacy["total"]["epsilon"].get<double>(), 100.0);
  EXPECT_GT(result->rows.summary.candidates, 0u);
  EXPECT_LE(result->rows.summary.passed, result->rows.summary.candidates);
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

// The bins rule: 20 without parents; otherwise √(n̂·ε·(1 − s)/(6m)) within [5, 20] (θ = 6).
TEST(AutomaticBinsTest, FollowsTheUsefulnessRuleWithinItsBounds) {
  EXPECT_EQ(AutomaticBins(SynthesisMode::kIndependent, 100, 0.1, 30, 0.3), 32);
  EXPECT_EQ(AutomaticBins(SynthesisMode::kRandom, 100, 0.1, 30, 0.3), 20);
  // Adult-like: 48,842 rows, ε 0.65 left for the model, 15 columns: √(48842·0.65·0.7/90) = 15.7.
  EXPECT_EQ(AutomaticBins(SynthesisMode::kCorrelated, 48842, 0.65, 15, 0.3), 16);
  EXPECT_EQ(AutomaticBins(SynthesisMode::kCorrelated, 500, 1, 15, 0.3), 5);        // floor
  EXPECT_EQ(AutomaticBins(SynthesisMode::kCorrelated, 1.5e6, 3, 10, 0.3), 20);     // cap
  EXPECT_EQ(AutomaticBins(SynthesisMode::kCorrelated, 0, 1, 0, 0.3), 5);           // degenerate
  // The structure share does not apply outside the correlated mode's tables: s = 0 gives more.
  EXPECT_GE(AutomaticBins(SynthesisMode::kDeniable, 48842, 0.65, 15, 0.0), 16);
}

}  // namespace
}  // namespace deniable
