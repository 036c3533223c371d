// SPDX-License-Identifier: Apache-2.0
// Tied columns on the real tables: a column pair that is (nearly) deterministic in the data — a
// code and its label (adult: education / education-num), a score and its band (COMPAS:
// decile_score / score_text, age / age_cat) — stays consistent in the plausibly deniable
// release at ε = 1 with the defaults (docs/deniable.md, "Tied columns"). Through the real reader,
// schema inference, DP domains and encoding, with the CLI's split of ε = 1 (0.3 for the
// domains, 0.7 for the model).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "engine/core/progress.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/io/csv_reader.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/schema/infer_schema.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

struct Loaded {
  EncodedTable data;
  std::vector<ColumnDomain> domains;
  int Index(const std::string& name) const {
    for (std::size_t a = 0; a < domains.size(); ++a) {
      if (domains[a].name == name) return static_cast<int>(a);
    }
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
};

// What `deniable-cli synthesize --mode deniable --epsilon 1` does before its model: DP domains
// with the budget rule's share of ε = 1 (model/domain_budget.h), the row count standing for
// the run's noisy one.
Loaded Load(const std::string& path, PrivacyAccountant& accountant, std::uint64_t seed) {
  Loaded loaded;
  NullProgress progress;
  const RawTable table = ReadCsv(path, CsvReadOptions{}, progress).value();
  const Schema schema = InferSchema(table, InferOptions{});
  SeededRng rng(seed);
  DomainOptions domains;
  domains.budget =
      PlanDomainBudget(schema, 1.0, static_cast<double>(table.num_rows()), std::nullopt);
  loaded.domains = BuildDomains(table, schema, domains, accountant, rng, progress).value();
  loaded.data = Encode(table, schema, loaded.domains, progress).value();
  return loaded;
}

// Share of released records whose (a, b) codes form a pair that occurs in the real table.
double Consistency(const EncodedTable& real, const EncodedTable& released, int a, int b) {
  std::set<std::pair<Code, Code>> pairs;
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  for (std::size_t r = 0; r < real.rows; ++r) {
    pairs.insert({real.columns[ua][r], real.columns[ub][r]});
  }
  std::size_t consistent = 0;
  for (std::size_t r = 0; r < released.rows; ++r) {
    consistent += pairs.count({released.columns[ua][r], released.columns[ub][r]});
  }
  return static_cast<double>(consistent) / static_cast<double>(released.rows);
}

struct PairConsistency {
  double mean = 0;
  double minimum = 1;
  std::string per_seed;  // for failure messages
};

// Mean and minimum consistency of each pair over `seeds` runs with the defaults at ε = 1.
std::vector<PairConsistency> Measure(
    const std::string& path, const std::vector<std::pair<std::string, std::string>>& pairs,
    const std::vector<std::uint64_t>& seeds) {
  std::vector<PairConsistency> result(pairs.size());
  for (std::uint64_t seed : seeds) {
    // The pipeline's accountant: advanced-composition slack δ'' = 1e-10 (run_job.cpp).
    PrivacyAccountant accountant = PrivacyAccountant::Create(PrivacyCost{1e9, 0.5}, 1e-10).value();
    const Loaded loaded = Load(path, accountant, seed);
    DeniableOptions options;  // k = 50, γ = 4, ε0 = 1, automatic ω, CFS
    options.model_epsilon = 0.7 * (1 - 1e-9);
    options.records = 20000;
    options.charge_release_to_budget = false;
    SeededRng rng(seed);
    NullProgress progress;
    auto run = RunDeniable(loaded.data, options, BucketMapsForDomains(loaded.domains, 0),
                           accountant, rng, progress);
    if (!run.has_value()) {
      ADD_FAILURE() << run.error().message;
      return result;
    }
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const double c = Consistency(loaded.data, run->release.records,
                                   loaded.Index(pairs[p].first), loaded.Index(pairs[p].second));
      result[p].mean += c / static_cast<double>(seeds.size());
      result[p].minimum = std::min(result[p].minimum, c);
      result[p].per_seed += " " + std::to_string(c);
    }
  }
  return result;
}

// Tolerances. The requirement is 95% of the released rows. A run is one draw of the split, the
// noisy structure and the noisy tables, so the mean over 5 fixed seeds must reach 0.95, and
// every seed 0.90: over 20 seeds of the same pipeline (docs/deniable.md) the per-seed minimum
// was 0.955 for adult's pair, 0.917 for decile_score / score_text and 0.936 for age / age_cat
// (COMPAS's D_P has about 2,500 rows: its tables are noisier), while a broken pair scores far
// lower (0.58 for decile_score / score_text in the tester's report, 0.75 for adult's before
// the fix). Measured with these seeds: adult 0.986–0.999; COMPAS 0.942–0.983 and 0.953–0.979.
// age / age_cat is compared as codes (age's bins): what the model controls. In values it is
// also bounded by the DP bins of age, which can straddle 25 and 45 (docs/deniable.md).

TEST(TiedColumnsE2eTest, AdultEducationAndItsCodeStayTogether) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const auto measured = Measure(path, {{"education", "education-num"}}, {1, 2, 3, 4, 5});
  EXPECT_GE(measured[0].mean, 0.95) << measured[0].per_seed;
  EXPECT_GE(measured[0].minimum, 0.90) << measured[0].per_seed;
}

TEST(TiedColumnsE2eTest, CompasScoreAndBandStayTogether) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "compas_reduced.csv");
  const auto measured = Measure(path, {{"decile_score", "score_text"}, {"age", "age_cat"}},
                                {1, 2, 3, 4, 5});
  for (const PairConsistency& pair : measured) {
    EXPECT_GE(pair.mean, 0.95) << pair.per_seed;
    EXPECT_GE(pair.minimum, 0.90) << pair.per_seed;
  }
}

}  // namespace
}  // namespace deniable
