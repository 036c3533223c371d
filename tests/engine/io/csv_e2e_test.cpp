// SPDX-License-Identifier: Apache-2.0
// The shared real datasets (../shared/data, described in its README.md): shapes, missing
// cells, distinct counts and dialects as documented there, and a byte-for-byte round trip
// through WriteRawTable in the detected dialect.
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "engine/io/csv_reader.h"
#include "engine/io/csv_writer.h"
#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::ExpectConsistent;
using test_support::FileBytes;
using test_support::NamesOf;
using test_support::ReadOk;
using test_support::TempDir;

std::uint64_t MissingCells(const RawTable& table) {
  std::uint64_t missing = 0;
  for (const RawColumn& column : table.columns) missing += column.missing_count;
  return missing;
}

std::vector<std::size_t> DistinctCounts(const RawTable& table) {
  std::vector<std::size_t> distinct;
  for (const RawColumn& column : table.columns) distinct.push_back(column.distinct());
  return distinct;
}

void ExpectByteIdenticalRoundTrip(const std::string& path, const RawTable& table) {
  const std::string copy = TempDir() + "/copy.csv";
  NullProgress progress;
  const Status written = WriteRawTable(copy, table, WriteOptionsFor(table.dialect), progress);
  ASSERT_TRUE(written.has_value()) << written.error().message;
  EXPECT_TRUE(FileBytes(copy) == FileBytes(path)) << "round trip of " << path << " differs";
}

TEST(CsvE2eTest, Adult) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "adult.csv");
  const RawTable table = ReadOk(path);
  ASSERT_EQ(table.num_rows(), 48842u);
  ASSERT_EQ(table.num_columns(), 15u);
  EXPECT_EQ(MissingCells(table), 6465u);
  EXPECT_EQ(NamesOf(table)[4], "education-num");
  EXPECT_EQ(DistinctCounts(table),
            (std::vector<std::size_t>{74, 8, 28523, 16, 16, 7, 14, 6, 5, 2, 123, 99, 96, 41, 2}));
  EXPECT_EQ(table.columns[1].missing_count, 2799u);                                // workclass
  EXPECT_EQ(table.columns[6].missing_count, 2809u);                                // occupation
  EXPECT_EQ(table.columns[13].missing_count, 857u);                                // native-country
  EXPECT_EQ(table.columns[9].counts, (std::vector<std::uint64_t>{32650, 16192}));  // sex
  EXPECT_EQ(table.dialect.delimiter, ',');
  EXPECT_TRUE(table.dialect.quote_all_strings);  // written by R's write.csv
  EXPECT_FALSE(table.dialect.crlf);
  EXPECT_EQ(table.row_line.back(), 48843u);
  ExpectConsistent(table);
  ExpectByteIdenticalRoundTrip(path, table);
}

TEST(CsvE2eTest, MinneapolisStops) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "mplsstops.csv");
  const RawTable table = ReadOk(path);
  ASSERT_EQ(table.num_rows(), 51920u);
  ASSERT_EQ(table.num_columns(), 14u);
  EXPECT_EQ(MissingCells(table), 73976u);
  EXPECT_EQ(DistinctCounts(table),
            (std::vector<std::size_t>{51920, 51873, 2, 2, 2, 2, 2, 8, 8, 3, 8749, 9158, 5, 87}));
  EXPECT_EQ(table.columns[4].missing_count, 32810u);  // citationIssued
  EXPECT_TRUE(table.dialect.quote_all_strings);
  ExpectConsistent(table);
  ExpectByteIdenticalRoundTrip(path, table);
}

TEST(CsvE2eTest, FertilityIsUnquoted) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fertility.csv");
  const RawTable table = ReadOk(path);
  ASSERT_EQ(table.num_rows(), 254654u);
  ASSERT_EQ(table.num_columns(), 8u);
  EXPECT_EQ(MissingCells(table), 0u);
  EXPECT_EQ(DistinctCounts(table), (std::vector<std::size_t>{2, 2, 2, 15, 2, 2, 2, 53}));
  EXPECT_FALSE(table.dialect.quote_all_strings);
  ExpectConsistent(table);
  ExpectByteIdenticalRoundTrip(path, table);
}

// Reads a shared dataset and checks its documented shape, the invariants and the round trip.
void ExpectDataset(const std::string& name, std::size_t rows, std::size_t columns,
                   std::uint64_t missing) {
  SCOPED_TRACE(name);
  const std::string path = test_support::SharedDataPath(name);
  const RawTable table = ReadOk(path);
  EXPECT_EQ(table.num_rows(), rows);
  EXPECT_EQ(table.num_columns(), columns);
  EXPECT_EQ(MissingCells(table), missing);
  ExpectConsistent(table);
  ExpectByteIdenticalRoundTrip(path, table);
}

TEST(CsvE2eTest, FlchainAndPenguins) {
  DENIABLE_REQUIRE_SHARED_FILE(flchain_path, "flchain.csv");
  ExpectDataset("flchain.csv", 7874, 11, 7055);
  DENIABLE_REQUIRE_SHARED_FILE(penguins_path, "penguins.csv");
  ExpectDataset("penguins.csv", 344, 8, 19);
}

TEST(CsvE2eTest, ScaleFileWhenGenerated) {
  // The 1.5M-row benchmark file (python3 ../shared/data/make_scale.py /tmp/deniable-scale.csv);
  // parsed on two threads, so this checks the chunk merge at scale.
  const char* env = std::getenv("DENIABLE_SCALE_CSV");
  const std::string path = env != nullptr ? env : "/tmp/deniable-scale.csv";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent (see bench/README.md)";
  const RawTable table = ReadOk(path);
  ASSERT_EQ(table.num_rows(), 1500000u);
  ASSERT_EQ(table.num_columns(), 15u);
  EXPECT_FALSE(table.dialect.quote_all_strings);
  EXPECT_EQ(table.row_line.back(), 1500001u);
  ExpectConsistent(table);
  ExpectByteIdenticalRoundTrip(path, table);
}

}  // namespace
}  // namespace deniable
