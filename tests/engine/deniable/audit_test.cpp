// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/audit.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "engine/core/atomic_file.h"
#include "engine/core/progress.h"
#include "engine/deniable/plausibility.h"
#include "engine/deniable/privacy_test.h"
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

Status WriteAudit(const std::string& dir, const DeniableRun& run, const DeniableOptions& options,
                  const std::vector<std::string>* names = nullptr) {
  return WriteDeniableAudit(dir, run.model, run.split, run.release.records, run.release.origins,
                            options, names);
}

TEST(DeniableAuditTest, RecountsKPrimeForEachRecordsOwnSeedAndOmega) {  // #12 item 6
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
    ASSERT_TRUE(WriteAudit(dir, *run, options, &names).has_value());
    for (const char* file :
         {"README.txt", "model.json", "seed_rows.txt", "released_codes.csv", "origins.csv"}) {
      EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    auto check = CheckDeniableAudit(dir, data, progress);
    ASSERT_TRUE(check.has_value()) << check.error().message;
    ASSERT_EQ(check->k_prime.size(), 300u);
    EXPECT_EQ(check->seeds, run->split.seed_rows.size());
    EXPECT_EQ(check->mismatched, 0u);
    EXPECT_TRUE(check->passed()) << check->ToText();
    if (deterministic) {
      EXPECT_EQ(check->below_k, 0u);
      EXPECT_NE(check->ToText().find("consistent with the deterministic test"), std::string::npos);
    } else {
      EXPECT_NE(check->ToText().find("consistent with the randomised test"), std::string::npos);
    }
    // The recount equals the brute-force oracle for the recorded seed and ω, and the k' the
    // test saw.
    const SeedModel model = SeedModel::Create(run->model.network, run->model.cardinalities).value();
    const EncodedTable seeds = SelectRows(data, run->split.seed_rows);
    for (std::size_t r = 0; r < 300; r += 7) {
      const RecordOrigin& origin = run->release.origins.records[r];
      const auto y = test_support::RowInOrder(run->release.records, model.order(), r);
      std::vector<double> q(6);
      SuffixProbabilities(model, y.data(), 5, q.data());
      const auto seed = std::find(run->split.seed_rows.begin(), run->split.seed_rows.end(),
                                  origin.seed_row);
      ASSERT_NE(seed, run->split.seed_rows.end());
      const CandidateCount oracle = CountPlausibleSeedsBruteForce(
          seeds, model.order(), OmegaRange{2, 5}, 4.0, y.data(), q.data(),
          static_cast<std::size_t>(seed - run->split.seed_rows.begin()));
      EXPECT_EQ(check->k_prime[r], oracle.k_prime) << "record " << r;
      EXPECT_EQ(origin.k_prime, oracle.k_prime) << "record " << r;
    }
  }
}

Result<DeniableRun> RunWithTest(const EncodedTable& data, const DeniableOptions& options,
                                const PrivacyTest* test, std::uint64_t seed) {
  return test_support::RunDeniableWithTest(data, options, {}, test, seed);
}

// Parameters under which the test really rejects: a narrow ω range and a k that many
// candidates miss (the defaults reach ω = m, where every seed can produce every record).
DeniableOptions Rejecting(bool deterministic) {
  DeniableOptions options = Options(deterministic);
  options.k = 60;
  options.omega_min = 1;
  options.omega_max = 2;
  options.records = 200;
  return options;
}

TEST(DeniableAuditTest, FailsWhenThePrivacyTestIsDisabledOrWeakened) {  // #12 item 6
  const EncodedTable data = Data();
  NullProgress progress;
  for (bool deterministic : {true, false}) {
    const DeniableOptions options = Rejecting(deterministic);
    // The real test rejects candidates here, and the audit passes.
    auto honest = RunWithTest(data, options, nullptr, 11);
    ASSERT_TRUE(honest.has_value()) << honest.error().message;
    EXPECT_LT(honest->release.stats.passed, honest->release.stats.candidates);
    const std::string dir = test_support::TempDir() + (deterministic ? "/det" : "/rand");
    ASSERT_TRUE(WriteAudit(dir + "-honest", *honest, options).has_value());
    auto check = CheckDeniableAudit(dir + "-honest", data, progress);
    ASSERT_TRUE(check.has_value()) << check.error().message;
    EXPECT_TRUE(check->passed()) << check->ToText();

    // Disabled (every candidate passes) and weakened (k / 6, or a randomised test whose noise
    // is 20 times larger): the audit of the run that claims `options` fails.
    const PrivacyTest disabled = PrivacyTest::Deterministic(1);
    const PrivacyTest weakened = deterministic
                                     ? PrivacyTest::Deterministic(options.k / 6)
                                     : PrivacyTest::Randomized(options.k, options.epsilon0 / 20,
                                                               honest->release.origins.fail_floor);
    for (const PrivacyTest* test : {&disabled, &weakened}) {
      auto broken = RunWithTest(data, options, test, 11);
      ASSERT_TRUE(broken.has_value()) << broken.error().message;
      const std::string broken_dir = dir + (test == &disabled ? "-disabled" : "-weakened");
      ASSERT_TRUE(WriteAudit(broken_dir, *broken, options).has_value());
      auto caught = CheckDeniableAudit(broken_dir, data, progress);
      ASSERT_TRUE(caught.has_value()) << caught.error().message;
      EXPECT_FALSE(caught->passed()) << caught->ToText();
      EXPECT_GT(caught->implausible, 0u);
      EXPECT_EQ(caught->mismatched, 0u);  // the origins are true; the test was not
      EXPECT_NE(caught->ToText().find("FAILED"), std::string::npos);
    }
  }
}

TEST(DeniableAuditTest, CatchesOriginsThatDoNotMatchTheirRecords) {
  const EncodedTable data = Data();
  const DeniableOptions options = Options(true);
  auto run = RunWithTest(data, options, nullptr, 6);
  ASSERT_TRUE(run.has_value());
  // Record 0 gets a seed that differs from it in σ's first attribute, which is always copied
  // (ω <= 5 < m = 7); record 1's recorded k' is off by one.
  const SeedModel model = SeedModel::Create(run->model.network, run->model.cardinalities).value();
  const auto first = static_cast<std::size_t>(model.order()[0]);
  const Code y0 = run->release.records.columns[first][0];
  const auto other = std::find_if(run->split.seed_rows.begin(), run->split.seed_rows.end(),
                                  [&](std::uint32_t row) { return data.columns[first][row] != y0; });
  ASSERT_NE(other, run->split.seed_rows.end());
  std::vector<RecordOrigin>& origins = run->release.origins.records;
  origins[0].seed_row = *other;
  origins[1].k_prime += 1;
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteAudit(dir, *run, options).has_value());
  NullProgress progress;
  auto check = CheckDeniableAudit(dir, data, progress);
  ASSERT_TRUE(check.has_value()) << check.error().message;
  EXPECT_EQ(check->mismatched, 2u);
  EXPECT_EQ(check->k_prime[0], 0u);
  EXPECT_FALSE(check->passed());
  EXPECT_NE(check->ToText().find("FAILED: 2 records do not match their recorded origin"),
            std::string::npos)
      << check->ToText();
}

TEST(DeniableAuditTest, DirectoryIsOwnerOnly) {  // #12 item 6: was 755 / 644
  const EncodedTable data = Data();
  const DeniableOptions options = Options(true);
  auto run = RunWithTest(data, options, nullptr, 8);
  ASSERT_TRUE(run.has_value());
  const std::string dir = test_support::TempDir() + "/audit";
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(dir, std::filesystem::perms::all);  // even a 0777 one
  const mode_t mask = ::umask(022);
  const Status written = WriteAudit(dir, *run, options);
  ::umask(mask);
  ASSERT_TRUE(written.has_value());
  struct stat info {};
  ASSERT_EQ(::stat(dir.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ASSERT_EQ(::stat(entry.path().c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u) << entry.path();
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            5);
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
  ASSERT_TRUE(WriteAudit(dir, *run, options).has_value());
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
