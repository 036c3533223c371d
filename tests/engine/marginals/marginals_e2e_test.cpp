// SPDX-License-Identifier: Apache-2.0
// The marginals mode end to end on the shipped demo dataset (resources/demo/adult_sample.csv,
// 10,000 rows, its public codebook schema), ε = 1, δ = 1e-9, fixed seeds: MST and AIM release
// typed output (every cell parses as its column's type), the ledger holds every measurement as
// a zCDP entry and totals within the budget, and the description alone regenerates data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "engine/core/progress.h"
#include "engine/marginals/marginals_model.h"
#include "engine/model/domains.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/typed_values.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

LoadedInput LoadDemo() {
  InputSettings settings;
  settings.path = test_support::SourcePath("resources/demo/adult_sample.csv");
  std::ifstream schema(test_support::SourcePath("resources/demo/adult_sample.schema.json"));
  settings.schema = nlohmann::json::parse(schema);
  NullProgress progress;
  auto input = LoadInput(settings, progress);
  EXPECT_TRUE(input.has_value()) << input.error().message;
  return std::move(input.value());
}

ModelSettings Marginals(MarginalsMechanism mechanism) {
  ModelSettings settings;
  settings.mode = SynthesisMode::kMarginals;
  settings.marginals.mechanism = mechanism;
  settings.epsilon = 1.0;
  settings.delta = 1e-9;
  return settings;
}

// Every released cell of a numeric or date column parses as its type.
void ExpectTypedOutput(const RawTable& synthetic, const Schema& schema) {
  ASSERT_GT(synthetic.num_rows(), 0u);
  for (const RawColumn& column : synthetic.columns) {
    const ColumnSchema* declared = nullptr;
    for (const ColumnSchema& c : schema.columns) {
      if (c.name == column.name) declared = &c;
    }
    ASSERT_NE(declared, nullptr) << column.name;
    if (declared->type == DataType::kString) continue;
    for (const std::string& text : column.dictionary) {
      EXPECT_TRUE(ParseNumericCell(text, *declared).has_value())
          << column.name << ": '" << text << "' does not parse as " << DataTypeName(declared->type);
    }
  }
}

void ExpectZcdpLedger(const PrivacyAccountant& ledger, std::size_t min_measurements) {
  std::size_t zcdp = 0;
  for (const LedgerEntry& e : ledger.entries()) {
    if (e.rho_each > 0) ++zcdp;
  }
  EXPECT_GE(zcdp, min_measurements);
  EXPECT_LE(ledger.Total().epsilon, 1.0);
  EXPECT_LE(ledger.Total().delta, 1e-9);
  EXPECT_GT(ledger.Total().epsilon, 0.99);  // the whole budget is used
}

class MarginalsE2eTest : public ::testing::TestWithParam<MarginalsMechanism> {};

TEST_P(MarginalsE2eTest, ReleasesTypedRowsWithTheWholeLedger) {
  const LoadedInput input = LoadDemo();
  SeededRng rng(2026);
  NullProgress progress;
  auto release = RunRelease(input, Marginals(GetParam()), 2000, rng, progress);
  ASSERT_TRUE(release.has_value()) << release.error().message;
  EXPECT_EQ(release->synthetic->num_rows(), 2000u);
  ExpectTypedOutput(*release->synthetic, release->model.description.schema);
  // 1-way marginals of every modelled column, and the tree's or AIM's rounds.
  const std::size_t columns = release->model.description.domains.size();
  ExpectZcdpLedger(release->model.accountant, 2 * columns - 1);
  EXPECT_EQ(release->model.description.mode, "marginals");
  EXPECT_LE(release->model.description.guarantee["epsilon"].get<double>(), 1.0);
  // Utility sanity: far better than independent columns on pairs is not asserted here (the
  // bench measures it); the 1-way marginals must be close.
  EXPECT_LT(release->metrics.mean_column_tvd, 0.1);
}

TEST_P(MarginalsE2eTest, DescriptionAloneRegeneratesRows) {
  const LoadedInput input = LoadDemo();
  SeededRng rng(7);
  NullProgress progress;
  auto model = LearnModel(*input.table, input.schema, Marginals(GetParam()), rng, progress);
  ASSERT_TRUE(model.has_value()) << model.error().message;
  const std::string path = test_support::TempDir() + "/description.json";
  ASSERT_TRUE(WriteDescription(path, model->description).has_value());
  auto read = ReadDescription(path);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  auto rows = GenerateFromDescription(*read, 500, rng, progress);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  EXPECT_EQ(rows->rows, 500u);
  const auto sizes = read->cardinalities();
  ASSERT_EQ(rows->columns.size(), sizes.size());
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    for (Code c : rows->columns[a]) ASSERT_LT(c, sizes[a]);
  }
  // The stored model reproduces the fitted clique marginals.
  auto stored = MarginalsModel::FromJson(read->parameters["model"], sizes, "model");
  ASSERT_TRUE(stored.has_value()) << stored.error().message;
  const MarginalsModel& fitted = *model->marginals;
  ASSERT_EQ(stored->model.tree().cliques(), fitted.model.tree().cliques());
  for (std::size_t c = 0; c < fitted.model.marginals().size(); ++c) {
    const auto& a = fitted.model.marginals()[c].values;
    const auto& b = stored->model.marginals()[c].values;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_NEAR(a[i] / fitted.model.total(), b[i], 1e-9);
    }
  }
}

// Without the schema every String column's values come from the set union, which in this
// mode is an approximate-zCDP entry of the model's block (dp/set_union.md, "Under zCDP"): it
// carries ρ and its coupling τ, and the whole block converts once at δ_z = 0.9·δ. Only the row
// count stays a pure-ε entry beside the block: the numeric histograms' ε-DP partitions are
// folded in as ρ = ε²/2 and their second passes are discrete Gaussian (dp/privacy_accountant.md,
// "Pure ε-DP steps folded into the block").
TEST(MarginalsZcdpUnionTest, EverythingIsInTheZcdpBlock) {
  InputSettings settings;
  settings.path = test_support::SourcePath("resources/demo/adult_sample.csv");
  NullProgress progress;
  auto input = LoadInput(settings, progress);
  ASSERT_TRUE(input.has_value()) << input.error().message;
  SeededRng rng(11);
  auto release = RunRelease(input.value(), Marginals(MarginalsMechanism::kMst), 500, rng, progress);
  ASSERT_TRUE(release.has_value()) << release.error().message;
  const PrivacyAccountant& ledger = release->model.accountant;
  EXPECT_TRUE(ledger.folds_pure_dp());
  std::size_t union_at = ledger.entries().size();
  for (std::size_t i = 0; i < ledger.entries().size(); ++i) {
    if (ledger.entries()[i].label.rfind("categories of the columns", 0) == 0) union_at = i;
  }
  ASSERT_LT(union_at, ledger.entries().size());
  const LedgerEntry& entry = ledger.entries()[union_at];
  EXPECT_GT(entry.rho_each, 0.0);
  EXPECT_EQ(entry.epsilon_each, 0.0);
  const ZcdpUnionPlan plan = PlanZcdpUnion(1.0, PrivacyAccountant::Spendable(1e-9));
  EXPECT_EQ(entry.delta_each, plan.coupling);
  EXPECT_EQ(ledger.zcdp_delta(), plan.delta_z);
  EXPECT_LE(plan.delta_z + std::exp(1.0) * plan.coupling, 1e-9);
  ASSERT_GT(ledger.entries().size(), 1u);
  // The row count is in the block too (its ε = 0.01 as ρ = ε²/2), so the block converts at
  // the whole ε rather than 0.99.
  EXPECT_EQ(ledger.entries()[0].label.rfind("number of rows", 0), 0u);
  EXPECT_EQ(ledger.entries()[0].rho_each, 0.01 * 0.01 / 2);
  EXPECT_EQ(ledger.entries()[0].epsilon_each, 0.0);
  std::size_t partitions = 0, gaussian_passes = 0, group_counts = 0;
  for (std::size_t i = 0; i < ledger.entries().size(); ++i) {
    const LedgerEntry& e = ledger.entries()[i];
    EXPECT_GT(e.rho_each, 0.0) << e.label;
    EXPECT_EQ(e.epsilon_each, 0.0) << e.label;
    if (e.label.find(": adaptive partition") != std::string::npos) {
      ++partitions;
      EXPECT_NE(e.mechanism.find("-DP, in the zCDP block as ρ = ε²/2"), std::string::npos)
          << e.mechanism;
    }
    if (e.label.find(": leaf counts") != std::string::npos) {
      ++gaussian_passes;
      EXPECT_NE(e.mechanism.find("discrete Gaussian"), std::string::npos) << e.mechanism;
    }
    if (e.label.rfind("magnitude groups of ", 0) == 0) {
      ++group_counts;
      EXPECT_EQ(e.sensitivity, 1.0);
      // kGroupCountShare of the second pass's ρ, the one before it in the ledger.
      EXPECT_EQ(e.rho_each, kGroupCountShare * ledger.entries()[i - 1].rho_each) << e.label;
      EXPECT_NE(ledger.entries()[i - 1].label.find(": leaf counts"), std::string::npos);
    }
  }
  // The demo's numeric columns (age, fnlwgt, capital-gain, capital-loss, hours-per-week) each
  // have a histogram: an ε-DP partition and a Gaussian second pass.
  EXPECT_EQ(partitions, 5u);
  EXPECT_EQ(gaussian_passes, 5u);
  // None of them has public bounds in the demo's schema: each also counts its magnitude groups.
  EXPECT_EQ(group_counts, 5u);
  // The Columns page's forecast plans the same block: its union ρ is the run's, up to the
  // row count's noise (the run plans with n̂, the forecast with n; about 1% at 10,000 rows).
  auto forecast = ForecastDomains(*input->table, input->schema, 1.0, 1e-9, std::nullopt, nullptr,
                                  MissingMarkers::kModel);
  ASSERT_TRUE(forecast.has_value()) << forecast.error().message;
  EXPECT_NEAR(forecast->union_rho, entry.rho_each, 0.05 * entry.rho_each);
  // The union took the rule's share of the block's ρ, the model the rest.
  const double block = ledger.RhoOf("all");
  const double share = entry.rho_each / block;
  EXPECT_GT(share, 0.05);
  EXPECT_LT(share, 0.7);
  EXPECT_LE(ledger.Total().epsilon, 1.0);
  EXPECT_GT(ledger.Total().epsilon, 0.99);
  EXPECT_LE(ledger.Total().delta, 1e-9);
  // The demo's frequent categories survive: workclass keeps Private (70% of rows), and the
  // domain says where its categories came from.
  bool found = false;
  for (const ColumnDomain& d : release->model.description.domains) {
    if (d.name != "workclass") continue;
    found = true;
    EXPECT_NE(std::find(d.categories.begin(), d.categories.end(), "Private"), d.categories.end());
    EXPECT_NE(d.provenance.find("of the model's zCDP budget"), std::string::npos) << d.provenance;
  }
  EXPECT_TRUE(found);
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, MarginalsE2eTest,
                         ::testing::Values(MarginalsMechanism::kMst, MarginalsMechanism::kAim),
                         [](const auto& param_info) {
                           return std::string(MarginalsMechanismName(param_info.param));
                         });

}  // namespace
}  // namespace deniable
