// SPDX-License-Identifier: Apache-2.0
// What closing the window would lose, and the questions the window asks before it closes
// (the close button, File ▸ Quit and Ctrl+Q all go through MainWindow::closeEvent):
//   - a background job runs: cancel it and quit, or keep working;
//   - a run is not exported: its ε is already spent on the real data, so discarding it loses
//     that budget (a new run spends it again) — export first, discard, or cancel;
//   - the project (column and privacy settings) changed since it was last saved — save,
//     discard, or cancel.
// Asked in this order; Cancel at any question keeps the window open.
#pragma once

#include <vector>

#include <QMessageBox>
#include <QString>

namespace deniable::ui {

class JobController;
class Session;

struct QuitQuestion {
  enum class Kind { kRunningJob, kUnexportedRun, kUnsavedProject };
  Kind kind;
  QString title;
  QString text;
};

// The questions for the session's state, in the order they are asked (empty: nothing is lost).
std::vector<QuitQuestion> quitQuestions(const Session& session, const JobController& jobs);

// What the user chose.
enum class QuitAnswer {
  kProceed,  // cancel the job / discard the run / discard the changes, and go on
  kSave,     // unexported run: go to Export; unsaved project: save it (then go on if saved)
  kCancel,   // keep the window open
};

// Shows `question` as a modal message box over `parent` (object name "quitQuestion").
QuitAnswer askQuitQuestion(QWidget* parent, const QuitQuestion& question);

}  // namespace deniable::ui
