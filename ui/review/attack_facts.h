// SPDX-License-Identifier: Apache-2.0
// What the Review's Attacks tab shows, as values (issue #11, part 2 and 3 in the app): the
// request built from a run's ReviewData (the training rows, the control rows held out before
// the run, the synthetic rows, the schema's roles and the owner's ML target), the engine's
// answer (engine/evaluate/evaluate.h: EvaluateRelease — three attacks with their control
// baselines and intervals, exact copies, distances to the closest record, and the ML utility
// with XGBoost), and the sentences and table rows the view draws from it.
//
// Everything here is computed from real rows: for the owner's eyes only.
// Pure functions of values (no widgets): the tests check them against the engine.
#pragma once

#include <memory>
#include <vector>

#include <QString>
#include <QStringList>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/evaluate/evaluate.h"
#include "engine/schema/schema.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

// What one computation needs: values only (the worker owns them).
struct AttackRequest {
  std::shared_ptr<const RawTable> real;       // the training rows
  std::shared_ptr<const RawTable> control;    // held out before the run
  std::shared_ptr<const RawTable> synthetic;
  Schema schema;
  EvaluateOptions options;  // roles from the schema; target: the owner's pick ("" = no ML)
};

// The run's request: the schema's roles (quasi-identifier, sensitive) drive the attacks, the
// target is `target` ("" skips the ML part), nearest-neighbour search on `threads` threads.
AttackRequest attackRequestOf(const ReviewData& data, const QString& target, unsigned threads);

// Why the run cannot be attacked, in words for the data owner ("" = it can): no control rows
// (the run held none out), no synthetic rows.
QString attackRequestProblem(const ReviewData& data);

// The columns an ML target may be (modelled columns) and the default: the first column with the
// role "target", else "" (no ML part).
QStringList attackTargetCandidates(const Schema& schema);
QString defaultAttackTarget(const Schema& schema);

struct AttackAnalysis {
  EvaluateReport report;
  double seconds = 0;  // wall time
};
using AttackOutcome = Result<std::shared_ptr<const AttackAnalysis>>;

// Runs EvaluateRelease (on the calling thread; the view calls it on a worker).
AttackOutcome computeAttacks(const AttackRequest& request, Progress& progress);

// One attack as the chart and the table show it.
struct AttackRow {
  QString name;         // "Singling out"
  QString explanation;  // what the attacker does, one sentence
  AttackRisk risk;
  std::uint64_t trials = 0;
};
// The attacks that ran, in the engine's order (singling out, linkability, inference).
std::vector<AttackRow> attackRows(const EvaluateReport& report);

// "0.02 [−0.01, 0.05]": a risk with its interval.
QString riskWithInterval(const AttackRisk& risk);
// "43.1 % [40.9, 45.3]": a rate with its Wilson interval, in percent.
QString rateWithInterval(const RateEstimate& rate);

// The engine's verdict finding on the attacks (engine/evaluate/verdict.h) at `threshold`.
VerdictFinding attackFinding(const EvaluateReport& report, double threshold);

// What was attacked with what: the attacker's knowledge, the sensitive attribute, the row
// counts and the engine's notes (defaults taken, attacks skipped).
QString attackScope(const EvaluateReport& report);

// Exact copies and distances to the closest record, one sentence.
QString closenessSummary(const EvaluateReport& report);

// The ML part in words: TSTR against TRTR, the agreement, the distinguishing game; or, without
// a target, how to get it.
QString mlSummary(const EvaluateReport& report);

}  // namespace deniable::ui
