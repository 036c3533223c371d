// SPDX-License-Identifier: Apache-2.0
// Geo pair detection on the shared datasets: mplsstops' lat/long is proposed, no other table's
// columns are (adult's "relationship" holds the letters "lat" but not the word).
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/schema/geo_pairs.h"
#include "engine/schema/infer_schema.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

Schema InferFile(const std::string& path) {
  NullProgress progress;
  auto table = ReadCsv(path, CsvReadOptions{}, progress);
  EXPECT_TRUE(table.has_value()) << table.error().message;
  return table.has_value() ? InferSchema(*table, InferOptions{}) : Schema{};
}

TEST(GeoPairsE2eTest, MplsstopsLatLongIsProposed) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const Schema schema = InferFile(path);
  const int lat = schema.ColumnIndex("lat");
  const int lon = schema.ColumnIndex("long");
  ASSERT_GE(lat, 0);
  ASSERT_GE(lon, 0);
  EXPECT_EQ(schema.columns[static_cast<std::size_t>(lat)].geo_longitude, "long");
  EXPECT_EQ(GeoPairs(schema), (std::vector<GeoPair>{{static_cast<std::size_t>(lat),
                                                     static_cast<std::size_t>(lon)}}));
}

TEST(GeoPairsE2eTest, NoOtherSharedTableHasAPair) {
  const std::filesystem::path folder = test_support::SharedDataPath("");
  if (!std::filesystem::exists(folder / "adult.csv")) {
    GTEST_SKIP() << "shared datasets absent (" << folder << "); skipped";
  }
  int tables = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".csv" || entry.path().filename() == "mplsstops.csv") continue;
    if (std::filesystem::file_size(entry.path()) > 50'000'000) continue;  // the scale file
    SCOPED_TRACE(entry.path().string());
    const Schema schema = InferFile(entry.path().string());
    EXPECT_TRUE(GeoPairs(schema).empty());
    for (const ColumnSchema& column : schema.columns) EXPECT_EQ(column.geo_longitude, "");
    ++tables;
  }
  EXPECT_GT(tables, 5);
}

}  // namespace
}  // namespace deniable
