// SPDX-License-Identifier: Apache-2.0
// End to end on the real Adult table (48,842 x 15): the issue #2 utility target for the
// correlated mode at ε = 1, degree 2. The table is encoded here with a test-only encoder that
// reproduces the measure exactly (numeric columns with > 20 distinct values in 20
// equal-width bins over the real range, other columns by value, missing as its own code), so
// the mean TVD over all 2-way marginals of the codes IS the figure. (Using the real
// range here is fine: this encoder only measures; releases use public or DP domains.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

struct TestEncoding {
  EncodedTable table;
  std::vector<std::string> names;
  std::vector<bool> binned;
};

// Adult as written by R: fields quoted or not, no embedded newlines.
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

TestEncoding EncodeCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  TestEncoding e;
  e.names = SplitCsvLine(line);
  const std::size_t m = e.names.size();
  std::vector<std::vector<std::string>> cells(m);
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = SplitCsvLine(line);
    if (fields.size() != m) continue;
    for (std::size_t j = 0; j < m; ++j) cells[j].push_back(fields[j]);
  }
  e.table.rows = cells[0].size();
  for (std::size_t j = 0; j < m; ++j) {
    std::set<std::string> distinct;
    bool numeric = true, missing = false;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (const std::string& v : cells[j]) {
      if (v.empty()) {
        missing = true;
        continue;
      }
      distinct.insert(v);
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      numeric = numeric && *end == '\0';
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    std::vector<Code> codes(e.table.rows);
    const bool binned = numeric && distinct.size() > 20;
    const std::uint32_t values = binned ? 20 : static_cast<std::uint32_t>(distinct.size());
    std::map<std::string, Code> index;
    for (const std::string& v : distinct) index.emplace(v, static_cast<Code>(index.size()));
    for (std::size_t r = 0; r < codes.size(); ++r) {
      const std::string& v = cells[j][r];
      if (v.empty()) {
        codes[r] = static_cast<Code>(values);
      } else if (binned) {
        const double x = std::strtod(v.c_str(), nullptr);
        codes[r] = static_cast<Code>(std::clamp(static_cast<int>((x - lo) / (hi - lo) * 20), 0, 19));
      } else {
        codes[r] = index[v];
      }
    }
    e.table.columns.push_back(std::move(codes));
    e.table.cardinalities.push_back(values + (missing ? 1 : 0));
    e.binned.push_back(binned);
  }
  return e;
}

double MeanTwoWayTvd(const EncodedTable& a, const EncodedTable& b) {
  const std::size_t m = a.num_attributes();
  double sum = 0;
  int pairs = 0;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = i + 1; j < m; ++j) {
      const std::size_t cj = a.cardinalities[j];
      std::vector<double> difference(a.cardinalities[i] * cj, 0.0);
      for (std::size_t r = 0; r < a.rows; ++r) {
        difference[a.columns[i][r] * cj + a.columns[j][r]] += 1.0 / static_cast<double>(a.rows);
      }
      for (std::size_t r = 0; r < b.rows; ++r) {
        difference[b.columns[i][r] * cj + b.columns[j][r]] -= 1.0 / static_cast<double>(b.rows);
      }
      double tvd = 0;
      for (double d : difference) tvd += std::abs(d);
      sum += tvd / 2;
      ++pairs;
    }
  }
  return sum / pairs;
}

struct SynthesisRun {
  double tvd;
  EncodedTable synthetic;
};

SynthesisRun Synthesize(const TestEncoding& adult, bool correlated, std::uint64_t seed) {
  PrivacyAccountant accountant = PrivacyAccountant::Create({1.0, 0.0}).value();
  SeededRng rng(seed);
  NullProgress progress;
  Result<BayesNet> net = InternalError("not run");
  if (correlated) {
    PrivBayesOptions options;  // documented defaults: degree 2, structure_fraction, θ
    options.epsilon = 1.0;
    options.names = &adult.names;
    net = LearnPrivBayes(adult.table, options, accountant, "all", rng, progress);
  } else {
    net = LearnIndependent(adult.table, {.epsilon = 1.0, .names = &adult.names}, accountant,
                           "all", rng, progress);
  }
  EXPECT_TRUE(net.has_value()) << net.error().message;
  EXPECT_NEAR(accountant.Total().epsilon, 1.0, 1e-9);
  auto synthetic =
      SampleNetwork(*net, adult.table.cardinalities, adult.table.rows, rng, progress, 2);
  EXPECT_TRUE(synthetic.has_value());
  return {MeanTwoWayTvd(adult.table, *synthetic), std::move(synthetic).value()};
}

TEST(PrivBayesE2eTest, AdultCorrelatedModeMeetsTheUtilityTargetAtEpsilonOne) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const TestEncoding adult = EncodeCsv(path);
  ASSERT_EQ(adult.table.rows, 48'842u);
  ASSERT_EQ(adult.table.num_attributes(), 15u);
  // Five fixed seeds: the target (issue #2: <= 0.08) must hold on their mean and on each one
  // (DataSynthesizer's correlated mode scores 0.27 here, a perfect independent model 0.078).
  double correlated_sum = 0, independent_sum = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const double correlated = Synthesize(adult, true, seed).tvd;
    const double independent = Synthesize(adult, false, seed).tvd;
    std::printf("seed %llu: mean 2-way TVD correlated %.4f, independent %.4f\n",
                static_cast<unsigned long long>(seed), correlated, independent);
    EXPECT_LE(correlated, 0.08) << "seed " << seed;
    EXPECT_LT(correlated, independent) << "seed " << seed;
    correlated_sum += correlated;
    independent_sum += independent;
  }
  std::printf("mean over 5 seeds: correlated %.4f, independent %.4f\n", correlated_sum / 5,
              independent_sum / 5);
  EXPECT_LE(correlated_sum / 5, 0.08);
}

TEST(PrivBayesE2eTest, SameSeedGivesIdenticalOutput) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const TestEncoding adult = EncodeCsv(path);
  const SynthesisRun a = Synthesize(adult, true, 99);
  const SynthesisRun b = Synthesize(adult, true, 99);
  EXPECT_EQ(a.synthetic.columns, b.synthetic.columns);
  EXPECT_EQ(a.tvd, b.tvd);
}

}  // namespace
}  // namespace deniable
