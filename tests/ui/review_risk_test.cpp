// SPDX-License-Identifier: Apache-2.0
// Review → Disclosure risk (#11 part 1): the tab presets the sensitive attribute and the
// quasi-identifiers from the schema's roles and ε from the run, computes on a worker exactly
// what the engine computes (engine/risk/table_risk.h), recommends the largest ε whose records
// all stay inside the region the spin boxes set, keeps its figures when a computation is
// cancelled, and says why it cannot compute (no sensitive attribute, a constant column, one
// record).
#include <gtest/gtest.h>

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineSeries>
#include <QListWidget>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/paths.h"
#include "tests/ui/review_test_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/review/review_widget.h"
#include "ui/review/risk_chart.h"
#include "ui/review/risk_view.h"

namespace deniable::ui {
namespace {

void SetRole(Schema& schema, const std::string& name, ColumnRole role) {
  const int index = schema.ColumnIndex(name);
  ASSERT_GE(index, 0) << name;
  schema.columns[static_cast<std::size_t>(index)].role = role;
}

// ReviewData of a CSV with roles: `sensitive` ("" = none) and `quasi`; the run's ε.
std::shared_ptr<ReviewData> DataOf(const QString& path, const std::string& sensitive,
                                   const std::vector<std::string>& quasi, double epsilon = 1) {
  auto loaded = test_support::loadCsv(path);
  if (!loaded) return nullptr;
  auto data = std::make_shared<ReviewData>();
  data->input_path = path;
  data->real = loaded->table;
  data->schema = loaded->schema;
  if (!sensitive.empty()) SetRole(data->schema, sensitive, ColumnRole::kSensitive);
  for (const std::string& name : quasi) SetRole(data->schema, name, ColumnRole::kQuasiIdentifier);
  data->settings.epsilon = epsilon;
  return data;
}

// 24 patients: sex, age band, diagnosis (3 values); 6 cells, one of them a single man of 60+.
std::shared_ptr<ReviewData> ClinicData(double epsilon = 1) {
  return DataOf(QString::fromStdString(deniable::test_support::SourcePath("tests/data/ui/risk_clinic.csv")),
                "diagnosis", {"sex", "age_band"}, epsilon);
}

bool ComputeAndWait(RiskView& view) {
  QSignalSpy spy(&view, &RiskView::computationFinished);
  view.compute();
  return !spy.isEmpty() || spy.wait(120'000);
}

// Waits for a computation the view started by itself (an edit, after its pause).
bool WaitForComputation(RiskView& view) {
  QSignalSpy spy(&view, &RiskView::computationFinished);
  return spy.wait(120'000);
}

void ExpectSameReport(const TableRiskReport& shown, const TableRiskReport& engine) {
  EXPECT_EQ(shown.rows, engine.rows);
  EXPECT_EQ(shown.cells, engine.cells);
  EXPECT_EQ(shown.categories, engine.categories);
  ASSERT_EQ(shown.groups.size(), engine.groups.size());
  EXPECT_EQ(shown.recommended_epsilon, engine.recommended_epsilon);
  ASSERT_EQ(shown.per_epsilon.size(), engine.per_epsilon.size());
  for (std::size_t e = 0; e < engine.per_epsilon.size(); ++e) {
    const EpsilonRisk& a = shown.per_epsilon[e];
    const EpsilonRisk& b = engine.per_epsilon[e];
    EXPECT_EQ(a.epsilon, b.epsilon);
    EXPECT_EQ(a.records_outside, b.records_outside) << "epsilon " << b.epsilon;
    for (std::size_t g = 0; g < b.groups.size(); ++g) {
      EXPECT_EQ(a.groups[g].max_relative, b.groups[g].max_relative);
      EXPECT_EQ(a.groups[g].absolute_at_half, b.groups[g].absolute_at_half);
      EXPECT_EQ(a.groups[g].inside, b.groups[g].inside);
    }
  }
}

TEST(RiskViewTest, PresetsTheRolesAndComputesTheEnginesFigures) {
  auto data = ClinicData();
  ASSERT_NE(data, nullptr);
  RiskView view;
  view.setData(data);
  EXPECT_EQ(view.sensitiveBox()->currentText(), QStringLiteral("diagnosis"));
  QStringList checked;
  for (int i = 0; i < view.quasiList()->count(); ++i) {
    if (view.quasiList()->item(i)->checkState() == Qt::Checked) checked << view.quasiList()->item(i)->text();
  }
  EXPECT_EQ(checked, (QStringList{QStringLiteral("sex"), QStringLiteral("age_band")}));
  EXPECT_DOUBLE_EQ(view.epsilonBox()->value(), 1.0);
  EXPECT_EQ(view.analysis(), nullptr);  // a hidden tab computes when shown, or when asked

  ASSERT_TRUE(ComputeAndWait(view));
  ASSERT_EQ(view.state(), RiskView::State::kReady) << view.verdictText().toStdString();
  ASSERT_NE(view.analysis(), nullptr);
  auto engine = AnalyseTableRisk(*data->real, riskOptions(QStringLiteral("diagnosis"),
                                                          {QStringLiteral("sex"), QStringLiteral("age_band")},
                                                          1.0, 10, 0.1, 1.05));
  ASSERT_TRUE(engine.has_value()) << engine.error().message;
  ExpectSameReport(view.analysis()->report, engine.value());
  // This table's figures: 6 cells, 12 (cell, value) groups; at ε = 1 (the run's) every record
  // is outside; the largest safe ε of the grid is 0.05.
  const TableRiskReport& report = view.analysis()->report;
  EXPECT_EQ(report.cells, 6);
  EXPECT_EQ(report.categories, 3);
  EXPECT_EQ(report.groups.size(), 12u);
  ASSERT_TRUE(report.recommended_epsilon.has_value());
  EXPECT_DOUBLE_EQ(*report.recommended_epsilon, 0.05);
  EXPECT_EQ(view.analysis()->shown().epsilon, 1.0);
  EXPECT_EQ(view.analysis()->shown().records_outside, 24);
  EXPECT_TRUE(view.verdictText().contains(QStringLiteral("At ε = 1.0 (your run's ε), 24 of 24 records")))
      << view.verdictText().toStdString();
  EXPECT_TRUE(view.verdictText().contains(QStringLiteral("Recommended: ε = 0.05,")))
      << view.verdictText().toStdString();
  EXPECT_TRUE(view.scopeText().contains(QStringLiteral("cells from sex, age_band: 6")))
      << view.scopeText().toStdString();

  // The worst group first: the single man of 60+ (his cell is his record alone).
  const QStandardItemModel* worst = view.worstModel();
  ASSERT_EQ(worst->rowCount(), 12);
  EXPECT_EQ(worst->item(0, 0)->text(), QStringLiteral("M, 60+"));
  EXPECT_EQ(worst->item(0, 1)->text(), QStringLiteral("asthma"));
  EXPECT_EQ(worst->item(0, 3)->text(), QStringLiteral("1"));
  const std::uint32_t unique = report.row_group[23];
  EXPECT_EQ(worst->item(0, 4)->text(),
            QString::number(engine->per_epsilon[view.analysis()->level].groups[unique].max_relative, 'g', 4));
  EXPECT_EQ(worst->item(0, 7)->text(), QStringLiteral("outside"));

  // The plot: every record on a line, the region of the computation.
  EXPECT_TRUE(view.chartView()->isVisibleTo(&view));
  std::int64_t plotted = 0;
  for (const RiskCurve& curve : view.chartView()->curves()) plotted += curve.records;
  EXPECT_EQ(plotted, 24);
  EXPECT_DOUBLE_EQ(view.chartView()->region().maxRelative, 10);
  EXPECT_DOUBLE_EQ(view.chartView()->region().maxAbsolute, 0.1);
  EXPECT_DOUBLE_EQ(view.chartView()->region().maxRelativeAbove, 1.05);
}

TEST(RiskViewTest, ThresholdEditsChangeTheRecommendation) {
  auto data = ClinicData();
  ASSERT_NE(data, nullptr);
  RiskView view;
  view.resize(1000, 900);
  view.show();  // a visible tab computes by itself, and again after each edit
  view.setData(data);
  ASSERT_TRUE(WaitForComputation(view));
  ASSERT_NE(view.analysis(), nullptr);
  EXPECT_DOUBLE_EQ(*view.analysis()->report.recommended_epsilon, 0.05);

  // Above R = 0.1, accept RR up to 2: records may be twice as likely as the prior says.
  view.maxRelativeAboveBox()->setValue(2.0);
  ASSERT_TRUE(WaitForComputation(view));
  ASSERT_EQ(view.state(), RiskView::State::kReady);
  auto engine = AnalyseTableRisk(*data->real, riskOptions(QStringLiteral("diagnosis"),
                                                          {QStringLiteral("sex"), QStringLiteral("age_band")},
                                                          1.0, 10, 0.1, 2.0));
  ASSERT_TRUE(engine.has_value());
  ExpectSameReport(view.analysis()->report, engine.value());
  ASSERT_TRUE(view.analysis()->report.recommended_epsilon.has_value());
  EXPECT_DOUBLE_EQ(*view.analysis()->report.recommended_epsilon, 0.5);
  EXPECT_TRUE(view.verdictText().contains(QStringLiteral("Recommended: ε = 0.5,")))
      << view.verdictText().toStdString();
  EXPECT_DOUBLE_EQ(view.chartView()->region().maxRelativeAbove, 2.0);

  // A stricter region: RR ≤ 1.001 above R = 0.1 lowers it below the grid.
  view.maxRelativeAboveBox()->setValue(1.001);
  ASSERT_TRUE(WaitForComputation(view));
  EXPECT_FALSE(view.analysis()->report.recommended_epsilon.has_value());
  EXPECT_TRUE(view.verdictText().contains(QStringLiteral("No ε tested, down to 0.01")))
      << view.verdictText().toStdString();
}

TEST(RiskViewTest, CancelKeepsThePreviousFigures) {
  auto data = ClinicData();
  ASSERT_NE(data, nullptr);
  RiskView view;
  view.setData(data);
  ASSERT_TRUE(ComputeAndWait(view));
  const std::shared_ptr<const RiskAnalysis> before = view.analysis();
  ASSERT_NE(before, nullptr);
  const QString verdict = view.verdictText();
  const QString scope = view.scopeText();

  view.maxRelativeAboveBox()->setValue(2.0);  // hidden: waits to be shown or asked
  QSignalSpy spy(&view, &RiskView::computationFinished);
  view.compute();
  EXPECT_TRUE(view.busy());
  view.cancel();
  ASSERT_TRUE(spy.wait(120'000));
  EXPECT_EQ(view.state(), RiskView::State::kCancelled);
  EXPECT_FALSE(view.busy());
  EXPECT_EQ(view.analysis(), before);
  EXPECT_EQ(view.verdictText(), verdict);
  EXPECT_EQ(view.scopeText(), scope);  // it still names RR ≤ 1.05, the figures' region
  EXPECT_TRUE(view.scopeText().contains(QStringLiteral("RR ≤ 1.05 above")));
  EXPECT_DOUBLE_EQ(view.chartView()->region().maxRelativeAbove, 1.05);
  EXPECT_TRUE(view.statusText().startsWith(QStringLiteral("Cancelled.")))
      << view.statusText().toStdString();

  // Computing again shows the new region's figures.
  ASSERT_TRUE(ComputeAndWait(view));
  EXPECT_EQ(view.state(), RiskView::State::kReady);
  EXPECT_DOUBLE_EQ(*view.analysis()->report.recommended_epsilon, 0.5);
}

class RiskViewProblemTest : public ::testing::Test {
 protected:
  QString WriteCsv(const char* name, const char* text) {
    const QString path = dir_.filePath(QString::fromLatin1(name));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
    return path;
  }
  QTemporaryDir dir_;
};

TEST_F(RiskViewProblemTest, SaysWhyItCannotComputeAndComputesNothing) {
  struct Case {
    const char* file;
    const char* csv;
    std::string sensitive;
    const char* says;
  } cases[] = {
      {"none.csv", "a,b\nx,1\ny,2\n", "", "Choose the sensitive attribute"},
      {"constant.csv", "a,b\nx,1\ny,1\nz,1\n", "b", "'b' has the same value in every record ('1')"},
      {"one_row.csv", "a,b\nx,1\n", "b", "The real table has one record"},
  };
  for (const Case& c : cases) {
    auto data = DataOf(WriteCsv(c.file, c.csv), c.sensitive, {});
    ASSERT_NE(data, nullptr) << c.file;
    RiskView view;
    view.setData(data);
    view.compute();
    EXPECT_EQ(view.state(), RiskView::State::kNeedsInput) << c.file;
    EXPECT_FALSE(view.busy()) << c.file;
    EXPECT_EQ(view.analysis(), nullptr) << c.file;
    EXPECT_TRUE(view.verdictText().contains(QString::fromUtf8(c.says).toHtmlEscaped()))
        << c.file << ": " << view.verdictText().toStdString();
    EXPECT_TRUE(view.chartView()->curves().empty()) << c.file;
    EXPECT_FALSE(view.chartView()->isVisibleTo(&view)) << c.file;  // no empty plot
  }
}

TEST_F(RiskViewProblemTest, ChoosingASensitiveAttributeComputes) {
  auto data = DataOf(WriteCsv("choose.csv", "a,b\nx,1\ny,2\nx,2\ny,1\n"), "", {});
  ASSERT_NE(data, nullptr);
  RiskView view;
  view.show();
  view.setData(data);
  QTest::qWait(50);
  EXPECT_EQ(view.state(), RiskView::State::kNeedsInput);
  view.sensitiveBox()->setCurrentIndex(view.sensitiveBox()->findText(QStringLiteral("b")));
  // The sensitive column cannot be a quasi-identifier too.
  const QListWidgetItem* b = view.quasiList()->findItems(QStringLiteral("b"), Qt::MatchExactly).at(0);
  EXPECT_FALSE(b->flags() & Qt::ItemIsEnabled);
  ASSERT_TRUE(WaitForComputation(view));
  ASSERT_EQ(view.state(), RiskView::State::kReady);
  EXPECT_EQ(view.analysis()->report.rows, 4);
  EXPECT_EQ(view.analysis()->report.cells, 1);
}

// The acceptable region is an area series between two line series that it does not own: the
// chart owns them, so replacing the plot deletes them with it.
TEST(RiskViewTest, TheRegionsBoundaryLinesGoWithTheirChart) {
  RiskView view;
  view.setData(ClinicData());
  ASSERT_TRUE(ComputeAndWait(view));
  ASSERT_EQ(view.state(), RiskView::State::kReady) << view.verdictText().toStdString();
  QChart* chart = view.chartView()->chart();
  QAreaSeries* area = nullptr;
  for (QAbstractSeries* series : chart->series()) {
    if (auto* a = qobject_cast<QAreaSeries*>(series)) area = a;
  }
  ASSERT_NE(area, nullptr);
  QLineSeries* upperLine = area->upperSeries();
  QLineSeries* lowerLine = area->lowerSeries();
  ASSERT_NE(upperLine, nullptr);
  ASSERT_NE(lowerLine, nullptr);
  EXPECT_EQ(upperLine->parent(), chart);
  EXPECT_EQ(lowerLine->parent(), chart);
  const RiskAxes& axes = view.chartView()->axes();
  const QVector<QPointF> edge =
      riskRegionEdge(riskRegionOf(view.analysis()->options), axes.xMin);
  EXPECT_EQ(upperLine->points(), QList<QPointF>(edge.begin(), edge.end()));
  EXPECT_EQ(lowerLine->points(),
            QList<QPointF>({QPointF(axes.xMin, axes.yMin), QPointF(1.0, axes.yMin)}));
  const QPointer<QLineSeries> upper = upperLine;
  const QPointer<QLineSeries> lower = lowerLine;
  const QPointer<QAreaSeries> areaAlive = area;
  view.chartView()->showMessage(QStringLiteral("replaced"));
  EXPECT_TRUE(areaAlive.isNull());
  EXPECT_TRUE(upper.isNull());
  EXPECT_TRUE(lower.isNull());
}

// The tab on the demo data (10,000 rows of Adult), income sensitive, sex, race and age known:
// the engine's figures, and a picture to look at (DENIABLE_UI_GRAB_DIR=/tmp/x saves it).
TEST(RiskViewTest, RendersTheDemoDataPlot) {
  auto base = deniable::test_support::DemoReviewData();
  ASSERT_NE(base, nullptr);
  auto data = std::make_shared<ReviewData>(*base);
  SetRole(data->schema, "income", ColumnRole::kSensitive);
  for (const char* name : {"sex", "race", "age"}) SetRole(data->schema, name, ColumnRole::kQuasiIdentifier);
  ReviewWidget widget;
  widget.setData(data);
  RiskView* view = widget.riskView();
  ASSERT_TRUE(ComputeAndWait(*view));
  ASSERT_EQ(view->state(), RiskView::State::kReady) << view->verdictText().toStdString();
  auto engine = AnalyseTableRisk(*data->real, view->currentRequest().options);
  ASSERT_TRUE(engine.has_value());
  ExpectSameReport(view->analysis()->report, engine.value());
  EXPECT_GT(view->analysis()->shown().records_outside, 0);
  const RiskAxes& axes = view->chartView()->axes();
  EXPECT_LT(axes.xMin, 0.1);
  EXPECT_DOUBLE_EQ(axes.xMax, 1.0);
  EXPECT_LE(axes.yMin, 1.0);
  EXPECT_GE(axes.yMax, 10.0);
  bool outside = false;
  for (const RiskCurve& curve : view->chartView()->curves()) outside = outside || !curve.inside;
  EXPECT_TRUE(outside);
  const QImage image = widget.renderTab(ReviewTab::kRisk, QSize(1280, 1000));
  EXPECT_EQ(image.size(), QSize(1280, 1000));
  if (const QString dir = qEnvironmentVariable("DENIABLE_UI_GRAB_DIR"); !dir.isEmpty()) {
    image.save(dir + QStringLiteral("/risk_demo.png"));
    RiskView clinic;
    clinic.setData(ClinicData());
    ASSERT_TRUE(ComputeAndWait(clinic));
    clinic.resize(1000, 1100);
    clinic.grab().save(dir + QStringLiteral("/risk_clinic.png"));
  }
}

}  // namespace
}  // namespace deniable::ui
