// SPDX-License-Identifier: Apache-2.0
// What the Review's verdict panel and the release report judge, as values: the engine's
// verdict inputs (engine/evaluate/verdict.h) gathered from a run's ReviewData — the ledger's
// whole-release (ε, δ), the seeded flag, the deniable mode's k, γ and test ε — plus, for the
// owner only, the utility figures (the run's mean 2-way TVD and UtilityBaselines, computed on
// a worker) and the Disclosure risk tab's figures. The Attacks tab's figures join the inputs
// through VerdictAttacksOf (engine/evaluate/evaluate.h; VerdictPanel::setAttacks).
// `shareable` leaves every statistic of the real data out (the guarantee findings only).
#pragma once

#include <memory>

#include <QColor>
#include <QString>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/evaluate/verdict.h"
#include "engine/metrics/utility_baselines.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

struct RiskAnalysis;

// The seed of the floor's random half (fixed: the same run always gets the same verdict).
inline constexpr std::uint64_t kFloorSeed = 20261127;

// UtilityBaselines of the run's real table with the run's comparison options. Runs on the
// calling thread (the panel calls it on a worker).
Result<UtilityBaselines> computeBaselines(const ReviewData& data, Progress& progress);

// `baselines` and `risk` may be null (not computed yet / no figures).
VerdictInputs verdictInputsOf(const ReviewData& data, const UtilityBaselines* baselines,
                              const RiskAnalysis* risk);

QString overallAnswer(VerdictLevel level);  // "Fit to share", ...
QColor verdictColor(VerdictLevel level);    // green, amber, red (text colour)

}  // namespace deniable::ui
