// SPDX-License-Identifier: Apache-2.0
// What the Guarantee panel says: the engine's numbers and sentence, and the warnings a data
// owner must see (public bounds read off the data, the input's size, reproducible mode).
#include "ui/session/guarantee_summary.h"

#include <gtest/gtest.h>

#include "engine/deniable/guarantees.h"
#include "engine/model/domains.h"
#include "tests/ui/ui_test_support.h"
#include "ui/session/session.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

using test_support::loadDemo;

bool AnyContains(const QStringList& texts, const QString& part) {
  for (const QString& text : texts) {
    if (text.contains(part)) return true;
  }
  return false;
}

nlohmann::json AgeBounds(double lo, double hi) {
  return {{"columns", nlohmann::json::array({{{"name", "age"}, {"public", {{"min", lo}, {"max", hi}}}}})}};
}

TEST(GuaranteeSummaryTest, BeforeARunTheNumbersAndSentenceAreTheBudgetsFromTheEngine) {
  Session session;
  session.setData(loadDemo());
  const GuaranteeSummary summary = summarizeGuarantee(session);
  ASSERT_TRUE(summary.available);
  EXPECT_FALSE(summary.from_ledger);
  ASSERT_FALSE(summary.numbers.empty());
  EXPECT_EQ(summary.numbers[0].second, QStringLiteral("ε = 1.0, δ = 10⁻⁹"));
  EXPECT_EQ(summary.statement, QString::fromStdString(PlainGuarantee(1.0, 1e-9)));
}

TEST(GuaranteeSummaryTest, BoundsEqualToTheDataRangeAreFlaggedAsReadOffTheData) {
  Session session;
  session.setData(loadDemo());
  const int age = session.schema().ColumnIndex("age");
  const auto range = dataRange(*session.data()->table, static_cast<std::size_t>(age),
                               session.schema().columns[static_cast<std::size_t>(age)]);
  ASSERT_TRUE(range.has_value());
  ASSERT_TRUE(session.editColumns(AgeBounds(range->first, range->second), "exact"));
  EXPECT_TRUE(AnyContains(summarizeGuarantee(session).warnings,
                          QStringLiteral("exactly the data's smallest and largest values")));
  ASSERT_TRUE(session.editColumns(AgeBounds(0, 120), "round"));
  const QStringList warnings = summarizeGuarantee(session).warnings;
  EXPECT_FALSE(AnyContains(warnings, QStringLiteral("exactly the data's")));
  EXPECT_TRUE(AnyContains(warnings, QStringLiteral("You declared public the bounds of ‘age’")));
}

TEST(GuaranteeSummaryTest, ReleasingTheInputsRowCountIsAWarningAndAnotherCountANote) {
  Session session;
  session.setData(loadDemo());
  // The default is a public constant (10,000, which happens to be the demo's size): a note.
  EXPECT_EQ(session.settings().rows, kDefaultSyntheticRows);
  EXPECT_FALSE(AnyContains(summarizeGuarantee(session).warnings,
                           QStringLiteral("reveals the input's size")));
  EXPECT_TRUE(AnyContains(summarizeGuarantee(session).notes, QStringLiteral("equals your input")));
  PrivacySettings settings = session.settings();
  settings.rows = 0;  // "Same as the input"
  session.editSettings(settings, "same");
  EXPECT_TRUE(AnyContains(summarizeGuarantee(session).warnings, QStringLiteral("10,000")));
  settings.rows = 5000;
  session.editSettings(settings, "rows");
  const GuaranteeSummary summary = summarizeGuarantee(session);
  EXPECT_FALSE(AnyContains(summary.warnings, QStringLiteral("reveals the input's size")));
  EXPECT_TRUE(AnyContains(summary.notes, QStringLiteral("5,000")));
}

TEST(GuaranteeSummaryTest, ReproducibleModeLeadsTheWarningsAndLargeEpsilonIsWeak) {
  Session session;
  session.setData(loadDemo());
  PrivacySettings settings = session.settings();
  settings.reproducible = true;
  settings.model.epsilon = 8;
  session.editSettings(settings, "testing");
  const QStringList warnings = summarizeGuarantee(session).warnings;
  ASSERT_FALSE(warnings.isEmpty());
  EXPECT_TRUE(warnings.front().contains(QStringLiteral("NOT a private release")));
  EXPECT_TRUE(AnyContains(warnings, QStringLiteral("weak guarantee")));
}

TEST(GuaranteeSummaryTest, DeniableModeShowsTheModelBudgetAndTheEnginesPerRecordGuarantee) {
  Session session;
  session.setData(loadDemo());
  PrivacySettings settings = session.settings();
  settings.model.mode = SynthesisMode::kDeniable;
  session.editSettings(settings, "deniable");
  const GuaranteeSummary summary = summarizeGuarantee(session);
  const DeniableOptions& options = settings.model.deniable;
  const RecordGuarantee record =
      BestRecordGuarantee(options.k, options.gamma, options.epsilon0, options.record_delta);
  QStringList labels;
  QString per_record, whole_release;
  for (const auto& [label, value] : summary.numbers) {
    labels << label;
    if (label == QStringLiteral("Per record")) per_record = value;
    if (label == QStringLiteral("Whole release")) whole_release = value;
  }
  EXPECT_TRUE(labels.contains(QStringLiteral("Model budget")));
  EXPECT_EQ(per_record, QStringLiteral("ε = %1, δ = %2")
                            .arg(formatEpsilon(record.cost.epsilon), formatDelta(record.cost.delta)));
  // The whole release is planned by the engine before the run (the test over T attempts).
  auto plan = PlanDeniableRelease(settings.model, session.outputRows(),
                                  ModelledColumns(session.schema()).size());
  ASSERT_TRUE(plan.has_value()) << plan.error().message;
  EXPECT_EQ(whole_release, QStringLiteral("ε = %1, δ = %2")
                               .arg(formatEpsilon(plan->release.epsilon),
                                    formatDelta(plan->release.delta)));
  EXPECT_GT(plan->release.epsilon, 100.0);  // composing T attempts: honest, and large
  EXPECT_EQ(summary.statement.toStdString(), plan->statement);
}

}  // namespace
}  // namespace deniable::ui
