// SPDX-License-Identifier: Apache-2.0
// The fast pair computation (dense counts, or sorted keys for wide pairs, over threads) against
// a naive reference written independently here: std::map joint counts, TVD and
// I(X;Y) = sum p(x,y) log(p(x,y) / (p(x) p(y))).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/random.h"
#include "engine/metrics/marginals.h"
#include "engine/metrics/pair_comparison.h"
#include "tests/engine/metrics/metrics_test_tables.h"
#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

using test_support::MakeColumnFromStrings;
using test_support::MakeColumnSchema;
using test_support::MakeSchema;
using test_support::MakeTable;

// Sums of a few thousand terms of size <= 1: rounding stays far below 1e-10.
constexpr double kTolerance = 1e-10;

using Columns = std::vector<std::vector<std::string>>;  // [column][row], "" = missing
const std::vector<std::string> kNames = {"wide_a", "wide_b", "narrow", "flag"};

// Four string columns: two wide correlated ones (~300 values each: their joint table has
// ~90,000 cells, more than 4 x rows, so it takes the sorted path), a narrow one with missing
// cells and a binary one (dense path).
Columns RandomColumns(Rng& rng, std::size_t rows, std::uint64_t shift) {
  Columns columns(4);
  for (std::size_t row = 0; row < rows; ++row) {
    const std::uint64_t a = UniformBelow(rng, 300);
    const std::uint64_t b = (a + UniformBelow(rng, 5) + shift) % 300;
    const std::uint64_t narrow = UniformBelow(rng, 6);
    columns[0].push_back("a" + std::to_string(a));
    columns[1].push_back("b" + std::to_string(b));
    columns[2].push_back(narrow == 5 ? "" : "n" + std::to_string((narrow + a) % 5));
    columns[3].push_back(UniformBelow(rng, 3) == 0 ? "yes" : "no");
  }
  return columns;
}

RawTable ToTable(const Columns& columns, const char* source) {
  std::vector<RawColumn> raw;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    raw.push_back(MakeColumnFromStrings(kNames[c], columns[c]));
  }
  return MakeTable(source, std::move(raw));
}

struct Reference {
  double tvd = 0;
  double mi_real = 0;
  double mi_synthetic = 0;
};

double MutualInformation(const std::map<std::pair<std::string, std::string>, double>& joint) {
  std::map<std::string, double> px;
  std::map<std::string, double> py;
  for (const auto& [xy, p] : joint) {
    px[xy.first] += p;
    py[xy.second] += p;
  }
  double mi = 0;
  for (const auto& [xy, p] : joint) mi += p * std::log(p / (px[xy.first] * py[xy.second]));
  return mi;
}

double Entropy(const std::vector<std::string>& column) {
  std::map<std::string, double> p;
  for (const std::string& v : column) p[v] += 1.0 / static_cast<double>(column.size());
  double h = 0;
  for (const auto& [v, q] : p) h -= q * std::log(q);
  return h;
}

Reference NaivePair(const Columns& real, const Columns& synthetic, std::size_t i, std::size_t j) {
  std::map<std::pair<std::string, std::string>, double> pr;
  std::map<std::pair<std::string, std::string>, double> ps;
  const double nr = static_cast<double>(real[i].size());
  const double ns = static_cast<double>(synthetic[i].size());
  for (std::size_t row = 0; row < real[i].size(); ++row) pr[{real[i][row], real[j][row]}] += 1 / nr;
  for (std::size_t row = 0; row < synthetic[i].size(); ++row) {
    ps[{synthetic[i][row], synthetic[j][row]}] += 1 / ns;
  }
  Reference reference;
  std::map<std::pair<std::string, std::string>, double> all = pr;
  for (const auto& [xy, p] : ps) all[xy] += 0;
  for (const auto& [xy, unused] : all) {
    const double a = pr.count(xy) ? pr.at(xy) : 0.0;
    const double b = ps.count(xy) ? ps.at(xy) : 0.0;
    reference.tvd += 0.5 * std::abs(a - b);
  }
  reference.mi_real = MutualInformation(pr);
  reference.mi_synthetic = MutualInformation(ps);
  return reference;
}

Schema StringSchema() {
  std::vector<ColumnSchema> columns;
  for (const std::string& name : kNames)
    columns.push_back(MakeColumnSchema(name, DataType::kString));
  return MakeSchema(columns);
}

TEST(PairStatisticsTest, MatchesNaiveReferenceOnBothPaths) {
  SeededRng rng(20240611);
  const Columns real = RandomColumns(rng, 2000, 0);
  const Columns synthetic = RandomColumns(rng, 1500, 1);  // shifted dependence, other size
  NullProgress progress;
  auto report = CompareTables(ToTable(real, "real"), ToTable(synthetic, "syn"), StringSchema(),
                              CompareOptions{}, progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  ASSERT_EQ(report->columns.size(), 4u);
  double sum = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = i + 1; j < 4; ++j) {
      const Reference reference = NaivePair(real, synthetic, i, j);
      SCOPED_TRACE(kNames[i] + " x " + kNames[j]);
      EXPECT_NEAR(report->pair_tvd[i][j], reference.tvd, kTolerance);
      const double hr = (Entropy(real[i]) + Entropy(real[j])) / 2;
      const double hs = (Entropy(synthetic[i]) + Entropy(synthetic[j])) / 2;
      EXPECT_NEAR(report->nmi_real[i][j], reference.mi_real / hr, kTolerance);
      EXPECT_NEAR(report->nmi_synthetic[i][j], reference.mi_synthetic / hs, kTolerance);
      sum += reference.tvd;
    }
  }
  EXPECT_NEAR(*report->mean_pair_tvd, sum / 6, kTolerance);
  // The wide pair is strongly dependent in both tables, so its NMI is far from 0: the sorted
  // path is really exercised (and a bug there could not hide behind a zero).
  EXPECT_GT(report->nmi_real[0][1], 0.5);
}

TEST(PairStatisticsTest, ResultsDoNotDependOnThreadCount) {
  SeededRng rng(7);
  const RawTable real = ToTable(RandomColumns(rng, 3000, 0), "real");
  const RawTable synthetic = ToTable(RandomColumns(rng, 3000, 2), "syn");
  NullProgress progress;
  CompareOptions one;
  one.threads = 1;
  CompareOptions four;
  four.threads = 4;
  auto serial = CompareTables(real, synthetic, StringSchema(), one, progress);
  auto parallel = CompareTables(real, synthetic, StringSchema(), four, progress);
  ASSERT_TRUE(serial.has_value());
  ASSERT_TRUE(parallel.has_value());
  EXPECT_EQ(serial->pair_tvd, parallel->pair_tvd);  // bit-identical
  EXPECT_EQ(serial->nmi_real, parallel->nmi_real);
  EXPECT_EQ(serial->nmi_synthetic, parallel->nmi_synthetic);
  EXPECT_EQ(*serial->mean_pair_tvd, *parallel->mean_pair_tvd);
}

TEST(PairStatisticsTest, CancelsBetweenPairs) {
  // 4 columns: 4 encoding reports, then one report per pair. Cancelling after the 5th report
  // stops after the second of 6 pairs.
  SeededRng rng(3);
  const RawTable table = ToTable(RandomColumns(rng, 100, 0), "t");
  test_support::FakeProgress progress(/*cancel_after_reports=*/5);
  CompareOptions options;
  options.threads = 1;
  auto report = CompareTables(table, table, StringSchema(), options, progress);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(progress.reports(), 5u);
}

TEST(PairStatisticsTest, IdenticalTablesScoreZero) {
  SeededRng rng(11);
  const RawTable table = ToTable(RandomColumns(rng, 500, 0), "t");
  NullProgress progress;
  auto report = CompareTables(table, table, StringSchema(), CompareOptions{}, progress);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(*report->mean_pair_tvd, 0.0);
  EXPECT_EQ(report->mean_column_tvd, 0.0);
  EXPECT_EQ(report->nmi_real, report->nmi_synthetic);
}

TEST(PairStatisticsTest, ComparePairEqualsTheReportCells) {
  // ComparePair recomputes one cell with the same code path, so (i, j) with i < j is
  // bit-identical to the report; (j, i) counts the transposed table, equal up to rounding.
  SeededRng rng(17);
  const RawTable real = ToTable(RandomColumns(rng, 1200, 0), "real");
  const RawTable synthetic = ToTable(RandomColumns(rng, 900, 3), "syn");
  NullProgress progress;
  auto report = CompareTables(real, synthetic, StringSchema(), CompareOptions{}, progress);
  ASSERT_TRUE(report.has_value());
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    for (std::size_t j = i; j < kNames.size(); ++j) {
      SCOPED_TRACE(kNames[i] + " x " + kNames[j]);
      auto pair = ComparePair(real, synthetic, StringSchema(), kNames[i], kNames[j], {});
      ASSERT_TRUE(pair.has_value());
      EXPECT_EQ(pair->tvd, report->pair_tvd[i][j]);
      EXPECT_EQ(pair->nmi_real, report->nmi_real[i][j]);
      EXPECT_EQ(pair->nmi_synthetic, report->nmi_synthetic[i][j]);
      auto reversed = ComparePair(real, synthetic, StringSchema(), kNames[j], kNames[i], {});
      ASSERT_TRUE(reversed.has_value());
      EXPECT_NEAR(reversed->tvd, report->pair_tvd[i][j], kTolerance);
      EXPECT_NEAR(reversed->nmi_real, report->nmi_real[i][j], kTolerance);
    }
  }
}

}  // namespace
}  // namespace deniable
