// SPDX-License-Identifier: Apache-2.0
// deniable-cli risk-theory and risk, end to end (#11).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

TEST(CliRiskTest, RiskTheoryPrintsTable1sExpectedIncreaseAsJson) {
  // McClure & Reiter Table 1: p0 = .001, ε = 1000, n = 1000, w = .5 → ER = .125.
  const CliRun run = Cli({"risk-theory", "--p0", "0.001", "--epsilon", "1000", "--n", "1000",
                          "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_NEAR(json["ER"].get<double>(), 0.125, 0.001);
  EXPECT_EQ(json["R"]["histogram"].size(), 10u);
  EXPECT_TRUE(json["R"]["quantiles"].contains("0.5"));
  const CliRun text = Cli({"risk-theory", "--p0", "0.5", "--epsilon", "1", "--n", "50"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Expected increase in risk ER"), std::string::npos);
}

TEST(CliRiskTest, RiskTheoryBadParametersAreUsageErrorsNamingTheFlag) {
  const struct {
    std::vector<std::string> args;
    std::string flag;
  } cases[] = {
      {{"--p0", "1.5", "--epsilon", "1", "--n", "10"}, "--p0"},
      {{"--p0", "x", "--epsilon", "1", "--n", "10"}, "--p0"},
      {{"--p0", ".5", "--epsilon", "0", "--n", "10"}, "--epsilon"},
      {{"--p0", ".5", "--epsilon", "nan", "--n", "10"}, "--epsilon"},
      {{"--p0", ".5", "--epsilon", "1", "--n", "0"}, "--n"},
      {{"--p0", ".5", "--epsilon", "1"}, "--n"},
      {{"--p0", ".5", "--epsilon", "1", "--n", "10", "--ns", "0"}, "--ns"},
      {{"--p0", ".5", "--epsilon", "1", "--n", "10", "--prior", "1"}, "--prior"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"risk-theory"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliRun run = Cli(args);
    EXPECT_EQ(run.exit_code, 2) << c.flag << ": " << run.err;
    EXPECT_NE(run.err.find(c.flag), std::string::npos) << run.err;
  }
}

TEST(CliRiskTest, RiskRecommendsAnEpsilonForYourEyesOnly) {
  const std::string dir = test_support::TempDir();
  const std::string csv = dir + "/people.csv";
  std::string text = "sex,age,income\n";
  for (int i = 0; i < 40; ++i) {
    text += std::string(i % 2 ? "F" : "M") + "," + std::to_string(20 + i % 4) + "," +
            (i % 5 == 0 ? "high" : "low") + "\n";
  }
  text += "F,99,high\n";  // a unique cell
  ASSERT_TRUE(WriteFileAtomically(csv, text).has_value());
  const CliRun run = Cli({"risk", csv, "--sensitive", "income", "--quasi", "sex,age", "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("For your eyes only"), std::string::npos);
  EXPECT_NE(run.out.find("Recommended epsilon"), std::string::npos);
  const CliRun json_run = Cli({"risk", csv, "--sensitive", "income", "--quasi", "sex,age",
                               "--epsilons", "0.01,0.04,1,10", "--json"});
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto json = nlohmann::json::parse(json_run.out);
  EXPECT_TRUE(json["for_owner_only"].get<bool>());
  EXPECT_EQ(json["rows"].get<int>(), 41);
  EXPECT_EQ(json["epsilons"].size(), 4u);
  EXPECT_DOUBLE_EQ(json["recommended_epsilon"].get<double>(), 0.04);  // unique cell: log 1.05
  EXPECT_GT(json["epsilons"][2]["records_outside"].get<int>(), 0);
  std::filesystem::remove_all(dir);
}

TEST(CliRiskTest, RiskBadParametersNameTheFlagAndNeverCrash) {
  const std::string dir = test_support::TempDir();
  const std::string csv = dir + "/t.csv";
  ASSERT_TRUE(WriteFileAtomically(csv, "a,b\nx,1\ny,2\n").has_value());
  const struct {
    std::vector<std::string> args;
    std::string expected;
    int code;
  } cases[] = {
      {{"risk", csv}, "--sensitive", 2},
      {{"risk", csv, "--sensitive", "zzz"}, "zzz", 2},
      {{"risk", csv, "--sensitive", "a", "--quasi", "a"}, "--quasi column", 2},
      {{"risk", csv, "--sensitive", "a", "--quasi", "b,"}, "--quasi", 2},
      {{"risk", csv, "--sensitive", "a", "--epsilon", "-1"}, "--epsilon", 2},
      {{"risk", csv, "--sensitive", "a", "--epsilons", "1,x"}, "--epsilons", 2},
      {{"risk", csv, "--sensitive", "a", "--epsilon", "1", "--epsilons", "auto"}, "--epsilons", 2},
      {{"risk", csv, "--sensitive", "a", "--max-r", "2"}, "--max-r", 2},
      {{"risk", csv, "--sensitive", "a", "--max-rr", "0"}, "--max-rr", 2},
      {{"risk", csv, "--sensitive", "a", "--quantile", "1"}, "--quantile", 2},
      {{"risk", csv, "--sensitive", "a", "--priors", "0"}, "--priors", 2},
      {{"risk", dir + "/absent.csv", "--sensitive", "a"}, "absent.csv", 1},
  };
  for (const auto& c : cases) {
    const CliRun run = Cli(c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.expected << ": " << run.err;
    EXPECT_NE(run.err.find(c.expected), std::string::npos) << run.err;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace deniable
