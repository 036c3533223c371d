// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWhatsThis>

#include "ui/app/app_settings.h"
#include "ui/app/app_setup.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/dialogs/quit_questions.h"
#include "ui/pages/columns_page.h"
#include "ui/pages/data_page.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/project/session_files.h"
#include "ui/session/guarantee_summary.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecaster.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/errors.h"
#include "ui/widgets/guarantee_panel.h"
#include "ui/widgets/job_bar.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/step_list.h"
#include "ui/widgets/wheel_guard.h"

namespace deniable::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new Session(this)), jobs_(new JobController(session_, this)),
      files_(new SessionFiles(session_, jobs_, this)), steps_(new StepList(this)),
      pages_(new QStackedWidget(this)), banner_(new MessageBanner(this)),
      guarantee_(new GuaranteePanel(this)), job_bar_(new JobBar(this)) {
  ensureResources();
  WheelGuard::install();  // the wheel scrolls pages; it changes only a focused control
  setWindowIcon(QIcon(QStringLiteral(":/icons/deniable.svg")));
  setAcceptDrops(true);
  data_page_ = new DataPage(session_, pages_);
  columns_page_ = new ColumnsPage(session_, pages_);
  privacy_page_ = new PrivacyPage(session_, jobs_, pages_);
  run_page_ = new RunPage(session_, jobs_, pages_);
  review_page_ = new ReviewPage(session_, pages_);
  export_page_ = new ExportPage(session_, jobs_, files_, pages_);
  connect(review_page_, &ReviewPage::riskAnalysed, export_page_, &ExportPage::setRiskAnalysis);
  connect(review_page_, &ReviewPage::attacksAnalysed, export_page_,
          &ExportPage::setAttackAnalysis);
  connect(review_page_, &ReviewPage::controlSplitRequested, this, [this] {
    showStep(Step::kPrivacy);
    privacy_page_->showControlSplit();
  });
  for (QWidget* page : {static_cast<QWidget*>(data_page_), static_cast<QWidget*>(columns_page_),
                        static_cast<QWidget*>(privacy_page_), static_cast<QWidget*>(run_page_),
                        static_cast<QWidget*>(review_page_), static_cast<QWidget*>(export_page_)}) {
    pages_->addWidget(page);
  }
  auto* centre = new QWidget(this);
  auto* centre_layout = new QVBoxLayout(centre);
  centre_layout->setContentsMargins(0, 0, 0, 0);
  centre_layout->addWidget(banner_);
  centre_layout->addWidget(pages_, 1);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(steps_);
  splitter->addWidget(centre);
  splitter->setStretchFactor(1, 1);
  splitter->setChildrenCollapsible(false);
  setCentralWidget(splitter);
  statusBar()->addWidget(job_bar_, 1);

  createActions();
  createMenus();
  createDock();

  connect(steps_, &StepList::stepChosen, this, &MainWindow::showStep);
  connect(job_bar_, &JobBar::cancelRequested, jobs_, &JobController::cancel);
  connect(jobs_, &JobController::started, this, [this](JobController::Kind, const QString& title) {
    job_bar_->showStarted(title);
    updateStates();
  });
  connect(jobs_, &JobController::progressChanged, job_bar_, &JobBar::showProgress);
  connect(jobs_, &JobController::finished, this,
          [this](JobController::Kind kind, JobController::End end, const QString& message) {
            job_bar_->showFinished(message);
            if (end == JobController::End::kFailed && kind == JobController::Kind::kLoad) {
              report(message, MessageBanner::Kind::kError);
            } else if (end == JobController::End::kSucceeded && kind == JobController::Kind::kLoad) {
              banner_->hide();
            } else if (end == JobController::End::kSucceeded && kind == JobController::Kind::kRun &&
                       currentStep() == Step::kRun) {
              // Next event-loop turn: the result hand-over and filling the review views are
              // two shorter UI-thread stretches instead of one long one.
              QTimer::singleShot(0, this, [this] {
                if (currentStep() == Step::kRun) showStep(Step::kReview);
              });
            }
            updateStates();
          });
  connect(files_, &SessionFiles::warning, this,
          [this](const QString& text) { report(text, MessageBanner::Kind::kWarning); });
  connect(files_, &SessionFiles::opened, this, [this] {
    updateRecentMenu();
    updateTitle();
  });
  connect(session_, &Session::stateChanged, this, &MainWindow::updateStates);
  connect(session_, &Session::dataChanged, this, &MainWindow::updateTitle);
  connect(session_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
  connect(columns_page_, &ColumnsPage::privacyStepRequested, this,
          [this] { showStep(Step::kPrivacy); });
  // The domain forecast waits while a job runs: it never competes with a run for the cores.
  connect(jobs_, &JobController::started, columns_page_->forecaster(),
          [this] { columns_page_->forecaster()->setPaused(true); });
  connect(jobs_, &JobController::finished, columns_page_->forecaster(),
          [this] { columns_page_->forecaster()->setPaused(false); });
  connect(data_page_, &DataPage::openFileRequested, this, &MainWindow::chooseAndOpen);
  connect(data_page_, &DataPage::openDemoRequested, open_demo_, &QAction::trigger);
  connect(data_page_, &DataPage::openProjectRequested, this, &MainWindow::chooseAndOpenProject);
  connect(data_page_, &DataPage::openPathRequested, this, &MainWindow::openPath);

  QSettings settings;
  if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
    resize(1280, 800);
  }
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  updateStates();
  updateTitle();
  showStep(Step::kData);
}

MainWindow::~MainWindow() {
  // The children (the session, its undo stack, the pages, ...) die later, in ~QWidget, when
  // this is no longer a MainWindow, and some signal on their way out: ~QUndoStack emits
  // cleanChanged, which is connected to updateTitle. Cut every connection from a child to this
  // window first, so that none reaches a half-destroyed window.
  for (QObject* child : findChildren<QObject*>()) disconnect(child, nullptr, this, nullptr);
}

void MainWindow::createActions() {
  QStyle* s = style();
  auto make = [this](const QString& text, const QKeySequence& key, const QString& tip,
                     const QIcon& icon = {}) {
    auto* action = new QAction(icon, text, this);
    if (!key.isEmpty()) action->setShortcut(key);
    action->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    return action;
  };
  open_ = make(tr("&Open CSV…"), QKeySequence::Open, tr("Open the sensitive CSV file"),
               s->standardIcon(QStyle::SP_DialogOpenButton));
  open_demo_ = make(tr("Open the &demo dataset"), {}, tr("Open a 10,000-row sample of the UCI Adult dataset"));
  open_project_ = make(tr("Open &project…"), QKeySequence(tr("Ctrl+Shift+O")), tr("Reopen a saved .deniable project"));
  save_project_ = make(tr("&Save project"), QKeySequence::Save,
                       tr("Save the settings and the input's fingerprint (no data)"),
                       s->standardIcon(QStyle::SP_DialogSaveButton));
  save_project_as_ = make(tr("Save project &as…"), QKeySequence(tr("Ctrl+Shift+S")), tr("Save the project under a new name"));
  // Ctrl+Q everywhere (the platform's Quit binding is empty under some keyboard schemes).
  quit_ = make(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), tr("Close Deniable (asks first if work would be lost)"));
  undo_ = session_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo_->setShortcut(QKeySequence(tr("Ctrl+Z")));
  undo_->setIcon(s->standardIcon(QStyle::SP_ArrowBack));
  undo_->setToolTip(tr("Undo the last change to columns or privacy settings (Ctrl+Z)"));
  redo_ = session_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo_->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
  redo_->setIcon(s->standardIcon(QStyle::SP_ArrowForward));
  redo_->setToolTip(tr("Redo (Ctrl+Shift+Z)"));
  preferences_ = make(tr("&Preferences…"), QKeySequence::Preferences, tr("Threads, export folder, help texts"));
  run_ = make(tr("&Run"), QKeySequence(tr("Ctrl+R")), tr("Learn the private model and synthesize"),
              s->standardIcon(QStyle::SP_MediaPlay));
  cancel_ = make(tr("&Cancel"), QKeySequence(Qt::Key_Escape), tr("Stop the background job; nothing changes"),
                 s->standardIcon(QStyle::SP_MediaStop));
  export_ = make(tr("&Export…"), QKeySequence(tr("Ctrl+E")), tr("Write the reviewed release"),
                 s->standardIcon(QStyle::SP_DriveFDIcon));
  whats_this_ = QWhatsThis::createAction(this);
  about_ = make(tr("&About Deniable"), {}, tr("Version and licence"));
  for (int i = 0; i < kStepCount; ++i) {
    const Step step = static_cast<Step>(i);
    step_actions_[static_cast<std::size_t>(i)] =
        make(QStringLiteral("&%1 %2").arg(i + 1).arg(stepTitle(step)),
             QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)), tr("Go to step %1").arg(i + 1));
    connect(step_actions_[static_cast<std::size_t>(i)], &QAction::triggered, this,
            [this, step] { showStep(step); });
  }
  connect(open_, &QAction::triggered, this, &MainWindow::chooseAndOpen);
  connect(open_demo_, &QAction::triggered, this, &MainWindow::openDemo);
  connect(open_project_, &QAction::triggered, this, &MainWindow::chooseAndOpenProject);
  connect(save_project_, &QAction::triggered, this, [this] { saveProject(false); });
  connect(save_project_as_, &QAction::triggered, this, [this] { saveProject(true); });
  connect(quit_, &QAction::triggered, this, &QWidget::close);
  connect(preferences_, &QAction::triggered, this, &MainWindow::showPreferences);
  connect(run_, &QAction::triggered, this, [this] {
    showStep(Step::kRun);
    jobs_->startRun();
  });
  connect(cancel_, &QAction::triggered, jobs_, &JobController::cancel);
  connect(export_, &QAction::triggered, this, [this] {
    showStep(Step::kExport);
    export_page_->startExport();
  });
  connect(about_, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addActions({open_, open_demo_, open_project_});
  recent_menu_ = file->addMenu(tr("Open &recent"));
  file->addSeparator();
  file->addActions({save_project_, save_project_as_});
  file->addSeparator();
  file->addAction(quit_);
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addActions({undo_, redo_});
  edit->addSeparator();
  edit->addAction(preferences_);
  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QAction* action : step_actions_) view->addAction(action);
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({run_, cancel_, export_});
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addActions({whats_this_, about_});

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName(QStringLiteral("mainToolBar"));
  tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  tools->addActions({open_, run_, export_});
  tools->addSeparator();
  tools->addActions({undo_, redo_});
  updateRecentMenu();
}

void MainWindow::createDock() {
  dock_ = new QDockWidget(tr("Guarantee"), this);
  dock_->setObjectName(QStringLiteral("guaranteeDock"));
  dock_->setWidget(guarantee_);
  dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::RightDockWidgetArea, dock_);
  resizeDocks({dock_}, {265}, Qt::Horizontal);
  menuBar()->actions().at(2)->menu()->addSeparator();
  menuBar()->actions().at(2)->menu()->addAction(dock_->toggleViewAction());
}

void MainWindow::showStep(Step step) {
  const auto& status = steps_->states()[static_cast<std::size_t>(step)];
  if (status.state == StepState::kLocked) {
    steps_->setCurrentStep(currentStep());  // keep the list on the visible page
    job_bar_->showFinished(status.note);
    return;
  }
  pages_->setCurrentIndex(static_cast<int>(step));
  steps_->setCurrentStep(step);
  review_page_->setActive(step == Step::kReview);
  if (step == Step::kReview) session_->markReviewed();
}

Step MainWindow::currentStep() const { return static_cast<Step>(pages_->currentIndex()); }

void MainWindow::updateStates() {
  const bool busy = jobs_->busy();
  steps_->setStates(computeStepStates(*session_, busy && jobs_->kind() == JobController::Kind::kRun));
  steps_->setCurrentStep(currentStep());
  guarantee_->setSummary(summarizeGuarantee(*session_));
  for (int i = 0; i < kStepCount; ++i) {
    step_actions_[static_cast<std::size_t>(i)]->setEnabled(
        steps_->states()[static_cast<std::size_t>(i)].state != StepState::kLocked);
  }
  run_->setEnabled(session_->hasInput() && !busy);
  cancel_->setEnabled(busy);
  export_->setEnabled(session_->result() != nullptr && !busy);
  for (QAction* action : {open_, open_demo_, open_project_}) action->setEnabled(!busy);
  save_project_->setEnabled(session_->hasInput());
  save_project_as_->setEnabled(session_->hasInput());
}

void MainWindow::updateRecentMenu() {
  recent_menu_->clear();
  const QStringList files = AppSettings::recentFiles();
  for (const QString& path : files) {
    QAction* action = recent_menu_->addAction(QFileInfo(path).fileName());
    action->setToolTip(path);
    connect(action, &QAction::triggered, this, [this, path] { openPath(path); });
  }
  recent_menu_->setEnabled(!files.isEmpty());
  data_page_->refreshRecentFiles();
}

void MainWindow::updateTitle() {
  QString title = QStringLiteral("Deniable");
  if (session_->hasInput()) {
    // "*": column or privacy settings changed since the project was last saved.
    title = QStringLiteral("%1%2 — Deniable")
                .arg(QFileInfo(session_->data()->path).fileName(),
                     session_->undoStack()->isClean() ? QString() : QStringLiteral(" *"));
  }
  setWindowTitle(title);
}

void MainWindow::openPath(const QString& path) {
  if (auto s = files_->openPath(path); !s) {
    report(describeError(s.error()), MessageBanner::Kind::kError);
  }
}

void MainWindow::openDemo() {
  if (auto s = files_->openDemo(); !s) report(describeError(s.error()), MessageBanner::Kind::kError);
}

void MainWindow::chooseAndOpen() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open a CSV file"), QString(), tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
  if (!path.isEmpty()) openPath(path);
}

void MainWindow::chooseAndOpenProject() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a project"), QString(),
                                                    tr("Deniable projects (*.deniable)"));
  if (!path.isEmpty()) openPath(path);
}

bool MainWindow::saveProject(bool choose_path) {
  QString path = files_->projectPath();
  if (choose_path || path.isEmpty()) {
    const QString proposal = session_->hasInput()
                                 ? QFileInfo(session_->data()->path).completeBaseName() + QStringLiteral(".deniable")
                                 : QString();
    path = QFileDialog::getSaveFileName(this, tr("Save project"), proposal,
                                        tr("Deniable projects (*.deniable)"));
    if (path.isEmpty()) return false;
  }
  if (auto s = files_->saveProject(path); !s) {
    report(describeError(s.error()), MessageBanner::Kind::kError);
    return false;
  }
  session_->undoStack()->setClean();
  job_bar_->showFinished(tr("Project saved to %1").arg(path));
  updateRecentMenu();
  return true;
}

void MainWindow::showPreferences() {
  PreferencesDialog dialog(this);
  if (dialog.exec() == QDialog::Accepted) AppSettings::setPreferences(dialog.preferences());
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Deniable"),
                     tr("<h3>Deniable %1</h3><p>Turns a sensitive CSV into differentially private "
                        "synthetic data, and shows why it is safe.</p><p>Licensed under the "
                        "Apache License 2.0.</p>")
                         .arg(QStringLiteral(DENIABLE_VERSION)));
}

void MainWindow::report(const QString& text, MessageBanner::Kind kind) {
  banner_->showMessage(kind, text);
}

bool MainWindow::confirmClose() {
  for (const QuitQuestion& question : quitQuestions(*session_, *jobs_)) {
    switch (askQuitQuestion(this, question)) {
      case QuitAnswer::kCancel: return false;
      case QuitAnswer::kProceed: break;
      case QuitAnswer::kSave:
        if (question.kind == QuitQuestion::Kind::kUnexportedRun) {
          showStep(Step::kExport);  // the user exports, then quits again
          return false;
        }
        if (!saveProject(false)) return false;  // a failed or cancelled save keeps the window
        break;
    }
  }
  return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmClose()) {
    event->ignore();
    return;
  }
  jobs_->cancel();
  jobs_->waitForWorker();  // stops within a fraction of a second (the engine polls)
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 1 && urls.front().isLocalFile() && !jobs_->busy()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() != 1 || !urls.front().isLocalFile()) return;
  event->acceptProposedAction();
  openPath(urls.front().toLocalFile());
}

}  // namespace deniable::ui
