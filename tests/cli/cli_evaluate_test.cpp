// SPDX-License-Identifier: Apache-2.0
// deniable-cli synthesize --control-fraction and deniable-cli evaluate, end to end (#11).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/atomic_file.h"
#include "engine/core/random.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

// 2,000 people: quasi-identifiers that make most rows unique, a sensitive value drawn
// independently of them, an income that is a function of age.
std::string PeopleCsv() {
  SeededRng rng(3);
  std::string text = "age,zip,sex,disease,income\n";
  const char* diseases[] = {"flu", "asthma", "diabetes", "none"};
  for (int i = 0; i < 2000; ++i) {
    const int age = 18 + static_cast<int>(UniformBelow(rng, 70));
    text += std::to_string(age) + ",Z" + std::to_string(10 + UniformBelow(rng, 90)) + "," +
            (UniformBelow(rng, 2) ? "F" : "M") + "," + diseases[UniformBelow(rng, 4)] + "," +
            (age >= 45 ? "high" : "low") + "\n";
  }
  return text;
}

int LineCount(const std::string& path) {
  const std::string text = ReadFileToString(path).value();
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliEvaluateTest, ControlSplitIsHeldOutOwnerOnlyAndLedgered) {
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteFileAtomically(dir + "/people.csv", PeopleCsv()).has_value());
  const CliRun run =
      Cli({"synthesize", dir + "/people.csv", "--mode", "independent", "-n", "500", "-o",
           dir + "/synthetic.csv", "--description", dir + "/d.json", "--control-fraction", "0.25",
           "--control-out", dir + "/control.csv", "--seed", "5", "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(LineCount(dir + "/control.csv"), 1 + 500);  // header + round(0.25 · 2000)
  struct stat info {};
  ASSERT_EQ(stat((dir + "/control.csv").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  const auto description = nlohmann::json::parse(ReadFileToString(dir + "/d.json").value());
  bool found = false;
  for (const auto& entry : description["privacy"]["entries"]) {
    // The user's fraction, never the count: 500 would publish the real row count (2,000).
    const std::string label = entry["label"].get<std::string>();
    EXPECT_EQ(label.find("500"), std::string::npos) << label;
    if (label.rfind("control split: 25% of the rows", 0) == 0) {
      found = true;
      EXPECT_EQ(entry["cost"]["epsilon"].get<double>(), 0.0);
    }
  }
  EXPECT_TRUE(found) << description["privacy"].dump();
  // The same seed holds out the same rows.
  const CliRun again = Cli({"synthesize", dir + "/people.csv", "--mode", "independent", "-n", "10",
                            "-o", dir + "/s2.csv", "--control-fraction", "0.25", "--control-out",
                            dir + "/control2.csv", "--seed", "5", "-q"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ReadFileToString(dir + "/control.csv").value(),
            ReadFileToString(dir + "/control2.csv").value());
  // Bad uses name the flag.
  for (const auto& [args, flag] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--control-fraction", "0.25"}, "--control-out"},
           {{"--control-out", dir + "/c3.csv"}, "--control-fraction"},
           {{"--control-fraction", "1.5", "--control-out", dir + "/c3.csv"}, "--control-fraction"},
           {{"--control-fraction", "0.25", "--control-out", dir + "/people.csv"}, "people.csv"}}) {
    std::vector<std::string> full = {
        "synthesize", dir + "/people.csv", "--mode", "independent", "-n", "10",
        "-o",         dir + "/s3.csv",     "-q"};
    full.insert(full.end(), args.begin(), args.end());
    const CliRun bad = Cli(full);
    EXPECT_EQ(bad.exit_code, 2) << flag << ": " << bad.err;
    EXPECT_NE(bad.err.find(flag), std::string::npos) << bad.err;
  }
  std::filesystem::remove_all(dir);
}

TEST(CliEvaluateTest, EvaluateScoresACopyAsNearCertainRiskAndAnIndependentReleaseNearZero) {
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteFileAtomically(dir + "/people.csv", PeopleCsv()).has_value());
  // Training rows are people.csv less the control rows: synthesize writes neither, so the
  // training file is made from a copy release: -n = all rows, mode "random" is not needed;
  // split with the CLI, then evaluate the training rows as their own "release".
  const CliRun split = Cli({"synthesize", dir + "/people.csv", "--mode", "independent", "-n",
                            "1500", "-o", dir + "/independent.csv", "--control-fraction", "0.25",
                            "--control-out", dir + "/control.csv", "--seed", "9", "-q"});
  ASSERT_EQ(split.exit_code, 0) << split.err;
  // The training rows: every row of people.csv not in control.csv.
  const std::string people = ReadFileToString(dir + "/people.csv").value();
  const std::string control = ReadFileToString(dir + "/control.csv").value();
  std::multiset<std::string> held;
  {
    std::stringstream stream(control);
    std::string line;
    std::getline(stream, line);
    while (std::getline(stream, line)) held.insert(line);
  }
  std::string train;
  {
    std::stringstream stream(people);
    std::string line;
    std::getline(stream, line);
    train = line + "\n";
    while (std::getline(stream, line)) {
      auto it = held.find(line);
      if (it != held.end()) {
        held.erase(it);
      } else {
        train += line + "\n";
      }
    }
  }
  ASSERT_TRUE(held.empty());
  ASSERT_TRUE(WriteFileAtomically(dir + "/train.csv", train).has_value());
  const std::vector<std::string> roles = {
      "--control", dir + "/control.csv", "--quasi", "age,zip,sex", "--sensitive",
      "disease",   "--target",           "income",  "--threads",   "1",
      "--json"};
  std::vector<std::string> copy_args = {"evaluate", dir + "/train.csv", dir + "/train.csv"};
  copy_args.insert(copy_args.end(), roles.begin(), roles.end());
  const CliRun copy = Cli(copy_args);
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  const auto c = nlohmann::json::parse(copy.out);
  EXPECT_TRUE(c["for_owner_only"].get<bool>());
  EXPECT_EQ(c["rows"]["train"].get<int>(), 1500);
  EXPECT_EQ(c["copies"]["of_train"].get<int>(), 1500);
  EXPECT_DOUBLE_EQ(c["singling_out"]["risk"].get<double>(), 1.0);
  EXPECT_GT(c["inference"]["risk"].get<double>(), 0.9);
  EXPECT_GT(c["inference"]["ci"][0].get<double>(), 0.8);
  EXPECT_GT(c["linkability"]["risk"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(c["utility"]["train_on_synthetic"]["accuracy"].get<double>(),
                   c["utility"]["train_on_real"]["accuracy"].get<double>());
  EXPECT_DOUBLE_EQ(c["utility"]["agreement"].get<double>(), 1.0);
  EXPECT_EQ(c["utility"]["importance_gain"][0]["column"], "age");

  std::vector<std::string> independent_args = {"evaluate", dir + "/train.csv",
                                               dir + "/independent.csv"};
  independent_args.insert(independent_args.end(), roles.begin(), roles.end());
  const CliRun independent = Cli(independent_args);
  ASSERT_EQ(independent.exit_code, 0) << independent.err;
  const auto i = nlohmann::json::parse(independent.out);
  // Near zero: the risk interval holds 0 or the risk is under 0.1 (see
  // attacks_statistical_test.cpp for the tolerance).
  for (const char* attack : {"singling_out", "linkability", "inference"}) {
    const double risk = i[attack]["risk"].get<double>();
    const bool holds_zero =
        i[attack]["ci"][0].get<double>() <= 0 && i[attack]["ci"][1].get<double>() >= 0;
    EXPECT_TRUE(holds_zero || risk < 0.1) << attack << ": " << i[attack].dump();
  }
  // Independent columns lose income's dependence on age: the synthetic model does worse.
  EXPECT_LT(i["utility"]["train_on_synthetic"]["accuracy"].get<double>(),
            i["utility"]["train_on_real"]["accuracy"].get<double>());
  std::filesystem::remove_all(dir);
}

TEST(CliEvaluateTest, EvaluateTextAndErrors) {
  const std::string dir = test_support::TempDir();
  ASSERT_TRUE(WriteFileAtomically(dir + "/people.csv", PeopleCsv()).has_value());
  const std::string people = dir + "/people.csv";
  const CliRun text =
      Cli({"evaluate", people, people, "--control", people, "--attacks", "100", "-q"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("For your eyes only"), std::string::npos);
  EXPECT_NE(text.out.find("no sensitive attribute given: the last column 'income'"),
            std::string::npos);
  EXPECT_NE(text.out.find("singling out"), std::string::npos);
  const struct {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  } cases[] = {
      {{"evaluate", people, people}, 2, "--control"},
      {{"evaluate", people, people, "--control", people, "--sensitive", "nope"},
       2,
       "--sensitive: 'nope'"},
      {{"evaluate", people, people, "--control", people, "--quasi", "age,,sex"}, 2, "--quasi"},
      {{"evaluate", people, people, "--control", people, "--quasi", "height"}, 2, "--quasi"},
      {{"evaluate", people, people, "--control", people, "--target", "x"}, 2, "--target"},
      {{"evaluate", people, people, "--control", people, "--attacks", "0"}, 2, "--attacks"},
      {{"evaluate", people, dir + "/absent.csv", "--control", people}, 1, "absent.csv"},
  };
  for (const auto& c : cases) {
    const CliRun run = Cli(c.args);
    EXPECT_EQ(run.exit_code, c.exit_code) << c.message << ": " << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
  }
  // A synthetic table without one of the real columns is named.
  ASSERT_TRUE(WriteFileAtomically(dir + "/narrow.csv", "age,zip\n30,Z11\n").has_value());
  const CliRun narrow = Cli({"evaluate", people, dir + "/narrow.csv", "--control", people});
  EXPECT_EQ(narrow.exit_code, 2) << narrow.err;
  EXPECT_NE(narrow.err.find("narrow.csv"), std::string::npos) << narrow.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace deniable
