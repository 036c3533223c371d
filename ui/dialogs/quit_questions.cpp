// SPDX-License-Identifier: Apache-2.0
#include "ui/dialogs/quit_questions.h"

#include <QCoreApplication>
#include <QPushButton>
#include <QUndoStack>

#include "ui/session/session.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("QuitQuestions", text); }

QString jobName(JobController::Kind kind) {
  switch (kind) {
    case JobController::Kind::kLoad: return tr("An input file is being opened.");
    case JobController::Kind::kRun: return tr("A synthesis run is in progress.");
    case JobController::Kind::kExport: return tr("An export is in progress.");
    case JobController::Kind::kAdvise: return tr("Pass rates are being estimated.");
    case JobController::Kind::kNone: break;
  }
  return {};
}

}  // namespace

std::vector<QuitQuestion> quitQuestions(const Session& session, const JobController& jobs) {
  std::vector<QuitQuestion> questions;
  if (jobs.busy()) {
    QString text = jobName(jobs.kind()) + QLatin1Char(' ');
    text += jobs.kind() == JobController::Kind::kExport
                ? tr("Quitting cancels it: no file is written.")
                : tr("Quitting cancels it.");
    questions.push_back({QuitQuestion::Kind::kRunningJob, tr("Cancel the job and quit?"),
                         text + tr("\n\nCancel the job and quit?")});
  }
  if (const auto& result = session.result(); result != nullptr && !session.exported()) {
    const double epsilon = result->request.settings.model.epsilon;
    QString text = tr("The last run is not exported.");
    if (result->request.settings.reproducible) {
      text += tr(" It used a fixed seed (testing only, not a private release); discarding it "
                 "loses its synthetic data.");
    } else {
      text += tr(" Its privacy budget, ε = %1, is already spent on your data: if you discard "
                 "the run, that ε is lost, and a new run spends another ε = %1.")
                  .arg(formatDecimal(epsilon, 3));
    }
    questions.push_back({QuitQuestion::Kind::kUnexportedRun, tr("Export the run before quitting?"),
                         text + tr("\n\nExport it first?")});
  }
  if (session.hasInput() && !session.undoStack()->isClean()) {
    questions.push_back({QuitQuestion::Kind::kUnsavedProject, tr("Save the project?"),
                         tr("The column and privacy settings changed since the project was last "
                            "saved. Save them as a project (settings only, no data) before "
                            "quitting?")});
  }
  return questions;
}

QuitAnswer askQuitQuestion(QWidget* parent, const QuitQuestion& question) {
  QMessageBox box(QMessageBox::Warning, question.title, question.text, QMessageBox::NoButton, parent);
  box.setObjectName(QStringLiteral("quitQuestion"));
  QAbstractButton* save = nullptr;
  QAbstractButton* proceed = nullptr;
  switch (question.kind) {
    case QuitQuestion::Kind::kRunningJob:
      proceed = box.addButton(tr("Cancel the job and quit"), QMessageBox::DestructiveRole);
      box.setDefaultButton(box.addButton(tr("Keep working"), QMessageBox::RejectRole));
      break;
    case QuitQuestion::Kind::kUnexportedRun:
      save = box.addButton(tr("Go to Export"), QMessageBox::AcceptRole);
      proceed = box.addButton(tr("Discard the run"), QMessageBox::DestructiveRole);
      box.addButton(QMessageBox::Cancel);
      box.setDefaultButton(static_cast<QPushButton*>(save));
      break;
    case QuitQuestion::Kind::kUnsavedProject:
      save = box.addButton(QMessageBox::Save);
      proceed = box.addButton(QMessageBox::Discard);
      box.addButton(QMessageBox::Cancel);
      box.setDefaultButton(QMessageBox::Save);
      break;
  }
  box.exec();
  if (box.clickedButton() == nullptr) return QuitAnswer::kCancel;  // Escape, window closed
  if (box.clickedButton() == save) return QuitAnswer::kSave;
  if (box.clickedButton() == proceed) return QuitAnswer::kProceed;
  return QuitAnswer::kCancel;
}

}  // namespace deniable::ui
