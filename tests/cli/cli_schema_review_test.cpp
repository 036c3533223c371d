// SPDX-License-Identifier: Apache-2.0
// deniable-cli and the schema's typed-output features, on tests/data/ui/typed_columns.csv:
// inspect shows formats, the two-digit-year window and its reason, vocabulary suggestions and
// warnings (in the summary and in the JSON's stats.review); describe/synthesize print the
// review warnings before a run; a target without a public class list is bad input (exit 3)
// that lists the observed classes.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/schema/datetime.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string Fixture() { return test_support::TestDataPath("ui/typed_columns.csv"); }

std::string WriteSchema(const std::string& dir, const std::string& json) {
  const std::string path = dir + "/schema.json";
  std::ofstream(path) << json;
  return path;
}

TEST(CliSchemaReviewTest, InspectShowsFormatsNotesAndSuggestions) {
  const std::string dir = test_support::TempDir();
  const CliRun run = Cli({"inspect", Fixture(), "-o", dir + "/schema.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const int start = static_cast<int>(YearOfDays(TodayDays())) - 99;
  const std::string window = std::to_string(start) + "-" + std::to_string(start + 99);
  EXPECT_NE(run.out.find("%-m/%-d/%y (years " + window + ")"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("2 decimals"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Review (for your eyes only):"), std::string::npos);
  EXPECT_NE(run.out.find("Note: column 'dob': Two-digit years (%y) are read in " + window +
                         ": with the POSIX rule (1969-2068) 69 dates would fall after today."),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Suggestion: column 'state' may hold public vocabulary 'us-states-usps' "
                         "(US states and DC (USPS codes), 51 entries, 30 seen; outside it: 'XX' "
                         "(1)). If the list is public knowledge, declare \"categorical\": true, "
                         "\"public\": {\"vocabulary\": \"us-states-usps\"}"),
            std::string::npos)
      << run.out;
  const auto json = nlohmann::json::parse(ReadFileToString(dir + "/schema.json").value());
  const nlohmann::json& dob = json["columns"][1];
  EXPECT_EQ(dob["two_digit_year_start"], start);
  ASSERT_EQ(dob["stats"]["review"]["notes"].size(), 1u);
  const nlohmann::json& state_review = json["columns"][2]["stats"]["review"];
  ASSERT_GE(state_review["vocabularies"].size(), 1u);
  EXPECT_EQ(state_review["vocabularies"][0]["vocabulary"], "us-states-usps");
  EXPECT_EQ(state_review["vocabularies"][0]["outside_values"][0]["text"], "XX");
  EXPECT_EQ(json["columns"][3]["decimals"], 2);
  // The inspect output is accepted back unchanged (stats and review are ignored).
  const CliRun again = Cli({"inspect", Fixture(), "--schema", dir + "/schema.json", "-q"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST(CliSchemaReviewTest, WithoutAnOutputFileTheReviewGoesToStandardError) {
  const CliRun run = Cli({"inspect", Fixture()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Standard output is pure JSON (the review would break it).
  EXPECT_TRUE(nlohmann::json::accept(run.out)) << run.out.substr(0, 200);
  EXPECT_NE(run.err.find("Suggestion: column 'label' may hold public vocabulary 'boolean-yes-no'"),
            std::string::npos)
      << run.err;
}

TEST(CliSchemaReviewTest, RunsPrintTheReviewWarningsFirst) {
  const std::string dir = test_support::TempDir();
  // 120 rows are too few for DP bounds at ε = 1: income gets public bounds, dob is left out.
  const std::string schema = WriteSchema(dir, R"({"columns": [
      {"name": "code", "role": "identifier"},
      {"name": "label", "role": "target", "public": {"categories": ["maybe", "no", "yes"]}},
      {"name": "dob", "role": "ignore"},
      {"name": "income", "public": {"min": 0, "max": 300000}}]})");
  const CliRun run = Cli({"synthesize", Fixture(), "--mode", "independent", "--schema", schema,
                          "--seed", "3", "-n", "50", "-o", dir + "/out.csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("deniable-cli: warning: column 'code': role identifier, but its values "
                         "are not unique: 30 of 120 values repeat an earlier one (90 distinct)."),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("deniable-cli: warning: column 'label': class 'maybe' is rare: 1 of 120 "
                         "labelled rows (0.83%)"),
            std::string::npos)
      << run.err;
  const CliRun quiet = Cli({"synthesize", Fixture(), "--mode", "independent", "--schema", schema,
                            "--seed", "3", "-n", "50", "-o", dir + "/out.csv", "-q"});
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err.find("warning"), std::string::npos) << quiet.err;
}

TEST(CliSchemaReviewTest, RolesThatCannotBeHonouredAreBadInput) {
  const std::string dir = test_support::TempDir();
  const CliRun target = Cli({"inspect", Fixture(), "--schema",
                             WriteSchema(dir, R"({"columns": [{"name": "label", "role": "target"}]})")});
  EXPECT_EQ(target.exit_code, 3);
  EXPECT_NE(target.err.find("columns[0].public.categories: column 'label' has role target"),
            std::string::npos)
      << target.err;
  EXPECT_NE(target.err.find("the data holds 3 classes: 'maybe' (1 row), 'no' (79 rows), 'yes' "
                            "(40 rows)"),
            std::string::npos)
      << target.err;
  const CliRun date_id = Cli({"inspect", Fixture(), "--schema",
                              WriteSchema(dir, R"({"columns": [{"name": "dob", "role": "identifier"}]})")});
  EXPECT_EQ(date_id.exit_code, 3);
  EXPECT_NE(date_id.err.find("column 'dob' is DateTime: the identifier role would regenerate it"),
            std::string::npos)
      << date_id.err;
}

}  // namespace
}  // namespace deniable
