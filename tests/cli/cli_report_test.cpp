// SPDX-License-Identifier: Apache-2.0
// deniable-cli report (#11): the release report from a release's files, shareable or with the
// owner's part (utility, disclosure risk), as HTML or PDF; clear errors; no other command
// starts Qt. Skipped in a build without the desktop app (the command needs Qt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "tests/cli/cli_run.h"
#include "tests/support/paths.h"

namespace deniable {
namespace {

std::string Demo() { return test_support::SourcePath("resources/demo/adult_sample.csv"); }

std::string Sha256(const std::string& path) {
  std::string digest;
  if (FILE* pipe = popen(("sha256sum " + Quote(path)).c_str(), "r")) {
    char buffer[65] = {};
    if (std::fread(buffer, 1, 64, pipe) == 64) digest.assign(buffer, 64);
    pclose(pipe);
  }
  return digest;
}

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Sets an environment variable (or removes it: nullopt) for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class CliReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One release for the suite (TempDir() needs a running test).
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("deniable-test-CliReport-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    dir_ = new std::string(dir.string());
    const CliRun synth = Cli({"synthesize", Demo(), "--mode", "correlated", "--epsilon", "1",
                              "-n", "600", "--seed", "5", "-q", "-o", *dir_ + "/s.csv",
                              "--description", *dir_ + "/d.json"});
    synthesized_ = synth.exit_code == 0;
    if (!synthesized_) ADD_FAILURE() << synth.err;
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (Cli({"report", "--help"}).exit_code != 0) GTEST_SKIP() << "built without the desktop app";
    ASSERT_TRUE(synthesized_);
  }
  static std::string Dir() { return *dir_; }

  static std::string* dir_;
  static bool synthesized_;
};

std::string* CliReportTest::dir_ = nullptr;
bool CliReportTest::synthesized_ = false;

TEST_F(CliReportTest, ShareableHtmlHoldsTheLedgerAndTheFilesHashesButNoRealData) {
  const std::string report = Dir() + "/report.html";
  const CliRun run = Cli({"report", "--description", Dir() + "/d.json", "--synthetic",
                          Dir() + "/s.csv", "-o", report});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "Wrote the shareable release report (HTML) to " + report + "\n");
  EXPECT_NE(run.err.find("WARNING: " + Dir() + "/d.json was made with a fixed seed"),
            std::string::npos)
      << run.err;
  const std::string html = ReadFileToString(report).value();
  ASSERT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // The ledger: one row per entry of the description's ledger (plus the header), and its total.
  const auto description = nlohmann::json::parse(ReadFileToString(Dir() + "/d.json").value());
  const std::size_t entries = description["privacy"]["entries"].size();
  ASSERT_GT(entries, 0u);
  const auto ledger = html.find("<table class=\"ledger\">");
  ASSERT_NE(ledger, std::string::npos);
  const std::string table = html.substr(ledger, html.find("</table>", ledger) - ledger);
  EXPECT_EQ(Count(table, "<tr>"), entries + 1);
  EXPECT_EQ(Count(table, "<tr class=\"total\">"), 1u);
  // The outputs by file name and SHA-256; the seeded run is labelled.
  const std::string csv_sha = Sha256(Dir() + "/s.csv");
  const std::string description_sha = Sha256(Dir() + "/d.json");
  ASSERT_EQ(csv_sha.size(), 64u);
  EXPECT_NE(html.find("<span class=\"hash\">" + csv_sha + "</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"hash\">" + description_sha + "</span>"), std::string::npos);
  EXPECT_NE(html.find("<td>s.csv</td>"), std::string::npos);
  EXPECT_NE(html.find("NOT a private release"), std::string::npos);
  // 600 synthetic records; no owner part, no trace of the input.
  EXPECT_NE(html.find("<td>600</td>"), std::string::npos);
  EXPECT_EQ(html.find("id=\"owner-only\""), std::string::npos);
  EXPECT_EQ(html.find("Owner only"), std::string::npos);
  EXPECT_EQ(html.find("adult_sample"), std::string::npos);
  EXPECT_EQ(html.find(Sha256(Demo())), std::string::npos);
  EXPECT_EQ(html.find("Disclosure risk"), std::string::npos);
  EXPECT_EQ(Count(html, "data:image/png;base64,"), 1u);  // the network
}

TEST_F(CliReportTest, OwnerReportAddsTheRealDataPartWithTheDisclosureRisk) {
  const std::string report = Dir() + "/owner.html";
  const CliRun run = Cli({"report", "--description", Dir() + "/d.json", "--synthetic",
                          Dir() + "/s.csv", "--owner", "--real", Demo(), "--sensitive", "income",
                          "--quasi", "sex,race", "--histograms", "2", "-q", "-o", report});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");  // -q
  const std::string html = ReadFileToString(report).value();
  const auto owner = html.find("<section id=\"owner-only\" class=\"owner-only\">");
  ASSERT_NE(owner, std::string::npos);
  const std::string shareable = html.substr(0, owner);
  const std::string part = html.substr(owner);
  // The input's identity, the utility figures and the risk analysis: in the owner part only.
  EXPECT_NE(part.find(Sha256(Demo())), std::string::npos);
  EXPECT_EQ(shareable.find(Sha256(Demo())), std::string::npos);
  EXPECT_NE(part.find("Disclosure risk (McClure &amp; Reiter)"), std::string::npos);
  EXPECT_NE(part.find("Recommended ε (largest with every record inside)"), std::string::npos);
  EXPECT_NE(part.find("income (2 values)"), std::string::npos);  // the scope line
  EXPECT_NE(part.find("cells from sex, race"), std::string::npos);
  EXPECT_EQ(shareable.find("Disclosure risk"), std::string::npos);
  EXPECT_EQ(shareable.find("income (2 values)"), std::string::npos);
  // Network (shareable); 2 histograms, 2 heatmap pictures and the RR × R plot (owner).
  EXPECT_EQ(Count(shareable, "data:image/png;base64,"), 1u);
  EXPECT_EQ(Count(part, "data:image/png;base64,"), 2u + 2u + 1u);

  const std::string pdf = Dir() + "/owner.pdf";
  const CliRun pdf_run = Cli({"report", "--description", Dir() + "/d.json", "--synthetic",
                              Dir() + "/s.csv", "--owner", "--real", Demo(), "--sensitive",
                              "income", "--quasi", "sex,race", "--histograms", "2", "-o", pdf});
  ASSERT_EQ(pdf_run.exit_code, 0) << pdf_run.err;
  EXPECT_EQ(pdf_run.out, "Wrote the owner's release report (PDF) to " + pdf +
                             " — it holds statistics of the real data: do not publish it\n");
  const std::string bytes = ReadFileToString(pdf).value();
  EXPECT_EQ(bytes.rfind("%PDF-", 0), 0u);
  EXPECT_EQ(Count(bytes, "/Subtype /Image"), 1u + 2u + 2u + 1u);
}

TEST_F(CliReportTest, ErrorsNameTheOptionOrTheFile) {
  const std::string d = Dir() + "/d.json";
  const std::string s = Dir() + "/s.csv";
  const CliRun no_real = Cli({"report", "--description", d, "--synthetic", s, "--owner", "-o",
                              Dir() + "/x.html"});
  EXPECT_EQ(no_real.exit_code, 2);
  EXPECT_NE(no_real.err.find("--owner needs --real REAL.csv"), std::string::npos) << no_real.err;
  const CliRun no_owner = Cli({"report", "--description", d, "--synthetic", s, "--real", Demo(),
                               "-o", Dir() + "/x.html"});
  EXPECT_EQ(no_owner.exit_code, 2);
  EXPECT_NE(no_owner.err.find("add --owner"), std::string::npos) << no_owner.err;
  const CliRun no_output = Cli({"report", "--description", d, "--synthetic", s});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("-o REPORT.html or -o REPORT.pdf"), std::string::npos);
  const CliRun over_input = Cli({"report", "--description", d, "--synthetic", s, "-o", s});
  EXPECT_NE(over_input.exit_code, 0);
  EXPECT_NE(over_input.err.find(s), std::string::npos) << over_input.err;
  const CliRun missing = Cli({"report", "--description", Dir() + "/nope.json", "--synthetic", s,
                              "-o", Dir() + "/x.html"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find(Dir() + "/nope.json"), std::string::npos) << missing.err;
  // The demo input is not the release of d.json: its rows lack nothing, but a file without
  // the modelled columns is refused, naming both files.
  const std::string other = Dir() + "/other.csv";
  ASSERT_TRUE(WriteFileAtomically(other, "a,b\n1,2\n"));
  const CliRun mismatch = Cli({"report", "--description", d, "--synthetic", other, "-o",
                               Dir() + "/x.html"});
  EXPECT_EQ(mismatch.exit_code, 2);
  EXPECT_NE(mismatch.err.find(other + ": has no column 'age' of " + d), std::string::npos)
      << mismatch.err;
  const CliRun bad_sensitive = Cli({"report", "--description", d, "--synthetic", s, "--owner",
                                    "--real", Demo(), "--sensitive", "nosuch", "-o",
                                    Dir() + "/x.html"});
  EXPECT_EQ(bad_sensitive.exit_code, 2);
  EXPECT_NE(bad_sensitive.err.find("--sensitive: 'nosuch' is not a column of the real table"),
            std::string::npos)
      << bad_sensitive.err;
  EXPECT_FALSE(std::filesystem::exists(Dir() + "/x.html"));
}

// Only `report` creates a QApplication: with a platform that cannot start here (xcb without a
// display) every other command still works, and `report` does not.
TEST_F(CliReportTest, OnlyTheReportCommandStartsQt) {
  ScopedEnv platform("QT_QPA_PLATFORM", "xcb");
  ScopedEnv display("DISPLAY", std::nullopt);
  ScopedEnv wayland("WAYLAND_DISPLAY", std::nullopt);
  const CliRun inspect = Cli({"inspect", Demo(), "-q", "-o", Dir() + "/schema.json"});
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  const CliRun compare = Cli({"compare", Demo(), Dir() + "/s.csv", "-q"});
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  const CliRun generate = Cli({"generate", Dir() + "/d.json", "-n", "10", "-q", "-o",
                               Dir() + "/g.csv"});
  EXPECT_EQ(generate.exit_code, 0) << generate.err;
  const CliRun report = Cli({"report", "--description", Dir() + "/d.json", "--synthetic",
                             Dir() + "/s.csv", "-q", "-o", Dir() + "/xcb.html"});
  EXPECT_NE(report.exit_code, 0);
  EXPECT_NE(report.err.find("xcb"), std::string::npos) << report.err;
}

}  // namespace
}  // namespace deniable
