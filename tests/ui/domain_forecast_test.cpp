// SPDX-License-Identifier: Apache-2.0
// The domain forecast on the Columns step (what the chosen ε keeps of each column), computed in
// the background and following the Columns and Privacy steps; the Privacy step's "Automatic"
// domain share through undo/redo, the project file, the CLI command and the report.
#include <cstdlib>
#include <gtest/gtest.h>

#include <QDeadlineTimer>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

#include "engine/core/atomic_file.h"
#include "engine/model/domains.h"
#include "engine/pipeline/synthesis_job.h"
#include "tests/ui/review_test_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/models/schema_model.h"
#include "ui/pages/columns_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/project/cli_command.h"
#include "ui/project/project_file.h"
#include "ui/report/release_report.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecaster.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/format.h"
#include "ui/widgets/mode_card.h"
#include "ui/widgets/parameter_slider.h"

namespace deniable::ui {
namespace {

using State = DomainForecaster::State;

// Waits (through the event loop) until the forecaster is no longer computing. The timeout only
// guards against a hang: the demo's forecast takes milliseconds.
bool WaitForForecast(DomainForecaster& forecaster, int timeout_ms = 120'000) {
  QSignalSpy spy(&forecaster, &DomainForecaster::changed);
  QDeadlineTimer deadline(timeout_ms);
  while (forecaster.state() == State::kComputing) {
    if (!spy.wait(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())))) return false;
  }
  return true;
}

class DomainForecastTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = std::make_unique<MainWindow>();
    // The demo's CSV without its schema file: every String column takes part in the set
    // union, numeric columns get private adaptive histograms.
    data_ = test_support::loadDemo();
    ASSERT_NE(data_, nullptr);
    session().setData(data_);
    ASSERT_TRUE(WaitForForecast(forecaster()));
    ASSERT_EQ(forecaster().state(), State::kReady) << forecaster().error().toStdString();
  }
  Session& session() { return *window_->session(); }
  DomainForecaster& forecaster() { return *window_->columnsPage()->forecaster(); }
  const ColumnForecastView& Column(const std::string& name) {
    return forecaster().current()->columns[static_cast<std::size_t>(session().schema().ColumnIndex(name))];
  }
  QModelIndex Cell(const std::string& name) {
    return window_->columnsPage()->model()->index(session().schema().ColumnIndex(name),
                                                  SchemaModel::kForecast);
  }
  void SetEpsilon(double epsilon) {
    // As the owner does it: the ε spin box of the Privacy step.
    window_->privacyPage()->epsilonSlider()->spinBox()->setValue(epsilon);
    ASSERT_DOUBLE_EQ(session().settings().model.epsilon, epsilon);
  }

  std::unique_ptr<MainWindow> window_;
  std::shared_ptr<const LoadedData> data_;
};

TEST_F(DomainForecastTest, ShowsTheEnginesForecastPerColumnForTheOwnersEyes) {
  // The same figures as the engine's ForecastDomains (what `deniable-cli inspect` prints).
  // The mode's own union (the marginals mode, the default: a zCDP union sharing the model's
  // block, dp/set_union.md "Under zCDP").
  auto engine = ForecastDomains(*data_->table, session().schema(), 1.0, 1e-9, std::nullopt,
                                nullptr, MissingMarkersOf(session().settings().model.mode));
  ASSERT_TRUE(engine.has_value()) << engine.error().message;
  const auto record = forecaster().current();
  EXPECT_EQ(record->budget.rule, engine->budget.rule);
  const std::vector<int> modelled = ModelledColumns(session().schema());
  ASSERT_EQ(modelled.size(), engine->columns.size());
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    const ColumnForecastView& view = record->columns[static_cast<std::size_t>(modelled[k])];
    EXPECT_TRUE(view.modelled);
    EXPECT_EQ(view.forecast.summary, engine->columns[k].summary) << engine->columns[k].column;
    EXPECT_EQ(view.forecast.merge_below, engine->columns[k].merge_below);
    const QModelIndex cell = window_->columnsPage()->model()->index(modelled[k], SchemaModel::kForecast);
    EXPECT_EQ(cell.data().toString(), forecastCellText(view));
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(QString::fromStdString(view.forecast.summary)));
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("for your eyes only")));
  }
  // A union column: "keeps ~K of V"; a numeric column: its adaptive stage's threshold.
  const ColumnForecast& country = Column("native-country").forecast;
  ASSERT_EQ(country.need, DomainNeed::kSetUnion);
  EXPECT_EQ(Cell("native-country").data().toString(),
            QStringLiteral("keeps ~%1 of %2").arg(country.likely_kept).arg(country.values));
  const ColumnForecast& age = Column("age").forecast;
  ASSERT_EQ(age.need, DomainNeed::kHistogram);
  EXPECT_EQ(Cell("age").data().toString(),
            QStringLiteral("bins down to ~%1 rows").arg(age.rows_per_leaf));
  // The header: the settings, the rule's line, and that it is for the owner only.
  const QString header = window_->columnsPage()->forecastHeaderText();
  EXPECT_TRUE(header.contains(QStringLiteral("ε = 1.0"))) << header.toStdString();
  EXPECT_TRUE(header.contains(QStringLiteral("by the rule"))) << header.toStdString();
  EXPECT_TRUE(header.contains(QStringLiteral("for your eyes only"))) << header.toStdString();
  EXPECT_TRUE(record->off_ui_thread);
}

TEST_F(DomainForecastTest, AColumnThatLosesValuesNamesThemAndTheFixes) {
  // At ε = 2 the rule's target (not its cap) sets the union's ε: the fixes include a larger
  // share of ε for the domains.
  SetEpsilon(2.0);
  ASSERT_TRUE(WaitForForecast(forecaster()));
  const ColumnForecastView& country = Column("native-country");
  ASSERT_GT(country.forecast.merge_below, 0u) << "the demo's rare countries merge at ε = 1";
  ASSERT_GT(country.merged_values, 0u);
  // The listed values are exactly the rarest ones below the threshold, rarest first.
  const RawColumn& raw = data_->table->columns[static_cast<std::size_t>(session().schema().ColumnIndex("native-country"))];
  std::uint64_t below = 0;
  for (std::uint64_t count : raw.counts) below += count < country.forecast.merge_below ? 1 : 0;
  EXPECT_EQ(country.merged_values, below);
  for (std::size_t i = 0; i < country.merged.size(); ++i) {
    EXPECT_LT(country.merged[i].rows, country.forecast.merge_below);
    if (i > 0) {
      EXPECT_LE(country.merged[i - 1].rows, country.merged[i].rows);
    }
  }
  EXPECT_TRUE(forecastLosesValues(country));
  EXPECT_FALSE(Cell("native-country").data(Qt::DecorationRole).isNull());  // a warning icon
  window_->columnsPage()->selectColumn(session().schema().ColumnIndex("native-country"));
  const QString details = window_->columnsPage()->forecastDetailsText();
  EXPECT_TRUE(details.contains(QStringLiteral("Likely merged: %1").arg(QString::fromStdString(country.merged.front().text))))
      << details.toStdString();
  EXPECT_TRUE(details.contains(QStringLiteral("declare the category list public"))) << details.toStdString();
  EXPECT_TRUE(details.contains(QStringLiteral("share of ε for domains"))) << details.toStdString();
  // A column that keeps everything asks for nothing.
  const ColumnForecastView& sex = Column("sex");
  ASSERT_EQ(sex.forecast.need, DomainNeed::kSetUnion);
  EXPECT_FALSE(forecastLosesValues(sex));
  EXPECT_EQ(Cell("sex").data().toString(), QStringLiteral("keeps all 2 values"));
}

// A numeric column without public bounds says how many rows a cluster far from the rest needs
// (capital-loss: its non-zero values), in the mode chosen: the default marginals mode counts its
// magnitude groups with Gaussian noise and needs far fewer than a pure-ε mode.
TEST_F(DomainForecastTest, ANumericColumnSaysWhatAFarClusterNeedsInTheChosenMode) {
  const int column = session().schema().ColumnIndex("capital-loss");
  window_->columnsPage()->selectColumn(column);
  const std::int64_t marginals = Column("capital-loss").forecast.cluster_rows;
  ASSERT_GT(marginals, 0);
  QString details = window_->columnsPage()->forecastDetailsText();
  EXPECT_TRUE(details.contains(QStringLiteral("need about %1 rows within one power-of-two range")
                                   .arg(marginals)))
      << details.toStdString();
  if (const char* dir = std::getenv("DENIABLE_GRAB_DIR")) {  // for looking at it by hand
    window_->showStep(Step::kColumns);
    window_->columnsPage()->selectColumn(column);
    window_->resize(1280, 800);
    window_->grab().save(QString::fromUtf8(dir) + QStringLiteral("/forecast_cluster_marginals.png"));
  }
  PrivacySettings correlated = session().settings();
  correlated.model.mode = SynthesisMode::kCorrelated;
  session().editSettings(correlated, QStringLiteral("correlated mode"));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  window_->columnsPage()->selectColumn(column);
  const std::int64_t laplace = Column("capital-loss").forecast.cluster_rows;
  // 14.55 Laplace scales against 3.918 σ (domains_test.cpp), at about the same ε₂.
  EXPECT_GT(laplace, 3 * marginals);
  details = window_->columnsPage()->forecastDetailsText();
  EXPECT_TRUE(details.contains(QStringLiteral("need about %1 rows").arg(laplace)))
      << details.toStdString();
  // The demo's capital-loss: 464 non-zero rows in 128–4,095, 375 of them in 1,024–2,047, below
  // the pure-ε modes' 653 (and above the marginals mode's 176: nothing listed there).
  EXPECT_TRUE(details.contains(
      QStringLiteral("Likely lost, clamped into the kept range: 128 to 4,095 (464 rows).")))
      << details.toStdString();
  EXPECT_TRUE(details.contains(QStringLiteral("declare public bounds below"))) << details.toStdString();
  EXPECT_TRUE(forecastLosesValues(Column("capital-loss")));
  if (const char* dir = std::getenv("DENIABLE_GRAB_DIR")) {
    window_->showStep(Step::kColumns);
    window_->columnsPage()->selectColumn(column);
    window_->resize(1280, 800);
    window_->grab().save(QString::fromUtf8(dir) + QStringLiteral("/forecast_cluster_correlated.png"));
  }
  session().undoStack()->undo();
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_TRUE(Column("capital-loss").forecast.likely_lost.empty());
  EXPECT_FALSE(forecastLosesValues(Column("capital-loss")));
}

TEST_F(DomainForecastTest, FollowsTheColumnsStep) {
  // Declaring a column's categories public: it costs nothing.
  nlohmann::json categories = nlohmann::json::array();
  for (const std::string& value : data_->table->columns[static_cast<std::size_t>(session().schema().ColumnIndex("education"))].dictionary) {
    categories.push_back(value);
  }
  ASSERT_TRUE(session().editColumns(
      {{"columns", nlohmann::json::array({{{"name", "education"}, {"public", {{"categories", categories}}}}})}},
      "public education"));
  EXPECT_EQ(forecaster().state(), State::kComputing);  // recomputed for the new schema
  EXPECT_EQ(Cell("education").data().toString(), QStringLiteral("computing…"));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_EQ(Column("education").forecast.need, DomainNeed::kNone);
  EXPECT_EQ(Column("education").forecast.summary, "declared public: costs no ε");
  EXPECT_EQ(Cell("education").data().toString(), QStringLiteral("public: no ε"));

  // A type change changes the route: age as String joins the set union.
  ASSERT_EQ(Column("age").forecast.need, DomainNeed::kHistogram);
  SchemaModel* model = window_->columnsPage()->model();
  ASSERT_TRUE(model->setData(model->index(session().schema().ColumnIndex("age"), SchemaModel::kType),
                             QStringLiteral("String"), Qt::EditRole));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_EQ(Column("age").forecast.need, DomainNeed::kSetUnion);
  EXPECT_TRUE(Cell("age").data().toString().startsWith(QStringLiteral("keeps"))) << Cell("age").data().toString().toStdString();

  // An ignored column is not modelled: no forecast.
  ASSERT_TRUE(model->setData(model->index(session().schema().ColumnIndex("fnlwgt"), SchemaModel::kRole),
                             QStringLiteral("ignore"), Qt::EditRole));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_FALSE(Column("fnlwgt").modelled);
  EXPECT_EQ(Cell("fnlwgt").data().toString(), QStringLiteral("—"));
}

TEST_F(DomainForecastTest, EpsilonMovesTheMergeThresholdTheExpectedWay) {
  const std::uint64_t at_one = Column("education").forecast.merge_below;
  const double union_at_one = forecaster().current()->budget.union_epsilon;
  const std::int64_t age_at_one = Column("age").forecast.rows_per_leaf;
  ASSERT_GT(at_one, 0u);
  // A smaller ε: the rule's cap on the union's share binds, the union gets less ε and values
  // need more rows to survive.
  SetEpsilon(0.3);
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 0.3);
  EXPECT_LT(forecaster().current()->budget.union_epsilon, union_at_one);
  EXPECT_GT(Column("education").forecast.merge_below, at_one);
  EXPECT_GT(Column("age").forecast.rows_per_leaf, age_at_one);
  EXPECT_TRUE(window_->columnsPage()->forecastHeaderText().contains(QStringLiteral("ε = 0.3")));
  // A larger ε: once the rule's floor on the union's share binds, fewer rows suffice; the
  // numeric columns' adaptive threshold falls with ε all along.
  SetEpsilon(4.0);
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_GT(forecaster().current()->budget.union_epsilon, union_at_one);
  EXPECT_LT(Column("education").forecast.merge_below, at_one);
  EXPECT_LT(Column("age").forecast.rows_per_leaf, age_at_one);
}

TEST_F(DomainForecastTest, AdvisesRaisingEpsilonOnlyWhenItGivesTheDomainMoreEpsilon) {
  // At ε = 1 the automatic rule gives the union the ε it aims for; doubling ε does not change
  // it (the plan says so), a larger domain share does.
  const auto& record = *forecaster().current();
  ASSERT_DOUBLE_EQ(record.doubled_epsilon.union_epsilon, record.budget.union_epsilon);
  ASSERT_GT(record.max_share.union_epsilon, record.budget.union_epsilon);
  window_->columnsPage()->selectColumn(session().schema().ColumnIndex("education"));
  QString details = window_->columnsPage()->forecastDetailsText();
  EXPECT_FALSE(details.contains(QStringLiteral("raise ε"))) << details.toStdString();
  EXPECT_TRUE(details.contains(QStringLiteral("Raising ε alone does not help here"))) << details.toStdString();
  EXPECT_TRUE(details.contains(QStringLiteral("at 0.8 the category selection gets ε = %1")
                                   .arg(formatEpsilon(record.max_share.union_epsilon))))
      << details.toStdString();
  // At ε = 0.3 the rule's cap binds: raising ε helps, and the advice says by how much.
  SetEpsilon(0.3);
  ASSERT_TRUE(WaitForForecast(forecaster()));
  const auto& small = *forecaster().current();
  ASSERT_GT(small.doubled_epsilon.union_epsilon, small.budget.union_epsilon);
  details = window_->columnsPage()->forecastDetailsText();
  EXPECT_TRUE(details.contains(QStringLiteral("at ε = 0.6 the category selection gets ε = %1")
                                   .arg(formatEpsilon(small.doubled_epsilon.union_epsilon))))
      << details.toStdString();
}

TEST_F(DomainForecastTest, ComputesInTheBackgroundShowsOnlyTheNewestAndCachesTheRest) {
  const int before = forecaster().computations();
  // Record every forecast that becomes current from here on.
  std::vector<double> shown;
  QObject::connect(&forecaster(), &DomainForecaster::changed, [this, &shown] {
    if (forecaster().state() == State::kReady) shown.push_back(forecaster().current()->epsilon);
  });
  // Three quick edits without the event loop in between (a slider being dragged): each returns
  // at once, with the forecast computing — the UI thread never waits for it.
  for (double epsilon : {0.5, 0.6, 0.7}) {
    SetEpsilon(epsilon);
    EXPECT_EQ(forecaster().state(), State::kComputing);
    EXPECT_EQ(forecaster().current(), nullptr);
  }
  EXPECT_TRUE(window_->columnsPage()->forecastHeaderText().contains(QStringLiteral("computing…")));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  ASSERT_EQ(forecaster().state(), State::kReady);
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 0.7);
  EXPECT_TRUE(forecaster().current()->off_ui_thread);
  // Only the last request's result was ever shown. 0.5 started at once; 0.6 waited and was
  // replaced by 0.7, which started when 0.5 was done: two computations for three edits.
  EXPECT_EQ(shown, std::vector<double>{0.7});
  EXPECT_EQ(forecaster().computations() - before, 2);
  // The stale 0.5 (which cannot be interrupted) finished into the cache, unseen: going back
  // to it, or to the first settings, shows a forecast at once without computing.
  const int computed = forecaster().computations();
  SetEpsilon(0.5);
  EXPECT_EQ(forecaster().state(), State::kReady);
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 0.5);
  SetEpsilon(1.0);
  EXPECT_EQ(forecaster().state(), State::kReady);
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 1.0);
  session().undoStack()->undo();  // back to 0.5
  EXPECT_EQ(forecaster().state(), State::kReady);
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 0.5);
  EXPECT_EQ(forecaster().computations(), computed);
  // 0.6 was never computed.
  SetEpsilon(0.6);
  EXPECT_EQ(forecaster().state(), State::kComputing);
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_EQ(forecaster().computations(), computed + 1);
  forecaster().waitForWorker();
}

TEST_F(DomainForecastTest, WaitsWhileAJobRunsSoItNeverCompetesForTheCores) {
  PrivacySettings settings = session().settings();
  settings.rows = 300;
  session().editSettings(settings, "rows");  // the forecast does not depend on it: cached
  EXPECT_EQ(forecaster().state(), State::kReady);
  QSignalSpy finished(window_->jobs(), &JobController::finished);
  ASSERT_TRUE(window_->jobs()->startRun());
  EXPECT_TRUE(forecaster().paused());
  const int before = forecaster().computations();
  SetEpsilon(0.45);  // the run keeps the settings it started with
  EXPECT_EQ(forecaster().state(), State::kComputing);
  EXPECT_EQ(forecaster().computations(), before);  // nothing starts beside the run
  EXPECT_TRUE(window_->columnsPage()->forecastHeaderText().contains(QStringLiteral("after the running job")));
  ASSERT_TRUE(finished.wait(300'000));
  EXPECT_FALSE(forecaster().paused());
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_EQ(forecaster().computations(), before + 1);
  EXPECT_DOUBLE_EQ(forecaster().current()->epsilon, 0.45);
}

TEST_F(DomainForecastTest, AutomaticDomainShareThroughUndoRedoAndTheForecast) {
  PrivacyPage* page = window_->privacyPage();
  QDoubleSpinBox* share = page->domainShareSpinBox();
  const QUndoStack* undo = session().undoStack();
  ASSERT_FALSE(session().settings().model.domain_fraction.has_value());
  EXPECT_EQ(share->value(), share->minimum());
  // "Automatic (0.55)": the rule's share for this input at ε = 1.
  const DomainBudget plan = plannedDomainBudget(session().schema(), data_->table->num_rows(),
                                                session().settings());
  EXPECT_EQ(share->text(), QStringLiteral("Automatic (%1)").arg(formatDecimal(plan.total(), 2)));
  EXPECT_TRUE(page->guaranteeText().contains(QStringLiteral("How ε is split"))) << page->guaranteeText().toStdString();
  EXPECT_TRUE(page->guaranteeText().contains(QStringLiteral("by the rule")));
  const double automatic_union = forecaster().current()->budget.union_epsilon;

  share->setValue(0.3);
  ASSERT_TRUE(session().settings().model.domain_fraction.has_value());
  EXPECT_DOUBLE_EQ(*session().settings().model.domain_fraction, 0.3);
  EXPECT_TRUE(page->guaranteeText().contains(QStringLiteral("set by the user")));
  ASSERT_TRUE(WaitForForecast(forecaster()));
  ASSERT_TRUE(forecaster().current()->domain_fraction.has_value());
  EXPECT_DOUBLE_EQ(*forecaster().current()->domain_fraction, 0.3);
  EXPECT_NE(forecaster().current()->budget.union_epsilon, automatic_union);
  EXPECT_DOUBLE_EQ(forecaster().current()->budget.total(), 0.3 * 0.99);  // after the row count

  share->setValue(share->minimum());
  EXPECT_FALSE(session().settings().model.domain_fraction.has_value());
  EXPECT_TRUE(share->text().startsWith(QStringLiteral("Automatic")));
  EXPECT_EQ(undo->count(), 2);
  session().undoStack()->undo();
  ASSERT_TRUE(session().settings().model.domain_fraction.has_value());
  EXPECT_DOUBLE_EQ(share->value(), 0.3);
  session().undoStack()->undo();
  EXPECT_FALSE(session().settings().model.domain_fraction.has_value());
  EXPECT_EQ(share->value(), share->minimum());
  session().undoStack()->redo();
  EXPECT_DOUBLE_EQ(share->value(), 0.3);
  session().undoStack()->redo();
  EXPECT_FALSE(session().settings().model.domain_fraction.has_value());
  // A value typed below 0 means Automatic too, and shows as such.
  share->setValue(0.4);
  share->setValue(-0.02);
  EXPECT_FALSE(session().settings().model.domain_fraction.has_value());
  EXPECT_EQ(share->value(), share->minimum());
  // A share from a project file shows as it is (three decimals, up to 0.99), not rounded or
  // clamped by the spin box.
  PrivacySettings from_file = session().settings();
  from_file.model.domain_fraction = 0.125;
  session().editSettings(from_file, "project");
  EXPECT_DOUBLE_EQ(share->value(), 0.125);
  from_file.model.domain_fraction = 0.95;
  session().editSettings(from_file, "project");
  EXPECT_DOUBLE_EQ(share->value(), 0.95);
  // 0 is a share of its own (every domain public), not Automatic.
  share->setValue(0.0);
  ASSERT_TRUE(session().settings().model.domain_fraction.has_value());
  EXPECT_EQ(*session().settings().model.domain_fraction, 0.0);
  // Random mode gives the domains the whole budget: the share does not apply.
  page->modeCard(SynthesisMode::kRandom)->setChecked(true);
  ASSERT_EQ(session().settings().model.mode, SynthesisMode::kRandom);
  EXPECT_FALSE(share->isEnabled());
  ASSERT_TRUE(WaitForForecast(forecaster()));
  EXPECT_TRUE(forecaster().current()->rule.startsWith(QStringLiteral("random mode")));
}

TEST(DomainShareTest, AutomaticAndSetSharesRoundTripThroughTheProjectFileAndTheCliCommand) {
  QTemporaryDir dir;
  const QString input = dir.filePath(QStringLiteral("in.csv"));
  ASSERT_TRUE(WriteFileAtomically(input.toStdString(), "age\n30\n").has_value());
  const QString path = dir.filePath(QStringLiteral("p.deniable"));
  const CliCommandFiles files{"in.csv", "schema.json", "out.csv", ""};
  for (const std::optional<double> fraction : {std::optional<double>(), std::optional<double>(0.35),
                                               std::optional<double>(0.0)}) {
    Project project;
    project.input_path = input;
    project.input_sha256 = QByteArray(64, 'a');
    project.corrections = {{"format", "deniable-schema"}, {"version", 1}};
    project.settings.model.domain_fraction = fraction;
    const std::string text = projectText(project, path);
    // The file says "auto" for the rule, or the number.
    const nlohmann::json json = nlohmann::json::parse(text);
    if (fraction) {
      EXPECT_EQ(json["settings"]["domain_fraction"], *fraction);
    } else {
      EXPECT_EQ(json["settings"]["domain_fraction"], "auto");
    }
    ASSERT_TRUE(WriteFileAtomically(path.toStdString(), text).has_value());
    auto read = readProject(path);
    ASSERT_TRUE(read.has_value()) << read.error().message;
    EXPECT_EQ(read->settings.model.domain_fraction, fraction);
    // The CLI command: no --domain-fraction for the rule (the CLI's default is 'auto').
    const QStringList args = cliArguments(read->settings, 100, files);
    const qsizetype at = args.indexOf(QStringLiteral("--domain-fraction"));
    if (fraction) {
      ASSERT_GE(at, 0);
      EXPECT_EQ(args.at(at + 1).toDouble(), *fraction);
    } else {
      EXPECT_EQ(at, -1);
    }
  }
  // A malformed share names the field.
  Project valid;
  valid.input_path = input;
  valid.input_sha256 = QByteArray(64, 'a');
  valid.corrections = {{"format", "deniable-schema"}, {"version", 1}};
  nlohmann::json old = nlohmann::json::parse(projectText(valid, path));
  old["settings"]["domain_fraction"] = "sometimes";
  ASSERT_TRUE(WriteFileAtomically(path.toStdString(), old.dump()).has_value());
  auto bad = readProject(path);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("domain_fraction"), std::string::npos) << bad.error().message;
}

TEST(DomainShareTest, TheReportSaysTheShareWasAutomatic) {
  auto data = deniable::test_support::DemoReviewData();  // default settings: the rule's share
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->description.parameters.value("domain_fraction", nlohmann::json()), "auto");
  const QString path = QString::fromStdString(deniable::test_support::TempDir()) + QStringLiteral("/auto-report.html");
  ReportContext context;
  context.input_path = QString::fromStdString(deniable::test_support::DemoDatasetPath());
  ASSERT_TRUE(WriteReleaseReport(path, *data, context));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString html = QString::fromUtf8(file.readAll());
  EXPECT_TRUE(html.contains(QStringLiteral("Automatic: set by a rule"))) << "report lacks the share";
  EXPECT_FALSE(html.contains(QStringLiteral("<td>auto</td>")));
  // The bins rule too, with what it chose (a number the description records).
  const nlohmann::json chosen = data->description.parameters.value("bins_chosen", nlohmann::json());
  ASSERT_TRUE(chosen.is_number_integer());
  EXPECT_TRUE(html.contains(QStringLiteral("Automatic: at most %1 per number column").arg(chosen.get<int>())));
}

}  // namespace
}  // namespace deniable::ui
