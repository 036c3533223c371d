// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/run_page.h"

#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/session/guarantee_summary.h"
#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/format.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/page_header.h"

namespace deniable::ui {

RunPage::RunPage(Session* session, JobController* jobs, QWidget* parent)
    : QWidget(parent), session_(session), jobs_(jobs), banner_(new MessageBanner(this)) {
  plan_ = new QLabel(this);
  plan_->setWordWrap(true);
  plan_->setTextFormat(Qt::RichText);
  estimate_ = new QLabel(this);
  estimate_->setWordWrap(true);
  estimate_->setToolTip(tr("The engine's rough estimate for this machine, from its benchmarks"));
  run_ = new QPushButton(tr("Run ▶"), this);
  run_->setToolTip(tr("Learn the private model and synthesize the rows (Ctrl+R)"));
  run_->setDefault(true);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setToolTip(tr("Stop the run (Esc): nothing is changed, the previous results stay"));
  cancel_->setEnabled(false);
  connect(run_, &QPushButton::clicked, jobs_, &JobController::startRun);
  connect(cancel_, &QPushButton::clicked, jobs_, &JobController::cancel);
  bar_ = new QProgressBar(this);
  bar_->setRange(0, 1000);
  bar_->setFormat(QStringLiteral("%p %"));
  bar_->setToolTip(tr("Progress of the run"));
  stage_ = new QLabel(this);

  auto* plan_box = new QGroupBox(tr("The run"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addWidget(bar_, 1);
  auto* plan_layout = new QVBoxLayout(plan_box);
  plan_layout->addWidget(plan_);
  plan_layout->addWidget(estimate_);
  plan_layout->addLayout(buttons);
  plan_layout->addWidget(stage_);

  stages_ = new QTreeWidget(this);
  stages_->setHeaderLabels({tr("Stage"), tr("Time")});
  stages_->setRootIsDecorated(false);
  stages_->setToolTip(tr("What the engine did, and how long each stage took"));
  stages_->header()->setStretchLastSection(false);
  stages_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  stages_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(2000);
  log_->setToolTip(tr("What happened in this session"));
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  summary_->setToolTip(tr("The engine's summary of the last run"));

  auto* stages_box = new QGroupBox(tr("Stages"), this);
  auto* stages_layout = new QVBoxLayout(stages_box);
  stages_layout->addWidget(stages_);
  auto* log_box = new QGroupBox(tr("Log"), this);
  auto* log_layout = new QVBoxLayout(log_box);
  log_layout->addWidget(log_);
  auto* summary_box = new QGroupBox(tr("Result"), this);
  auto* summary_layout = new QVBoxLayout(summary_box);
  summary_layout->addWidget(summary_);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(stages_box);
  splitter->addWidget(log_box);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kRun, this));
  layout->addWidget(banner_);
  layout->addWidget(plan_box);
  layout->addWidget(splitter, 2);
  layout->addWidget(summary_box, 1);

  connect(jobs_, &JobController::started, this, [this](JobController::Kind kind) {
    if (kind == JobController::Kind::kRun) onStarted();
    refresh();
  });
  connect(jobs_, &JobController::progressChanged, this,
          [this](double fraction, const QString& stage) { onProgress(fraction, stage); });
  connect(jobs_, &JobController::finished, this,
          [this](JobController::Kind kind, JobController::End end, const QString& message) {
            onFinished(static_cast<int>(kind), static_cast<int>(end), message);
          });
  for (auto signal : {&Session::dataChanged, &Session::schemaChanged, &Session::settingsChanged,
                      &Session::resultChanged}) {
    connect(session_, signal, this, &RunPage::refresh);
  }
  refresh();
}

void RunPage::refresh() {
  const bool busy = jobs_->busy();
  run_->setEnabled(!busy && session_->hasInput());
  cancel_->setEnabled(busy && jobs_->kind() == JobController::Kind::kRun);
  if (!session_->hasInput()) {
    plan_->setText(tr("Open a CSV file first."));
    estimate_->clear();
    return;
  }
  const RunRequest request = jobs_->nextRunRequest();
  const ModelSettings& model = request.settings.model;
  int modelled = 0;
  for (const ColumnSchema& column : request.schema.columns) modelled += column.is_modelled() ? 1 : 0;
  plan_->setText(tr("<b>%1</b> mode, ε = %2: a private model of %3 columns of %4, then "
                    "<b>%5</b> synthetic rows.%6")
                     .arg(modeTitle(static_cast<int>(model.mode)), formatEpsilon(model.epsilon))
                     .arg(modelled)
                     .arg(formatRows(request.data->table->num_rows()), formatCount(request.rows),
                          request.settings.reproducible
                              ? tr(" <b>Reproducible mode: NOT a private release.</b>")
                              : QString()));
  const RunEstimate estimate = EstimateRun(request.data->table->num_rows(),
                                           static_cast<std::size_t>(modelled), request.rows, model);
  estimate_->setText(tr("Estimated: about %1 and %2 of memory.")
                         .arg(formatSeconds(estimate.seconds), formatMegabytes(estimate.peak_megabytes)));
  if (!busy && !tracking_ && session_->result()) {
    const auto& result = session_->result();
    QString text = QString::fromStdString(result->release->rows.summary.text);
    for (const std::string& warning : result->release->model.warnings) {
      text += QStringLiteral("\n⚠ ") + QString::fromStdString(warning);
    }
    if (session_->resultIsStale()) {
      text.prepend(tr("These results were made with earlier settings: run again to update them.\n\n"));
    }
    summary_->setText(text);
  } else if (!session_->result() && !tracking_) {
    summary_->setText(tr("No run yet."));
  }
}

void RunPage::onStarted() {
  tracking_ = true;
  banner_->hide();
  stages_->clear();
  bar_->setValue(0);
  stage_->setText(tr("Starting…"));
  log(tr("Run started: %1").arg(plan_->text().remove(QRegularExpression(QStringLiteral("<[^>]*>")))));
}

void RunPage::onProgress(double fraction, const QString& stage) {
  if (!tracking_) return;
  bar_->setValue(static_cast<int>(fraction * 1000));
  if (!stage.isEmpty()) stage_->setText(stage + QStringLiteral("…"));
  showStages();
}

void RunPage::showStages() {
  const auto stages = jobs_->trace()->stages();
  while (stages_->topLevelItemCount() > static_cast<int>(stages.size())) {
    delete stages_->takeTopLevelItem(stages_->topLevelItemCount() - 1);
  }
  const double now = jobs_->trace()->elapsedSeconds();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    QTreeWidgetItem* item = static_cast<int>(i) < stages_->topLevelItemCount()
                                ? stages_->topLevelItem(static_cast<int>(i))
                                : new QTreeWidgetItem(stages_);
    const auto& stage = stages[i];
    const double end = stage.end_seconds < 0 ? now : stage.end_seconds;
    item->setText(0, stage.name);
    item->setText(1, formatSeconds(end - stage.start_seconds) +
                         (stage.end_seconds < 0 ? QStringLiteral(" …") : QString()));
  }
}

void RunPage::onFinished(int kind, int end, const QString& message) {
  if (static_cast<JobController::Kind>(kind) != JobController::Kind::kRun) {
    refresh();
    return;
  }
  tracking_ = false;
  showStages();
  const auto how = static_cast<JobController::End>(end);
  stage_->setText(message);
  if (how == JobController::End::kSucceeded) {
    bar_->setValue(1000);
    banner_->hide();
  } else {
    banner_->showMessage(how == JobController::End::kFailed ? MessageBanner::Kind::kError
                                                             : MessageBanner::Kind::kInfo,
                         message);
  }
  log(message);
  refresh();
}

void RunPage::log(const QString& line) {
  log_->appendPlainText(QStringLiteral("%1  %2")
                            .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")), line));
}

QString RunPage::estimateText() const { return estimate_->text(); }
QString RunPage::logText() const { return log_->toPlainText(); }

}  // namespace deniable::ui
