// SPDX-License-Identifier: Apache-2.0
#include "ui/text/format.h"

#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"

namespace deniable::ui {
namespace {

// ui_test_main sets the default locale to English (United States). Counts, ε, δ and percentages
// are ui/review/review_format.h's (tested with the review views).

TEST(FormatTest, RowsHaveThousandsSeparatorsAndASingular) {
  EXPECT_EQ(formatRows(1), QStringLiteral("1 row"));
  EXPECT_EQ(formatRows(48842), QStringLiteral("48,842 rows"));
  EXPECT_EQ(formatRows(1500000), QStringLiteral("1,500,000 rows"));
}

TEST(FormatTest, DurationsAndSizes) {
  EXPECT_EQ(formatSeconds(0.42), QStringLiteral("420 ms"));
  EXPECT_EQ(formatSeconds(1.54), QStringLiteral("1.5 s"));
  EXPECT_EQ(formatSeconds(12.4), QStringLiteral("12 s"));
  EXPECT_EQ(formatSeconds(185), QStringLiteral("3 min 5 s"));
  EXPECT_EQ(formatMegabytes(120.4), QStringLiteral("120 MB"));
  EXPECT_EQ(formatMegabytes(1500), QStringLiteral("1.5 GB"));
  EXPECT_EQ(formatBytes(512), QStringLiteral("512 bytes"));
  EXPECT_EQ(formatBytes(3'200'000), QStringLiteral("3.2 MB"));
}

}  // namespace
}  // namespace deniable::ui
