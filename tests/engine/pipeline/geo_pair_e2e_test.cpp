// SPDX-License-Identifier: Apache-2.0
// mplsstops' lat/long as a geo pair (schema/geo_pairs.h, model/geo_regions.h), end to end at
// ε = 1 in the independent mode — the pair is then the only joint of the two columns —, against
// the same runs with the pair switched off ("geo": null: two numeric columns, each its own
// histogram). (The correlated and marginals modes model a pair as its two columns, their joint
// learnt by the model: ModelsGeoPairsJointly, measured there.) Seeds 1..3 (SeededRng: reproducible,
// the same as `--seed N`). Owner-side checks, reading the real data:
//  * at least 95% of the synthetic points lie inside the real points' bounding box (the
//    quadtree over the globe with its empty groups cut must not scatter points over the
//    planet);
//  * the 2-D distribution is closer to the real one: total variation distance on a fixed
//    16 × 16 grid over the real bounding box (points outside it count in full), averaged over
//    the three seeds;
//  * every written lat and long cell parses as a Float with at most the column's decimals.
// Measured when written (this machine, correlated mode): with the pair 0.156, 0.149, 0.168
// (mean 0.158), without 0.168, 0.196, 0.201 (mean 0.188); inside the box 97.5-98.2%. In the
// independent mode since stop 28: with the pair 0.159, 0.150, 0.165 (mean 0.158), without
// 0.273, 0.277, 0.274 (mean 0.275).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/io/csv_reader.h"
#include "engine/model/encoding.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/typed_values.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

constexpr int kGrid = 16;
constexpr std::uint64_t kSeeds = 3;
// The pair must lower the mean 16×16 TVD by at least this much: under half the gap measured
// in the independent mode (0.117); the runs' seed-to-seed spread (0.150 .. 0.165 with the
// pair) gives a three-seed mean a standard error of about 0.005, so a real gap of half the
// size clears it by far, and a pair no better than two independent columns would not.
constexpr double kMinTvdGain = 0.05;
constexpr double kMinInside = 0.95;

struct Points {
  std::vector<double> lat, lon;  // rows with both coordinates
};

Points PointsOf(const RawTable& table) {
  ColumnSchema number;
  number.type = DataType::kFloat;
  const std::vector<double> lat =
      NumericRowValues(table.columns[static_cast<std::size_t>(table.ColumnIndex("lat"))], number);
  const std::vector<double> lon =
      NumericRowValues(table.columns[static_cast<std::size_t>(table.ColumnIndex("long"))], number);
  Points out;
  for (std::size_t r = 0; r < lat.size(); ++r) {
    if (std::isnan(lat[r]) || std::isnan(lon[r])) continue;
    out.lat.push_back(lat[r]);
    out.lon.push_back(lon[r]);
  }
  return out;
}

struct Box {
  double lat_lo = HUGE_VAL, lat_hi = -HUGE_VAL, lon_lo = HUGE_VAL, lon_hi = -HUGE_VAL;
  bool Contains(double lat, double lon) const {
    return lat >= lat_lo && lat <= lat_hi && lon >= lon_lo && lon <= lon_hi;
  }
};

// Shares of the points in the grid's cells (points outside the box in none of them).
std::vector<double> GridShares(const Points& points, const Box& box) {
  std::vector<double> shares(kGrid * kGrid, 0.0);
  const double n = static_cast<double>(points.lat.size());
  for (std::size_t k = 0; k < points.lat.size(); ++k) {
    if (!box.Contains(points.lat[k], points.lon[k])) continue;
    const int i = std::min(kGrid - 1, static_cast<int>((points.lat[k] - box.lat_lo) /
                                                       (box.lat_hi - box.lat_lo) * kGrid));
    const int j = std::min(kGrid - 1, static_cast<int>((points.lon[k] - box.lon_lo) /
                                                       (box.lon_hi - box.lon_lo) * kGrid));
    shares[static_cast<std::size_t>(i * kGrid + j)] += 1 / n;
  }
  return shares;
}

struct RunFigures {
  double inside = 0;
  double tvd = 0;
  std::string bad_cells;  // lat/long cells that do not parse with the column's decimals
};

RunFigures Release(const LoadedInput& input, std::uint64_t seed, const Box& box,
               const std::vector<double>& real_shares, const std::string& path) {
  ModelSettings settings;
  settings.mode = SynthesisMode::kIndependent;
  settings.epsilon = 1.0;
  settings.threads = 1;
  SeededRng rng(seed);
  NullProgress progress;
  RunFigures out;
  auto model = LearnModel(*input.table, input.schema, settings, rng, progress);
  if (!model) {
    out.bad_cells = "learn: " + model.error().message;
    return out;
  }
  auto rows = Synthesize(*model, *input.table, input.table->num_rows(), rng, progress);
  if (!rows) {
    out.bad_cells = "synthesize: " + rows.error().message;
    return out;
  }
  const Schema& schema = model->description.schema;
  if (auto s = WriteSyntheticCsv(path, rows->encoded, schema, model->description.domains, {}, rng,
                                 progress);
      !s) {
    out.bad_cells = "write: " + s.error().message;
    return out;
  }
  auto written = ReadCsv(path, CsvReadOptions{}, progress);
  if (!written) {
    out.bad_cells = "read back: " + written.error().message;
    return out;
  }
  for (const char* name : {"lat", "long"}) {
    const ColumnSchema& column = schema.columns[static_cast<std::size_t>(schema.ColumnIndex(name))];
    const RawColumn& raw = written->columns[static_cast<std::size_t>(written->ColumnIndex(name))];
    for (const std::string& text : raw.dictionary) {
      if (!ParseNumericCell(text, column) ||
          ClassifyNumberText(text).PlainDecimals() > column.decimals) {
        out.bad_cells += std::string(name) + " '" + text + "' ";
      }
    }
  }
  const Points points = PointsOf(*written);
  std::size_t inside = 0;
  for (std::size_t k = 0; k < points.lat.size(); ++k) {
    inside += box.Contains(points.lat[k], points.lon[k]) ? 1 : 0;
  }
  out.inside = static_cast<double>(inside) / static_cast<double>(points.lat.size());
  const std::vector<double> shares = GridShares(points, box);
  double tvd = 1 - out.inside;  // mass outside the box counts in full
  for (std::size_t c = 0; c < shares.size(); ++c) tvd += std::fabs(shares[c] - real_shares[c]);
  out.tvd = tvd / 2;
  return out;
}

TEST(GeoPairE2eTest, MplsstopsPointsStayInTheCityAndFollowTheRealMapCloserThanTwoColumns) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  NullProgress progress;
  InputSettings paired;
  paired.path = path;
  auto with_pair = LoadInput(paired, progress);
  ASSERT_TRUE(with_pair.has_value()) << with_pair.error().message;
  const int lat = with_pair->schema.ColumnIndex("lat");
  ASSERT_GE(lat, 0);
  ASSERT_EQ(with_pair->schema.columns[static_cast<std::size_t>(lat)].geo_longitude, "long");
  InputSettings separate = paired;
  separate.schema = nlohmann::json::parse(R"({"columns": [{"name": "lat", "geo": null}]})");
  auto without_pair = LoadInput(separate, progress);
  ASSERT_TRUE(without_pair.has_value()) << without_pair.error().message;

  const Points real = PointsOf(*with_pair->table);
  Box box;
  for (std::size_t k = 0; k < real.lat.size(); ++k) {
    box.lat_lo = std::min(box.lat_lo, real.lat[k]);
    box.lat_hi = std::max(box.lat_hi, real.lat[k]);
    box.lon_lo = std::min(box.lon_lo, real.lon[k]);
    box.lon_hi = std::max(box.lon_hi, real.lon[k]);
  }
  const std::vector<double> real_shares = GridShares(real, box);
  const std::string dir = test_support::TempDir();
  double tvd_on = 0, tvd_off = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const RunFigures on = Release(*with_pair, seed, box, real_shares, dir + "/on.csv");
    const RunFigures off = Release(*without_pair, seed, box, real_shares, dir + "/off.csv");
    std::printf("seed %llu: with the pair inside %.4f, 16x16 TVD %.4f; without inside %.4f, "
                "TVD %.4f\n",
                static_cast<unsigned long long>(seed), on.inside, on.tvd, off.inside, off.tvd);
    EXPECT_EQ(on.bad_cells, "");
    EXPECT_EQ(off.bad_cells, "");
    EXPECT_GE(on.inside, kMinInside);
    tvd_on += on.tvd / kSeeds;
    tvd_off += off.tvd / kSeeds;
  }
  std::printf("mean 16x16 TVD: with the pair %.4f, without %.4f\n", tvd_on, tvd_off);
  EXPECT_LE(tvd_on, tvd_off - kMinTvdGain);
}

}  // namespace
}  // namespace deniable
