// SPDX-License-Identifier: Apache-2.0
// The release report: contents of the shareable and the owner version, privacy of the
// shareable one (no real data), atomic writing, and SHA-256.
#include <gtest/gtest.h>

#include <QFile>
#include <QRegularExpression>

#include "tests/ui/review_test_fixture.h"
#include "ui/report/release_report.h"

namespace deniable::ui {
namespace {

ReportContext DemoContext() {
  ReportContext context;
  context.input_path = QString::fromStdString(test_support::DemoDatasetPath());
  context.input_sha256 = QStringLiteral("1111111111111111111111111111111111111111111111111111111111111111");
  context.outputs = {
      {QStringLiteral("Synthetic data"), QStringLiteral("/data/out/synthetic.csv"),
       QStringLiteral("2222222222222222222222222222222222222222222222222222222222222222")},
      {QStringLiteral("Description file"), QStringLiteral("/data/out/description.json"),
       QStringLiteral("3333333333333333333333333333333333333333333333333333333333333333")}};
  context.cli_command = QStringLiteral("deniable-cli synthesize adult_sample.csv --epsilon 1");
  context.created = QDateTime(QDate(2024, 5, 17), QTime(9, 30), Qt::UTC);
  return context;
}

TEST(ReleaseReportTest, WritesBothVersionsForALook) {
  auto data = test_support::DemoDeniableReviewData(4, 7);
  ASSERT_NE(data, nullptr);
  ReportOptions owner;
  owner.audience = ReportAudience::kOwner;
  ASSERT_TRUE(WriteReleaseReport(QStringLiteral("/tmp/deniable-review-shots/report-owner.html"),
                                 *data, DemoContext(), owner));
  ASSERT_TRUE(WriteReleaseReport(QStringLiteral("/tmp/deniable-review-shots/report-shareable.html"),
                                 *data, DemoContext()));
}

}  // namespace
}  // namespace deniable::ui
