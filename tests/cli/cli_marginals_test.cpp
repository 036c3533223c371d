// SPDX-License-Identifier: Apache-2.0
// deniable-cli --mode marginals (issue 10): MST and AIM end to end, generate from the
// description, and the mode's options checked.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string Demo() { return test_support::SourcePath("resources/demo/adult_sample.csv"); }
std::string DemoSchema() {
  return test_support::SourcePath("resources/demo/adult_sample.schema.json");
}

TEST(CliMarginalsTest, SynthesizesWithMstAndAimAndGeneratesFromTheDescription) {
  const std::string dir = test_support::TempDir();
  for (const char* mechanism : {"mst", "aim"}) {
    const std::string description = dir + "/" + mechanism + ".json";
    const CliRun synth = Cli({"synthesize", Demo(), "--schema", DemoSchema(), "--mode", "marginals",
                              "--mechanism", mechanism, "--epsilon", "1", "-n", "500", "-o",
                              dir + "/" + mechanism + ".csv", "--description", description});
    ASSERT_EQ(synth.exit_code, 0) << synth.err;
    EXPECT_NE(synth.out.find("noisy marginals"), std::string::npos) << synth.out;
    EXPECT_NE(synth.out.find("Guarantee"), std::string::npos);
    const auto json = nlohmann::json::parse(ReadFileToString(description).value());
    EXPECT_EQ(json["mode"], "marginals");
    EXPECT_EQ(json["parameters"]["model"]["mechanism"], mechanism);
    EXPECT_LE(json["guarantee"]["epsilon"].get<double>(), 1.0);
    EXPECT_GT(json["guarantee"]["zcdp"]["rho"].get<double>(), 0.0);
    const CliRun generate =
        Cli({"generate", description, "-n", "200", "-o", dir + "/" + mechanism + "-again.csv"});
    ASSERT_EQ(generate.exit_code, 0) << generate.err;
  }
}

TEST(CliMarginalsTest, OptionsAreCheckedAndRefusedElsewhere) {
  const std::string dir = test_support::TempDir();
  const std::string out = dir + "/s.csv";
  EXPECT_EQ(Cli({"synthesize", Demo(), "--mode", "marginals", "--mechanism", "pgm", "-n", "10",
                 "-o", out})
                .exit_code,
            2);
  EXPECT_EQ(Cli({"synthesize", Demo(), "--mode", "marginals", "--mechanism", "mst", "--rounds", "3",
                 "-n", "10", "-o", out})
                .exit_code,
            2);
  EXPECT_EQ(Cli({"synthesize", Demo(), "--mode", "correlated", "--mechanism", "aim", "-n", "10",
                 "-o", out})
                .exit_code,
            2);
  EXPECT_EQ(
      Cli({"synthesize", Demo(), "--mode", "marginals", "--target", "nope", "-n", "10", "-o", out})
          .exit_code,
      2);
}

}  // namespace
}  // namespace deniable
