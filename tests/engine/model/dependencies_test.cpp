// SPDX-License-Identifier: Apache-2.0
#include "engine/model/dependencies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"
#include "tests/support/random_encoded_table.h"

namespace deniable {
namespace {

// A table with a code and its label (a bijection), a band of a score (a function), and an
// unrelated column.
EncodedTable TiedTable(std::size_t rows, std::uint64_t seed) {
  SeededRng rng(seed);
  EncodedTable t;
  t.rows = rows;
  t.cardinalities = {8, 8, 10, 3, 4};
  t.columns.resize(5);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto code = static_cast<Code>(UniformBelow(rng, 8));
    const auto score = static_cast<Code>(UniformBelow(rng, 10));
    t.columns[0].push_back(code);
    t.columns[1].push_back(static_cast<Code>((code * 3 + 1) % 8));  // its label
    t.columns[2].push_back(score);
    t.columns[3].push_back(static_cast<Code>(score < 4 ? 0 : score < 8 ? 1 : 2));  // its band
    t.columns[4].push_back(static_cast<Code>(UniformBelow(rng, 4)));
  }
  return t;
}

TEST(DependencyScoreTest, PositiveExactlyForFunctionsAndSensitivityOne) {
  const EncodedTable t = TiedTable(2000, 1);
  EXPECT_GT(DependencyScore(t, 0, 1, 0.9), 0);  // code -> label
  EXPECT_GT(DependencyScore(t, 2, 3, 0.9), 0);  // score -> band
  EXPECT_LT(DependencyScore(t, 3, 2, 0.9), 0);  // band does not determine the score
  EXPECT_LT(DependencyScore(t, 4, 0, 0.9), 0);  // unrelated
  // Adding or removing any one row moves every score by at most 1.
  SeededRng rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    const EncodedTable small = TiedTable(50 + trial % 7, 100 + trial);
    EncodedTable fewer = small;
    const std::size_t drop = UniformBelow(rng, small.rows);
    for (auto& column : fewer.columns) column.erase(column.begin() + static_cast<std::ptrdiff_t>(drop));
    fewer.rows -= 1;
    for (int a = 0; a < 5; ++a) {
      for (int b = 0; b < 5; ++b) {
        if (a == b) continue;
        EXPECT_LE(std::fabs(DependencyScore(small, a, b, 0.9) - DependencyScore(fewer, a, b, 0.9)),
                  1.0 + 1e-9);
      }
    }
  }
}

// The selection is range-bounded (dp/exponential_mechanism.md §1b): for every neighbour, the
// changes of ALL the candidates' utilities (every pair's score and "none"'s 0) lie in one
// interval of width 2 − λ0. Checked exhaustively: every possible added record (every tuple of
// codes) and every removed record, on 30 tables (tied and random, 20–78 rows).
TEST(DependencyScoreTest, ChangesStayInOneIntervalOfWidthTwoMinusLambda) {
  constexpr double kLambda = 0.9;
  const double width = 2.0 - kLambda;
  auto with_row = [](EncodedTable t, const std::vector<Code>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) t.columns[c].push_back(row[c]);
    t.rows += 1;
    return t;
  };
  double widest = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t rows = 20 + 2 * static_cast<std::size_t>(trial);
    const EncodedTable t = trial % 2 == 0
                               ? TiedTable(rows, 500 + static_cast<std::uint64_t>(trial))
                               : test_support::RandomEncodedTable(rows, {8, 8, 10, 3, 4},
                                                                  700 + static_cast<std::uint64_t>(trial));
    const std::size_t m = t.num_attributes();
    std::vector<std::vector<double>> base(m, std::vector<double>(m, 0));
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = 0; b < m; ++b) {
        if (a != b) base[a][b] = DependencyScore(t, static_cast<int>(a), static_cast<int>(b), kLambda);
      }
    }
    // A pair's change on adding a record depends on the record's two codes only.
    std::vector<std::vector<std::vector<double>>> added(m, std::vector<std::vector<double>>(m));
    for (std::size_t a = 0; a < m; ++a) {
      for (std::size_t b = 0; b < m; ++b) {
        if (a == b) continue;
        for (Code x = 0; x < t.cardinalities[a]; ++x) {
          for (Code y = 0; y < t.cardinalities[b]; ++y) {
            std::vector<Code> row(m, 0);
            row[a] = x;
            row[b] = y;
            added[a][b].push_back(
                DependencyScore(with_row(t, row), static_cast<int>(a), static_cast<int>(b), kLambda) -
                base[a][b]);
          }
        }
      }
    }
    std::vector<Code> row(m, 0);
    for (;;) {  // every tuple of codes
      double lo = 0, hi = 0;  // "none" moves by 0
      for (std::size_t a = 0; a < m; ++a) {
        for (std::size_t b = 0; b < m; ++b) {
          if (a == b) continue;
          const double d = added[a][b][row[a] * t.cardinalities[b] + row[b]];
          lo = std::min(lo, d);
          hi = std::max(hi, d);
        }
      }
      ASSERT_LE(hi - lo, width + 1e-9) << "trial " << trial;
      widest = std::max(widest, hi - lo);
      std::size_t c = 0;
      while (c < m && ++row[c] == t.cardinalities[c]) row[c++] = 0;
      if (c == m) break;
    }
    for (std::size_t drop = 0; drop < t.rows; ++drop) {  // every removed record
      EncodedTable fewer = t;
      for (auto& column : fewer.columns) column.erase(column.begin() + static_cast<std::ptrdiff_t>(drop));
      fewer.rows -= 1;
      double lo = 0, hi = 0;
      for (std::size_t a = 0; a < m; ++a) {
        for (std::size_t b = 0; b < m; ++b) {
          if (a == b) continue;
          const double d =
              DependencyScore(fewer, static_cast<int>(a), static_cast<int>(b), kLambda) - base[a][b];
          lo = std::min(lo, d);
          hi = std::max(hi, d);
        }
      }
      ASSERT_LE(hi - lo, width + 1e-9) << "trial " << trial << ", removed row " << drop;
    }
  }
  // The bound is attained (a record that raises one pair's S and M and another's neither).
  EXPECT_NEAR(widest, width, 1e-9);
}

TEST(FindDependenciesTest, FindsTheTiedPairsSpendsWhatItSaysAndMapsExactly) {
  const EncodedTable t = TiedTable(20000, 3);
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  DependencyOptions options;
  options.epsilon = 0.3;
  SeededRng rng(4);
  NullProgress progress;
  auto result = FindDependencies(t, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  // Both ties are found (in either direction for the bijection), then "none" ends the search
  // (3 rounds at most: the third round finds nothing above λ0 = 0.9).
  ASSERT_EQ(result->found.size(), 2u);
  bool code_label = false, score_band = false;
  for (const Dependency& d : result->found) {
    if ((d.parent == 0 && d.child == 1) || (d.parent == 1 && d.child == 0)) {
      code_label = true;
      for (std::uint32_t a = 0; a < 8; ++a) {
        const std::uint32_t expected = d.parent == 0 ? (a * 3 + 1) % 8 : ((a + 8 - 1) * 3) % 8;
        EXPECT_EQ(d.mapping[a], expected) << a;
      }
    }
    if (d.parent == 2 && d.child == 3) {
      score_band = true;
      for (std::uint32_t a = 0; a < 10; ++a) EXPECT_EQ(d.mapping[a], a < 4 ? 0u : a < 8 ? 1u : 2u);
    }
  }
  EXPECT_TRUE(code_label);
  EXPECT_TRUE(score_band);
  // Spent: 3 selection rounds and 2 mappings, each round's reserve 0.1 split 0.06 / 0.04.
  EXPECT_NEAR(result->spent, 3 * 0.06 + 2 * 0.04, 1e-12);
  EXPECT_NEAR(accountant->Total().epsilon, result->spent, 1e-12);
  EXPECT_EQ(accountant->entries().size(), 5u);
}

// The ledger names the selection it ran: range-bounded (the default, the independent mode) or
// the plain exponential mechanism (the correlated mode's search, PrivBayesOptions), whose
// exponent is ε/2 rather than ε/1.1; both spend the same ε.
TEST(FindDependenciesTest, TheLedgerNamesTheSelection) {
  const EncodedTable t = TiedTable(20000, 3);
  for (bool range_bounded : {true, false}) {
    auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
    ASSERT_TRUE(accountant.has_value());
    DependencyOptions options;
    options.epsilon = 0.3;
    options.range_bounded = range_bounded;
    SeededRng rng(4);
    NullProgress progress;
    auto result = FindDependencies(t, options, *accountant, "all", rng, progress);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->found.size(), 2u);
    EXPECT_NEAR(result->spent, 3 * 0.06 + 2 * 0.04, 1e-12);
    ASSERT_FALSE(accountant->entries().empty());
    EXPECT_EQ(accountant->entries().front().mechanism,
              range_bounded ? "exponential mechanism (range-bounded, R = 2 - λ0 = 1.1)"
                            : "exponential mechanism");
    EXPECT_EQ(accountant->entries().front().sensitivity, 1.0);
  }
}

// Sized mappings: ε_pair = clamp(|A|·(|B| − 1)/(e·q·n̂), ε_map, cap), off without a row count
// or when the cap is not above ε_map.
TEST(FindDependenciesTest, MappingEpsilonIsSizedToTheExpectedWrongRowsAndClamped) {
  DependencyOptions options;
  EXPECT_EQ(MappingEpsilon(options, 0.004, 26, 4), 0.004);  // no row count: the reserve
  options.rows_estimate = 11757;
  options.max_mapping_epsilon = 0.1;
  // COMPAS' age bins → age_cat: 26 codes × 3 other values / (e · 0.01 · 11757) = 0.244…, above
  // the cap.
  EXPECT_EQ(MappingEpsilon(options, 0.004, 26, 4), 0.1);
  // 10 × 2 / (e · 0.01 · 11757) = 0.062581…
  EXPECT_NEAR(MappingEpsilon(options, 0.004, 10, 3), 20 / (std::exp(1.0) * 117.57), 1e-15);
  EXPECT_NEAR(MappingEpsilon(options, 0.004, 10, 3), 0.0625812, 1e-6);
  // A large table needs less than the reserve: the reserve stays.
  options.rows_estimate = 1e9;
  EXPECT_EQ(MappingEpsilon(options, 0.004, 10, 3), 0.004);
  // A cap at or below the reserve: off.
  options.rows_estimate = 11757;
  options.max_mapping_epsilon = 0.004;
  EXPECT_EQ(MappingEpsilon(options, 0.004, 26, 4), 0.004);
  // q enters as 1/q.
  options.max_mapping_epsilon = 10;
  options.mapping_inconsistency = 0.05;
  EXPECT_NEAR(MappingEpsilon(options, 0.004, 10, 3), 0.0625812 / 5, 1e-6);
}

// A fine parent (64 codes of ~310 rows each), its 3-value band, and an unrelated column: as
// COMPAS' age bins and age_cat.
Code Band(Code a) { return static_cast<Code>(a < 20 ? 0 : a < 44 ? 1 : 2); }
EncodedTable FineBandTable(std::size_t rows, std::uint64_t seed) {
  SeededRng rng(seed);
  EncodedTable t;
  t.rows = rows;
  t.cardinalities = {64, 3, 4};
  t.columns.resize(3);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto a = static_cast<Code>(UniformBelow(rng, 64));
    t.columns[0].push_back(a);
    t.columns[1].push_back(Band(a));
    t.columns[2].push_back(static_cast<Code>(UniformBelow(rng, 4)));
  }
  return t;
}

// At ε = 0.03 for the search the selection finds the pair (T ≈ 1,190, exponent ≈ 6.5), but the
// reserve's mapping (ε_map = 0.004: weight e^1.25 ≈ 3.5 against 2 others at 1) maps about a
// third of the codes to the wrong band. The sized mapping (64·2/(e·0.01·20,000) = 0.235, capped
// at 0.05: e^15 against 2) maps every code exactly, and the ledger records its ε.
TEST(FindDependenciesTest, SizedMappingsMapAFineParentExactlyWhereTheReserveCannot) {
  const EncodedTable t = FineBandTable(20000, 11);
  const double sized_epsilon = 0.05;
  auto run = [&](bool sized) {
    auto accountant = PrivacyAccountant::Create({10.0, 1e-9});
    EXPECT_TRUE(accountant.has_value());
    DependencyOptions options;
    options.epsilon = 0.03;  // reserve 0.01 a round: 0.006 selection, 0.004 mapping
    if (sized) {
      options.rows_estimate = 20000;
      options.max_mapping_epsilon = 0.05;
    }
    SeededRng rng(4);
    NullProgress progress;
    auto result = FindDependencies(t, options, *accountant, "all", rng, progress);
    EXPECT_TRUE(result.has_value());
    EXPECT_EQ(result->found.size(), 1u);
    std::size_t wrong = 0;
    for (const Dependency& d : result->found) {
      EXPECT_EQ(d.parent, 0);
      EXPECT_EQ(d.child, 1);
      for (std::uint32_t a = 0; a < d.mapping.size(); ++a) {
        wrong += d.mapping[a] != Band(static_cast<Code>(a)) ? 1 : 0;
      }
    }
    std::size_t mappings = 0;
    for (const LedgerEntry& e : accountant->entries()) {
      if (e.label.rfind("mapping", 0) != 0) continue;
      ++mappings;
      EXPECT_NEAR(e.epsilon_each, sized ? sized_epsilon : 0.004, 1e-12) << e.label;
    }
    EXPECT_EQ(mappings, result->found.size());
    EXPECT_NEAR(accountant->Total().epsilon, result->spent, 1e-12);
    // Selections (≤ 3 × 0.006) plus the one mapping.
    EXPECT_LE(result->spent, 3 * 0.006 + (sized ? sized_epsilon : 0.004) + 1e-12);
    return wrong;
  };
  EXPECT_EQ(run(true), 0u);
  const std::size_t wrong_reserve = run(false);
  EXPECT_GE(wrong_reserve, 10u);  // about 23 of 64 expected
  EXPECT_LE(wrong_reserve, 40u);
}

TEST(LearnIndependentTest, DerivedColumnsStayConsistentWhenSampled) {
  const EncodedTable t = TiedTable(20000, 5);
  auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
  ASSERT_TRUE(accountant.has_value());
  IndependentOptions options;
  options.epsilon = 1.0;
  options.dependency_fraction = 0.3;
  SeededRng rng(6);
  NullProgress progress;
  auto net = LearnIndependent(t, options, *accountant, "all", rng, progress);
  ASSERT_TRUE(net.has_value()) << net.error().message;
  EXPECT_EQ(net->Validate(t.cardinalities), "");
  EXPECT_LE(accountant->Total().epsilon, 1.0);
  auto sample = SampleNetwork(net.value(), t.cardinalities, 5000, rng, progress);
  ASSERT_TRUE(sample.has_value());
  std::size_t consistent = 0;
  for (std::size_t r = 0; r < sample->rows; ++r) {
    const Code score = sample->columns[2][r];
    consistent += sample->columns[3][r] == (score < 4 ? 0 : score < 8 ? 1 : 2) ? 1 : 0;
  }
  EXPECT_EQ(consistent, sample->rows);  // a deterministic node: every row consistent
}

// With a row count, a found pair's mapping is sized, and capped at one histogram's even share
// of what the search leaves ((1 − 0.03)·1/3 = 0.3233): the derived column's histogram pays for
// it, so each of the two histograms still gets at least that share, and the whole stays within
// ε. At n̂ = 20,000 the size is 64·2/(e·0.01·20,000) = 0.2354; a (public) count of 1,000 asks
// 4.71 and gets the cap.
TEST(LearnIndependentTest, ARowCountSizesTheMappingWithinOneHistogramsShare) {
  const EncodedTable t = FineBandTable(20000, 12);
  for (double rows : {20000.0, 1000.0}) {
    auto accountant = PrivacyAccountant::Create({1.0, 1e-9});
    ASSERT_TRUE(accountant.has_value());
    IndependentOptions options;
    options.epsilon = 1.0;
    options.dependency_fraction = 0.03;
    options.public_rows = rows;
    SeededRng rng(6);
    NullProgress progress;
    auto net = LearnIndependent(t, options, *accountant, "all", rng, progress);
    ASSERT_TRUE(net.has_value()) << net.error().message;
    const double cap = 0.97 / 3;
    std::size_t mappings = 0, histograms = 0;
    for (const LedgerEntry& e : accountant->entries()) {
      if (e.label.rfind("mapping", 0) == 0) {
        ++mappings;
        EXPECT_NEAR(e.epsilon_each, rows == 1000 ? cap : 128 / (std::exp(1.0) * 0.01 * rows), 1e-12)
            << e.label;
      } else if (e.label.rfind("histogram", 0) == 0) {
        ++histograms;
        EXPECT_GE(e.epsilon_each, cap - 1e-12) << e.label;
      }
    }
    EXPECT_EQ(mappings, 1u);
    EXPECT_EQ(histograms, 2u);
    EXPECT_LE(accountant->Total().epsilon, 1.0 + 1e-12);
    EXPECT_GE(accountant->Total().epsilon, 1.0 - 1e-9);  // what the search leaves is spent
    // The derived band is exact in every sampled row.
    auto sample = SampleNetwork(net.value(), t.cardinalities, 2000, rng, progress);
    ASSERT_TRUE(sample.has_value());
    for (std::size_t r = 0; r < sample->rows; ++r) {
      ASSERT_EQ(sample->columns[1][r], Band(sample->columns[0][r])) << r;
    }
  }
}

// Counts an earlier step released (a histogram's second pass) join an attribute's noisy
// histogram by inverse variance: a prior of exact counts at a tiny variance gives the exact
// proportions, where the histogram's own noise (scale 4 at ε = 0.25 over one attribute of 300
// rows) leaves them off; a code whose prior variance is 0 keeps its own count.
TEST(LearnIndependentTest, PriorCountsJoinTheHistogramByInverseVariance) {
  EncodedTable t;
  t.rows = 300;
  t.cardinalities = {3};
  t.columns.assign(1, std::vector<Code>(t.rows));
  for (std::size_t r = 0; r < t.rows; ++r) {
    t.columns[0][r] = static_cast<Code>(r < 150 ? 0 : r < 250 ? 1 : 2);
  }
  auto fit = [&](bool with_prior) {
    auto accountant = PrivacyAccountant::Create({0.25, 0});
    EXPECT_TRUE(accountant.has_value());
    IndependentOptions options;
    options.epsilon = 0.25;
    if (with_prior) {
      options.prior_counts = {{150, 100, 50}};
      options.prior_variances = {{1e-9, 1e-9, 0}};
    }
    SeededRng rng(8);
    NullProgress progress;
    auto net = LearnIndependent(t, options, *accountant, "all", rng, progress);
    EXPECT_TRUE(net.has_value()) << net.error().message;
    return net->nodes.at(0).probabilities;
  };
  const std::vector<double> with = fit(true), without = fit(false);
  // Codes 0 and 1 hold exactly 150 and 100; code 2 (prior variance 0) keeps the histogram's
  // own noisy count, an integer (discrete Laplace), whatever the prior says.
  const double total_with = 250 / (with[0] + with[1]);
  EXPECT_NEAR(with[0] * total_with, 150, 1e-9);
  EXPECT_NEAR(with[1] * total_with, 100, 1e-9);
  const double own_two = with[2] * total_with;
  EXPECT_NEAR(own_two, std::round(own_two), 1e-6);
  // Without the prior the proportions of codes 0 and 1 are off by the noise.
  EXPECT_GT(std::fabs(without[0] / without[1] - 1.5), 0.01);
}

}  // namespace
}  // namespace deniable
