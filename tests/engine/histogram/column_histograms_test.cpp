// SPDX-License-Identifier: Apache-2.0
// The column-level entry points on small synthetic columns (fixed seeds).
#include "engine/histogram/column_histograms.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/schema/datetime.h"

namespace deniable {
namespace {

PrivacyAccountant Accountant(double epsilon = 100) {
  return PrivacyAccountant::Create({epsilon, 0.0}).value();
}

double Instant(const char* text) { return *ParseDateTime(text, "%Y-%m-%d %H:%M:%S"); }

TEST(NumericHistogramTest, IsolatesASpikeAndKeepsBinsContiguous) {
  std::vector<double> values(10000, 0.0);
  for (int i = 0; i < 500; ++i) values.push_back(1000 + 2 * i);
  SeededRng rng(1);
  NullProgress progress;
  auto accountant = Accountant(1.5);
  NumericHistogramOptions options;
  options.histogram.adaptive.epsilon = 0.5;
  options.histogram.counts_epsilon = 0.5;
  auto h = LearnNumericHistogram(values, options, accountant, "gain", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  EXPECT_EQ(accountant.Total().epsilon, 1.5);
  EXPECT_EQ(h->summary.epsilon_spent, 1.5);
  const NumericBin& zero = h->bins[h->BinOf(0.0)];
  EXPECT_EQ(zero.first, 0.0);
  EXPECT_EQ(zero.last, 0.0);
  EXPECT_EQ(zero.points, 1.0);
  EXPECT_NEAR(static_cast<double>(zero.noisy_count), 10000, 40);  // scale 2: 40 is 20 scales
  for (std::size_t i = 0; i + 1 < h->bins.size(); ++i) {
    EXPECT_EQ(h->bins[i].last + 1, h->bins[i + 1].first);  // integers: no gap, no overlap
    EXPECT_EQ(h->bins[i].right, h->bins[i + 1].first);
  }
  EXPECT_EQ(h->bins.front().first, -(std::pow(2.0, 53) - 1));
  EXPECT_EQ(h->bins.back().last, std::pow(2.0, 53) - 1);
  // BinOf agrees with the bins, and Draw stays inside them.
  for (double x : {-5.0, 1.0, 999.0, 1000.0, 1500.0, 1998.0, 1e9}) {
    const NumericBin& bin = h->bins[h->BinOf(x)];
    EXPECT_LE(bin.first, x);
    EXPECT_GE(bin.last, x);
    const double y = h->Draw(h->BinOf(x), rng);
    EXPECT_LE(bin.first, y);
    EXPECT_GE(bin.last, y);
    EXPECT_EQ(y, std::floor(y));
  }
}

// The magnitude groups' counts (model/domains.cpp): one zCDP entry of ρ, then every count plus
// discrete Gaussian noise of σ² = 1/(2ρ) = 4. Over 4,000 cells (seed 7) the noise's mean is
// within 4 standard errors (4·2/√4000 = 0.13) of 0 and its variance within 10% of 4 (the
// sample variance's standard error is 4·√(2/3999) = 0.09).
TEST(NoisyGaussianHistogramTest, OneZcdpEntryAndNoiseOfTheStatedVariance) {
  auto accountant = PrivacyAccountant::Create({10.0, 1e-6}).value();
  ASSERT_TRUE(accountant.SetZcdpDelta(1e-6).has_value());
  SeededRng rng(7);
  const std::vector<std::uint64_t> counts(4000, 50);
  auto noisy = NoisyGaussianHistogram(counts, 0.125, accountant, "magnitude groups of x", "all",
                                      rng);
  ASSERT_TRUE(noisy.has_value()) << noisy.error().message;
  ASSERT_EQ(noisy->size(), counts.size());
  ASSERT_EQ(accountant.entries().size(), 1u);
  EXPECT_EQ(accountant.entries()[0].label, "magnitude groups of x");
  EXPECT_EQ(accountant.entries()[0].rho_each, 0.125);
  EXPECT_NEAR(accountant.RhoOf("all"), 0.125, 1e-15);
  double sum = 0, squares = 0;
  for (const std::int64_t v : *noisy) {
    sum += static_cast<double>(v - 50);
    squares += static_cast<double>((v - 50) * (v - 50));
  }
  const double mean = sum / 4000;
  EXPECT_NEAR(mean, 0, 0.13);
  EXPECT_NEAR((squares - 4000 * mean * mean) / 3999, 4.0, 0.4);
  // A refused spend draws nothing and releases nothing.
  auto poor = PrivacyAccountant::Create({0.01, 1e-6}).value();
  ASSERT_TRUE(poor.SetZcdpDelta(1e-6).has_value());
  EXPECT_FALSE(NoisyGaussianHistogram(counts, 5.0, poor, "g", "all", rng).has_value());
  EXPECT_TRUE(poor.entries().empty());
}

TEST(NumericHistogramTest, FloatsWithDecimalsAndBounds) {
  std::vector<double> values;
  for (int i = 0; i < 4000; ++i) values.push_back(0.5 + 0.01 * (i % 7));
  SeededRng rng(2);
  NullProgress progress;
  auto accountant = Accountant();
  NumericHistogramOptions options;
  options.domain = {.decimals = 2, .lo = 0.0, .hi = 10.0};
  options.histogram.adaptive.epsilon = 1.0;
  auto h = LearnNumericHistogram(values, options, accountant, "kappa", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  EXPECT_DOUBLE_EQ(h->step(), 0.01);
  // Each of the 7 values (~571 records) is its own one-point bin.
  for (int v = 0; v < 7; ++v) {
    const NumericBin& bin = h->bins[h->BinOf(0.5 + 0.01 * v)];
    EXPECT_EQ(bin.points, 1.0) << v;
    EXPECT_DOUBLE_EQ(bin.first, 0.5 + 0.01 * v);
  }
  EXPECT_EQ(h->bins.front().first, 0.0);
  EXPECT_EQ(h->bins.back().last, 10.0);
}

TEST(NumericHistogramTest, ContinuousValuesAndErrors) {
  std::vector<double> values;
  for (int i = 0; i < 3000; ++i) values.push_back(std::sin(i) * 100);
  SeededRng rng(3);
  NullProgress progress;
  auto accountant = Accountant();
  NumericHistogramOptions options;
  options.domain.lattice = LatticeKind::kContinuous;
  auto h = LearnNumericHistogram(values, options, accountant, "x", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  for (std::size_t i = 0; i + 1 < h->bins.size(); ++i) {
    EXPECT_EQ(h->bins[i].right, h->bins[i + 1].first);
  }
  values.push_back(std::nan(""));
  auto bad = LearnNumericHistogram(values, options, accountant, "x", "all", rng, progress);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message.rfind("x: value 3000 is nan", 0), 0u) << bad.error().message;
}

TEST(NumericHistogramTest, DirectAlgorithmAllocatesTheTotal) {
  std::vector<double> values;
  for (int i = 0; i < 2000; ++i) values.push_back(i % 50);
  SeededRng rng(4);
  NullProgress progress;
  auto accountant = Accountant();
  NumericHistogramOptions options;
  options.domain = {.lo = 0.0, .hi = 63.0};
  options.histogram.algorithm = HistogramAlgorithm::kDirect;
  auto missing_total = LearnNumericHistogram(values, options, accountant, "x", "all", rng,
                                             progress);
  EXPECT_FALSE(missing_total.has_value());
  options.histogram.direct_total = 2013;
  auto h = LearnNumericHistogram(values, options, accountant, "x", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  EXPECT_FALSE(h->summary.covers_domain);
  std::int64_t sum = 0;
  for (const NumericBin& bin : h->bins) sum += bin.noisy_count;
  EXPECT_EQ(sum, 2013);
  EXPECT_EQ(h->summary.epsilon_spent, 1.0);
}

TEST(DateTimeHistogramTest, CalendarBinsAreCalendarUnits) {
  std::vector<double> values;
  for (int i = 0; i < 6000; ++i) {
    values.push_back(Instant("2017-03-01 00:00:00") + 86400.0 * (i % 30) + 3600.0 * (i % 24) +
                     61.0 * (i % 5));
  }
  SeededRng rng(5);
  NullProgress progress;
  auto accountant = Accountant();
  DateTimeHistogramOptions options;
  options.resolution_seconds = 60;
  options.histogram.adaptive.epsilon = 1.0;
  auto h = LearnDateTimeHistogram(values, options, accountant, "date", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  EXPECT_EQ(h->bins.front().first, static_cast<std::int64_t>(Instant("1900-01-01 00:00:00")));
  EXPECT_EQ(h->bins.back().last, static_cast<std::int64_t>(Instant("2099-12-31 23:59:00")));
  // 2017 and March 2017 are split; the year 2018 is one bin.
  const DateTimeBin& year = h->bins[h->BinOf(Instant("2018-06-01 00:00:00"))];
  EXPECT_EQ(year.label, "2018");
  const DateTimeBin& march = h->bins[h->BinOf(Instant("2017-03-05 05:00:00"))];
  EXPECT_EQ(march.label.substr(0, 10), "2017-03-05");
  for (std::size_t i = 0; i + 1 < h->bins.size(); ++i) {
    ASSERT_EQ(h->bins[i].last + 60, h->bins[i + 1].first);
  }
  for (int i = 0; i < 100; ++i) {
    const std::int64_t t = h->Draw(h->BinOf(values[static_cast<std::size_t>(i)]), rng);
    EXPECT_EQ(t % 60, 0);
    std::string text;
    FormatDateTime(static_cast<double>(t), "%Y-%m-%d %H:%M:%S", text);
    EXPECT_EQ(text.substr(0, 8), "2017-03-") << text;
  }
}

TEST(DateTimeHistogramTest, BinaryBinsOnTheDayGrid) {
  std::vector<double> values;
  for (int i = 0; i < 3000; ++i) values.push_back(Instant("2001-09-09 01:46:40") + 86400.0 * (i % 9));
  SeededRng rng(6);
  NullProgress progress;
  auto accountant = Accountant();
  DateTimeHistogramOptions options;
  options.split = DateTimeSplit::kBinary;
  options.resolution_seconds = 86400;
  auto h = LearnDateTimeHistogram(values, options, accountant, "date", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  for (const DateTimeBin& bin : h->bins) {
    EXPECT_EQ(bin.first % 86400, 0);  // midnights
    EXPECT_EQ(bin.last, bin.first + (bin.points - 1) * 86400);
  }
  const DateTimeBin& day = h->bins[h->BinOf(values[3])];
  EXPECT_EQ(day.points, 1);  // 333 records on that day: its own bin
  EXPECT_EQ(day.first, static_cast<std::int64_t>(Instant("2001-09-12 00:00:00")));
}

TEST(GeoHistogramTest, ResolvesDenseSpotsFinely) {
  std::vector<GeoPoint> points;
  SeededRng data_rng(7);
  for (int i = 0; i < 5000; ++i) {
    const double dlat = static_cast<double>(UniformBelow(data_rng, 100)) * 1e-4;
    const double dlon = static_cast<double>(UniformBelow(data_rng, 100)) * 1e-4;
    points.push_back(i % 2 ? GeoPoint{44.97 + dlat, -93.26 + dlon} : GeoPoint{48.85, 2.35});
  }
  SeededRng rng(8);
  NullProgress progress;
  auto accountant = Accountant();
  GeoHistogramOptions options;
  options.resolution_degrees = 1e-4;
  auto h = LearnGeoHistogram(points, options, accountant, "stops", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  const GeoCell& paris = h->cells[h->BinOf({48.85, 2.35})];
  EXPECT_EQ(paris.points, 1.0);  // 2,500 records at one lattice point
  EXPECT_NEAR(paris.first.lat, 48.85, 1e-9);
  const GeoCell& city = h->cells[h->BinOf({44.975, -93.255})];
  EXPECT_LT(city.last.lat - city.first.lat, 0.01);
  for (int i = 0; i < 50; ++i) {
    const GeoPoint p = h->Draw(h->BinOf(points[1]), rng);
    EXPECT_GE(p.lat, city.first.lat - 0.02);
  }
  double mass = 0;
  for (const GeoCell& cell : h->cells) mass += static_cast<double>(cell.noisy_count);
  EXPECT_NEAR(mass, 5000, 5 * std::sqrt(static_cast<double>(h->cells.size())) * 2 + 50);
}

TEST(StringHistogramTest, FrequentStringsSurviveVerbatimRareOnesVanish) {
  std::vector<std::string> texts;
  texts.insert(texts.end(), 1000, "Downtown West");
  texts.insert(texts.end(), 500, "Whittier");
  texts.insert(texts.end(), 300, "Cedar Riverside");
  // Rare strings of three digits: none is a prefix of another (see the last check for why).
  auto rare = [](int i) {
    std::string digits = std::to_string(i);
    return "rare-" + std::string(3 - digits.size(), '0') + digits;
  };
  for (int i = 0; i < 200; ++i) texts.push_back(rare(i));
  texts.push_back("Whittier Park");
  SeededRng rng(9);
  NullProgress progress;
  auto accountant = Accountant();
  StringHistogramOptions options;
  options.histogram.adaptive.epsilon = 1.0;
  options.histogram.counts_epsilon = 1.0;
  auto h = LearnStringHistogram(texts, options, accountant, "neighborhood", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  std::map<std::string, std::int64_t> verbatim;
  for (const StringBin& bin : h->bins) {
    if (bin.verbatim) verbatim[bin.text] = bin.noisy_count;
  }
  ASSERT_TRUE(verbatim.count("Downtown West"));
  ASSERT_TRUE(verbatim.count("Whittier"));
  ASSERT_TRUE(verbatim.count("Cedar Riverside"));
  EXPECT_NEAR(static_cast<double>(verbatim["Downtown West"]), 1000, 20);
  for (int i = 0; i < 200; ++i) EXPECT_FALSE(verbatim.count(rare(i))) << i;
  EXPECT_EQ(h->bins[h->BinOf("Whittier")].text, "Whittier");
  EXPECT_FALSE(h->bins[h->BinOf(rare(17))].verbatim);
  EXPECT_EQ(h->bins[h->BinOf(rare(17))].text.substr(0, 5), "rare-");
  // The one "Whittier Park" is not released: it sits in a prefix region below the split node
  // "Whittier", whose end-of-string child is the verbatim bin "Whittier". (Conversely, a split
  // node's end-of-string child is a verbatim bin even when the exact string is rare: the
  // partition exists whatever the data, and only its noisy count tells how many hold it.)
  EXPECT_FALSE(verbatim.count("Whittier Park"));
  EXPECT_FALSE(h->bins[h->BinOf("Whittier Park")].verbatim);
  // With the floor, the synthesizable strings are exactly the three frequent ones.
  const std::int64_t floor = CountFloor(h->bins.size(), options.histogram.counts_epsilon);
  EXPECT_EQ(floor, static_cast<std::int64_t>(std::ceil(std::log(h->bins.size()))));  // s = 1
  std::vector<std::string> kept;
  for (const StringBin& bin : h->VerbatimStrings(floor)) kept.push_back(bin.text);
  EXPECT_EQ(kept, (std::vector<std::string>{"Cedar Riverside", "Downtown West", "Whittier"}));
}

}  // namespace
}  // namespace deniable
