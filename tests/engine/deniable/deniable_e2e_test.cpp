// SPDX-License-Identifier: Apache-2.0
// Plausibly deniable synthesis on the real adult.csv (48,842 rows), through the real reader,
// schema inference, DP domains and encoding: what a release does.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "engine/core/progress.h"
#include "engine/deniable/audit.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/io/csv_reader.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/schema/infer_schema.h"
#include "tests/engine/deniable/deniable_test_util.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

struct Adult {
  RawTable table;
  Schema schema;
  std::vector<ColumnDomain> domains;
  EncodedTable data;
};

// Domains from DP (ε = 1 on all rows, so that categories survive partition selection).
Adult LoadAdult(const std::string& path, PrivacyAccountant& accountant) {
  Adult adult;
  NullProgress progress;
  adult.table = ReadCsv(path, CsvReadOptions{}, progress).value();
  adult.schema = InferSchema(adult.table, InferOptions{});
  SeededRng rng(7);
  const DomainOptions domains =
      DomainOptionsFor(adult.schema, 1.0, static_cast<double>(adult.table.num_rows()));
  adult.domains =
      BuildDomains(adult.table, adult.schema, domains, accountant, rng, progress).value();
  adult.data = Encode(adult.table, adult.schema, adult.domains, progress).value();
  return adult;
}

// Mean 1-way and 2-way total variation distance between two encoded tables.
std::pair<double, double> MeanTvd(const EncodedTable& a, const EncodedTable& b) {
  const std::size_t m = a.num_attributes();
  double one = 0, two = 0;
  int pairs = 0;
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<double> h(a.cardinalities[i], 0.0);
    for (Code c : a.columns[i]) h[c] += 1.0 / static_cast<double>(a.rows);
    for (Code c : b.columns[i]) h[c] -= 1.0 / static_cast<double>(b.rows);
    for (double x : h) one += std::abs(x) / 2 / static_cast<double>(m);
    for (std::size_t j = i + 1; j < m; ++j) {
      const std::size_t cj = a.cardinalities[j];
      std::vector<double> g(a.cardinalities[i] * cj, 0.0);
      for (std::size_t r = 0; r < a.rows; ++r) {
        g[a.columns[i][r] * cj + a.columns[j][r]] += 1.0 / static_cast<double>(a.rows);
      }
      for (std::size_t r = 0; r < b.rows; ++r) {
        g[b.columns[i][r] * cj + b.columns[j][r]] -= 1.0 / static_cast<double>(b.rows);
      }
      for (double x : g) two += std::abs(x) / 2;
      ++pairs;
    }
  }
  return {one, two / pairs};
}

TEST(DeniableAdultE2eTest, ReleaseAtThePapersParametersDecodesOnlyDomainValues) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}, 1e-10).value();
  const Adult adult = LoadAdult(path, accountant);
  ASSERT_EQ(adult.data.rows, 48842u);
  DeniableOptions options;  // k = 50, γ = 4, ε0 = 1, randomised test
  options.omega_min = 5;
  options.omega_max = 11;
  options.records = 20000;
  options.charge_release_to_budget = false;
  SeededRng rng(1);
  NullProgress progress;
  auto run = RunDeniable(adult.data, options, BucketMapsForDomains(adult.domains, 8), accountant,
                         rng, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  const DeniableRelease& release = run->release;
  EXPECT_EQ(release.records.rows, 20000u);
  // The paper's Figure 6 reports pass rates of 50% and more on ACS; adult has 25 times fewer
  // seeds: expect a substantial, not a tiny, share.
  EXPECT_GT(release.stats.pass_rate(), 0.2) << release.SummaryText();
  EXPECT_EQ(release.guarantees.record.t, 29);
  // Decoded values come from the domains only: categories (or the Other label) and numbers
  // inside the public/DP bounds; never a raw value outside them.
  auto decoded = DecodeToRawTable(release.records, adult.schema, adult.domains, rng, progress);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  const std::vector<int> modelled = ModelledColumns(adult.schema);
  for (std::size_t a = 0; a < modelled.size(); ++a) {
    const ColumnDomain& domain = adult.domains[a];
    const int column = decoded->ColumnIndex(domain.name);
    ASSERT_GE(column, 0) << domain.name;
    const RawColumn& out = decoded->columns[static_cast<std::size_t>(column)];
    std::set<std::string> allowed(domain.categories.begin(), domain.categories.end());
    if (domain.has_other) allowed.insert(domain.other_label);
    for (const std::string& value : out.dictionary) {
      if (domain.categorical) {
        EXPECT_TRUE(allowed.count(value)) << domain.name << ": '" << value << "'";
      } else {
        const double x = std::stod(value);
        EXPECT_GE(x, domain.lo - 1e-9) << domain.name;
        EXPECT_LE(x, domain.hi + 1e-9) << domain.name;
      }
    }
  }
}

TEST(DeniableAdultE2eTest, UtilityBeatsOrMatchesTheMarginalsBaselineOnPairs) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  PrivacyAccountant domains_accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
  const Adult adult = LoadAdult(path, domains_accountant);
  double tvd[2][2];
  for (int baseline = 0; baseline < 2; ++baseline) {
    DeniableOptions options;  // automatic ω: [7, 15] for m = 15
    options.records = adult.data.rows;
    options.charge_release_to_budget = false;
    if (baseline == 1) {
      options.structure = DeniableStructure::kMarginals;
      options.omega_min = options.omega_max = 15;
    }
    PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
    SeededRng rng(100);
    NullProgress progress;
    auto run = RunDeniable(adult.data, options, BucketMapsForDomains(adult.domains, 8), accountant,
                           rng, progress);
    ASSERT_TRUE(run.has_value()) << run.error().message;
    std::tie(tvd[baseline][0], tvd[baseline][1]) = MeanTvd(adult.data, run->release.records);
  }
  // Measured (fixed seeds; docs/deniable.md §9): CFS about 0.028 / 0.08, marginals 0.017 / 0.09.
  // Bounds leave room for small numeric differences between platforms, not for regressions.
  EXPECT_LT(tvd[0][0], 0.045);
  EXPECT_LT(tvd[0][1], 0.10);
  EXPECT_LT(tvd[0][1], tvd[1][1] + 0.01);
  EXPECT_LT(tvd[1][0], 0.03);
}

TEST(DeniableAdultE2eTest, DeterministicReleaseIsConsistentWithItsAudit) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
  const Adult adult = LoadAdult(path, accountant);
  DeniableOptions options;
  options.deterministic_test = true;
  options.records = 5000;
  SeededRng rng(2);
  NullProgress progress;
  auto run = RunDeniable(adult.data, options, BucketMapsForDomains(adult.domains, 8), accountant,
                         rng, progress);
  ASSERT_TRUE(run.has_value()) << run.error().message;
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteDeniableAudit(dir, run->model, run->split, run->release.records,
                                 run->release.origins, options)
                  .has_value());
  auto check = CheckDeniableAudit(dir, adult.data, progress);
  ASSERT_TRUE(check.has_value()) << check.error().message;
  EXPECT_EQ(check->k_prime.size(), 5000u);
  EXPECT_EQ(check->below_k, 0u);
  EXPECT_TRUE(check->passed()) << check->ToText();
}

// #12 item 6: parameters under which the privacy test really rejects candidates (ω in [2, 4]
// of 15 attributes: few seeds share a record's first 11+ attributes), so that a release with
// the test removed is visibly different — and its audit fails — while the real one passes.
TEST(DeniableAdultE2eTest, AuditFailsWhenThePrivacyTestIsRemoved) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}).value();
  const Adult adult = LoadAdult(path, accountant);
  for (bool deterministic : {true, false}) {
    DeniableOptions options;  // k = 50, γ = 4, ε0 = 1
    options.deterministic_test = deterministic;
    options.omega_min = 2;
    options.omega_max = 4;
    options.records = 2000;
    options.charge_release_to_budget = false;
    const PrivacyTest removed = PrivacyTest::Deterministic(1);
    NullProgress progress;
    for (const PrivacyTest* test : {static_cast<const PrivacyTest*>(nullptr), &removed}) {
      auto run = test_support::RunDeniableWithTest(
          adult.data, options, BucketMapsForDomains(adult.domains, 8), test, 3);
      ASSERT_TRUE(run.has_value()) << run.error().message;
      if (test == nullptr) {  // the real test rejected a substantial share of the candidates
        EXPECT_LT(run->release.stats.pass_rate(), 0.8) << run->release.SummaryText();
      }
      const std::string dir = test_support::TempDir() + (test ? "/removed" : "/real");
      ASSERT_TRUE(WriteDeniableAudit(dir, run->model, run->split, run->release.records,
                                     run->release.origins, options)
                      .has_value());
      auto check = CheckDeniableAudit(dir, adult.data, progress);
      ASSERT_TRUE(check.has_value()) << check.error().message;
      EXPECT_EQ(check->passed(), test == nullptr) << check->ToText();
      if (test != nullptr) {
        EXPECT_GT(check->implausible, 100u) << check->ToText();
      }
    }
  }
}

}  // namespace
}  // namespace deniable
