// SPDX-License-Identifier: Apache-2.0
// The main window: a thin router. Menus, toolbar and shortcuts; the step list on the left; the
// current step's page in the centre; the Guarantee panel docked on the right; the background
// job in the status bar. The state lives in the Session, the jobs in the JobController, file
// handling in SessionFiles; the pages do their own work.
#pragma once

#include <array>

#include <QMainWindow>

#include "ui/session/workflow_state.h"
#include "ui/widgets/message_banner.h"

class QAction;
class QDockWidget;
class QMenu;
class QStackedWidget;

namespace deniable::ui {

class ColumnsPage;
class DataPage;
class ExportPage;
class GuaranteePanel;
class JobBar;
class JobController;
class PrivacyPage;
class ReviewPage;
class RunPage;
class Session;
class SessionFiles;
class StepList;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  Session* session() const { return session_; }
  JobController* jobs() const { return jobs_; }
  SessionFiles* files() const { return files_; }
  StepList* stepList() const { return steps_; }
  GuaranteePanel* guaranteePanel() const { return guarantee_; }
  JobBar* jobBar() const { return job_bar_; }
  MessageBanner* banner() const { return banner_; }
  DataPage* dataPage() const { return data_page_; }
  ColumnsPage* columnsPage() const { return columns_page_; }
  PrivacyPage* privacyPage() const { return privacy_page_; }
  RunPage* runPage() const { return run_page_; }
  ReviewPage* reviewPage() const { return review_page_; }
  ExportPage* exportPage() const { return export_page_; }

  void showStep(Step step);
  Step currentStep() const;
  // Opens a CSV or .deniable project (errors go to the banner).
  void openPath(const QString& path);
  void openDemo();

 protected:
  // The close button, File ▸ Quit and Ctrl+Q: asks first when a job runs, a run is not
  // exported or the project is not saved (confirmClose).
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createMenus();
  void createDock();
  void updateStates();
  void updateRecentMenu();
  void updateTitle();
  void chooseAndOpen();
  void chooseAndOpenProject();
  // False when nothing was saved (the user cancelled the file dialog, or the save failed).
  bool saveProject(bool choose_path);
  // Asks what closing would lose (dialogs/quit_questions.h); false keeps the window open.
  bool confirmClose();
  void showPreferences();
  void showAbout();
  void report(const QString& text, MessageBanner::Kind kind);

  Session* session_;
  JobController* jobs_;
  SessionFiles* files_;
  StepList* steps_;
  QStackedWidget* pages_;
  MessageBanner* banner_;
  GuaranteePanel* guarantee_;
  QDockWidget* dock_;
  JobBar* job_bar_;
  DataPage* data_page_;
  ColumnsPage* columns_page_;
  PrivacyPage* privacy_page_;
  RunPage* run_page_;
  ReviewPage* review_page_;
  ExportPage* export_page_;
  QMenu* recent_menu_ = nullptr;
  QAction* open_ = nullptr;
  QAction* open_demo_ = nullptr;
  QAction* open_project_ = nullptr;
  QAction* save_project_ = nullptr;
  QAction* save_project_as_ = nullptr;
  QAction* quit_ = nullptr;
  QAction* undo_ = nullptr;
  QAction* redo_ = nullptr;
  QAction* preferences_ = nullptr;
  QAction* run_ = nullptr;
  QAction* cancel_ = nullptr;
  QAction* export_ = nullptr;
  QAction* whats_this_ = nullptr;
  QAction* about_ = nullptr;
  std::array<QAction*, kStepCount> step_actions_{};
};

}  // namespace deniable::ui
