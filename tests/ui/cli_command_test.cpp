// SPDX-License-Identifier: Apache-2.0
#include "ui/project/cli_command.h"

#include <gtest/gtest.h>

namespace deniable::ui {
namespace {

TEST(CliCommandTest, ReproducesEverySettingOfACorrelatedRun) {
  PrivacySettings settings;
  settings.model.mode = SynthesisMode::kCorrelated;
  settings.model.epsilon = 0.25;
  settings.model.delta = 1e-9;
  settings.model.degree = 3;
  settings.model.bins = 15;
  settings.model.structure_fraction = 0.3;
  settings.model.domain_fraction = 0.1;
  const CliCommandFiles files{"/data/in.csv", "/out/schema.json", "/out/synthetic.csv", "/out/d.json"};
  EXPECT_EQ(cliArguments(settings, 1234, files),
            (QStringList{"synthesize", "/data/in.csv", "--mode", "correlated", "--epsilon", "0.25",
                         "--delta", "1e-09", "--bins", "15", "--domain-fraction", "0.1",
                         "--degree", "3", "--structure-fraction", "0.3", "--schema",
                         "/out/schema.json", "-n", "1234", "-o", "/out/synthetic.csv",
                         "--description", "/out/d.json"}));
}

TEST(CliCommandTest, IndependentRunHasNoDegreeAndSeedOnlyWhenReproducible) {
  PrivacySettings settings;
  settings.model.mode = SynthesisMode::kIndependent;
  settings.reproducible = true;
  settings.seed = 42;
  const QStringList args = cliArguments(settings, 10, {"in.csv", "s.json", "o.csv", ""});
  EXPECT_FALSE(args.contains(QStringLiteral("--degree")));
  EXPECT_FALSE(args.contains(QStringLiteral("--description")));
  ASSERT_TRUE(args.contains(QStringLiteral("--seed")));
  EXPECT_EQ(args.at(args.indexOf(QStringLiteral("--seed")) + 1), QStringLiteral("42"));
}

// A project file can hold the CLI's other settings (issue 12): the command passes them on.
TEST(CliCommandTest, PassesOnTheProjectsOtherDeniableAndMarginalsSettings) {
  PrivacySettings settings;
  settings.model.mode = SynthesisMode::kDeniable;
  settings.model.deniable.deterministic_test = true;
  settings.model.deniable.structure = DeniableStructure::kPrivBayes;
  settings.model.deniable.split_structure = 0.25;
  settings.model.deniable.split_parameters = 0.25;
  settings.model.deniable.split_seeds = 0.5;
  settings.model.deniable.max_candidates = 5000;
  QStringList args = cliArguments(settings, 10, {"in.csv", "s.json", "o.csv", ""});
  EXPECT_TRUE(args.contains(QStringLiteral("--deterministic-test")));
  auto after = [&args](const char* flag) {
    const qsizetype at = args.indexOf(QString::fromLatin1(flag));
    return at >= 0 && at + 1 < args.size() ? args.at(at + 1) : QString();
  };
  EXPECT_EQ(after("--structure"), QStringLiteral("privbayes"));
  EXPECT_EQ(after("--split"), QStringLiteral("0.25,0.25,0.5"));
  EXPECT_EQ(after("--max-candidates"), QStringLiteral("5000"));

  settings.model.mode = SynthesisMode::kMarginals;
  settings.model.marginals.rounds = 7;
  settings.model.marginals.max_model_mb = 2.5;
  settings.model.marginals.target = "income";
  settings.model.marginals.iterations = 300;
  args = cliArguments(settings, 10, {"in.csv", "s.json", "o.csv", ""});
  EXPECT_EQ(after("--rounds"), QStringLiteral("7"));
  EXPECT_EQ(after("--max-model-mb"), QStringLiteral("2.5"));
  EXPECT_EQ(after("--target"), QStringLiteral("income"));
  EXPECT_EQ(after("--iterations"), QStringLiteral("300"));
  EXPECT_FALSE(args.contains(QStringLiteral("--split")));  // deniable only
}

TEST(CliCommandTest, QuotesForAPosixShell) {
  EXPECT_EQ(shellQuote(QStringLiteral("/plain/path-1.csv")), QStringLiteral("/plain/path-1.csv"));
  EXPECT_EQ(shellQuote(QStringLiteral("my data.csv")), QStringLiteral("'my data.csv'"));
  EXPECT_EQ(shellQuote(QStringLiteral("it's.csv")), QStringLiteral("'it'\\''s.csv'"));
  EXPECT_EQ(shellQuote(QString()), QStringLiteral("''"));
  PrivacySettings settings;
  EXPECT_TRUE(cliCommand(settings, 5, {"my data.csv", "s.json", "o.csv", ""})
                  .startsWith(QStringLiteral("deniable-cli synthesize 'my data.csv' --mode ")));
}

TEST(CliCommandTest, NumbersReadBackExactly) {
  for (double value : {0.1, 1.0 / 3.0, 1e-9, 2.5, 100.0}) {
    EXPECT_EQ(exactNumber(value).toDouble(), value);
  }
  EXPECT_EQ(exactNumber(0.1), QStringLiteral("0.1"));
  EXPECT_EQ(exactNumber(1.0), QStringLiteral("1"));
}

}  // namespace
}  // namespace deniable::ui
