// SPDX-License-Identifier: Apache-2.0
// #11: a GUI export with a release report draws the report's charts on the UI thread one per
// turn of the event loop (the window stays live), names each in the progress, and honours
// Cancel between them (no file is left behind).
#include <set>

#include <QDir>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

#include "tests/ui/demo_window.h"
#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"

namespace deniable::ui {
namespace {

using test_support::JobOutcome;
using test_support::runJob;

const QString kChartStage = QStringLiteral("Drawing the report's charts");

// The report's charts the job went through (each announced once, as its stage).
std::set<QString> ChartStages(const JobTrace& trace) {
  std::set<QString> charts;
  for (const JobTrace::Stage& stage : trace.stages()) {
    if (stage.name.startsWith(kChartStage)) charts.insert(stage.name);
  }
  return charts;
}

QStringList FilesIn(const QString& directory) {
  return QDir(directory).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
}

class ExportReportJobTest : public test_support::DemoWindowTest {
 protected:
  void SetUp() override {
    DemoWindowTest::SetUp();
    if (HasFatalFailure()) return;
    PrivacySettings settings = window_->session()->settings();
    settings.model.mode = SynthesisMode::kIndependent;  // a fast run
    window_->session()->editSettings(settings, QStringLiteral("fast"));
    window_->privacyPage()->rowsSpinBox()->setValue(500);
    const JobOutcome run = runJob(*window_->jobs(), [this] { window_->jobs()->startRun(); });
    ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
    ASSERT_TRUE(out_.isValid());
    exporter()->setDirectory(out_.path());
    exporter()->setOwnerReport(true);  // the network, 4 histograms, 2 heatmap pictures
  }

  ExportPage* exporter() { return window_->exportPage(); }
  JobController& jobs() { return *window_->jobs(); }

  static constexpr int kOwnerCharts = 1 + 4 + 2;
  QTemporaryDir out_;
};

TEST_F(ExportReportJobTest, ChartsAreDrawnOnePerEventLoopTurnAndNamedInTheProgress) {
  // A probe that runs at every turn of the event loop: it sees each chart count in turn only
  // if the charts are drawn one per turn (in one block it would see none of the middle ones).
  std::set<std::size_t> seen;
  QTimer probe;
  probe.setInterval(0);
  QObject::connect(&probe, &QTimer::timeout,
                   [&] { seen.insert(ChartStages(*jobs().trace()).size()); });
  QStringList progress;
  QObject::connect(&jobs(), &JobController::progressChanged,
                   [&progress](double, const QString& stage, double) { progress << stage; });
  const JobOutcome exported = runJob(jobs(), [&] {
    probe.start();  // first: it runs before the first chart
    ASSERT_TRUE(exporter()->startExport());
  });
  probe.stop();
  ASSERT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();
  EXPECT_EQ(ChartStages(*jobs().trace()).size(), static_cast<std::size_t>(kOwnerCharts));
  for (std::size_t drawn = 1; drawn <= kOwnerCharts; ++drawn) {
    EXPECT_TRUE(seen.count(drawn))
        << "no turn of the event loop while chart " << drawn << " was the next one";
  }
  EXPECT_TRUE(
      ChartStages(*jobs().trace())
          .count(QStringLiteral("Drawing the report's charts (1 of %1): the model's picture")
                     .arg(kOwnerCharts)));
  // The progress names the charts as they are drawn (the staging's stages interleave).
  EXPECT_GE(progress.filter(kChartStage).size(), 2)
      << progress.join(QLatin1Char('|')).toStdString();
  // The report was written, with every picture, and its PDF.
  QFile html(exporter()->outputPath(ExportPage::kReport));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  EXPECT_EQ(html.readAll().count("data:image/png;base64,"), kOwnerCharts);
  EXPECT_TRUE(QFileInfo::exists(exporter()->outputPath(ExportPage::kReportPdf)));
}

TEST_F(ExportReportJobTest, CancelBetweenChartsLeavesNoFileAndTheNextExportWorks) {
  const QString second = QStringLiteral("(2 of %1)").arg(kOwnerCharts);
  bool cancelled = false;
  const auto connection = QObject::connect(&jobs(), &JobController::progressChanged,
                                           [&](double, const QString& stage, double) {
                                             if (!cancelled && stage.contains(second)) {
                                               cancelled = true;
                                               jobs().cancel();
                                             }
                                           });
  const JobOutcome outcome = runJob(jobs(), [&] { ASSERT_TRUE(exporter()->startExport()); });
  QObject::disconnect(connection);
  ASSERT_TRUE(cancelled);
  EXPECT_EQ(outcome.end, JobController::End::kCancelled) << outcome.message.toStdString();
  EXPECT_EQ(outcome.message, QStringLiteral("Export cancelled: no file was written."));
  EXPECT_TRUE(FilesIn(out_.path()).isEmpty())
      << FilesIn(out_.path()).join(QLatin1Char(' ')).toStdString();
  EXPECT_LT(ChartStages(*jobs().trace()).size(), static_cast<std::size_t>(kOwnerCharts));
  EXPECT_FALSE(window_->session()->exported());

  // Nothing of the cancelled export is left over: the next one draws every chart and writes.
  const JobOutcome again = runJob(jobs(), [&] { ASSERT_TRUE(exporter()->startExport()); });
  ASSERT_EQ(again.end, JobController::End::kSucceeded) << again.message.toStdString();
  EXPECT_EQ(ChartStages(*jobs().trace()).size(), static_cast<std::size_t>(kOwnerCharts));
  EXPECT_TRUE(QFileInfo::exists(exporter()->outputPath(ExportPage::kReport)));
  for (const QString& file : FilesIn(out_.path())) {
    EXPECT_FALSE(file.startsWith(QLatin1Char('.'))) << "a staged file left: " << file.toStdString();
  }
}

}  // namespace
}  // namespace deniable::ui
