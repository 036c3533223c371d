// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/audit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/core/atomic_file.h"
#include "engine/core/progress.h"
#include "engine/deniable/plausibility.h"
#include "engine/deniable/seed_model.h"
#include "tests/engine/deniable/deniable_test_util.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

EncodedTable Data() {
  SeededRng rng(3);
  const std::vector<std::uint32_t> cardinalities = {2, 3, 4, 2, 3, 2, 3};
  const std::vector<std::vector<int>> parents = {{}, {0}, {1}, {2}, {3}, {4}, {5, 0}};
  const BayesNet truth =
      test_support::RandomNetwork(cardinalities, {0, 1, 2, 3, 4, 5, 6}, parents, rng);
  return test_support::SampleTable(truth, cardinalities, 5000, rng);
}

DeniableOptions Options(bool deterministic) {
  DeniableOptions options;
  options.k = 20;
  options.omega_min = 2;
  options.omega_max = 5;
  options.records = 300;
  options.deterministic_test = deterministic;
  options.charge_release_to_budget = false;
  return options;
}

TEST(DeniableAuditTest, RecountsEveryReleasedRecordFromTheAuditFiles) {
  const EncodedTable data = Data();
  for (bool deterministic : {true, false}) {
    const DeniableOptions options = Options(deterministic);
    PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
    SeededRng rng(4);
    NullProgress progress;
    auto run = RunDeniable(data, options, {}, accountant, rng, progress);
    ASSERT_TRUE(run.has_value()) << run.error().message;
    const std::string dir = test_support::TempDir() + (deterministic ? "/det" : "/rand");
    const std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g"};
    ASSERT_TRUE(
        WriteDeniableAudit(dir, run->model, run->split, run->release.records, options, &names)
            .has_value());
    for (const char* file : {"README.txt", "model.json", "seed_rows.txt", "released_codes.csv"}) {
      EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    auto check = CheckDeniableAudit(dir, data, progress);
    ASSERT_TRUE(check.has_value()) << check.error().message;
    ASSERT_EQ(check->largest_group.size(), 300u);
    EXPECT_EQ(check->seeds, run->split.seed_rows.size());
    if (deterministic) {
      EXPECT_EQ(check->below_k, 0u);
      EXPECT_TRUE(check->consistent());
      EXPECT_NE(check->ToText().find("consistent with the deterministic test"), std::string::npos);
    }
    // The checker's fast recount equals the brute-force oracle on the run's own model.
    const SeedModel model = SeedModel::Create(run->model.network, run->model.cardinalities).value();
    const EncodedTable seeds = SelectRows(data, run->split.seed_rows);
    for (std::size_t r = 0; r < 300; r += 7) {
      const auto y = test_support::RowInOrder(run->release.records, model.order(), r);
      std::vector<double> q(6);
      SuffixProbabilities(model, y.data(), 5, q.data());
      std::uint32_t largest = 0;
      for (const PlausibleGroup& g : PlausibleGroupsBruteForce(
               seeds, model.order(), OmegaRange{2, 5}, 4.0, y.data(), q.data())) {
        largest = std::max(largest, g.seeds);
      }
      EXPECT_EQ(check->largest_group[r], largest) << "record " << r;
    }
  }
}

TEST(DeniableAuditTest, ReportsBrokenFilesWithFileAndLine) {
  const EncodedTable data = Data();
  const DeniableOptions options = Options(true);
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
  SeededRng rng(5);
  NullProgress progress;
  auto run = RunDeniable(data, options, {}, accountant, rng, progress);
  ASSERT_TRUE(run.has_value());
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(
      WriteDeniableAudit(dir, run->model, run->split, run->release.records, options).has_value());
  const std::string codes = dir + "/released_codes.csv";
  std::string text = ReadFileToString(codes).value();
  text.insert(text.find('\n', text.find('\n') + 1) + 1, "1,2,99,0,0,0,0\n");  // line 3
  ASSERT_TRUE(WriteFileAtomically(codes, text).has_value());
  auto check = CheckDeniableAudit(dir, data, progress);
  ASSERT_FALSE(check.has_value());
  EXPECT_EQ(check.error().code, ErrorCode::kParse);
  EXPECT_NE(check.error().message.find("released_codes.csv:3: code 99 is outside the domain"),
            std::string::npos)
      << check.error().message;
  ASSERT_TRUE(WriteFileAtomically(dir + "/seed_rows.txt", "# rows\n12\nabc\n").has_value());
  check = CheckDeniableAudit(dir, data, progress);
  ASSERT_FALSE(check.has_value());
  EXPECT_NE(check.error().message.find("seed_rows.txt:3: expected a non-negative integer"),
            std::string::npos)
      << check.error().message;
  auto missing = CheckDeniableAudit(dir + "/nowhere", data, progress);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
}

}  // namespace
}  // namespace deniable
