// SPDX-License-Identifier: Apache-2.0
// The workflow's steps and their states, derived from the Session (a pure function, so the
// step list, the menus and the tests agree on it).
#pragma once

#include <array>

#include <QString>

namespace deniable::ui {

class Session;

enum class Step { kData = 0, kColumns, kPrivacy, kRun, kReview, kExport };
inline constexpr int kStepCount = 6;

enum class StepState {
  kLocked,     // needs an earlier step first (no input, no result)
  kTodo,       // available, not done yet
  kDone,
  kAttention,  // done or available, but something needs the user's look
  kStale,      // its results were made before an earlier step changed
};

struct StepStatus {
  StepState state = StepState::kLocked;
  QString note;  // one line: why (shown as the step's tooltip and under its name)
};

QString stepTitle(Step step);  // "Data", "Columns", ...
// A short "What is this?" text for a non-expert (the page's help panel).
QString stepHelp(Step step);

// `running`: a background job is running (Run shows it).
std::array<StepStatus, kStepCount> computeStepStates(const Session& session, bool running);

}  // namespace deniable::ui
