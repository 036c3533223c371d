// SPDX-License-Identifier: Apache-2.0
#include "ui/session/workflow_state.h"

#include <QCoreApplication>

#include "ui/session/session.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
  return QCoreApplication::translate("Workflow", text, disambiguation, n);
}

}  // namespace

QString stepTitle(Step step) {
  switch (step) {
    case Step::kData: return tr("Data");
    case Step::kColumns: return tr("Columns");
    case Step::kPrivacy: return tr("Privacy");
    case Step::kRun: return tr("Run");
    case Step::kReview: return tr("Review");
    case Step::kExport: return tr("Export");
  }
  return {};
}

QString stepHelp(Step step) {
  switch (step) {
    case Step::kData:
      return tr("Open the CSV file you want to share safely. Deniable reads it on this computer "
                "only; nothing is uploaded. You will see how many rows and columns it has, and "
                "any lines that look wrong. Try the demo dataset if you just want to look around.");
    case Step::kColumns:
      return tr("Check what each column is. Deniable guessed a type (number, date, text) and "
                "whether a column is a category. Mark columns that identify people (names, IDs): "
                "they are replaced by new made-up values, never copied. Mark columns to leave out "
                "as 'ignore'. If the range of a number is public knowledge (e.g. age 0–120), you "
                "can enter it; otherwise Deniable estimates it privately.");
    case Step::kPrivacy:
      return tr("Choose how strongly people are protected. ε (epsilon) is the privacy budget: "
                "smaller means more private and less accurate. Around 1 is a common choice; above "
                "5 protects little. Under ε, and in the Guarantee panel on the right, you can read "
                "in plain words what the guarantee means for any one person in your data.");
    case Step::kRun:
      return tr("Deniable now learns a private model of your data and draws new, made-up rows "
                "from it. This runs in the background: you can keep working, look at other steps "
                "or cancel at any time (nothing is changed or written when you cancel).");
    case Step::kReview:
      return tr("Compare the synthetic data with yours before you share it: are the distributions "
                "and relationships you care about kept? This comparison uses your real data and "
                "is for your eyes only; it is not part of the release.");
    case Step::kExport:
      return tr("Save the synthetic CSV, the description of the model and a report that explains "
                "the guarantee. The fingerprints (SHA-256) let anyone check later that a file is "
                "the one you released. Your input file is never overwritten.");
  }
  return {};
}

std::array<StepStatus, kStepCount> computeStepStates(const Session& session, bool running) {
  std::array<StepStatus, kStepCount> out;
  auto at = [&out](Step step) -> StepStatus& { return out[static_cast<std::size_t>(step)]; };
  if (!session.hasInput()) {
    at(Step::kData) = {StepState::kTodo, tr("Open a CSV file to begin")};
    for (Step step : {Step::kColumns, Step::kPrivacy, Step::kRun, Step::kReview, Step::kExport}) {
      at(step) = {StepState::kLocked, tr("Open a CSV file first")};
    }
    return out;
  }
  const auto& data = *session.data();
  at(Step::kData) = {StepState::kDone, tr("%1, %2 columns")
                                           .arg(formatRows(data.table->num_rows()))
                                           .arg(data.table->num_columns())};

  int failed_columns = 0;
  int modelled = 0;
  for (const ColumnSchema& column : session.schema().columns) {
    if (column.is_modelled()) ++modelled;
    if (column.is_modelled() && column.stats.failed_count > 0) ++failed_columns;
  }
  if (modelled == 0) {
    at(Step::kColumns) = {StepState::kAttention, tr("No column is modelled: every column is an "
                                                    "identifier or ignored")};
  } else if (failed_columns > 0) {
    at(Step::kColumns) = {StepState::kAttention,
                          failed_columns == 1
                              ? tr("1 column has values that do not fit its type")
                              : tr("%1 columns have values that do not fit their type")
                                    .arg(failed_columns)};
  } else {
    at(Step::kColumns) = {StepState::kDone,
                          tr("%1 modelled").arg(countOf(static_cast<std::uint64_t>(modelled),
                                                        tr("column"), tr("columns")))};
  }

  const PrivacySettings& settings = session.settings();
  if (auto valid = settings.model.Validate(); !valid) {
    at(Step::kPrivacy) = {StepState::kAttention, QString::fromStdString(valid.error().message)};
  } else if (settings.reproducible) {
    at(Step::kPrivacy) = {StepState::kAttention,
                          tr("Reproducible mode: NOT a private release (testing only)")};
  } else {
    at(Step::kPrivacy) = {StepState::kDone, tr("%1 mode, ε = %2")
                                                .arg(QString::fromUtf8(
                                                    SynthesisModeName(settings.model.mode)),
                                                     formatEpsilon(settings.model.epsilon))};
  }

  const bool stale = session.resultIsStale();
  if (running) {
    at(Step::kRun) = {StepState::kTodo, tr("Running…")};
  } else if (!session.runError().isEmpty()) {
    at(Step::kRun) = {StepState::kAttention, session.runError()};
  } else if (!session.result()) {
    at(Step::kRun) = {StepState::kTodo, tr("Ready to run")};
  } else if (stale) {
    at(Step::kRun) = {StepState::kStale, tr("Settings changed since the last run: run again")};
  } else {
    at(Step::kRun) = {StepState::kDone, tr("%1 synthesized")
                                            .arg(formatRows(session.result()->request.rows))};
  }

  if (!session.result()) {
    at(Step::kReview) = {StepState::kLocked, tr("Run first")};
    at(Step::kExport) = {StepState::kLocked, tr("Run first")};
    return out;
  }
  const QString stale_note = tr("Made with earlier settings: run again to update");
  if (stale) {
    at(Step::kReview) = {StepState::kStale, stale_note};
  } else if (session.reviewed()) {
    at(Step::kReview) = {StepState::kDone, tr("Reviewed")};
  } else {
    at(Step::kReview) = {StepState::kTodo, tr("Look at the results before you export")};
  }
  if (stale) {
    at(Step::kExport) = {StepState::kStale, stale_note};
  } else if (session.exported()) {
    at(Step::kExport) = {StepState::kDone, tr("Exported")};
  } else {
    at(Step::kExport) = {StepState::kTodo, tr("Save the release")};
  }
  return out;
}

}  // namespace deniable::ui
