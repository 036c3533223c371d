// SPDX-License-Identifier: Apache-2.0
// #12 item 4: a file larger than the memory available is refused up front, with a message that
// says how much it needs and how much there is.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string WriteCsv(const std::string& dir, std::size_t rows) {
  const std::string path = dir + "/people.csv";
  std::ofstream out(path);
  out << "age,city\n";
  for (std::size_t r = 0; r < rows; ++r) out << 20 + r % 50 << ",Lyon\n";
  return path;
}

TEST(CsvMemoryTest, RefusesAFileLargerThanTheAvailableMemory) {
  const std::string path = WriteCsv(test_support::TempDir(), 1000);  // 8,009 bytes
  NullProgress progress;
  CsvReadOptions options;
  options.available_memory = 20'000;  // < 8,009 × kCsvMemoryPerByte
  auto table = ReadCsv(path, options, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(kCsvMemoryPerByte, 3.0);  // measured: docs/architecture.md, "Memory bound"
  EXPECT_EQ(table.error().message,
            "'" + path + "' is too large for the memory available: reading its 0.00 GB needs "
            "about 0.00 GB (3 bytes per byte of CSV) and 0.00 GB is available; use a sample of "
            "the file, drop columns, or free memory");
}

TEST(CsvMemoryTest, ReadsAFileThatFits) {
  const std::string path = WriteCsv(test_support::TempDir(), 1000);
  NullProgress progress;
  CsvReadOptions options;
  options.available_memory = 8'009 * 3;  // exactly the bound
  auto table = ReadCsv(path, options, progress);
  ASSERT_TRUE(table.has_value()) << table.error().message;
  EXPECT_EQ(table->num_rows(), 1000u);
  options.available_memory = 0;  // the machine's MemAvailable: this small file fits
  EXPECT_TRUE(ReadCsv(path, options, progress).has_value());
}

TEST(CsvMemoryTest, PreviewOfALargeFileIsNotRefused) {
  const std::string path = WriteCsv(test_support::TempDir(), 1000);
  NullProgress progress;
  CsvReadOptions options;
  options.available_memory = 100;
  options.max_rows = 5;  // a preview reads only a prefix
  auto table = ReadCsv(path, options, progress);
  ASSERT_TRUE(table.has_value()) << table.error().message;
  EXPECT_EQ(table->num_rows(), 5u);
}

}  // namespace
}  // namespace deniable
