// SPDX-License-Identifier: Apache-2.0
// ReadCsv as a file reader: I/O errors, the input left untouched, previews that read only a
// prefix, progress and cancellation.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/io/csv_reader.h"
#include "tests/engine/io/csv_test_helpers.h"
#include "tests/support/fake_progress.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::CellsOf;
using test_support::FakeProgress;
using test_support::FileBytes;
using test_support::ParseOk;
using test_support::ReadOk;
using test_support::TempDir;
using test_support::TestDataPath;

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// "id,value\n" then rows "i,v<i%7>" for i in [0, rows).
std::string NumberedRows(std::size_t rows) {
  std::string text = "id,value\n";
  for (std::size_t i = 0; i < rows; ++i) {
    text += std::to_string(i) + ",v" + std::to_string(i % 7) + "\n";
  }
  return text;
}

TEST(CsvReadFileTest, MissingFileIsAnIoErrorNamingThePath) {
  NullProgress progress;
  const std::string path = TempDir() + "/absent.csv";
  const Result<RawTable> table = ReadCsv(path, CsvReadOptions{}, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kIo);
  EXPECT_EQ(table.error().message, "cannot open '" + path + "': No such file or directory");
}

TEST(CsvReadFileTest, DirectoryIsAnIoError) {
  NullProgress progress;
  const std::string dir = TempDir();
  const Result<RawTable> table = ReadCsv(dir, CsvReadOptions{}, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kIo);
  EXPECT_EQ(table.error().message, "'" + dir + "' is a directory, not a CSV file");
}

TEST(CsvReadFileTest, LeavesTheInputUntouched) {
  const std::string path = TempDir() + "/in.csv";
  const std::string bytes = "a,b\n1,\"x\"\"y\"\n";
  WriteFile(path, bytes);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  const RawTable table = ReadOk(path);
  EXPECT_EQ(CellsOf(table), (Cells{{"1", "x\"y"}}));
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(FileBytes(path), bytes);
  EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
  EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
  EXPECT_EQ(before.st_size, after.st_size);
}

TEST(CsvReadFileTest, PreviewReadsOnlyWhatItNeeds) {
  // 3 MB of rows, then a broken row: a preview of the first rows does not see it.
  const std::string path = TempDir() + "/big.csv";
  WriteFile(path, NumberedRows(300000) + "oops\n");
  CsvReadOptions options;
  options.max_rows = 10;
  const RawTable preview = ReadOk(path, options);
  ASSERT_EQ(preview.num_rows(), 10u);
  EXPECT_EQ(CellsOf(preview)[9], (std::vector<test_support::Cell>{"9", "v2"}));
  NullProgress progress;
  const Result<RawTable> whole = ReadCsv(path, CsvReadOptions{}, progress);
  ASSERT_FALSE(whole.has_value());
  EXPECT_EQ(whole.error().message,
            path + ":300002:5: ragged row: 1 field, but the header has 2 (field 2)");
}

TEST(CsvReadFileTest, PreviewGrowsItsPrefixAcrossLongQuotedFields) {
  // Quoted multi-line fields of 140 KB: 8 rows span past the first 1 MB read.
  std::string note;
  for (int i = 0; i < 20000; ++i) note += "line " + std::to_string(i % 10) + "\n";
  ASSERT_EQ(note.size(), 140000u);
  std::string text = "id,note\n";
  for (int i = 0; i < 12; ++i) text += std::to_string(i) + ",\"" + note + "\"\n";
  const std::string path = TempDir() + "/long.csv";
  WriteFile(path, text);
  CsvReadOptions options;
  options.max_rows = 8;
  const RawTable preview = ReadOk(path, options);
  ASSERT_EQ(preview.num_rows(), 8u);
  EXPECT_EQ(preview.columns[1].dictionary, (std::vector<std::string>{note}));
  EXPECT_EQ(preview.row_line[7], 2u + 7u * 20001u);
  // More rows than the file holds: all of them.
  options.max_rows = 1000;
  EXPECT_EQ(ReadOk(path, options).num_rows(), 12u);
}

TEST(CsvReadFileTest, ReportsProgressUpToOne) {
  FakeProgress progress;
  const std::string text = NumberedRows(200000);
  const Result<RawTable> table = ParseCsv(text, "rows.csv", CsvReadOptions{}, progress);
  ASSERT_TRUE(table.has_value());
  EXPECT_GE(progress.reports(), 2u);  // at least once mid-way, and the final 1.0
  EXPECT_EQ(progress.last_fraction(), 1.0);
  EXPECT_EQ(progress.last_stage(), "Parsing rows.csv");
}

TEST(CsvReadFileTest, StopsWhenCancelled) {
  // Checkpoints come every 65,536 rows: with 300,000 rows the parser sees the cancellation at
  // its third checkpoint, long before the end.
  FakeProgress progress(/*cancel_after_reports=*/2);
  const std::string text = NumberedRows(300000);
  const Result<RawTable> table = ParseCsv(text, "rows.csv", CsvReadOptions{}, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(table.error().message, "reading rows.csv cancelled");
  EXPECT_LT(progress.last_fraction(), 1.0);
}

TEST(CsvReadFileTest, CancelledFileReadStopsBeforeParsing) {
  const std::string path = TempDir() + "/rows.csv";
  WriteFile(path, NumberedRows(1000));
  FakeProgress progress(/*cancel_after_reports=*/1);  // cancelled right after the first report
  const Result<RawTable> table = ReadCsv(path, CsvReadOptions{}, progress);
  ASSERT_FALSE(table.has_value());
  EXPECT_EQ(table.error().code, ErrorCode::kCancelled);
}

TEST(CsvReadFileTest, ReadsFromAPipe) {
  // Not a regular file (no size known up front): read to the end.
  const std::string path = TempDir() + "/fifo.csv";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::thread writer([&] { WriteFile(path, "a,b\n1,2\n"); });
  const RawTable table = ReadOk(path);
  writer.join();
  EXPECT_EQ(CellsOf(table), (Cells{{"1", "2"}}));
}

}  // namespace
}  // namespace deniable
