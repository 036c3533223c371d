// SPDX-License-Identifier: Apache-2.0
// The Columns step's typed-output additions on tests/data/ui/typed_columns.csv (120 rows: an
// id, a date of birth with two-digit years, US state codes with one typo, incomes with cents
// written the way R writes them, a yes/no label with one rare "maybe", an integer code with
// repeats): formats shown and edited (decimals, two-digit-year window), the identifier role
// refused for a date and warned about for repeats, vocabulary suggestions declared, a target
// declared with its classes. Also renders the page offscreen to PNG files for review.
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QUndoStack>
#include <gtest/gtest.h>

#include "engine/schema/datetime.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/schema_model.h"
#include "ui/pages/columns_page.h"
#include "ui/session/session.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/target_classes_panel.h"
#include "ui/widgets/vocabulary_picker.h"

namespace deniable::ui {
namespace {

QString Fixture() { return QStringLiteral(DENIABLE_TEST_DATA_DIR "/ui/typed_columns.csv"); }

class ColumnsTypedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto data = test_support::loadCsv(Fixture());
    ASSERT_NE(data, nullptr);
    session_.setData(data);
    page_ = std::make_unique<ColumnsPage>(&session_);
    page_->resize(1100, 760);
  }
  int Index(const std::string& column) const { return session_.schema().ColumnIndex(column); }
  QModelIndex Cell(const std::string& column, int field) const {
    return page_->model()->index(Index(column), field);
  }
  const ColumnSchema& Column(const std::string& name) const {
    return session_.schema().columns.at(static_cast<std::size_t>(Index(name)));
  }
  QString BannerText() const {
    const auto* banner = page_->findChild<MessageBanner*>();
    return banner != nullptr && banner->isVisibleTo(page_.get()) ? banner->text() : QString();
  }
  Session session_;
  std::unique_ptr<ColumnsPage> page_;
};

TEST_F(ColumnsTypedTest, FormatsAreShownWithTheType) {
  EXPECT_EQ(Cell("income", SchemaModel::kType).data().toString(), QStringLiteral("Float (2 decimals)"));
  const int start = static_cast<int>(YearOfDays(TodayDays())) - 99;  // "47" would be 2047
  EXPECT_EQ(Cell("dob", SchemaModel::kType).data().toString(),
            QStringLiteral("DateTime (%-m/%-d/%y, %1–%2)").arg(start).arg(start + 99));
  page_->selectColumn(Index("income"));
  EXPECT_TRUE(page_->decimalsBox()->isVisibleTo(page_.get()));
  EXPECT_FALSE(page_->twoDigitYearBox()->isVisibleTo(page_.get()));
  EXPECT_EQ(page_->decimalsBox()->value(), 2);
  page_->decimalsBox()->setValue(1);
  EXPECT_EQ(Column("income").decimals, 1);
  session_.undoStack()->undo();
  EXPECT_EQ(Column("income").decimals, 2);
}

TEST_F(ColumnsTypedTest, TheTwoDigitYearWindowIsShownExplainedAndSettable) {
  page_->selectColumn(Index("dob"));
  EXPECT_TRUE(page_->twoDigitYearBox()->isVisibleTo(page_.get()));
  EXPECT_FALSE(page_->decimalsBox()->isVisibleTo(page_.get()));
  const int start = static_cast<int>(YearOfDays(TodayDays())) - 99;
  EXPECT_EQ(page_->twoDigitYearBox()->value(), start);
  EXPECT_TRUE(page_->reviewLabel()->text().contains(
      QStringLiteral("with the POSIX rule (1969-2068) 69 dates would fall after today")))
      << page_->reviewLabel()->text().toStdString();
  page_->twoDigitYearBox()->setValue(1930);
  EXPECT_EQ(Column("dob").two_digit_year_start, 1930);
  EXPECT_EQ(Cell("dob", SchemaModel::kType).data().toString(),
            QStringLiteral("DateTime (%-m/%-d/%y, 1930–2029)"));
}

TEST_F(ColumnsTypedTest, TheIdentifierRoleIsRefusedForADateAndWarnedForRepeats) {
  EXPECT_FALSE(page_->model()->setData(Cell("dob", SchemaModel::kRole), QStringLiteral("identifier"),
                                       Qt::EditRole));
  EXPECT_EQ(Column("dob").role, ColumnRole::kAttribute);
  EXPECT_TRUE(BannerText().contains(QStringLiteral("column 'dob' is DateTime"))) << BannerText().toStdString();
  // An integer code with repeats may be made an identifier, with a warning.
  ASSERT_TRUE(page_->model()->setData(Cell("code", SchemaModel::kRole), QStringLiteral("identifier"),
                                      Qt::EditRole));
  EXPECT_TRUE(Cell("code", SchemaModel::kRole).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("30 values repeat an earlier value")));
  EXPECT_FALSE(Cell("code", SchemaModel::kRole).data(Qt::DecorationRole).isNull());
  page_->selectColumn(Index("code"));
  EXPECT_TRUE(page_->reviewLabel()->text().contains(
      QStringLiteral("30 of 120 values repeat an earlier one (90 distinct)")))
      << page_->reviewLabel()->text().toStdString();
}

TEST_F(ColumnsTypedTest, AVocabularySuggestionIsDeclaredOnlyWhenTheOwnerAsks) {
  page_->selectColumn(Index("state"));
  VocabularyPicker* picker = page_->vocabularyPicker();
  ASSERT_EQ(picker->suggestionCount(), 2);
  EXPECT_TRUE(picker->combo()->itemText(0).contains(QStringLiteral("US states and DC (USPS codes)")));
  EXPECT_TRUE(picker->combo()->itemText(0).contains(QStringLiteral("30 of 51 seen")));
  EXPECT_TRUE(picker->detail()->text().contains(QStringLiteral("‘XX’ (1)"))) << picker->detail()->text().toStdString();
  EXPECT_FALSE(Column("state").public_categories.has_value());  // a suggestion only
  picker->declareButton()->click();
  const ColumnSchema& state = Column("state");
  EXPECT_TRUE(state.categorical);
  EXPECT_EQ(state.public_vocabulary, "us-states-usps");
  ASSERT_TRUE(state.public_categories.has_value());
  EXPECT_EQ(state.public_categories->size(), 51u);
  EXPECT_TRUE(picker->detail()->text().startsWith(QStringLiteral("Declared: ‘us-states-usps’")));
  EXPECT_TRUE(page_->reviewLabel()->text().contains(QStringLiteral("outside vocabulary 'us-states-usps'")));
  EXPECT_EQ(Cell("state", SchemaModel::kPublicDomain).data().toString(), QStringLiteral("51 categories"));
}

TEST_F(ColumnsTypedTest, ChoosingTargetShowsTheClassesAndDeclaresThemOnConfirmation) {
  // Choosing the role changes nothing yet: the page shows the classes with their counts.
  EXPECT_FALSE(page_->model()->setData(Cell("label", SchemaModel::kRole), QStringLiteral("target"),
                                       Qt::EditRole));
  EXPECT_EQ(Column("label").role, ColumnRole::kAttribute);
  TargetClassesPanel* panel = page_->targetPanel();
  ASSERT_TRUE(panel->isVisibleTo(page_.get()));
  QTreeWidget* classes = panel->classes();
  ASSERT_EQ(classes->topLevelItemCount(), 3);
  EXPECT_EQ(classes->topLevelItem(0)->text(0), QStringLiteral("⚠ maybe"));  // rare: 1 of 120
  EXPECT_EQ(classes->topLevelItem(0)->text(1), QStringLiteral("1"));
  EXPECT_EQ(classes->topLevelItem(1)->text(0), QStringLiteral("no"));
  EXPECT_EQ(classes->topLevelItem(1)->text(1), QStringLiteral("79"));
  EXPECT_EQ(classes->topLevelItem(2)->text(1), QStringLiteral("40"));
  EXPECT_TRUE(panel->note()->text().contains(QStringLiteral("1 class holds under 1% of the rows")));
  ASSERT_TRUE(panel->declareButton()->isEnabled());
  panel->declareButton()->click();
  const ColumnSchema& label = Column("label");
  EXPECT_EQ(label.role, ColumnRole::kTarget);
  EXPECT_EQ(*label.public_categories, (std::vector<std::string>{"maybe", "no", "yes"}));
  EXPECT_FALSE(panel->declareButton()->isVisibleTo(page_.get()));
  EXPECT_EQ(Cell("label", SchemaModel::kRole).data().toString(), QStringLiteral("target"));
  EXPECT_TRUE(page_->reviewLabel()->text().contains(QStringLiteral("class 'maybe' is rare")));
  // One undo step restores the attribute.
  session_.undoStack()->undo();
  EXPECT_EQ(Column("label").role, ColumnRole::kAttribute);
  EXPECT_FALSE(Column("label").public_categories.has_value());
}

// Renders the page for each addition (offscreen) and writes PNG files to the temp folder, for a
// person to look at; the test checks that something was drawn.
TEST_F(ColumnsTypedTest, RendersThePageToPng) {
  page_->show();
  ASSERT_FALSE(page_->model()->setData(Cell("label", SchemaModel::kRole), QStringLiteral("target"),
                                       Qt::EditRole));
  const QDir dir(QDir::tempPath());
  const std::vector<std::pair<std::string, QString>> shots = {
      {"label", QStringLiteral("deniable-columns-target.png")},
      {"state", QStringLiteral("deniable-columns-vocabulary.png")},
      {"dob", QStringLiteral("deniable-columns-two-digit-years.png")}};
  for (const auto& [column, file] : shots) {
    page_->selectColumn(Index(column));
    QCoreApplication::processEvents();  // let the layouts settle before the picture
    const QImage image = page_->grab().toImage();
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(image.width(), 800);
    const QString path = dir.filePath(file);
    ASSERT_TRUE(image.save(path)) << path.toStdString();
    std::printf("wrote %s\n", qPrintable(path));
  }
}

}  // namespace
}  // namespace deniable::ui
