// SPDX-License-Identifier: Apache-2.0
// Privacy tab: the ledger rows are the accountant's entries, the whole-release guarantee comes
// first and per-record figures are labelled, the deniable pass rate, warnings, provenance.
#include <gtest/gtest.h>

#include <QStandardItemModel>

#include "tests/ui/review_test_fixture.h"
#include "ui/review/ledger_model.h"
#include "ui/review/network_facts.h"
#include "ui/review/privacy_facts.h"
#include "ui/review/privacy_view.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

TEST(ReviewFormatTest, FormatsNumbersForPeople) {
  EXPECT_EQ(formatCount(48842), QStringLiteral("48,842"));
  EXPECT_EQ(formatEpsilon(1.0), QStringLiteral("1.0"));
  EXPECT_EQ(formatEpsilon(0.123456), QStringLiteral("0.1235"));
  EXPECT_EQ(formatEpsilon(INFINITY), QStringLiteral("∞"));
  EXPECT_EQ(formatDelta(1e-9), QStringLiteral("10⁻⁹"));
  EXPECT_EQ(formatDelta(2.5e-7), QStringLiteral("2.5×10⁻⁷"));
  EXPECT_EQ(formatDelta(0), QStringLiteral("0"));
  EXPECT_EQ(formatDelta(0.01), QStringLiteral("0.01"));
  EXPECT_EQ(formatPercent(0.0034), QStringLiteral("0.3 %"));
}

TEST(PrivacyViewTest, LedgerRowsAreTheAccountantsEntries) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  auto accountant = PrivacyAccountant::FromJson(data->description.privacy);
  ASSERT_TRUE(accountant.has_value()) << accountant.error().message;
  const auto& entries = accountant->entries();
  ASSERT_FALSE(entries.empty());
  PrivacyView view;
  view.setData(data);
  const LedgerModel* model = view.ledgerModel();
  ASSERT_EQ(model->rowCount(), static_cast<int>(entries.size()));
  for (int row = 0; row < model->rowCount(); ++row) {
    const LedgerEntry& e = entries[static_cast<std::size_t>(row)];
    EXPECT_EQ(model->data(model->index(row, LedgerModel::kWhat)).toString(),
              readableLedgerLabel(e.label, AttributeNames(data->description)));
    EXPECT_EQ(model->data(model->index(row, LedgerModel::kMechanism)).toString().toStdString(),
              e.mechanism);
    EXPECT_EQ(model->data(model->index(row, LedgerModel::kEpsilon)).toString(),
              formatEpsilon(e.cost.epsilon));
    EXPECT_EQ(model->data(model->index(row, LedgerModel::kDelta)).toString(),
              formatDelta(e.cost.delta));
    EXPECT_EQ(model->data(model->index(row, LedgerModel::kRows)).toString().toStdString(),
              e.partition);
    EXPECT_EQ(model->entries()[static_cast<std::size_t>(row)].cost.epsilon, e.cost.epsilon);
  }
  const PrivacyCost total = accountant->Total();
  EXPECT_TRUE(view.ledgerTotalText().contains(
      QStringLiteral("Total of the ledger: ε = %1, δ = %2")
          .arg(formatEpsilon(total.epsilon), formatDelta(total.delta).toHtmlEscaped())));
}

TEST(PrivacyViewTest, HeadlineIsTheWholeReleaseGuaranteeWithThePlainStatement) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  PrivacyView view;
  view.setData(data);
  const double epsilon = data->description.guarantee["epsilon"].get<double>();
  const double delta = data->description.guarantee["delta"].get<double>();
  EXPECT_TRUE(view.headlineText().contains(
      QStringLiteral("Whole release: ε = %1, δ = %2")
          .arg(formatEpsilon(epsilon), formatDelta(delta)).toHtmlEscaped()));
  EXPECT_TRUE(view.headlineText().contains(
      QString::fromStdString(data->description.guarantee["statement"].get<std::string>()).toHtmlEscaped()));
  // A seeded run is labelled.
  EXPECT_TRUE(view.warningsText().contains(QStringLiteral("NOT a private release")));
  // Every column's provenance.
  EXPECT_EQ(view.domainModel()->rowCount(), static_cast<int>(data->description.domains.size()));
  EXPECT_EQ(view.domainModel()->item(0, 0)->text().toStdString(), data->description.domains[0].name);
  EXPECT_EQ(view.domainModel()->item(0, 4)->text().toStdString(),
            data->description.domains[0].provenance);
}

TEST(PrivacyFactsTest, DeniableModeLeadsWithTheWholeReleaseAndLabelsPerRecordFigures) {
  auto data = test_support::DemoDeniableReviewData(5, 11);
  ASSERT_NE(data, nullptr);
  const PrivacyFacts facts = ExtractPrivacyFacts(*data);
  ASSERT_FALSE(facts.guarantees.empty());
  EXPECT_TRUE(facts.guarantees[0].headline);
  EXPECT_EQ(facts.guarantees[0].label, QStringLiteral("Whole release"));
  EXPECT_EQ(facts.release.epsilon, 4.5);  // the release figure, not the per-record one
  EXPECT_EQ(facts.release.delta, 2e-7);
  const auto perRecord = std::find_if(facts.guarantees.begin(), facts.guarantees.end(),
                                      [](const GuaranteeLine& line) {
                                        return line.label.contains(QStringLiteral("differential privacy"));
                                      });
  ASSERT_NE(perRecord, facts.guarantees.end());
  EXPECT_TRUE(perRecord->label.startsWith(QStringLiteral("Each released record")));
  EXPECT_TRUE(perRecord->note.contains(QStringLiteral("NOT the whole release")));
  EXPECT_FALSE(perRecord->headline);
  EXPECT_EQ(facts.statement, QString::fromStdString(PlainGuarantee(4.5, 2e-7)));

  PrivacyView view;
  view.setData(data);
  EXPECT_EQ(view.passRateText(),
            QStringLiteral("<b>Pass rate</b>: 2,000 of 2,600 candidates passed the privacy test "
                           "(76.9 %)."));
}

TEST(PrivacyFactsTest, EntriesConcerningMatchTheAttributeAsSubjectOnly) {
  std::vector<LedgerEntry> entries(5);
  entries[0].label = "noisy counts of age | (sex, income)";
  entries[1].label = "categories of sex (partition selection)";
  entries[2].label = "bounds of age: lower quantile 0.001";
  entries[3].label = "histogram of a";
  entries[4].label = "missing code of agent";
  EXPECT_EQ(EntriesConcerning(entries, "age"), (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(EntriesConcerning(entries, "sex"), (std::vector<std::size_t>{1}));
  EXPECT_EQ(EntriesConcerning(entries, "a"), (std::vector<std::size_t>{3}));
  entries[3].label = "noisy counts of attribute 1 | (attribute 12)";
  EXPECT_EQ(EntriesConcerning(entries, "sex", 1), (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(EntriesConcerning(entries, "income", 12), (std::vector<std::size_t>{}));
}

TEST(PrivacyFactsTest, ReadableLedgerLabelsNameAttributesByName) {
  const std::vector<std::string> names = {"age", "sex", "income"};
  EXPECT_EQ(readableLedgerLabel("noisy counts of attribute 2 | (attribute 0, attribute 1 in 4 buckets)",
                                names),
            QStringLiteral("noisy counts of income | (age, sex in 4 buckets)"));
  EXPECT_EQ(readableLedgerLabel("histogram of attribute 7", names),
            QStringLiteral("histogram of attribute 7"));  // unknown index: left as is
  EXPECT_EQ(readableLedgerLabel("bounds of age: lower quantile 0.001", names),
            QStringLiteral("bounds of age: lower quantile 0.001"));
}

TEST(PrivacyFactsTest, WarnsOwnerOnlyWhenTheSyntheticTableRevealsTheInputSize) {
  auto base = test_support::DemoReviewData();
  ASSERT_NE(base, nullptr);
  auto data = std::make_shared<ReviewData>(*base);
  data->synthetic = data->real;  // same row count
  const PrivacyFacts facts = ExtractPrivacyFacts(*data);
  const auto warning = std::find_if(facts.warnings.begin(), facts.warnings.end(),
                                    [](const ReviewWarning& w) {
                                      return w.text.contains(QStringLiteral("reveals the input's size"));
                                    });
  ASSERT_NE(warning, facts.warnings.end());
  EXPECT_TRUE(warning->owner_only);
  EXPECT_TRUE(warning->text.contains(QStringLiteral("10,000")));
  const PrivacyFacts normal = ExtractPrivacyFacts(*base);
  for (const ReviewWarning& w : normal.warnings) EXPECT_FALSE(w.owner_only);
}

}  // namespace
}  // namespace deniable::ui
