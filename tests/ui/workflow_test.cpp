// SPDX-License-Identifier: Apache-2.0
// The whole workflow through the main window on the demo dataset, as a user drives it: open,
// change a column's type and role, drag ε, choose the row count, run, cancel a run (nothing
// changes, nothing is written), run again, export, reopen the project.
#include "ui/main_window.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

#include "engine/model/description.h"
#include "engine/schema/schema_json.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/schema_model.h"
#include "ui/pages/columns_page.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/project/project_file.h"
#include "ui/project/session_files.h"
#include "ui/review/review_widget.h"
#include "ui/review/risk_facts.h"
#include "ui/review/risk_view.h"
#include "ui/pages/review_page.h"
#include "ui/session/session.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/step_list.h"

namespace deniable::ui {
namespace {

using test_support::JobOutcome;
using test_support::runJob;

int ColumnIndex(const Session& session, const std::string& name) {
  return session.schema().ColumnIndex(name);
}

QByteArray Sha256(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly));
  return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

class WorkflowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1280, 800);
  }

  void OpenDemo() {
    const JobOutcome opened = runJob(*window_->jobs(), [this] { window_->openDemo(); });
    ASSERT_TRUE(opened.arrived);
    ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
  }

  std::unique_ptr<MainWindow> window_;
};

TEST_F(WorkflowTest, StepsUnlockAsTheWorkflowProceeds) {
  const auto& states = window_->stepList()->states();
  EXPECT_EQ(states[0].state, StepState::kTodo);
  EXPECT_EQ(states[1].state, StepState::kLocked);
  EXPECT_EQ(states[4].state, StepState::kLocked);
  window_->showStep(Step::kReview);  // locked: stays where it is
  EXPECT_EQ(window_->currentStep(), Step::kData);
  OpenDemo();
  EXPECT_EQ(window_->stepList()->states()[0].state, StepState::kDone);
  EXPECT_NE(window_->stepList()->states()[1].state, StepState::kLocked);
  EXPECT_EQ(window_->stepList()->states()[4].state, StepState::kLocked);
  window_->showStep(Step::kColumns);
  EXPECT_EQ(window_->currentStep(), Step::kColumns);
}

TEST_F(WorkflowTest, ShortcutsAreBound) {
  QStringList bound;
  for (QAction* action : window_->findChildren<QAction*>()) {
    for (const QKeySequence& key : action->shortcuts()) bound << key.toString(QKeySequence::PortableText);
  }
  for (const char* key : {"Ctrl+O", "Ctrl+Q", "Ctrl+R", "Esc", "Ctrl+E", "Ctrl+Z", "Ctrl+Shift+Z",
                          "Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6"}) {
    EXPECT_TRUE(bound.contains(QString::fromLatin1(key))) << key;
  }
}

TEST_F(WorkflowTest, OpenChangeRunCancelRunExportAndReopen) {
  OpenDemo();
  Session& session = *window_->session();
  ASSERT_EQ(session.data()->table->num_rows(), 10000u);

  // Columns: age becomes Float, fnlwgt is left out — each one undo step.
  SchemaModel* model = window_->columnsPage()->model();
  const int age = ColumnIndex(session, "age");
  const int fnlwgt = ColumnIndex(session, "fnlwgt");
  ASSERT_GE(age, 0);
  ASSERT_GE(fnlwgt, 0);
  ASSERT_TRUE(model->setData(model->index(age, SchemaModel::kType), QStringLiteral("Float"), Qt::EditRole));
  ASSERT_TRUE(model->setData(model->index(fnlwgt, SchemaModel::kRole), QStringLiteral("ignore"), Qt::EditRole));
  EXPECT_EQ(session.schema().columns[static_cast<std::size_t>(age)].type, DataType::kFloat);
  // The type cell shows the format: ages are whole numbers, so 0 decimals were inferred.
  EXPECT_EQ(model->index(age, SchemaModel::kType).data().toString(), QStringLiteral("Float (0 decimals)"));
  EXPECT_EQ(session.undoStack()->count(), 2);

  // Privacy: one drag of the ε slider is one undo step.
  ParameterSlider* epsilon = window_->privacyPage()->epsilonSlider();
  QSlider* slider = epsilon->slider();
  slider->setSliderDown(true);
  for (int position : {slider->value() - 50, slider->value() - 100, slider->value() - 150}) {
    slider->setSliderPosition(position);
  }
  slider->setSliderDown(false);
  EXPECT_EQ(session.undoStack()->count(), 3);
  const double dragged = session.settings().model.epsilon;
  EXPECT_LT(dragged, 1.0);
  EXPECT_DOUBLE_EQ(epsilon->value(), dragged);
  session.undoStack()->undo();
  EXPECT_DOUBLE_EQ(session.settings().model.epsilon, 1.0);
  EXPECT_DOUBLE_EQ(epsilon->value(), 1.0);
  session.undoStack()->redo();
  EXPECT_DOUBLE_EQ(session.settings().model.epsilon, dragged);
  window_->privacyPage()->rowsSpinBox()->setValue(1234);
  EXPECT_EQ(session.outputRows(), 1234u);

  // Run.
  JobOutcome run = runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); });
  ASSERT_TRUE(run.arrived);
  ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
  const auto first = session.result();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->release->synthetic->num_rows(), 1234u);
  EXPECT_EQ(window_->reviewPage()->reviewWidget()->reviewData(), nullptr);  // filled when shown
  window_->showStep(Step::kReview);
  EXPECT_EQ(window_->reviewPage()->reviewWidget()->reviewData(), first->review);
  EXPECT_FALSE(session.resultIsStale());
  EXPECT_LE(first->release->model.accountant.Total().epsilon, dragged);

  // Cancel a run: the previous result stays, nothing is written.
  QTemporaryDir out;
  ASSERT_TRUE(out.isValid());
  const QByteArray input_hash = Sha256(session.data()->path);
  JobOutcome cancelled = runJob(*window_->jobs(), [this] {
    ASSERT_TRUE(window_->jobs()->startRun());
    window_->jobs()->cancel();
  });
  ASSERT_TRUE(cancelled.arrived);
  EXPECT_EQ(cancelled.end, JobController::End::kCancelled);
  EXPECT_EQ(session.result(), first);
  EXPECT_EQ(window_->reviewPage()->reviewWidget()->reviewData(), first->review);
  EXPECT_TRUE(QDir(out.path()).isEmpty());
  EXPECT_EQ(Sha256(session.data()->path), input_hash);

  // Run again.
  run = runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); });
  ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
  const auto second = session.result();
  ASSERT_TRUE(second);
  EXPECT_NE(second, first);

  // Export everything into a fresh folder.
  ExportPage* exporter = window_->exportPage();
  exporter->setDirectory(out.path());
  exporter->setOutputEnabled(ExportPage::kProject, true);
  const JobOutcome exported = runJob(*window_->jobs(), [exporter] { ASSERT_TRUE(exporter->startExport()); });
  ASSERT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();

  const RawTable csv = test_support::readCsvOrFail(exporter->outputPath(ExportPage::kCsv));
  EXPECT_EQ(csv.num_rows(), 1234u);
  std::vector<std::string> expected_columns;
  for (const RawColumn& column : session.data()->table->columns) {
    if (column.name != "fnlwgt") expected_columns.push_back(column.name);
  }
  std::vector<std::string> columns;
  for (const RawColumn& column : csv.columns) columns.push_back(column.name);
  EXPECT_EQ(columns, expected_columns);

  auto description = ReadDescription(exporter->outputPath(ExportPage::kDescription).toStdString());
  ASSERT_TRUE(description.has_value()) << description.error().message;
  EXPECT_EQ(description->mode, "marginals");  // the default mode
  EXPECT_EQ(description->network.nodes.size(), expected_columns.size());

  auto schema_json = ReadJsonFile(exporter->outputPath(ExportPage::kSchema).toStdString());
  ASSERT_TRUE(schema_json.has_value());
  auto schema = ApplySchemaJson(session.data()->inferred, schema_json.value(), "schema",
                                session.data()->table.get());
  ASSERT_TRUE(schema.has_value()) << schema.error().message;
  EXPECT_EQ(SchemaToJson(schema.value(), false), SchemaToJson(session.schema(), false));

  // Fingerprints: what the export reports is the file's SHA-256.
  const ExportReport& report = window_->jobs()->lastExport();
  ASSERT_EQ(report.files.size(), 6u);  // CSV, description, schema, project, report (HTML, PDF)
  for (const WrittenFile& file : report.files) EXPECT_EQ(file.sha256, Sha256(file.path)) << file.path.toStdString();
  EXPECT_EQ(report.input_sha256, input_hash);
  EXPECT_FALSE(report.input_changed);

  // The shareable report lists the released files' fingerprints, and nothing of the input.
  QFile html(exporter->outputPath(ExportPage::kReport));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  const QString report_text = QString::fromUtf8(html.readAll());
  EXPECT_TRUE(report_text.contains(QString::fromLatin1(report.files[0].sha256)));
  EXPECT_FALSE(report_text.contains(QString::fromLatin1(input_hash)));
  EXPECT_FALSE(report_text.contains(session.data()->path));
  // ... and the same report as a PDF (#11).
  QFile pdf(exporter->outputPath(ExportPage::kReportPdf));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.readAll().startsWith("%PDF-"));
  EXPECT_TRUE(exporter->outputPath(ExportPage::kReportPdf).endsWith(QStringLiteral("-report.pdf")));

  // #11: the Disclosure risk computed in Review goes into the owner's report, and only there.
  window_->reviewPage()->setActive(true);
  RiskView* risk = window_->reviewPage()->reviewWidget()->riskView();
  risk->sensitiveBox()->setCurrentText(QStringLiteral("income"));
  QSignalSpy computed(risk, &RiskView::computationFinished);
  risk->compute();
  ASSERT_TRUE(!computed.isEmpty() || computed.wait(120'000));
  ASSERT_NE(risk->analysis(), nullptr) << risk->statusText().toStdString();
  exporter->setOwnerReport(true);
  const JobOutcome owner_export =
      runJob(*window_->jobs(), [exporter] { ASSERT_TRUE(exporter->startExport()); });
  ASSERT_EQ(owner_export.end, JobController::End::kSucceeded) << owner_export.message.toStdString();
  QFile owner_html(exporter->outputPath(ExportPage::kReport));
  ASSERT_TRUE(owner_html.open(QIODevice::ReadOnly));
  const QString owner_text = QString::fromUtf8(owner_html.readAll());
  const qsizetype owner_part = owner_text.indexOf(QStringLiteral("<section id=\"owner-only\""));
  ASSERT_GT(owner_part, 0);
  const QString scope = riskScope(*risk->analysis()).toHtmlEscaped();
  EXPECT_TRUE(owner_text.mid(owner_part).contains(scope)) << scope.toStdString();
  EXPECT_FALSE(owner_text.left(owner_part).contains(scope));
  EXPECT_FALSE(owner_text.left(owner_part).contains(QStringLiteral("Disclosure risk (McClure")));
  exporter->setOwnerReport(false);

  // The project file round-trips: a new window restores columns and settings.
  const QString project_path = exporter->outputPath(ExportPage::kProject);
  auto project = readProject(project_path);
  ASSERT_TRUE(project.has_value()) << project.error().message;
  EXPECT_EQ(project->corrections, session.corrections());
  EXPECT_EQ(PrivacySettingsToJson(project->settings), PrivacySettingsToJson(session.settings()));
  EXPECT_EQ(project->input_sha256, input_hash);
  MainWindow reopened;
  const JobOutcome loaded = runJob(*reopened.jobs(), [&reopened, &project_path] { reopened.openPath(project_path); });
  ASSERT_EQ(loaded.end, JobController::End::kSucceeded) << loaded.message.toStdString();
  EXPECT_EQ(SchemaToJson(reopened.session()->schema(), false), SchemaToJson(session.schema(), false));
  EXPECT_EQ(PrivacySettingsToJson(reopened.session()->settings()), PrivacySettingsToJson(session.settings()));
  EXPECT_EQ(reopened.session()->outputRows(), 1234u);
}

TEST_F(WorkflowTest, ReopeningAProjectWarnsWhenTheInputChanged) {
  QTemporaryDir dir;
  const QString input = dir.filePath(QStringLiteral("people.csv"));
  ASSERT_TRUE(QFile::copy(test_support::demoDataset(), input));
  const JobOutcome opened = runJob(*window_->jobs(), [this, &input] { window_->openPath(input); });
  ASSERT_EQ(opened.end, JobController::End::kSucceeded);
  const QString project = dir.filePath(QStringLiteral("people.deniable"));
  ASSERT_TRUE(window_->files()->saveProject(project).has_value());
  {
    QFile file(input);
    ASSERT_TRUE(file.open(QIODevice::Append));
    file.write("30,Private,100000,Bachelors,13,Never-married,Sales,Not-in-family,White,Male,0,0,40,"
               "United-States,<=50K\n");
  }
  MainWindow reopened;
  QSignalSpy warnings(reopened.files(), &SessionFiles::warning);
  const JobOutcome loaded = runJob(*reopened.jobs(), [&reopened, &project] { reopened.openPath(project); });
  ASSERT_EQ(loaded.end, JobController::End::kSucceeded);
  ASSERT_EQ(warnings.count(), 1);
  EXPECT_TRUE(warnings.first().first().toString().contains(QStringLiteral("SHA-256")));
  EXPECT_EQ(reopened.session()->data()->table->num_rows(), 10001u);
}

TEST_F(WorkflowTest, BadInputShowsAReadableErrorAndKeepsTheSession) {
  OpenDemo();
  const auto before = window_->session()->data();
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("bad.csv"));
  {
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("a,b\n1,2\n3,\"unterminated\n");
  }
  const JobOutcome failed = runJob(*window_->jobs(), [this, &bad] { window_->openPath(bad); });
  ASSERT_TRUE(failed.arrived);
  EXPECT_EQ(failed.end, JobController::End::kFailed);
  EXPECT_TRUE(failed.message.contains(QStringLiteral("bad.csv:3"))) << failed.message.toStdString();
  EXPECT_TRUE(window_->banner()->isVisibleTo(window_.get()));
  EXPECT_EQ(window_->session()->data(), before);
}

}  // namespace
}  // namespace deniable::ui
