// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/advisor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/deniable/candidate_generator.h"
#include "engine/deniable/guarantees.h"

namespace deniable {
namespace {

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string OmegaText(OmegaRange omega) {
  return omega.min == omega.max ? std::to_string(omega.min)
                                : std::to_string(omega.min) + "-" + std::to_string(omega.max);
}

// Pr{Lap(1/ε0) <= j}.
double LaplaceCdf(double j, double epsilon0) {
  return j >= 0 ? 1 - 0.5 * std::exp(-epsilon0 * j) : 0.5 * std::exp(epsilon0 * j);
}

nlohmann::json ProposalJson(const ParameterProposal& p) {
  nlohmann::json j;
  j["feasible"] = p.feasible;
  j["note"] = p.note;
  if (p.feasible) {
    j["k"] = p.k;
    j["epsilon0"] = p.epsilon0;
    j["t"] = p.t;
    j["fail_floor"] = p.fail_floor;
    j["per_record"] = {{"epsilon", p.per_record.epsilon}, {"delta", p.per_record.delta}};
    j["per_attempt"] = {{"epsilon", p.per_attempt.epsilon}, {"delta", p.per_attempt.delta}};
    if (p.attempts_cap > 0) {
      j["attempts_cap"] = p.attempts_cap;
      j["release"] = {{"epsilon", p.release.epsilon}, {"delta", p.release.delta}};
    }
  }
  return j;
}

std::string ProposalText(const char* what, const ParameterProposal& p) {
  if (!p.feasible) return std::string(what) + ": not achievable — " + p.note + "\n";
  std::string text = std::string(what) + ": k = " + std::to_string(p.k) +
                     ", epsilon0 = " + Format("%.4g", p.epsilon0) + ", t = " + std::to_string(p.t) +
                     " -> per record ε = " + Format("%.4g", p.per_record.epsilon) +
                     ", δ = " + Format("%.3g", p.per_record.delta);
  if (p.attempts_cap > 0) {
    text += "; T = " + std::to_string(p.attempts_cap) +
            " attempts -> release ε = " + Format("%.4g", p.release.epsilon) +
            ", δ = " + Format("%.3g", p.release.delta);
  }
  if (!p.note.empty()) text += " (" + p.note + ")";
  return text + "\n";
}

}  // namespace

ParameterProposal ProposeForRecordTarget(PrivacyCost target, double gamma, int max_k) {
  ParameterProposal best;
  if (!(target.epsilon > 0 && std::isfinite(target.epsilon) && target.delta > 0 &&
        target.delta < 1 && gamma > 1)) {
    best.note = "the target needs ε > 0, 0 < δ < 1 (and γ > 1)";
    return best;
  }
  const double log_inverse_delta = -std::log(target.delta);
  constexpr int kGrid = 2000;
  std::int64_t best_k = std::numeric_limits<std::int64_t>::max();
  for (int i = 1; i < kGrid; ++i) {
    const double epsilon0 = target.epsilon * i / kGrid;
    const double rest = target.epsilon - epsilon0;
    const double t_real = std::ceil(gamma / std::expm1(rest));
    if (!(t_real < 1e9)) continue;
    std::int64_t t = std::max<std::int64_t>(1, static_cast<std::int64_t>(t_real));
    std::int64_t k = t + static_cast<std::int64_t>(std::ceil(log_inverse_delta / epsilon0));
    if (k >= best_k || k > 2'000'000'000) continue;
    // Rounding: grow t (and k with it) until the rounded-up cost fits.
    PrivacyCost cost = TheoremOneCost(static_cast<int>(k), gamma, epsilon0, static_cast<int>(t));
    for (int guard = 0; guard < 64 && (cost.epsilon > target.epsilon || cost.delta > target.delta);
         ++guard) {
      if (cost.epsilon > target.epsilon) ++t;
      ++k;
      cost = TheoremOneCost(static_cast<int>(k), gamma, epsilon0, static_cast<int>(t));
    }
    if (cost.epsilon > target.epsilon || cost.delta > target.delta || k >= best_k) continue;
    best_k = k;
    best.k = static_cast<int>(k);
    best.t = static_cast<int>(t);
    best.epsilon0 = epsilon0;
    best.per_record = cost;
  }
  if (best_k == std::numeric_limits<std::int64_t>::max()) {
    best.note = "no k below 2e9 meets ε = " + Format("%.3g", target.epsilon) +
                ", δ = " + Format("%.3g", target.delta);
    return best;
  }
  best.fail_floor = AutomaticFailFloor(best.k, gamma, best.epsilon0, best.t);
  best.per_attempt = AttemptCost(best.k, gamma, best.epsilon0, best.t, best.fail_floor);
  best.feasible = best.k <= max_k;
  if (!best.feasible) {
    best.note = "needs k = " + std::to_string(best.k) + ", more than the " + std::to_string(max_k) +
                " seeds of D_S";
  }
  return best;
}

ParameterProposal ProposeForReleaseTarget(PrivacyCost target, double gamma, std::uint64_t attempts,
                                          double slack, int max_k) {
  if (attempts == 0 || !(target.epsilon > 0 && target.delta > 0 && target.delta < 1)) {
    ParameterProposal none;
    none.note = "the target needs ε > 0, 0 < δ < 1 and at least one attempt";
    return none;
  }
  const double t_count = static_cast<double>(attempts);
  PrivacyCost per_attempt{target.epsilon / t_count, target.delta / t_count};
  if (slack > 0 && slack < target.delta) {
    // Advanced composition: the largest ε_a whose T-fold composition fits.
    const double delta_each = (target.delta - slack) / t_count;
    double low = 0, high = target.epsilon;
    for (int i = 0; i < 200; ++i) {
      const double middle = 0.5 * (low + high);
      (AdvancedComposition(middle, delta_each, attempts, slack).epsilon <= target.epsilon ? low
                                                                                          : high) =
          middle;
    }
    if (low > per_attempt.epsilon) per_attempt = PrivacyCost{low, delta_each};
  }
  ParameterProposal proposal = ProposeForRecordTarget(per_attempt, gamma, max_k);
  proposal.attempts_cap = attempts;
  if (proposal.k > 0) {
    proposal.release =
        BestComposition(proposal.per_attempt.epsilon, proposal.per_attempt.delta, attempts, slack);
  }
  if (proposal.feasible) {
    proposal.note = "per attempt at most ε = " + Format("%.3g", per_attempt.epsilon) +
                    ", δ = " + Format("%.3g", per_attempt.delta);
  }
  return proposal;
}

Result<PassRateSweep> SweepPassRates(const EncodedTable& data, const DataSplit& split,
                                     const DeniableModel& model, const DeniableOptions& options,
                                     const std::vector<int>& ks,
                                     const std::vector<OmegaRange>& omegas, std::size_t candidates,
                                     Rng& rng, Progress& progress) {
  if (ks.empty() || omegas.empty() || candidates == 0) {
    return InvalidArgument("the sweep needs at least one k, one omega setting and one candidate");
  }
  const int m = static_cast<int>(model.network.nodes.size());
  int smallest = m;
  for (const OmegaRange& omega : omegas) {
    if (omega.min < 0 || omega.max > m || omega.min > omega.max) {
      return InvalidArgument("omega setting " + OmegaText(omega) +
                             " does not fit m = " + std::to_string(m));
    }
    smallest = std::min(smallest, omega.min);
  }
  SubProgress index_progress(progress, 0.0, 0.2);
  auto seeds = PrepareSeeds(data, split.seed_rows, model, smallest, index_progress);
  if (!seeds) return seeds.error();
  if (seeds->index.size() == 0) return FailedPrecondition("D_S is empty");
  PassRateSweep sweep;
  sweep.ks = ks;
  sweep.omegas = omegas;
  sweep.candidates_per_setting = candidates;
  for (std::size_t o = 0; o < omegas.size(); ++o) {
    if (progress.IsCancelled()) return Cancelled("pass-rate sweep cancelled");
    progress.Report(0.2 + 0.8 * static_cast<double>(o) / static_cast<double>(omegas.size()),
                    "Estimating pass rates");
    CandidateGenerator generator(*seeds, omegas[o], options.gamma);
    std::vector<std::uint32_t> values(candidates);
    for (std::uint32_t& k_prime : values) k_prime = generator.Next(rng);
    std::vector<double> rates;
    for (int k : ks) {
      double sum = 0;
      for (std::uint32_t k_prime : values) {
        sum += options.deterministic_test
                   ? (k_prime >= static_cast<std::uint32_t>(k) ? 1.0 : 0.0)
                   : LaplaceCdf(static_cast<double>(k_prime) - k, options.epsilon0);
      }
      rates.push_back(sum / static_cast<double>(candidates));
    }
    sweep.pass_rate.push_back(std::move(rates));
    sweep.k_prime.push_back(std::move(values));
  }
  progress.Report(1.0, "Estimating pass rates");
  return sweep;
}

Result<Advice> Advise(const EncodedTable& data, const DeniableOptions& options,
                      const AdviceRequest& request,
                      std::vector<std::vector<std::uint32_t>> bucket_maps, Rng& rng,
                      Progress& progress) {
  if (Status s = options.Validate(); !s) return s.error();
  const int m = static_cast<int>(data.num_attributes());
  auto configured = ResolveOmega(options, m);
  if (!configured) return configured.error();
  auto scratch = PrivacyAccountant::Create(PrivacyCost{1e300, 0.999999});
  if (!scratch) return scratch.error();
  auto split = SplitRows(data.rows, options, *scratch, rng);
  if (!split) return split.error();
  SubProgress learn(progress, 0.0, 0.4);
  auto model =
      LearnDeniableModel(data, *split, options, std::move(bucket_maps), *scratch, rng, learn);
  if (!model) return model.error();

  Advice advice;
  advice.seeds = split->seed_rows.size();
  const int max_k = static_cast<int>(std::min<std::size_t>(advice.seeds, 2'000'000'000));
  advice.record = ProposeForRecordTarget(request.record_target, options.gamma, max_k);
  if (request.release_target.epsilon > 0) {
    const std::size_t records = options.records == 0 ? data.rows : options.records;
    // The synthesis also spends the DP check that |D_S| >= k: what is left is for the attempts.
    PrivacyCost attempts_target = request.release_target;
    attempts_target.epsilon -= options.seed_count_epsilon;
    attempts_target.delta -= options.seed_count_delta;
    if (attempts_target.epsilon > 0 && attempts_target.delta > 0) {
      advice.release = ProposeForReleaseTarget(attempts_target, options.gamma,
                                               ResolveCandidateCap(options, records),
                                               0.5 * attempts_target.delta, max_k);
    } else {
      advice.release.feasible = false;
      advice.release.note = "the target is below the cost of the DP check that |D_S| >= k alone";
    }
  }
  std::vector<int> ks =
      request.ks.empty() ? std::vector<int>{10, 25, 50, 75, 100, 150, 200} : request.ks;
  std::vector<OmegaRange> omegas = request.omegas;
  if (omegas.empty()) {
    for (int w = std::max(1, (m + 2) / 3); w <= m; ++w) omegas.push_back(OmegaRange{w, w});
    DeniableOptions automatic;
    omegas.push_back(ResolveOmega(automatic, m).value());
    if (configured->width() > 1 && configured->min != omegas.back().min) {
      omegas.push_back(*configured);
    }
  }
  SubProgress sweep_progress(progress, 0.4, 1.0);
  auto sweep = SweepPassRates(data, *split, *model, options, ks, omegas,
                              request.candidates_per_setting, rng, sweep_progress);
  if (!sweep) return sweep.error();
  advice.sweep = std::move(*sweep);
  return advice;
}

nlohmann::json Advice::ToJson() const {
  nlohmann::json j;
  j["for_the_data_owner_only"] =
      "pass rates are computed on the real data and are not private: never publish them";
  j["seeds"] = seeds;
  j["record_target"] = ProposalJson(record);
  j["release_target"] = ProposalJson(release);
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t o = 0; o < sweep.omegas.size(); ++o) {
    nlohmann::json row;
    row["omega"] = OmegaText(sweep.omegas[o]);
    nlohmann::json rates = nlohmann::json::object();
    for (std::size_t i = 0; i < sweep.ks.size(); ++i) {
      rates[std::to_string(sweep.ks[i])] = sweep.pass_rate[o][i];
    }
    row["pass_rate_by_k"] = rates;
    rows.push_back(row);
  }
  j["sweep"] = {{"candidates_per_setting", sweep.candidates_per_setting}, {"rows", rows}};
  return j;
}

std::string Advice::ToText() const {
  std::string text =
      "Parameter advice (for the data owner only: the pass rates below are "
      "computed on the real data; do not publish them)\n";
  text += "Seeds in D_S: " + std::to_string(seeds) + "\n";
  text += ProposalText("Per-record target", record);
  if (release.attempts_cap > 0 || !release.note.empty()) {
    text += ProposalText("Whole-release target", release);
  }
  text += "\nPass rate (% of candidates) by omega (rows) and k (columns), " +
          std::to_string(sweep.candidates_per_setting) + " candidates per row:\n";
  text += "omega  ";
  for (int k : sweep.ks) text += Format("%7.0f", k);
  text += "\n";
  for (std::size_t o = 0; o < sweep.omegas.size(); ++o) {
    char label[16];
    std::snprintf(label, sizeof(label), "%-7s", OmegaText(sweep.omegas[o]).c_str());
    text += label;
    for (double rate : sweep.pass_rate[o]) text += Format("%7.1f", 100 * rate);
    text += "\n";
  }
  return text;
}

}  // namespace deniable
