// SPDX-License-Identifier: Apache-2.0
// The attacks on two extreme releases (engine/evaluate/evaluate.h): one that copies its training
// rows must score near-certain risk; one made by the independent mode (the real engine) near
// zero. Fixed seeds: the tables and the attacks' choices are fixed.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "engine/evaluate/evaluate.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/infer_schema.h"
#include "tests/engine/evaluate/population.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

using test_support::Population;

EvaluateOptions Roles() {
  EvaluateOptions options;
  options.quasi_identifiers = {"age", "zip", "sex", "job"};
  options.sensitive = "disease";
  return options;
}

TEST(AttacksStatisticalTest, AReleaseThatCopiesItsTrainingRowsScoresNearCertainRisk) {
  const RawTable train = Population(3000, 1, "train.csv");
  const RawTable control = Population(1000, 2, "control.csv");
  RawTable synthetic = train;
  synthetic.source = "synthetic.csv";
  const Schema schema = InferSchema(train, {});
  test_support::FakeProgress progress;
  auto report = EvaluateRelease(train, synthetic, control, schema, Roles(), progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  const EvaluateReport& r = report.value();
  // Copies: every synthetic row; the unique ones are the training rows unique in training.
  std::map<std::vector<std::uint32_t>, int> counts;
  for (std::size_t row = 0; row < train.num_rows(); ++row) {
    std::vector<std::uint32_t> key;
    for (const RawColumn& column : train.columns) key.push_back(column.codes[row]);
    ++counts[key];
  }
  std::uint64_t unique = 0;
  for (const auto& [key, count] : counts) unique += count == 1 ? 1 : 0;
  EXPECT_EQ(r.copies.copies_of_train, 3000u);
  EXPECT_EQ(r.copies.copies_of_unique_train, unique);
  EXPECT_EQ(r.copies.train_rows_copied, 3000u);
  EXPECT_GT(unique, 2900u);
  // DCR: every synthetic row is at distance 0 from the training set. Against equally many
  // (1,000) training and control rows, a copy whose row is in the training sample (1 in 3) is
  // closer to training, the others either way: 1/3 + 2/3 · 1/2 = 2/3 expected, measured on
  // 3,000 rows (standard deviation < 0.01; 0.05 is over five of them).
  EXPECT_EQ(r.dcr.to_train_all.zero_share, 1.0);
  EXPECT_NEAR(r.dcr.closer_to_train.rate, 2.0 / 3, 0.05);
  EXPECT_GT(r.dcr.closer_to_train.interval.low, 0.55);
  // Singling out: a predicate unique among the synthetic rows is unique among the training rows
  // (the same rows), so the training rate is 1 and the risk exactly 1.
  ASSERT_TRUE(r.singling_out.has_value());
  EXPECT_EQ(r.singling_out->predicates, 2000u);
  EXPECT_EQ(r.singling_out->risk.train.rate, 1.0);
  EXPECT_TRUE(r.singling_out->control_corrected);
  EXPECT_LT(r.singling_out->risk.control.rate, 0.5);
  EXPECT_DOUBLE_EQ(r.singling_out->risk.risk, 1.0);
  EXPECT_GT(r.singling_out->risk.risk_interval.low, 0.99);
  // Linkability (A = age, zip; B = sex, job): the copy is nearest on both halves.
  ASSERT_TRUE(r.linkability.has_value());
  EXPECT_EQ(r.linkability->risk.train.rate, 1.0);
  EXPECT_GT(r.linkability->risk.risk, 0.85);
  EXPECT_GT(r.linkability->risk.risk_interval.low, 0.8);
  // Inference: the nearest synthetic row on the quasi-identifiers is the copy (ties only for
  // the few rows sharing their quasi-identifiers); on control rows, a 1-in-4 guess.
  ASSERT_TRUE(r.inference.has_value());
  EXPECT_GT(r.inference->risk.train.rate, 0.97);
  EXPECT_NEAR(r.inference->risk.control.rate, 0.25, 0.05);
  EXPECT_GT(r.inference->risk.risk, 0.95);
  EXPECT_GT(r.inference->risk.risk_interval.low, 0.9);
  EXPECT_NEAR(r.inference->risk.naive.rate, 0.25, 0.05);
}

TEST(AttacksStatisticalTest, AnIndependentModeReleaseScoresNearZeroRisk) {
  const RawTable control = Population(1000, 2, "control.csv");
  LoadedInput input;
  input.table = std::make_shared<const RawTable>(Population(3000, 1, "train.csv"));
  input.schema = InferSchema(*input.table, {});
  ModelSettings settings;
  settings.mode = SynthesisMode::kIndependent;
  settings.epsilon = 1.0;
  settings.threads = 2;
  SeededRng rng(11);
  test_support::FakeProgress progress;
  auto release = RunRelease(input, settings, 3000, rng, progress);
  ASSERT_TRUE(release.has_value()) << release.error().message;
  auto report =
      EvaluateRelease(*input.table, *release->synthetic, control, input.schema, Roles(), progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  const EvaluateReport& r = report.value();
  // Each rate is estimated from 2,000 (singling out) or 1,000 (linkability, inference: as many
  // targets as control rows) trials, so its 95% Wilson interval is at most ±0.022 / ±0.031
  // wide; a release that leaks nothing about its training rows has a risk interval containing
  // 0 (the two intervals overlap) unless both rates fall outside their intervals. The
  // alternative risk < 0.1 allows for the control-size correction of singling out, a fitted
  // model. A leaking release (the copies above) scores above 0.85.
  const auto near_zero = [](const AttackRisk& a) {
    return (a.risk_interval.low <= 0 && a.risk_interval.high >= 0) || a.risk < 0.1;
  };
  ASSERT_TRUE(r.singling_out && r.linkability && r.inference);
  EXPECT_TRUE(near_zero(r.singling_out->risk)) << r.singling_out->risk.risk;
  EXPECT_TRUE(near_zero(r.linkability->risk)) << r.linkability->risk.risk;
  EXPECT_TRUE(near_zero(r.inference->risk)) << r.inference->risk.risk;
  // The sensitive value is independent of the quasi-identifiers: inference is a 1-in-4 guess.
  EXPECT_NEAR(r.inference->risk.train.rate, 0.25, 0.05);
  // DCR: no lean towards the training rows (1/2 within its interval, ±0.02 at 3,000 rows).
  EXPECT_LE(r.dcr.closer_to_train.interval.low, 0.5);
  EXPECT_GE(r.dcr.closer_to_train.interval.high, 0.5);
}

TEST(AttacksStatisticalTest, DefaultRolesAreSaidAndUnknownColumnsNamed) {
  const RawTable train = Population(400, 1, "train.csv");
  const RawTable control = Population(100, 2, "control.csv");
  const Schema schema = InferSchema(train, {});
  test_support::FakeProgress progress;
  EvaluateOptions options;
  options.attacks = 200;
  auto report = EvaluateRelease(train, train, control, schema, options, progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_EQ(report->sensitive, "disease");  // the last column
  EXPECT_EQ(report->quasi_identifiers, (std::vector<std::string>{"age", "zip", "sex", "job"}));
  ASSERT_EQ(report->notes.size(), 2u);
  EXPECT_NE(report->notes[0].find("last column 'disease'"), std::string::npos);
  EXPECT_NE(report->notes[1].find("every column but the sensitive one"), std::string::npos);
  options.sensitive = "diagnosis";
  auto unknown = EvaluateRelease(train, train, control, schema, options, progress);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(unknown.error().message.rfind("sensitive: 'diagnosis'", 0), 0u);
  options.sensitive = "";
  options.quasi_identifiers = {"age"};  // one column: no linkability, said in the notes
  auto one = EvaluateRelease(train, train, control, schema, options, progress);
  ASSERT_TRUE(one.has_value());
  EXPECT_FALSE(one->linkability.has_value());
  EXPECT_NE(one->notes.back().find("linkability not run"), std::string::npos);
  test_support::FakeProgress cancelling(3);
  EXPECT_EQ(EvaluateRelease(train, train, control, schema, Roles(), cancelling).error().code,
            ErrorCode::kCancelled);
}

}  // namespace
}  // namespace deniable
