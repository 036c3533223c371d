// SPDX-License-Identifier: Apache-2.0
// Every malformed fixture in tests/data/csv/bad fails with ErrorCode::kParse and exactly the
// "PATH:LINE:COLUMN: " prefix, message fragment and field listed in its README.md manifest
// (which the CLI's exit-code tests reuse).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "engine/io/csv_reader.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

struct BadFixture {
  std::string file;
  std::string position;  // "LINE:COLUMN"
  std::string field;     // "-" when the problem is not inside a field
  std::string fragment;
};

std::string Trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" `");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" `") - first + 1);
}

// The rows of the manifest table: "| `file` | L:C | field | fragment |".
std::vector<BadFixture> ReadManifest() {
  std::ifstream in(test_support::TestDataPath("csv/bad/README.md"));
  std::vector<BadFixture> fixtures;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::size_t start = 1;
    for (std::size_t bar = line.find('|', start); bar != std::string::npos;
         bar = line.find('|', start)) {
      cells.push_back(Trim(line.substr(start, bar - start)));
      start = bar + 1;
    }
    if (cells.size() == 4) fixtures.push_back({cells[0], cells[1], cells[2], cells[3]});
  }
  return fixtures;
}

TEST(CsvBadFixturesTest, ManifestListsEveryFixtureAndAtLeastFifteen) {
  const std::vector<BadFixture> fixtures = ReadManifest();
  std::set<std::string> listed;
  for (const BadFixture& fixture : fixtures) listed.insert(fixture.file);
  EXPECT_EQ(listed.size(), fixtures.size()) << "a file is listed twice";
  std::set<std::string> present;
  for (const auto& entry :
       std::filesystem::directory_iterator(test_support::TestDataPath("csv/bad"))) {
    const std::string name = entry.path().filename().string();
    if (name != "README.md") present.insert(name);
  }
  EXPECT_EQ(listed, present);
  EXPECT_GE(fixtures.size(), 15u);
}

TEST(CsvBadFixturesTest, EachFailsWithItsLocatedMessage) {
  const std::vector<BadFixture> fixtures = ReadManifest();
  ASSERT_FALSE(fixtures.empty());
  for (const BadFixture& fixture : fixtures) {
    SCOPED_TRACE(fixture.file);
    const std::string path = test_support::TestDataPath("csv/bad/" + fixture.file);
    NullProgress progress;
    const Result<RawTable> table = ReadCsv(path, CsvReadOptions{}, progress);
    ASSERT_FALSE(table.has_value());
    EXPECT_EQ(table.error().code, ErrorCode::kParse);
    const std::string& message = table.error().message;
    const std::string prefix = path + ":" + fixture.position + ": ";
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
    EXPECT_NE(message.find(fixture.fragment), std::string::npos) << message;
    if (fixture.field == "-") {
      EXPECT_EQ(message.find("(field "), std::string::npos) << message;
    } else {
      const std::string suffix = " (field " + fixture.field + ")";
      ASSERT_GE(message.size(), suffix.size());
      EXPECT_EQ(message.substr(message.size() - suffix.size()), suffix) << message;
    }
  }
}

TEST(CsvBadFixturesTest, PreviewsReportTheSameProblems) {
  // A preview (max_rows) of a file whose problem lies within the previewed rows.
  CsvReadOptions options;
  options.max_rows = 5;
  for (const BadFixture& fixture : ReadManifest()) {
    if (fixture.file == "bad_row_far_down.csv") continue;  // its problem is past row 5
    SCOPED_TRACE(fixture.file);
    const std::string path = test_support::TestDataPath("csv/bad/" + fixture.file);
    NullProgress progress;
    const Result<RawTable> table = ReadCsv(path, options, progress);
    ASSERT_FALSE(table.has_value());
    EXPECT_EQ(table.error().message.rfind(path + ":" + fixture.position + ": ", 0), 0u)
        << table.error().message;
  }
}

}  // namespace
}  // namespace deniable
