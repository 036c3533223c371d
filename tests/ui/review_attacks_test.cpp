// SPDX-License-Identifier: Apache-2.0
// The control split in the app and Review → Attacks (#11, parts 2 and 3): the share is a setting
// of the project file and of the Privacy page (one undo step); a run holds the rows out before
// learning and its ledger says so; Export writes them on request, owner-only, outside the report; the Attacks tab shows exactly what EvaluateRelease computes
// on the same rows, skips the ML part without a target, explains (with a way to the setting)
// when the run held nothing out, cancels, and a release that copies its rows is "Not fit to
// share".
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QThread>
#include <QUndoStack>

#include "engine/evaluate/control_split.h"
#include "engine/evaluate/evaluate.h"
#include "engine/schema/infer_schema.h"
#include "tests/engine/evaluate/population.h"
#include "tests/ui/review_test_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/pages/review_page.h"
#include "ui/project/cli_command.h"
#include "ui/report/release_report.h"
#include "ui/review/attack_chart.h"
#include "ui/review/attack_view.h"
#include "ui/review/review_widget.h"
#include "ui/review/verdict_panel.h"
#include "ui/session/session.h"
#include "ui/tasks/export_job.h"
#include "ui/tasks/jobs.h"

namespace deniable::ui {
namespace {

// A seeded independent-mode run of 1,500 "population" rows (tests/engine/evaluate/population.h)
// with a 20 % control split, made by the app's own RunSynthesis.
std::shared_ptr<const RunRecord> SplitRun() {
  static std::shared_ptr<const RunRecord> cached;
  if (cached) return cached;
  auto data = std::make_shared<LoadedData>();
  data->path = QStringLiteral("population.csv");
  data->table = std::make_shared<const RawTable>(
      deniable::test_support::Population(1500, 1, "population.csv"));
  data->inferred = InferSchema(*data->table, {});
  data->schema = data->inferred;
  RunRequest request;
  request.data = data;
  request.schema = data->schema;
  request.settings.model.mode = SynthesisMode::kIndependent;
  request.settings.model.control_fraction = 0.2;
  request.settings.model.threads = 1;
  request.settings.reproducible = true;
  request.settings.seed = 5;
  request.rows = 1000;
  NullProgress progress;
  auto record = RunSynthesis(request, progress);
  if (!record) {
    ADD_FAILURE() << "RunSynthesis: " << record.error().message;
    return nullptr;
  }
  cached = record.value();
  return cached;
}

unsigned Threads() { return static_cast<unsigned>(std::max(1, QThread::idealThreadCount())); }

QString CellText(const QStandardItemModel* model, int row, int column) {
  return model->item(row, column) ? model->item(row, column)->text() : QString();
}

TEST(ControlSplitTest, TheSettingRoundTripsThroughTheProjectFile) {
  PrivacySettings settings;
  EXPECT_EQ(PrivacySettingsToJson(settings)["control_fraction"], 0.0);  // off by default
  settings.model.control_fraction = 0.1;
  const nlohmann::json json = PrivacySettingsToJson(settings);
  EXPECT_EQ(json["control_fraction"], 0.1);
  auto back = PrivacySettingsFromJson(json, "test");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->model.control_fraction, 0.1);
  EXPECT_TRUE(back.value() == settings);
  const PrivacySettings defaults;
  EXPECT_FALSE(SameSettings(settings, defaults));  // a run with another split is stale
  // A project file from before the setting: no split.
  nlohmann::json old = json;
  old.erase("control_fraction");
  auto read = PrivacySettingsFromJson(old, "old");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->model.control_fraction, 0.0);
  // Out of range: refused, naming the key.
  nlohmann::json bad = json;
  bad["control_fraction"] = 1.0;
  auto refused = PrivacySettingsFromJson(bad, "bad");
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("control_fraction"), std::string::npos)
      << refused.error().message;
}

TEST(ControlSplitTest, TheCliCommandHoldsOutTheSameShare) {
  PrivacySettings settings;
  const CliCommandFiles files{QStringLiteral("in.csv"), QStringLiteral("in.schema.json"),
                              QStringLiteral("out.csv"), QString()};
  EXPECT_FALSE(cliArguments(settings, 100, files).contains(QStringLiteral("--control-fraction")));
  settings.model.control_fraction = 0.05;
  const QStringList args = cliArguments(settings, 100, files);
  const int at = static_cast<int>(args.indexOf(QStringLiteral("--control-fraction")));
  ASSERT_GE(at, 0);
  ASSERT_LT(at + 3, args.size());
  EXPECT_EQ(args[at + 1], QStringLiteral("0.05"));
  EXPECT_EQ(args[at + 2], QStringLiteral("--control-out"));
  EXPECT_EQ(args[at + 3], QStringLiteral("out-control.csv"));
}

TEST(ControlSplitTest, ThePrivacyPageSetsTheShareAsOneUndoStep) {
  QSettings().clear();
  MainWindow window;
  QComboBox* box = window.privacyPage()->controlFractionBox();
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->objectName(), QStringLiteral("setting:control_fraction"));
  ASSERT_EQ(box->count(), 4);
  EXPECT_EQ(box->currentData().toDouble(), 0.0);  // off by default
  EXPECT_EQ(box->itemText(0), QStringLiteral("Off (use every row)"));
  EXPECT_EQ(box->itemText(2), QStringLiteral("10 % of the rows"));
  EXPECT_TRUE(box->toolTip().contains(QStringLiteral("costs some utility")));
  const int before = window.session()->undoStack()->count();
  box->setCurrentIndex(2);
  emit box->activated(2);
  EXPECT_EQ(window.session()->settings().model.control_fraction, 0.1);
  EXPECT_EQ(window.session()->undoStack()->count(), before + 1);
  window.session()->undoStack()->undo();
  EXPECT_EQ(window.session()->settings().model.control_fraction, 0.0);
  EXPECT_EQ(box->currentIndex(), 0);
}

TEST(ControlSplitTest, TheRunHoldsOutRowsBeforeLearningAndTheLedgerSaysSo) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  const ReviewData& review = *record->review;
  ASSERT_NE(review.control, nullptr);
  EXPECT_EQ(review.control->num_rows(), 300U);  // round(0.2 · 1,500)
  EXPECT_EQ(review.real->num_rows(), 1200U);
  // The two parts are the input: its rows less the control rows are the training rows.
  auto [training, had] = RemoveControlRows(*record->request.data->table, *review.control);
  EXPECT_TRUE(had);
  EXPECT_EQ(training.num_rows(), 1200U);
  EXPECT_EQ(review.settings.control_fraction, 0.2);
  // The ledger's zero-cost entry gives the share, never the count.
  bool found = false;
  for (const nlohmann::json& entry : review.description.privacy["entries"]) {
    const std::string label = entry.value("label", "");
    if (label.rfind("control split: 20% of the rows", 0) == 0) found = true;
    EXPECT_EQ(label.find("300"), std::string::npos) << label;
  }
  EXPECT_TRUE(found) << review.description.privacy.dump();
}

TEST(AttackViewTest, ShowsExactlyWhatTheEngineComputes) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  const ReviewData& review = *record->review;
  AttackView view;
  view.setSynchronous(true);
  view.setData(record->review);
  const int disease = view.targetBox()->findData(QStringLiteral("disease"));
  ASSERT_GE(disease, 0);
  view.targetBox()->setCurrentIndex(disease);
  view.compute();
  ASSERT_EQ(view.state(), AttackView::State::kReady) << view.statusText().toStdString();
  const EvaluateReport& shown = view.analysis()->report;

  EvaluateOptions options;
  options.target = "disease";
  options.threads = Threads();
  NullProgress progress;
  auto engine = EvaluateRelease(*review.real, *review.synthetic, *review.control, review.schema,
                                options, progress);
  ASSERT_TRUE(engine.has_value()) << engine.error().message;
  const EvaluateReport& e = engine.value();
  EXPECT_EQ(shown.train_rows, 1200U);
  EXPECT_EQ(shown.control_rows, 300U);
  EXPECT_EQ(shown.synthetic_rows, 1000U);
  EXPECT_EQ(shown.quasi_identifiers, e.quasi_identifiers);
  EXPECT_EQ(shown.sensitive, e.sensitive);
  EXPECT_EQ(shown.sensitive, "disease");
  ASSERT_TRUE(shown.singling_out && shown.linkability && shown.inference);
  ASSERT_TRUE(e.singling_out && e.linkability && e.inference);
  const std::pair<const AttackRisk*, const AttackRisk*> risks[] = {
      {&shown.singling_out->risk, &e.singling_out->risk},
      {&shown.linkability->risk, &e.linkability->risk},
      {&shown.inference->risk, &e.inference->risk}};
  for (const auto& [a, b] : risks) {
    EXPECT_EQ(a->risk, b->risk);
    EXPECT_EQ(a->risk_interval.low, b->risk_interval.low);
    EXPECT_EQ(a->risk_interval.high, b->risk_interval.high);
    EXPECT_EQ(a->train.successes, b->train.successes);
    EXPECT_EQ(a->control.successes, b->control.successes);
    EXPECT_EQ(a->naive.successes, b->naive.successes);
  }
  EXPECT_EQ(shown.copies.copies_of_train, e.copies.copies_of_train);
  EXPECT_EQ(shown.copies.copies_of_unique_train, e.copies.copies_of_unique_train);
  EXPECT_EQ(shown.copies.copies_of_control, e.copies.copies_of_control);
  EXPECT_EQ(shown.dcr.to_train.median, e.dcr.to_train.median);
  EXPECT_EQ(shown.dcr.closer_to_train.rate, e.dcr.closer_to_train.rate);
  ASSERT_TRUE(shown.utility && e.utility);
  EXPECT_EQ(shown.utility->synthetic_model.accuracy, e.utility->synthetic_model.accuracy);
  EXPECT_EQ(shown.utility->real_model.accuracy, e.utility->real_model.accuracy);
  EXPECT_EQ(shown.utility->agreement, e.utility->agreement);
  EXPECT_EQ(shown.utility->distinguish_accuracy.rate, e.utility->distinguish_accuracy.rate);

  // The table: one row per attack, the engine's figures as the tab formats them.
  const QStandardItemModel* attacks = view.attackModel();
  ASSERT_EQ(attacks->rowCount(), 3);
  EXPECT_EQ(CellText(attacks, 0, 0), QStringLiteral("Singling out"));
  EXPECT_EQ(CellText(attacks, 2, 0), QStringLiteral("Attribute inference"));
  const AttackRisk& inference = e.inference->risk;
  EXPECT_EQ(CellText(attacks, 2, 1),
            QStringLiteral("%1 [%2, %3]")
                .arg(QString::number(inference.risk, 'f', 3),
                     QString::number(inference.risk_interval.low, 'f', 3),
                     QString::number(inference.risk_interval.high, 'f', 3)));
  EXPECT_EQ(CellText(attacks, 2, 2),
            QString::number(100 * inference.train.rate, 'f', 1) + QStringLiteral(" %"));
  EXPECT_EQ(attacks->item(2, 2)->toolTip(),
            QStringLiteral("%1 % [%2, %3]")
                .arg(QString::number(100 * inference.train.rate, 'f', 1),
                     QString::number(100 * inference.train.interval.low, 'f', 1),
                     QString::number(100 * inference.train.interval.high, 'f', 1)));
  EXPECT_EQ(CellText(attacks, 2, 3),
            QString::number(100 * inference.control.rate, 'f', 1) + QStringLiteral(" %"));
  EXPECT_EQ(CellText(attacks, 2, 4),
            QString::number(100 * inference.naive.rate, 'f', 1) + QStringLiteral(" %"));
  EXPECT_EQ(CellText(attacks, 2, 5), QString::number(inference.train.trials));
  ASSERT_EQ(view.chart()->rows().size(), 3U);
  EXPECT_EQ(view.chart()->rows()[1].risk.risk, e.linkability->risk.risk);
  // Copies: the training and control counts side by side.
  EXPECT_EQ(CellText(view.closenessModel(), 0, 1), QString::number(e.copies.copies_of_train));
  EXPECT_EQ(CellText(view.closenessModel(), 0, 2), QString::number(e.copies.copies_of_control));
  // ML: accuracy of the real and the synthetic model, importances side by side.
  EXPECT_EQ(CellText(view.mlModel(), 0, 0), QStringLiteral("Accuracy"));
  EXPECT_EQ(CellText(view.mlModel(), 0, 1),
            QString::number(100 * e.utility->real_model.accuracy, 'f', 1) + QStringLiteral(" %"));
  EXPECT_EQ(CellText(view.mlModel(), 0, 2),
            QString::number(100 * e.utility->synthetic_model.accuracy, 'f', 1) +
                QStringLiteral(" %"));
  ASSERT_EQ(view.importanceModel()->rowCount(), static_cast<int>(e.utility->importances.size()));
  EXPECT_EQ(CellText(view.importanceModel(), 0, 0),
            QString::fromStdString(e.utility->importances[0].name));
  // An independent release of independent columns: no attack's interval lies above 0.1.
  EXPECT_FALSE(view.summaryText().contains(QStringLiteral("An attacker learns")))
      << view.summaryText().toStdString();
}

TEST(AttackViewTest, WithoutATargetTheMlPartIsSkippedWithASentenceSayingHow) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  AttackView view;
  view.setSynchronous(true);
  view.setData(record->review);
  EXPECT_EQ(view.targetBox()->currentData().toString(), QString());  // no role "target"
  view.compute();
  ASSERT_EQ(view.state(), AttackView::State::kReady);
  EXPECT_FALSE(view.analysis()->report.utility.has_value());
  EXPECT_TRUE(view.analysis()->report.singling_out.has_value());
  EXPECT_EQ(view.mlModel()->rowCount(), 0);
  EXPECT_TRUE(mlSummary(view.analysis()->report)
                  .startsWith(QStringLiteral("No machine-learning target chosen: pick a column")));
}

TEST(AttackViewTest, TheSchemasTargetRoleIsTheDefaultTarget) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  auto data = std::make_shared<ReviewData>(*record->review);
  data->schema.columns[static_cast<std::size_t>(data->schema.ColumnIndex("job"))].role =
      ColumnRole::kTarget;
  AttackView view;
  view.setData(data);
  EXPECT_EQ(view.targetBox()->currentData().toString(), QStringLiteral("job"));
  EXPECT_EQ(defaultAttackTarget(data->schema), QStringLiteral("job"));
}

TEST(AttackViewTest, WithoutControlRowsItExplainsAndLeadsToTheSetting) {
  auto data = deniable::test_support::DemoReviewData(SynthesisMode::kIndependent);
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->control, nullptr);
  AttackView view;
  view.setSynchronous(true);
  view.setData(data);
  EXPECT_EQ(view.state(), AttackView::State::kNoControl);
  EXPECT_TRUE(view.problemText().startsWith(QStringLiteral("This run used every row")))
      << view.problemText().toStdString();
  EXPECT_TRUE(view.problemText().contains(QStringLiteral("Hold out rows to test the release")));
  EXPECT_TRUE(view.setUpButton()->isVisibleTo(&view));
  view.compute();  // nothing to compute
  EXPECT_EQ(view.analysis(), nullptr);
  EXPECT_EQ(view.state(), AttackView::State::kNoControl);
  QSignalSpy spy(&view, &AttackView::controlSplitRequested);
  view.setUpButton()->click();
  EXPECT_EQ(spy.count(), 1);
}

// In the app: the share chosen on the Privacy page reaches the run (its ledger, the Review's
// control rows); without a split, the Attacks tab's button leads back to the setting.
TEST(ControlSplitTest, TheAppsRunHoldsOutTheChosenShare) {
  QSettings().clear();
  MainWindow window;
  window.resize(1280, 800);
  window.show();
  const test_support::JobOutcome opened =
      test_support::runJob(*window.jobs(), [&window] { window.openDemo(); });
  ASSERT_TRUE(opened.arrived);
  ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
  PrivacySettings settings = window.session()->settings();
  settings.model.mode = SynthesisMode::kIndependent;
  settings.rows = 500;
  window.session()->editSettings(settings, QStringLiteral("fast"));
  const test_support::JobOutcome plain =
      test_support::runJob(*window.jobs(), [&window] { window.jobs()->startRun(); });
  ASSERT_EQ(plain.end, JobController::End::kSucceeded) << plain.message.toStdString();
  ASSERT_NE(window.session()->result(), nullptr);
  EXPECT_EQ(window.session()->result()->review->control, nullptr);
  window.showStep(Step::kReview);
  AttackView* attacks = window.reviewPage()->reviewWidget()->attackView();
  EXPECT_EQ(attacks->state(), AttackView::State::kNoControl);
  attacks->setUpButton()->click();
  EXPECT_EQ(window.currentStep(), Step::kPrivacy);

  QComboBox* box = window.privacyPage()->controlFractionBox();
  const int tenth = box->findData(0.1);
  ASSERT_GE(tenth, 0);
  box->setCurrentIndex(tenth);
  emit box->activated(tenth);
  EXPECT_TRUE(window.session()->resultIsStale());
  const test_support::JobOutcome split =
      test_support::runJob(*window.jobs(), [&window] { window.jobs()->startRun(); });
  ASSERT_EQ(split.end, JobController::End::kSucceeded) << split.message.toStdString();
  const ReviewData& review = *window.session()->result()->review;
  ASSERT_NE(review.control, nullptr);
  EXPECT_EQ(review.control->num_rows(), 1000U);  // 10 % of the demo's 10,000 rows
  EXPECT_EQ(review.real->num_rows(), 9000U);
  bool found = false;
  for (const nlohmann::json& entry : review.description.privacy["entries"]) {
    if (entry.value("label", "").rfind("control split: 10% of the rows", 0) == 0) found = true;
  }
  EXPECT_TRUE(found) << review.description.privacy.dump();

  // Export: the control rows on request, readable by the owner only, never in the report.
  QTemporaryDir out;
  ASSERT_TRUE(out.isValid());
  ExportPage* exporter = window.exportPage();
  exporter->setDirectory(out.path());
  EXPECT_FALSE(exporter->outputEnabled(ExportPage::kControl));  // off by default
  exporter->setOutputEnabled(ExportPage::kControl, true);
  // The command line writes the control rows where the export does.
  EXPECT_TRUE(exporter->commandText().contains(
      QStringLiteral("--control-fraction 0.1 --control-out ") +
      shellQuote(exporter->outputPath(ExportPage::kControl))))
      << exporter->commandText().toStdString();
  const test_support::JobOutcome exported = test_support::runJob(
      *window.jobs(), [exporter] { ASSERT_TRUE(exporter->startExport()); });
  ASSERT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();
  const QString control = exporter->outputPath(ExportPage::kControl);
  EXPECT_TRUE(control.endsWith(QStringLiteral("-control.csv"))) << control.toStdString();
  const RawTable written = test_support::readCsvOrFail(control);
  EXPECT_EQ(written.num_rows(), 1000U);
  auto [rest, all_held_out] = RemoveControlRows(*window.session()->data()->table, written);
  EXPECT_TRUE(all_held_out);  // the same rows as the run held out
  EXPECT_EQ(rest.num_rows(), 9000U);
  EXPECT_EQ(QFile::permissions(control) & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                           QFileDevice::WriteGroup | QFileDevice::WriteOther),
            QFileDevice::Permissions());
  QFile html(exporter->outputPath(ExportPage::kReport));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  const QString report = QString::fromUtf8(html.readAll());
  EXPECT_FALSE(report.contains(QFileInfo(control).fileName()));
  EXPECT_FALSE(report.contains(QString::fromLatin1(kControlRowsLabel)));
}

TEST(AttackViewTest, CancelStopsTheComputation) {
  auto demo = deniable::test_support::DemoReviewData(SynthesisMode::kIndependent);
  ASSERT_NE(demo, nullptr);
  auto data = std::make_shared<ReviewData>(*demo);
  SeededRng rng(3);
  auto split = SplitControlRows(*demo->real, 0.2, rng);
  ASSERT_TRUE(split.has_value());
  data->real = std::make_shared<const RawTable>(std::move(split->train));
  data->control = std::make_shared<const RawTable>(std::move(split->control));
  AttackView view;
  view.setData(data);
  QSignalSpy spy(&view, &AttackView::computationFinished);
  view.compute();
  EXPECT_TRUE(view.busy());
  EXPECT_TRUE(view.cancelButton()->isVisibleTo(&view));
  view.cancel();
  ASSERT_TRUE(spy.wait(120'000));
  EXPECT_EQ(view.state(), AttackView::State::kCancelled);
  EXPECT_FALSE(view.busy());
  EXPECT_EQ(view.analysis(), nullptr);
  EXPECT_TRUE(view.statusText().startsWith(QStringLiteral("Cancelled.")))
      << view.statusText().toStdString();
}

// #11: a release that copies its training rows must be judged "Not fit to share".
TEST(AttackViewTest, AReleaseThatCopiesItsRowsIsNotFitToShare) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  auto data = std::make_shared<ReviewData>(*record->review);
  data->synthetic = data->real;  // every training row, as is
  // Judge the attacks alone: not the seed, nor the run's utility figures (of other rows).
  data->description.reproducible_not_private = false;
  data->metrics.mean_pair_tvd.reset();
  AttackView view;
  view.setSynchronous(true);
  view.setData(data);
  view.compute();
  ASSERT_EQ(view.state(), AttackView::State::kReady);
  const EvaluateReport& r = view.analysis()->report;
  EXPECT_EQ(r.copies.copies_of_train, 1200U);
  EXPECT_EQ(r.singling_out->risk.risk, 1.0);
  EXPECT_TRUE(view.summaryText().contains(QStringLiteral("An attacker learns about the real "
                                                         "people in your data")))
      << view.summaryText().toStdString();

  VerdictPanel panel;
  panel.setSynchronous(true);
  panel.setData(data);
  for (const VerdictFinding& f : panel.verdict().findings) {
    EXPECT_NE(f.level, VerdictLevel::kProblem) << f.headline << " " << f.reason;
  }
  panel.setAttacks(view.analysis(), view.threshold());
  const Verdict& verdict = panel.verdict();
  const VerdictFinding* attacks = nullptr;
  for (const VerdictFinding& f : verdict.findings) {
    if (f.topic == VerdictTopic::kAttacks) attacks = &f;
  }
  ASSERT_NE(attacks, nullptr);
  EXPECT_EQ(attacks->level, VerdictLevel::kProblem);
  EXPECT_EQ(verdict.overall, VerdictLevel::kProblem);
  EXPECT_TRUE(panel.answerText().contains(QStringLiteral("Not fit to share")));
}

// The review page hands the Attacks tab's figures to the verdict, and a threshold change
// re-judges them without computing again.
TEST(AttackViewTest, TheReviewVerdictFollowsTheTabAndItsThreshold) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  auto data = std::make_shared<ReviewData>(*record->review);
  data->synthetic = data->real;
  data->description.reproducible_not_private = false;
  data->metrics.mean_pair_tvd.reset();
  ReviewWidget review;
  VerdictPanel panel;
  panel.setSynchronous(true);
  panel.setData(data);
  QObject::connect(review.attackView(), &AttackView::figuresChanged, &panel, [&] {
    panel.setAttacks(review.attackView()->analysis(), review.attackView()->threshold());
  });
  review.attackView()->setSynchronous(true);
  review.setData(data);
  review.attackView()->compute();
  const std::shared_ptr<const AttackAnalysis> first = review.attackView()->analysis();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(panel.verdict().overall, VerdictLevel::kProblem);
  review.attackView()->thresholdBox()->setValue(1.0);  // nothing can lie above 1
  EXPECT_EQ(review.attackView()->analysis(), first);    // not recomputed
  bool judged = false;
  for (const VerdictFinding& f : panel.verdict().findings) {
    if (f.topic != VerdictTopic::kAttacks) continue;
    judged = true;
    EXPECT_EQ(f.level, VerdictLevel::kGood);
  }
  EXPECT_TRUE(judged);
}

// The owner's report holds the attacks and judges them in its verdict; the shareable one never
// (they are computed from real rows).
TEST(AttackViewTest, OnlyTheOwnersReportHoldsTheAttacks) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  auto data = std::make_shared<ReviewData>(*record->review);
  data->synthetic = data->real;
  data->description.reproducible_not_private = false;
  AttackView view;
  view.setSynchronous(true);
  view.setData(data);
  view.compute();
  ASSERT_NE(view.analysis(), nullptr);
  ReportContext context;
  ReportOptions options;
  options.attacks = view.analysis();
  options.attack_threshold = 0.1;
  options.histograms = 0;
  const QString shareable = BuildReleaseReportHtml(*data, context, options);
  EXPECT_FALSE(shareable.contains(QStringLiteral("Attacks on the release")));
  EXPECT_FALSE(shareable.contains(QStringLiteral("An attacker learns")));
  options.audience = ReportAudience::kOwner;
  const QString owner = BuildReleaseReportHtml(*data, context, options);
  EXPECT_TRUE(owner.contains(QStringLiteral("Attacks on the release (against held-out rows)")));
  EXPECT_TRUE(owner.contains(QStringLiteral("Success rates of the attacks")));
  EXPECT_TRUE(owner.contains(riskWithInterval(view.analysis()->report.singling_out->risk)));
  // The owner's verdict: the attack finding makes it "Not fit to share".
  const int verdict = owner.indexOf(QStringLiteral("Verdict (owner only"));
  ASSERT_GE(verdict, 0);
  EXPECT_GE(owner.indexOf(QStringLiteral("Not fit to share"), verdict), 0);
  EXPECT_GE(owner.indexOf(QStringLiteral("An attacker learns about the real people"), verdict), 0);
  if (const QByteArray dir = qgetenv("DENIABLE_SHOTS"); !dir.isEmpty()) {
    QFile file(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("attacks-report.html")));
    if (file.open(QIODevice::WriteOnly)) file.write(owner.toUtf8());
  }
}

// Renders the tab at the smallest supported window size (look at the picture:
// DENIABLE_SHOTS=DIR writes it there).
TEST(AttackViewTest, RendersAtTheSmallestWindowSize) {
  const auto record = SplitRun();
  ASSERT_NE(record, nullptr);
  auto data = std::make_shared<ReviewData>(*record->review);
  data->schema.columns[static_cast<std::size_t>(data->schema.ColumnIndex("sex"))].role =
      ColumnRole::kTarget;
  const QImage image = ReviewWidget::renderOffscreen(data, ReviewTab::kAttacks, QSize(1024, 700));
  EXPECT_EQ(image.size(), QSize(1024, 700));
  if (const QByteArray dir = qgetenv("DENIABLE_SHOTS"); !dir.isEmpty()) {
    image.save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("attacks.png")));
    ReviewWidget::renderOffscreen(data, ReviewTab::kAttacks, QSize(560, 1500))
        .save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("attacks-tall.png")));
    ReviewWidget::renderOffscreen(deniable::test_support::DemoReviewData(SynthesisMode::kIndependent),
                                  ReviewTab::kAttacks, QSize(1024, 700))
        .save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("attacks-none.png")));
  }
}

}  // namespace
}  // namespace deniable::ui
