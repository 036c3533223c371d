// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace deniable {
namespace {

std::string Number(double value) {
  if (!std::isfinite(value)) return "unbounded";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

VerdictFinding UtilityFinding(const VerdictUtility& u) {
  VerdictFinding f;
  f.topic = VerdictTopic::kUtility;
  const std::string numbers = "Mean 2-way TVD " + Number(u.synthetic) +
                              "; a perfect independent model scores " +
                              Number(u.perfect_independent) + ", a random half of the real rows " +
                              Number(u.floor) + " (lower is better).";
  const bool keeps = u.synthetic <= u.perfect_independent;
  const bool close = u.perfect_independent > 0 &&
                     u.synthetic <= kUtilityCautionRatio * u.perfect_independent;
  if (keeps) {
    f.level = VerdictLevel::kGood;
    f.headline = "The synthetic rows keep the dependencies between columns.";
    f.reason = numbers;
  } else if (close) {
    f.level = VerdictLevel::kCaution;
    f.headline = "The synthetic rows keep each column but only some dependencies between columns.";
    f.reason = numbers + " It is " + Number(u.synthetic / u.perfect_independent) +
               " x the independent model.";
    f.change = "Raise ε, or declare category lists public in the Columns page, to keep more "
               "dependencies.";
  } else {
    f.level = VerdictLevel::kProblem;
    f.headline = "The synthetic rows are further from the real data than a model that ignores "
                 "every dependency.";
    f.reason = numbers;
    f.change = "Raise ε; declare category lists public in the Columns page; drop or merge "
               "high-cardinality columns; on tables of " +
               std::to_string(kMarginalsModeRows) + " rows or more, use the marginals mode.";
  }
  return f;
}

VerdictFinding GuaranteeFinding(const VerdictInputs& in) {
  VerdictFinding f;
  f.topic = VerdictTopic::kGuarantee;
  const std::string bound = "The whole release is (ε = " + Number(in.epsilon) +
                            ", δ = " + Number(in.delta) + ")-differentially private: " +
                            EpsilonFactorText(in.epsilon) + ".";
  const double one_over_n = in.rows > 0 ? 1.0 / static_cast<double>(in.rows) : 1.0;
  if (in.reproducible_not_private) {
    f.level = VerdictLevel::kProblem;
    f.headline = "Not a private release: it was made with a fixed seed.";
    f.reason = "A seeded run is reproducible, so anyone with the seed can recompute its noise; "
               "the guarantee does not hold.";
    f.change = "Run again without a fixed seed before sharing.";
  } else if (in.delta > one_over_n) {
    f.level = VerdictLevel::kProblem;
    f.headline = "δ is too large for this table: δ = " + Number(in.delta) + " is above 1/n = " +
                 Number(one_over_n) + ".";
    f.reason = bound + " With δ above 1/n the release may reveal a whole record outright.";
    f.change = "Lower δ below 1/n (the budget's δ on the Privacy page), or raise k in the "
               "deniable mode.";
  } else if (!std::isfinite(in.epsilon) || in.epsilon > kWeakEpsilon) {
    f.level = VerdictLevel::kCaution;
    f.headline = "The formal guarantee is weak (ε = " + Number(in.epsilon) + ").";
    f.reason = bound;
    f.change = "Lower ε to " + Number(kWeakEpsilon) + " or less for a meaningful guarantee.";
  } else {
    f.level = VerdictLevel::kGood;
    f.headline = "The formal guarantee holds: ε = " + Number(in.epsilon) + ", δ = " +
                 Number(in.delta) + ".";
    f.reason = bound;
  }
  return f;
}

VerdictFinding DeniableFinding(const VerdictDeniable& d) {
  VerdictFinding f;
  f.topic = VerdictTopic::kGuarantee;
  f.headline = "Each released record is plausibly deniable: k = " + std::to_string(d.k) +
               ", γ = " + Number(d.gamma) + ".";
  if (d.test_epsilon) {
    f.level = VerdictLevel::kGood;
    f.reason = "At least k real records could have produced each released one, within a factor "
               "γ; the randomized privacy test is differentially private with ε = " +
               Number(*d.test_epsilon) + " per record.";
  } else {
    f.level = VerdictLevel::kCaution;
    f.reason = "The deterministic privacy test is not differentially private: the deniability "
               "holds, but without a DP bound for the test.";
    f.change = "Use the randomized test (Privacy Test 2) for a DP bound.";
  }
  return f;
}

VerdictFinding RiskFinding(const VerdictRisk& r) {
  VerdictFinding f;
  f.topic = VerdictTopic::kRisk;
  if (r.records_outside <= 0) {
    f.level = VerdictLevel::kGood;
    f.headline = "Every record's measured disclosure risk is within your thresholds.";
    f.reason = "At ε = " + Number(r.epsilon) + " no record is outside the acceptable region.";
    return f;
  }
  f.level = VerdictLevel::kProblem;
  f.headline = std::to_string(r.records_outside) +
               " records are outside your acceptable disclosure risk.";
  f.reason = "At ε = " + Number(r.epsilon) + ", " + std::to_string(r.records_outside) +
             " records exceed the thresholds set in the Disclosure risk tab.";
  f.change = r.recommended_epsilon
                 ? "Lower ε to " + Number(*r.recommended_epsilon) +
                       " (the largest ε that keeps every record inside), or relax the thresholds."
                 : "No ε on the grid keeps every record inside: drop the column that singles "
                   "records out, or relax the thresholds.";
  return f;
}

VerdictFinding AttacksFinding(const VerdictAttacks& a) {
  VerdictFinding f;
  f.topic = VerdictTopic::kAttacks;
  const std::string threshold = Number(a.threshold);
  std::string figures;
  const VerdictAttack* worst = nullptr;  // the highest lower end among those that count
  // The highest estimate above the threshold among attacks with a measurable advantage (their
  // interval above 0); `wide`: the highest upper end above it among the others.
  const VerdictAttack* unsure = nullptr;
  const VerdictAttack* wide = nullptr;
  for (const VerdictAttack& attack : a.attacks) {
    figures += (figures.empty() ? "" : "; ") + attack.name + " " + Number(attack.risk) + " [" +
               Number(attack.low) + ", " + Number(attack.high) + "]" +
               (attack.beats_naive ? "" : " (no better than guessing)");
    if (!attack.beats_naive) continue;
    if (attack.low > a.threshold && (worst == nullptr || attack.low > worst->low)) worst = &attack;
    if (attack.risk > a.threshold && attack.low > 0 &&
        (unsure == nullptr || attack.risk > unsure->risk)) {
      unsure = &attack;
    }
    if (attack.low <= 0 && attack.high > a.threshold &&
        (wide == nullptr || attack.high > wide->high)) {
      wide = &attack;
    }
  }
  std::string copies;
  if (a.copies_of_unique_train > 0) {
    copies = " " + std::to_string(a.copies_of_unique_train) + " of the " +
             std::to_string(a.synthetic_rows) +
             " synthetic rows copy a training row that is unique in the training rows.";
  }
  f.reason = "Risk with its 95% interval, 0 = the release tells no more about its own rows than "
             "about people it never saw: " + (figures.empty() ? "no attack ran" : figures) +
             ". Your threshold: " + threshold + "." + copies;
  if (worst != nullptr) {
    f.level = VerdictLevel::kProblem;
    f.headline = "An attacker learns about the real people in your data: the " + worst->name +
                 " risk is above " + threshold + " (at least " + Number(worst->low) + ").";
    f.change = "Lower ε; drop or coarsen the quasi-identifiers the attacker uses (Columns "
               "page); never share a seeded (reproducible) run.";
  } else if (unsure != nullptr) {
    f.level = VerdictLevel::kCaution;
    f.headline = "The " + unsure->name + " risk may be above your threshold (" +
                 Number(unsure->risk) + ", interval down to " + Number(unsure->low) + ").";
    f.change = "Hold out more rows (a larger control split) to settle it, or lower ε.";
  } else if (wide != nullptr) {
    // No measurable advantage (the interval reaches 0), but a wide interval: the estimate of a
    // release that leaks nothing lands above a 0.1 threshold often on a small control split.
    f.level = VerdictLevel::kGood;
    f.headline = "No attack measurably learns more about your rows than about people never "
                 "seen (every risk's interval reaches 0).";
    f.reason += " The " + wide->name + " interval also reaches " + Number(wide->high) +
                ": at this control size the test cannot tell a risk below your threshold "
                "from one above it; a larger control split narrows it. The formal guarantee "
                "above holds either way.";
  } else {
    f.level = VerdictLevel::kGood;
    f.headline = "The attacks learn no more about your rows than about people never seen "
                 "(every risk at most " + threshold + ").";
  }
  return f;
}

}  // namespace

Verdict ComputeVerdict(const VerdictInputs& inputs) {
  Verdict v;
  if (inputs.utility) v.findings.push_back(UtilityFinding(*inputs.utility));
  v.findings.push_back(GuaranteeFinding(inputs));
  if (inputs.deniable) v.findings.push_back(DeniableFinding(*inputs.deniable));
  if (inputs.risk) v.findings.push_back(RiskFinding(*inputs.risk));
  if (inputs.attacks) v.findings.push_back(AttacksFinding(*inputs.attacks));
  for (const VerdictFinding& f : v.findings) v.overall = std::max(v.overall, f.level);
  return v;
}

std::string OverallAnswer(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kGood: return "Fit to share";
    case VerdictLevel::kCaution: return "Share with care";
    case VerdictLevel::kProblem: return "Not fit to share";
  }
  return "Not fit to share";
}

std::string EpsilonFactorText(double epsilon) {
  if (!std::isfinite(epsilon) || epsilon < 0) return "the bound is too weak to mean anything";
  const double factor = std::exp(epsilon);
  if (!(factor < kLargestFactor)) return "the bound is too weak to mean anything";
  char whole[32];
  std::snprintf(whole, sizeof whole, "%.0f", factor);
  return "no record changes the odds of any outcome by more than e^ε ≈ " +
         (factor < 1000 ? Number(factor) : std::string(whole));
}

}  // namespace deniable
