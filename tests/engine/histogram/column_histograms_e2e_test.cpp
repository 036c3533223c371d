// SPDX-License-Identifier: Apache-2.0
// The column histograms on the real datasets (../shared/data; skipped when absent): adult's
// capital-gain spike and age tail, mplsstops' coordinates (quadtree) and dates (calendar).
// Every run uses the improved algorithm with adaptive ε = 0.5 (spends 1) and counts ε = 0.5
// (discrete Laplace scale 2): a count's noise exceeds 20 in absolute value with probability
// 2e^{-10.5}/(1 + e^{-0.5}) ≈ 3.4e-5, the bound the checks below use per bin.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "engine/histogram/column_histograms.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/datetime.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

constexpr double kNoiseBound = 20;

std::vector<std::string> TextColumn(const RawTable& table, const std::string& name) {
  const int index = table.ColumnIndex(name);
  EXPECT_GE(index, 0) << name;
  std::vector<std::string> out;
  if (index < 0) return out;
  const RawColumn& column = table.columns[static_cast<std::size_t>(index)];
  for (std::uint32_t code : column.codes) {
    if (code != kMissingCode) out.push_back(column.dictionary[code]);
  }
  return out;
}

std::vector<double> NumberColumn(const RawTable& table, const std::string& name) {
  std::vector<double> out;
  for (const std::string& text : TextColumn(table, name)) out.push_back(std::strtod(text.c_str(), nullptr));
  return out;
}

RawTable Read(const std::string& path) {
  NullProgress progress;
  auto table = ReadCsv(path, CsvReadOptions{}, progress);
  EXPECT_TRUE(table.has_value());
  return std::move(table).value();
}

HistogramOptions Improved() {
  HistogramOptions options;
  options.adaptive.epsilon = 0.5;
  options.counts_epsilon = 0.5;
  return options;
}

TEST(ColumnHistogramsE2eTest, AdultCapitalGainZeroSpikeIsOneBin) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const std::vector<double> gain = NumberColumn(Read(path), "capital-gain");
  double zeros = 0;
  for (double x : gain) zeros += x == 0 ? 1 : 0;
  SeededRng rng(1);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.5, 0.0}).value();
  NumericHistogramOptions options;  // integers, no public bounds: the coarse range
  options.histogram = Improved();
  auto h = LearnNumericHistogram(gain, options, accountant, "capital-gain", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  EXPECT_EQ(accountant.Total().epsilon, 1.5);
  const NumericBin& zero = h->bins[h->BinOf(0)];
  EXPECT_EQ(zero.first, 0);
  EXPECT_EQ(zero.points, 1);
  EXPECT_NEAR(static_cast<double>(zero.noisy_count), zeros, kNoiseBound);
  // The smallest positive gain is 114: bins inside [1, 113] hold nothing but noise.
  int inside = 0;
  for (const NumericBin& bin : h->bins) {
    if (bin.first >= 1 && bin.last <= 113) {
      ++inside;
      EXPECT_LE(std::abs(bin.noisy_count), kNoiseBound) << bin.first << ".." << bin.last;
    }
  }
  EXPECT_GE(inside, 3);
  // The 244 records at 99999 are their own bin; the sparse tail shares coarser bins.
  EXPECT_EQ(h->bins[h->BinOf(99999)].points, 1);
  EXPECT_GT(h->bins[h->BinOf(41310)].points, 1);  // 3 records
  EXPECT_FALSE(h->summary.truncated);
}

TEST(ColumnHistogramsE2eTest, AdultAgeHasNoCutAtSixty) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const std::vector<double> age = NumberColumn(Read(path), "age");
  std::map<int, double> truth;
  for (double x : age) truth[static_cast<int>(x)] += 1;
  SeededRng rng(2);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.5, 0.0}).value();
  NumericHistogramOptions options;
  options.histogram = Improved();
  auto h = LearnNumericHistogram(age, options, accountant, "age", "all", rng, progress);
  ASSERT_TRUE(h.has_value());
  // b = 2, t = 4, at most 8 binary levels below the magnitude bucket: an age held by >= 60
  // records keeps >= 28 alive along its path and gets its own bin, above 60 as below.
  for (const auto& [value, count] : truth) {
    if (count < 60) continue;
    const NumericBin& bin = h->bins[h->BinOf(value)];
    EXPECT_EQ(bin.points, 1) << "age " << value << " (" << count << " records)";
    EXPECT_NEAR(static_cast<double>(bin.noisy_count), count, kNoiseBound) << "age " << value;
  }
  // The mass above 60 is where it belongs.
  double above_truth = 0, above = 0;
  int bins_above = 0;
  for (const auto& [value, count] : truth) above_truth += value > 60 ? count : 0;
  for (const NumericBin& bin : h->bins) {
    if (bin.first > 60 && bin.last <= 1000) {
      above += static_cast<double>(bin.noisy_count);
      ++bins_above;
    }
  }
  EXPECT_NEAR(above, above_truth, kNoiseBound * std::sqrt(bins_above) + 10);
}

TEST(ColumnHistogramsE2eTest, MplsStopsCoordinatesQuadtree) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const RawTable table = Read(path);
  const std::vector<double> lat = NumberColumn(table, "lat");
  const std::vector<double> lon = NumberColumn(table, "long");
  ASSERT_EQ(lat.size(), lon.size());
  std::vector<GeoPoint> points;
  for (std::size_t i = 0; i < lat.size(); ++i) points.push_back({lat[i], lon[i]});
  SeededRng rng(3);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.5, 0.0}).value();
  GeoHistogramOptions options;  // the whole globe, 1e-5 degrees
  options.histogram = Improved();
  auto h = LearnGeoHistogram(points, options, accountant, "stops", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  double positive = 0, in_city = 0, total = 0;
  for (const GeoCell& cell : h->cells) {
    total += static_cast<double>(cell.noisy_count);
    if (cell.noisy_count <= 0) continue;
    positive += static_cast<double>(cell.noisy_count);
    const bool city = cell.first.lat >= 44.85 && cell.last.lat <= 45.10 &&
                      cell.first.lon >= -93.40 && cell.last.lon <= -93.15;
    in_city += city ? static_cast<double>(cell.noisy_count) : 0;
  }
  EXPECT_NEAR(total, static_cast<double>(points.size()),
              kNoiseBound * std::sqrt(static_cast<double>(h->cells.size())));
  EXPECT_GT(in_city / positive, 0.95);
  // Downtown is resolved finely: the bin of a downtown stop is smaller than ~1 km.
  const GeoCell& downtown = h->cells[h->BinOf({44.98045, -93.27134})];
  EXPECT_LT(downtown.last.lat - downtown.first.lat, 0.01);
  EXPECT_LT(downtown.last.lon - downtown.first.lon, 0.01);
  for (int i = 0; i < 100; ++i) {
    const GeoPoint p = h->Draw(h->BinOf(points[static_cast<std::size_t>(i) * 97]), rng);
    EXPECT_TRUE(p.lat >= -90 && p.lat <= 90 && p.lon >= -180 && p.lon <= 180);
  }
}

TEST(ColumnHistogramsE2eTest, MplsStopsDatesCalendar) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  std::vector<double> seconds;
  for (const std::string& text : TextColumn(Read(path), "date")) {
    const auto t = ParseDateTime(text, "%Y-%m-%d %H:%M:%S");
    ASSERT_TRUE(t.has_value()) << text;
    seconds.push_back(*t);
  }
  SeededRng rng(4);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.5, 0.0}).value();
  DateTimeHistogramOptions options;  // calendar, 1900..2099
  options.resolution_seconds = 60;
  options.histogram = Improved();
  auto h = LearnDateTimeHistogram(seconds, options, accountant, "date", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  const auto start_2017 = static_cast<std::int64_t>(*ParseDateTime("2017-01-01", "%Y-%m-%d"));
  const auto start_2018 = static_cast<std::int64_t>(*ParseDateTime("2018-01-01", "%Y-%m-%d"));
  double in_2017 = 0, outside_positive = 0;
  int bins_2017 = 0;
  for (const DateTimeBin& bin : h->bins) {
    if (bin.first >= start_2017 && bin.last < start_2018) {
      in_2017 += static_cast<double>(bin.noisy_count);
      ++bins_2017;
    } else {
      outside_positive += std::max<double>(0, static_cast<double>(bin.noisy_count));
    }
  }
  EXPECT_NEAR(in_2017, static_cast<double>(seconds.size()), kNoiseBound * std::sqrt(bins_2017));
  EXPECT_LT(outside_positive / static_cast<double>(seconds.size()), 0.01);
  // 2017 is refined at least to days (about 140 stops a day), other years stay whole.
  EXPECT_GE(bins_2017, 365);
  EXPECT_EQ(h->bins[h->BinOf(*ParseDateTime("1950-06-01", "%Y-%m-%d"))].label, "1950");
  EXPECT_EQ(h->bins[h->BinOf(*ParseDateTime("2017-06-15 12:00:00", "%Y-%m-%d %H:%M:%S"))]
                .label.substr(0, 10),
            "2017-06-15");
  for (int i = 0; i < 200; ++i) {
    const std::int64_t t = h->Draw(h->BinOf(seconds[static_cast<std::size_t>(i) * 211]), rng);
    EXPECT_EQ(t % 60, 0);
    std::string text;
    FormatDateTime(static_cast<double>(t), "%Y-%m-%d %H:%M:%S", text);
    EXPECT_TRUE(ParseDateTime(text, "%Y-%m-%d %H:%M:%S").has_value()) << text;
    EXPECT_EQ(text.substr(0, 4), "2017");
  }
}

TEST(ColumnHistogramsE2eTest, MplsStopsNeighborhoodsSurviveVerbatim) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const std::vector<std::string> texts = TextColumn(Read(path), "neighborhood");
  std::map<std::string, double> truth;
  for (const std::string& t : texts) truth[t] += 1;
  SeededRng rng(5);
  NullProgress progress;
  auto accountant = PrivacyAccountant::Create({1.5, 0.0}).value();
  StringHistogramOptions options;
  options.histogram = Improved();
  auto h = LearnStringHistogram(texts, options, accountant, "neighborhood", "all", rng, progress);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  // b = ⌈ln 180/0.5⌉ = 11, t = 13; names are at most ~30 bytes: >= 13·31 + 11 ~ 420 records
  // always survive; in practice far fewer suffice because siblings share the discounts.
  for (const auto& [name, count] : truth) {
    if (count < 420) continue;
    const StringBin& bin = h->bins[h->BinOf(name)];
    EXPECT_TRUE(bin.verbatim && bin.text == name) << name << " (" << count << ")";
    EXPECT_NEAR(static_cast<double>(bin.noisy_count), count, kNoiseBound) << name;
  }
}

}  // namespace
}  // namespace deniable
