// SPDX-License-Identifier: Apache-2.0
// What the Review's Disclosure risk tab shows, as values: the request (sensitive attribute,
// quasi-identifiers, ε, acceptable region) built from the run's schema roles and settings, the
// engine's answer (engine/risk/table_risk.h: McClure & Reiter's R_j and RR_j per record under
// the Dirichlet synthesizer, and the largest ε whose records all stay inside the region), and
// what the view draws from it: one (R, RR) curve per likelihood ratio over the prior grid, the
// worst (cell, value) groups, and the sentences for the data owner.
//
// Everything here is derived from the real data: for the owner's eyes only.
// Pure functions of values (no widgets): the tests check them against the engine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/risk/table_risk.h"
#include "engine/schema/schema.h"

namespace deniable::ui {

// The columns the tab offers and the defaults the schema's roles give.
struct RiskColumns {
  QStringList candidates;  // modelled columns (identifiers and ignored ones are not released)
  QString sensitive;       // the first column with the role "sensitive"; "" = none
  QStringList quasi;       // the columns with the role "quasi-identifier"
};
RiskColumns riskColumnsOf(const Schema& schema);

// What one computation needs: values only (the worker owns them).
struct RiskRequest {
  std::shared_ptr<const RawTable> table;
  TableRiskOptions options;  // epsilons: the default grid plus `epsilon`
  double epsilon = 1;        // the ε the plot and the worst-records table show
};
// Options for `epsilon` and the region; the grid is DefaultRiskEpsilons() with `epsilon` added.
TableRiskOptions riskOptions(const QString& sensitive, const QStringList& quasi, double epsilon,
                             double maxRelative, double maxAbsolute, double maxRelativeAbove);

// Why a request cannot be computed, in words for the data owner ("" = it can): no sensitive
// attribute, an unknown column, fewer than two records, a sensitive column with one value.
QString riskRequestProblem(const RawTable& table, const TableRiskOptions& options);

struct RiskAnalysis {
  TableRiskOptions options;
  double epsilon = 1;
  TableRiskReport report;
  std::size_t level = 0;  // index of `epsilon` in report.per_epsilon
  double seconds = 0;     // wall time of the computation
  const EpsilonRisk& shown() const { return report.per_epsilon[level]; }
};
using RiskOutcome = Result<std::shared_ptr<const RiskAnalysis>>;

// Runs the engine (on the calling thread; the view calls it on a worker).
RiskOutcome computeRisk(const RiskRequest& request, Progress& progress);

// One curve of the RR × R plot (Figs. 3–4): the records sharing a likelihood ratio Λ, their
// (R_j, RR_j) as the intruder's prior w runs over the grid. On it RR = Λ − (Λ − 1)·R.
struct RiskCurve {
  double logLikelihoodRatio = 0;
  std::int64_t records = 0;
  int groups = 0;
  bool inside = true;
  QVector<QPointF> points;  // (R, RR), w increasing
  QPointF worst;            // at the group's worst prior (its first violation, else max RR)
};
// At most `maxCurves` curves per side of the region (inside / outside): curves whose log Λ lie
// within 1/maxCurves of the side's range are drawn as the most extreme of them, their records
// added up (nearby curves are indistinguishable on the plot; the worst is kept). Sorted by Λ.
std::vector<RiskCurve> riskCurves(const RiskAnalysis& analysis, int maxCurves = 60,
                                  int pointsPerCurve = 80);

// The (cell, value) groups at the shown ε, outside the region first, then by their largest RR.
struct RiskGroupRow {
  QString cell;   // "Female, White, 37" ("all records" without quasi-identifiers)
  QString value;  // the sensitive value ("(missing)" for missing)
  std::int64_t records = 0;
  std::int64_t cellRecords = 0;
  double maxRelative = 0;
  double absoluteAtWorst = 0;  // R at the worst prior
  double worstPrior = 0;
  double absoluteAtHalf = 0;
  bool inside = true;
};
std::vector<RiskGroupRow> worstGroups(const RiskAnalysis& analysis, int limit);

// The plain-language verdict: where the shown ε stands and which ε is recommended.
QString riskVerdict(const RiskAnalysis& analysis, std::optional<double> runEpsilon);
// What was computed: attribute, cells, region, priors, quantile (so a shown result names the
// region it was computed with, whatever the spin boxes say now).
QString riskScope(const RiskAnalysis& analysis);

}  // namespace deniable::ui
