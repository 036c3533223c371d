// SPDX-License-Identifier: Apache-2.0
// deniable-cli end to end: exit codes (0 ok, 1 failure, 2 usage, 3 bad input data), outputs,
// and the input never touched.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string Demo() { return test_support::SourcePath("resources/demo/adult_sample.csv"); }

std::size_t CountLines(const std::string& path) {
  std::ifstream in(path);
  std::size_t lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return lines;
}

TEST(CliTest, UsageErrorsExitWithTwo) {
  EXPECT_EQ(Cli({}).exit_code, 2);
  EXPECT_EQ(Cli({"--help"}).exit_code, 0);
  EXPECT_EQ(Cli({"frobnicate"}).exit_code, 2);
  const CliRun unknown = Cli({"inspect", Demo(), "--bogus"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--bogus"), std::string::npos) << unknown.err;
  const CliRun bad_mode = Cli({"describe", Demo(), "--mode", "bayes", "-o", "/tmp/x.json"});
  EXPECT_EQ(bad_mode.exit_code, 2);
  EXPECT_NE(bad_mode.err.find("--mode"), std::string::npos) << bad_mode.err;
  const CliRun bad_epsilon =
      Cli({"synthesize", Demo(), "--mode", "correlated", "--epsilon", "-3", "-n", "10", "-o", "/tmp/x.csv"});
  EXPECT_EQ(bad_epsilon.exit_code, 2);
  EXPECT_NE(bad_epsilon.err.find("--epsilon"), std::string::npos) << bad_epsilon.err;
  EXPECT_EQ(Cli({"synthesize", Demo(), "--mode", "correlated", "-n", "abc", "-o", "/tmp/x.csv"}).exit_code, 2);
  for (const char* command : {"inspect", "describe", "generate", "synthesize", "compare"}) {
    const CliRun help = Cli({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find("Usage: deniable-cli"), std::string::npos) << command;
  }
}

TEST(CliTest, EveryMalformedCsvFixtureExitsWithThreeNamingLineAndColumn) {
  const std::string dir = test_support::TestDataPath("csv/bad");
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".csv") continue;
    ++fixtures;
    const std::string path = entry.path().string();
    const CliRun run = Cli({"inspect", path});
    EXPECT_EQ(run.exit_code, 3) << path << "\n" << run.err;
    // "PATH:LINE:COLUMN: message"
    const std::string prefix = path + ":";
    const auto at = run.err.find(prefix);
    ASSERT_NE(at, std::string::npos) << run.err;
    std::istringstream rest(run.err.substr(at + prefix.size()));
    long line = 0, column = 0;
    char colon1 = 0, colon2 = 0;
    rest >> line >> colon1 >> column >> colon2;
    EXPECT_GE(line, 1) << run.err;
    EXPECT_GE(column, 1) << run.err;
    EXPECT_EQ(colon1, ':') << run.err;
    EXPECT_EQ(colon2, ':') << run.err;
  }
  EXPECT_GE(fixtures, 15);
}

TEST(CliTest, InspectWritesAParsableSchema) {
  const std::string dir = test_support::TempDir();
  const CliRun run = Cli({"inspect", Demo(), "-o", dir + "/schema.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto json = nlohmann::json::parse(ReadFileToString(dir + "/schema.json").value());
  EXPECT_EQ(json["columns"].size(), 15u);
  EXPECT_NE(run.out.find("native-country"), std::string::npos);
}

// The demo's schema declares 8 category lists public: in the marginals mode (the default) the
// set union learns only the 2 other categorical columns' values, in the correlated mode it also
// decides the missing markers of all 10 non-histogram columns (domain_budget.h MissingMarkers).
TEST(CliTest, InspectForecastsTheUnionOfTheChosenMode) {
  const std::string dir = test_support::TempDir();
  const std::string schema = test_support::SourcePath("resources/demo/adult_sample.schema.json");
  std::string shares[2];
  int k = 0;
  for (const char* mode : {"marginals", "correlated"}) {
    const CliRun run = Cli({"inspect", Demo(), "--schema", schema, "--mode", mode, "-o",
                            dir + "/schema.json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::size_t at = run.out.find("set union ");
    ASSERT_NE(at, std::string::npos) << run.out;
    shares[k++] = run.out.substr(at, 16);
  }
  // 30.6·√g / 300 rows / 0.99 (ε after the row count's 1%): g = 2 → 0.146, g = 10 → 0.326.
  EXPECT_EQ(shares[0], "set union 0.146 ");
  EXPECT_EQ(shares[1], "set union 0.326 ");
  const CliRun bad = Cli({"inspect", Demo(), "--mode", "bogus", "-o", dir + "/schema.json"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--mode"), std::string::npos) << bad.err;
}

TEST(CliTest, SynthesizeDescribeGenerateCompareEndToEnd) {
  const std::string dir = test_support::TempDir();
  const std::string input_hash_before = ReadFileToString(Demo()).value();
  const CliRun synth = Cli({"synthesize", Demo(), "--mode", "correlated", "--epsilon", "1", "-n",
                         "1234", "-o", dir + "/synthetic.csv", "--description", dir + "/d.json"});
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  EXPECT_EQ(CountLines(dir + "/synthetic.csv"), 1235u);  // header + rows
  EXPECT_NE(synth.out.find("Guarantee"), std::string::npos);
  // No --schema: the inferred formats go out with the release, and the summary says so.
  EXPECT_NE(synth.out.find("inferred from the data"), std::string::npos) << synth.out;
  const CliRun generate = Cli({"generate", dir + "/d.json", "-n", "300", "-o", dir + "/again.csv"});
  ASSERT_EQ(generate.exit_code, 0) << generate.err;
  EXPECT_EQ(CountLines(dir + "/again.csv"), 301u);
  const CliRun compare = Cli({"compare", Demo(), dir + "/synthetic.csv", "-o", dir + "/m.json"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  auto metrics = nlohmann::json::parse(ReadFileToString(dir + "/m.json").value());
  EXPECT_TRUE(metrics.contains("mean_pair_tvd")) << metrics.dump().substr(0, 300);
  const CliRun describe = Cli({"describe", Demo(), "--mode", "independent", "-o", dir + "/i.json"});
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  EXPECT_EQ(ReadFileToString(Demo()).value(), input_hash_before);  // input untouched
}

TEST(CliTest, WithoutModeTheMarginalsModeIsUsed) {
  const std::string dir = test_support::TempDir();
  const CliRun describe = Cli({"describe", Demo(), "-o", dir + "/d.json", "-q"});
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  auto description = nlohmann::json::parse(ReadFileToString(dir + "/d.json").value());
  EXPECT_EQ(description["mode"], "marginals");
  EXPECT_EQ(description["parameters"]["mechanism"], "aim");
}

TEST(CliTest, SeedMakesRunsReproducibleAndSaysItIsNotPrivate) {
  const std::string dir = test_support::TempDir();
  for (const char* name : {"a.csv", "b.csv"}) {
    const CliRun run = Cli({"synthesize", Demo(), "--mode", "independent", "--seed", "7", "-n",
                         "200", "-o", dir + "/" + name});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("NOT a private release"), std::string::npos);
  }
  EXPECT_EQ(ReadFileToString(dir + "/a.csv").value(), ReadFileToString(dir + "/b.csv").value());
}

TEST(CliTest, NeverOverwritesTheInputAndLeavesNoPartialOutput) {
  const std::string dir = test_support::TempDir();
  const std::string input = dir + "/input.csv";
  std::filesystem::copy_file(Demo(), input);
  const std::string before = ReadFileToString(input).value();
  const CliRun same = Cli({"synthesize", input, "--mode", "random", "-n", "10", "-o", input});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("input"), std::string::npos) << same.err;
  const CliRun dotted = Cli({"synthesize", input, "--mode", "random", "-n", "10", "-o",
                          dir + "/./input.csv"});
  EXPECT_EQ(dotted.exit_code, 2);
  EXPECT_EQ(ReadFileToString(input).value(), before);
  // A bad schema file: exit 3, and no output file appears.
  ASSERT_TRUE(WriteFileAtomically(dir + "/schema.json", "{\"columns\": [{\"name\": 12}]}").has_value());
  const CliRun bad_schema = Cli({"synthesize", input, "--mode", "random", "-n", "10", "--schema",
                              dir + "/schema.json", "-o", dir + "/out.csv"});
  EXPECT_EQ(bad_schema.exit_code, 3) << bad_schema.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.csv"));
  const CliRun broken_json = Cli({"generate", dir + "/schema.json", "-n", "5", "-o", dir + "/out.csv"});
  EXPECT_EQ(broken_json.exit_code, 3) << broken_json.err;
  const CliRun missing = Cli({"inspect", dir + "/does-not-exist.csv"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("does-not-exist.csv"), std::string::npos);
}

TEST(CliTest, GeneratesFromDataSynthesizerDescriptions) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fixtures/datasynthesizer-description-adult-correlated-k2.json");
  const std::string dir = test_support::TempDir();
  const CliRun run = Cli({"generate", path, "-n", "1000", "-o", dir + "/ds.csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(CountLines(dir + "/ds.csv"), 1001u);
  EXPECT_NE(run.out.find("DataSynthesizer"), std::string::npos);  // its warnings are shown
}

// Found by fuzzing generate with mutated description files: a member of the wrong JSON type
// used to exit 1 with nlohmann's bare "type must be boolean, but is number", and an integer
// domain up to 1e308 made generate spin forever. Both are bad input: exit 3 naming the field.
TEST(CliTest, DescriptionMembersOfTheWrongTypeAreBadInputNamingTheField) {
  DENIABLE_REQUIRE_SHARED_FILE(path, "fixtures/datasynthesizer-description-adult-correlated-k2.json");
  const std::string dir = test_support::TempDir();
  auto json = nlohmann::json::parse(ReadFileToString(path).value());
  json["attribute_description"]["sex"]["is_categorical"] = 5;
  ASSERT_TRUE(WriteFileAtomically(dir + "/ds.json", json.dump()).has_value());
  const CliRun imported = Cli({"generate", dir + "/ds.json", "-n", "10", "-o", dir + "/a.csv"});
  EXPECT_EQ(imported.exit_code, 3) << imported.err;
  EXPECT_NE(imported.err.find("ds.json: attribute_description.sex.is_categorical: expected true "
                              "or false"),
            std::string::npos)
      << imported.err;

  const CliRun own = Cli({"synthesize", Demo(), "--mode", "independent", "-n", "10", "-o",
                          dir + "/s.csv", "--description", dir + "/own.json"});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  auto description = nlohmann::json::parse(ReadFileToString(dir + "/own.json").value());
  description["domains"]["age"]["edges"] = nlohmann::json::array({17, 1e308});
  ASSERT_TRUE(WriteFileAtomically(dir + "/huge.json", description.dump()).has_value());
  const CliRun huge = Cli({"generate", dir + "/huge.json", "-n", "10", "-o", dir + "/b.csv"});
  EXPECT_EQ(huge.exit_code, 3) << huge.err;
  EXPECT_NE(huge.err.find("domains.age"), std::string::npos) << huge.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/a.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/b.csv"));
}

}  // namespace
}  // namespace deniable

namespace deniable {
namespace {

TEST(CliDeniableTest, SynthesizesWithThePrivacyTestWritesTheAuditAndAdvises) {
  const std::string dir = test_support::TempDir();
  const CliRun run = Cli({"synthesize", Demo(), "--mode", "deniable", "--k", "20", "--gamma", "4",
                          "--omega", "9-15", "-n", "500", "-o", dir + "/pd.csv", "--description",
                          dir + "/pd.json", "--audit-dir", dir + "/audit"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(CountLines(dir + "/pd.csv"), 501u);
  EXPECT_NE(run.out.find("Per released record (Theorem 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("D_S"), std::string::npos);  // the test's spend is in the ledger
  // The whole release, composed over >= 100,000 attempts, has a huge ε: the summary says what
  // that means instead of leaving a bare number.
  EXPECT_NE(run.out.find("protects nobody by itself"), std::string::npos) << run.out;
  // The description holds the DP model only: said about the file written, and kept in it.
  EXPECT_NE(run.out.find("/pd.json: the description holds the DP model only"), std::string::npos)
      << run.out;
  for (const char* file : {"model.json", "seed_rows.txt", "released_codes.csv"}) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/audit/" + file)) << file;
  }
  // The description never holds the seeds, and the guarantee covers the whole release.
  const std::string description = ReadFileToString(dir + "/pd.json").value();
  auto json = nlohmann::json::parse(description);
  EXPECT_EQ(json["mode"], "deniable");
  ASSERT_TRUE(json["warnings"].is_array());
  EXPECT_NE(json["warnings"][0].get<std::string>().find("DP model only"), std::string::npos);
  // The whole release's cost at the top (as in every mode) and in the deniable breakdown; the
  // run's summary beside it (it once overwrote "release").
  ASSERT_TRUE(json["guarantee"]["release"].contains("epsilon")) << json["guarantee"].dump();
  EXPECT_EQ(json["guarantee"]["epsilon"], json["guarantee"]["release"]["epsilon"]);
  EXPECT_EQ(json["guarantee"]["delta"], json["guarantee"]["release"]["delta"]);
  EXPECT_TRUE(json["guarantee"]["run"].contains("attempts"));
  EXPECT_EQ(description.find("seed_rows"), std::string::npos);
  // generate samples the DP model alone.
  const CliRun generate = Cli({"generate", dir + "/pd.json", "-n", "50", "-o", dir + "/g.csv"});
  EXPECT_EQ(generate.exit_code, 0) << generate.err;
  const CliRun advise = Cli({"advise", Demo(), "--mode", "deniable", "-o", dir + "/a.json"});
  ASSERT_EQ(advise.exit_code, 0) << advise.err;
  EXPECT_NE(advise.out.find("Pass rate"), std::string::npos);
  EXPECT_NE(advise.out.find("For your eyes only"), std::string::npos);
}

TEST(CliDeniableTest, DeniableOptionsAreCheckedAndRefusedElsewhere) {
  const std::string dir = test_support::TempDir();
  const CliRun wrong_mode =
      Cli({"synthesize", Demo(), "--mode", "correlated", "--k", "5", "-n", "10", "-o", dir + "/x.csv"});
  EXPECT_EQ(wrong_mode.exit_code, 2);
  EXPECT_NE(wrong_mode.err.find("--k applies to --mode deniable only"), std::string::npos);
  const CliRun bad_gamma = Cli({"synthesize", Demo(), "--mode", "deniable", "--gamma", "0.5",
                                "-n", "10", "-o", dir + "/x.csv"});
  EXPECT_EQ(bad_gamma.exit_code, 2);
  EXPECT_NE(bad_gamma.err.find("gamma"), std::string::npos) << bad_gamma.err;
  const CliRun bad_omega = Cli({"synthesize", Demo(), "--mode", "deniable", "--omega", "9-x",
                                "-n", "10", "-o", dir + "/x.csv"});
  EXPECT_EQ(bad_omega.exit_code, 2);
  EXPECT_NE(bad_omega.err.find("omega"), std::string::npos) << bad_omega.err;
  const CliRun bad_split = Cli({"synthesize", Demo(), "--mode", "deniable", "--split",
                                "0.5,0.5,0.5", "-n", "10", "-o", dir + "/x.csv"});
  EXPECT_EQ(bad_split.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.csv"));
}

}  // namespace
}  // namespace deniable
