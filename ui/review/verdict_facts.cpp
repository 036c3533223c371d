// SPDX-License-Identifier: Apache-2.0
#include "ui/review/verdict_facts.h"

#include <QColor>

#include "ui/review/review_format.h"
#include "ui/review/risk_facts.h"

namespace deniable::ui {

Result<UtilityBaselines> computeBaselines(const ReviewData& data, Progress& progress) {
  if (!data.real) return FailedPrecondition("no real table");
  CompareOptions options;
  options.bins = data.metrics.bins;
  options.max_distinct_for_values = data.metrics.max_distinct_for_values;
  options.threads = 1;
  return ComputeUtilityBaselines(*data.real, data.schema, options, kFloorSeed, progress,
                                 data.synthetic ? data.synthetic->num_rows() : 0);
}

VerdictInputs verdictInputsOf(const ReviewData& data, const UtilityBaselines* baselines,
                              const RiskAnalysis* risk) {
  VerdictInputs in;
  const nlohmann::json& privacy = data.description.privacy;
  if (privacy.is_object() && privacy.contains("total") && privacy["total"].is_object()) {
    in.epsilon = jsonNumber(privacy["total"].value("epsilon", nlohmann::json()));
    in.delta = jsonNumber(privacy["total"].value("delta", nlohmann::json()));
  }
  in.rows = data.real ? data.real->num_rows() : 0;
  in.reproducible_not_private = data.description.reproducible_not_private;
  const nlohmann::json& guarantee = data.description.guarantee;
  if (guarantee.is_object() && guarantee.contains("plausible_deniability")) {
    const nlohmann::json& pd = guarantee["plausible_deniability"];
    VerdictDeniable d;
    d.k = pd.value("k", 0);
    d.gamma = jsonNumber(pd.value("gamma", nlohmann::json()));
    if (guarantee.contains("per_record") && guarantee["per_record"].is_object()) {
      d.test_epsilon = jsonNumber(guarantee["per_record"].value("epsilon", nlohmann::json()));
    }
    in.deniable = d;
  }
  if (baselines != nullptr && data.metrics.mean_pair_tvd && baselines->pairs > 0) {
    // The independent model at the release's row count when known (its sampling noise is
    // the synthetic table's too); the exact one otherwise.
    in.utility = VerdictUtility{*data.metrics.mean_pair_tvd,
                                baselines->perfect_independent_at_rows > 0
                                    ? baselines->perfect_independent_at_rows
                                    : baselines->perfect_independent,
                                baselines->floor};
  }
  if (risk != nullptr && !risk->report.per_epsilon.empty()) {
    in.risk = VerdictRisk{risk->epsilon, risk->shown().records_outside,
                          risk->report.recommended_epsilon};
  }
  return in;
}

QString overallAnswer(VerdictLevel level) {
  return QString::fromStdString(OverallAnswer(level));
}

QColor verdictColor(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kGood: return QColor(0x1b, 0x7a, 0x32);
    case VerdictLevel::kCaution: return QColor(0xa0, 0x5a, 0x00);
    case VerdictLevel::kProblem: return QColor(0xb0, 0x1c, 0x1c);
  }
  return QColor(0xb0, 0x1c, 0x1c);
}

}  // namespace deniable::ui
