// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/aim.h"


#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <string>

#include "engine/marginals/consistency.h"
#include "engine/model/domain.h"
#include "engine/metrics/parallel_tasks.h"

namespace deniable {
namespace {

std::string CliqueName(const AimOptions& options, const Clique& c) {
  std::string out;
  for (int a : c) {
    if (!out.empty()) out += " × ";
    const auto i = static_cast<std::size_t>(a);
    out += i < options.names.size() ? options.names[i] : "column " + std::to_string(a);
  }
  return out;
}

// Every non-empty subset of every clique.
std::set<Clique> DownwardClosure(const std::vector<Clique>& cliques) {
  std::set<Clique> out;
  for (const Clique& c : cliques) {
    const std::size_t k = c.size();
    for (std::size_t mask = 1; mask < (std::size_t{1} << k); ++mask) {
      Clique sub;
      for (std::size_t i = 0; i < k; ++i) {
        if (mask & (std::size_t{1} << i)) sub.push_back(c[i]);
      }
      out.insert(std::move(sub));
    }
  }
  return out;
}

void Combinations(int d, int k, int start, Clique& current, std::vector<Clique>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int a = start; a < d; ++a) {
    current.push_back(a);
    Combinations(d, k, a + 1, current, out);
    current.pop_back();
  }
}

double L1(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

}  // namespace

int IterationsFor(std::size_t cells, int maximum, int minimum, double budget, bool fixed) {
  if (fixed || cells == 0) return maximum;
  const double affordable = std::floor(budget / static_cast<double>(cells));
  return static_cast<int>(std::clamp(affordable, static_cast<double>(std::min(minimum, maximum)),
                                     static_cast<double>(maximum)));
}

int AutomaticAimRounds(std::size_t attributes, double rho, double noisy_rows) {
  const double d = static_cast<double>(std::max<std::size_t>(attributes, 1));
  if (!(noisy_rows >= 0) || !(rho > 0)) return static_cast<int>(16 * d);
  const double t = noisy_rows * noisy_rows * rho / (kAimRoundsSnr * d);
  return static_cast<int>(std::clamp(std::floor(t), d, 16 * d));
}

Result<MarginalsModel> RunAim(const EncodedTable& data, const AimOptions& options,
                              PrivacyAccountant& accountant, Rng& rng, Progress& progress) {
  if (!(std::isfinite(options.rho) && options.rho > 0)) {
    return InvalidArgument("AIM: rho must be finite and positive");
  }
  const int d = static_cast<int>(data.num_attributes());
  if (d == 0) return InvalidArgument("AIM: no attributes");
  for (std::size_t a = 0; a < options.prior_counts.size(); ++a) {
    if (!options.prior_counts[a].empty() &&
        (a >= data.cardinalities.size() || a >= options.prior_variances.size() ||
         options.prior_variances[a].size() != options.prior_counts[a].size() ||
         options.prior_counts[a].size() > data.cardinalities.at(a))) {
      return InvalidArgument("AIM: prior counts of attribute " + std::to_string(a) +
                             " need one variance each and at most its domain's codes");
    }
  }
  // The rounds are planned as shares of ρ; the accountant's one margin keeps their sum within
  // options.rho (the ledger itself refuses anything past its budget).
  const double rho = PrivacyAccountant::Spendable(options.rho);
  // At least d rounds, so that the 1-way marginals (d of the T shares of 0.9ρ) fit.
  const int rounds =
      std::max(options.rounds > 0 ? options.rounds
                                  : AutomaticAimRounds(data.num_attributes(), options.rho,
                                                       options.public_rows),
               d);
  double sigma = std::sqrt(rounds / (2 * 0.9 * rho));
  double epsilon = std::sqrt(8 * 0.1 * rho / rounds);
  double rho_used = 0;
  std::vector<Measurement> measurements;
  progress.Report(0.0, "AIM: measuring 1-way marginals");
  for (int a = 0; a < d; ++a) {
    const double rho_each = 0.5 / (sigma * sigma);
    auto m = MeasureMarginal(data, {a}, rho_each, "1-way marginal of " + CliqueName(options, {a}),
                             accountant, rng);
    if (!m) return m.error();
    rho_used += rho_each;
    measurements.push_back(std::move(m.value()));
  }
  // A "missing" or "Other" code the domains kept only conservatively (options.missing_codes,
  // other_codes) whose noisy count is below 3σ is dropped (post-processing of the 1-way measurements; measure.h).
  const DomainCompression compression =
      CompressDomains(measurements, data.cardinalities, options.missing_codes, false,
                      options.other_codes);
  // Counts an earlier step released (a histogram's second pass): each cell that stands for
  // one original code with a measured prior is combined with the 1-way measurement by inverse
  // variance, as the cell's weight w = σ/sd (estimation.h: noisy ≈ w·count).
  for (Measurement& m : measurements) {
    const auto a = static_cast<std::size_t>(m.clique.at(0));
    if (a >= options.prior_counts.size() || options.prior_counts[a].empty()) continue;
    const std::vector<double>& prior = options.prior_counts[a];
    const std::vector<double>& prior_var = options.prior_variances[a];
    if (m.weights.empty()) m.weights.assign(m.noisy.size(), 1.0);
    for (std::size_t k = 0; k < m.noisy.size(); ++k) {
      const std::vector<std::uint32_t>& codes = compression.backward[a][k];
      if (codes.size() != 1 || codes[0] >= prior.size()) continue;
      const double w = m.weights[k];
      if (!(w > 0 && prior_var[codes[0]] > 0 && std::isfinite(prior[codes[0]]))) continue;
      const CountEstimate combined =
          CombineByInverseVariance({m.noisy[k] / w, m.sigma * m.sigma / (w * w)},
                                   {prior[codes[0]], prior_var[codes[0]]});
      const double new_w = m.sigma / std::sqrt(combined.variance);
      m.weights[k] = new_w;
      m.noisy[k] = new_w * combined.value;
    }
  }
  const EncodedTable table = compression.Compress(data);
  const std::vector<std::uint32_t>& sizes = compression.sizes;
  const double max_cells =
      (options.max_model_mb > 0 ? options.max_model_mb : kDefaultAimModelMb) * 1048576.0 / 8.0;

  // Workload and candidates (compile_workload in aim.py).
  std::vector<std::uint32_t> workload_sizes = sizes;
  for (std::size_t a = 0; a < sizes.size() && a < options.workload_sizes.size(); ++a) {
    workload_sizes[a] = std::min(workload_sizes[a], options.workload_sizes[a]);
  }
  std::vector<std::pair<Clique, double>> workload;
  std::size_t workload_cells = 0;
  for (int k = 2; k <= std::max(2, options.degree); ++k) {
    std::vector<Clique> all;
    Clique current;
    Combinations(d, k, 0, current, all);
    std::vector<std::pair<Clique, double>> level;
    std::size_t level_cells = 0;
    for (Clique& c : all) {
      const std::size_t cells = CellCount(c, workload_sizes);
      if (cells > options.max_query_cells) continue;
      level_cells += cells;
      const bool target = std::find(c.begin(), c.end(), options.target) != c.end();
      level.emplace_back(std::move(c), target ? options.target_weight : 1.0);
    }
    // Wide tables: a level that would take the true answers (held in memory, one vector per
    // candidate) or the candidate count past the caps is left out (public: domain sizes only).
    if (k > 2 && (workload_cells + level_cells > kMaxWorkloadCells ||
                  workload.size() + level.size() > kMaxWorkloadQueries)) {
      break;
    }
    workload_cells += level_cells;
    workload.insert(workload.end(), level.begin(), level.end());
  }
  if (d == 1) workload.emplace_back(Clique{0}, 1.0);
  std::vector<Clique> workload_cliques;
  for (const auto& w : workload) workload_cliques.push_back(w.first);
  const std::set<Clique> closure = DownwardClosure(workload_cliques);
  std::vector<Clique> candidates(closure.begin(), closure.end());
  std::vector<double> scores(candidates.size(), 0.0);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    for (const auto& [w, weight] : workload) {
      scores[i] += weight * static_cast<double>(Intersection(candidates[i], w).size());
    }
  }
  // True answers of every candidate (the data is read only inside the mechanisms' utilities
  // and measurements).
  NullProgress quiet;
  std::vector<std::vector<double>> answers(candidates.size());
  if (Status s = internal::RunParallel(
          candidates.size(), options.threads, quiet, 0, 1, "answers",
          [&](std::size_t i, std::size_t) { answers[i] = CountMarginal(table, candidates[i]); });
      !s) {
    return s.error();
  }

  EstimationOptions round_options;
  round_options.method = options.estimation;
  round_options.iterations = options.round_iterations;
  round_options.tolerance = 1e-6;
  round_options.threads = static_cast<std::size_t>(std::max(options.threads, 0));
  auto fitted = EstimateModel(measurements, sizes, round_options);
  if (!fitted) return fitted.error();
  GraphicalModel model = std::move(fitted->model);

  const double bias_factor = std::sqrt(2 / std::numbers::pi);
  int t = 0;
  for (bool terminate = false; !terminate;) {
    ++t;
    if (progress.IsCancelled()) return Error{ErrorCode::kCancelled, "cancelled"};
    if (rho - rho_used < 2 * (0.5 / (sigma * sigma) + epsilon * epsilon / 8)) {
      // The last round spends what is left of ρ, and never more than the ledger would take.
      const double remaining = std::min(PrivacyAccountant::Spendable(rho - rho_used),
                                        accountant.RemainingRhoToSpend());
      if (!(remaining > 0)) break;
      sigma = std::sqrt(1 / (2 * 0.9 * remaining));
      epsilon = std::sqrt(8 * 0.1 * remaining);
      terminate = true;
    }
    rho_used += epsilon * epsilon / 8 + 0.5 / (sigma * sigma);
    const double size_limit = max_cells * std::min(1.0, rho_used / rho);
    // Filter by model size, then score (both in parallel over candidates).
    const std::vector<Clique> model_cliques = model.tree().cliques();
    const std::set<Clique> free_cliques = DownwardClosure(model_cliques);
    std::vector<double> quality(candidates.size(), 0.0);
    std::vector<char> allowed(candidates.size(), 0);
    const double current_sigma = sigma;
    if (Status s = internal::RunParallel(
            candidates.size(), options.threads, quiet, 0, 1, "candidates",
            [&](std::size_t i, std::size_t) {
              const Clique& c = candidates[i];
              bool ok = free_cliques.count(c) > 0;
              if (!ok) {
                std::vector<Clique> with = model_cliques;
                with.push_back(c);
                ok = static_cast<double>(HypotheticalModelCells(with, sizes)) <= size_limit;
              }
              if (!ok) return;
              allowed[i] = 1;
              const double n = static_cast<double>(answers[i].size());
              quality[i] = scores[i] * (L1(answers[i], model.Marginal(c).values) -
                                        bias_factor * current_sigma * n);
            });
        !s) {
      return s.error();
    }
    std::vector<std::size_t> index;
    std::vector<double> utilities;
    double sensitivity = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!allowed[i]) continue;
      index.push_back(i);
      utilities.push_back(quality[i]);
      sensitivity = std::max(sensitivity, std::abs(scores[i]));
    }
    if (index.empty()) break;
    auto chosen =
        SelectCandidate(utilities, epsilon, sensitivity,
                        "AIM round " + std::to_string(t) + ": selection", accountant, rng);
    if (!chosen) return chosen.error();
    const Clique& c = candidates[index[*chosen]];
    auto m = MeasureMarginal(
        table, c, 0.5 / (sigma * sigma),
        "AIM round " + std::to_string(t) + ": marginal of " + CliqueName(options, c), accountant,
        rng);
    if (!m) return m.error();
    measurements.push_back(std::move(m.value()));
    const std::vector<double> before = model.Marginal(c).values;
    round_options.iterations = IterationsFor(
        HypotheticalModelCells([&] {
          std::vector<Clique> with = model.tree().cliques();
          with.push_back(c);
          return with;
        }(), sizes),
        options.round_iterations, kMinRoundIterations, kRoundCellIterations, options.fixed_iterations);
    auto refit = EstimateModel(measurements, sizes, round_options, &model);
    if (!refit) return refit.error();
    model = std::move(refit->model);
    const double n = static_cast<double>(before.size());
    if (L1(model.Marginal(c).values, before) <= bias_factor * sigma * n) {
      sigma /= 2;
      epsilon *= 2;
    }
    progress.Report(std::min(0.9, rho_used / rho), "AIM: round " + std::to_string(t));
  }
  progress.Report(0.9, "AIM: final estimation");
  EstimationOptions final_options;
  final_options.iterations =
      IterationsFor(model.tree().TotalCells(), options.iterations, kMinFinalIterations,
                    kFinalCellIterations, options.fixed_iterations);
  final_options.method = options.estimation;
  final_options.tolerance = 1e-8;
  final_options.threads = static_cast<std::size_t>(std::max(options.threads, 0));
  auto final_fit = EstimateModel(measurements, sizes, final_options, &model);
  if (!final_fit) return final_fit.error();

  MarginalsModel out;
  out.mechanism = "aim";
  out.model = std::move(final_fit->model);
  out.consistent_pairs =
      FindConsistentPairs(out.model, kConsistentPairLambda, options.ordered);  // post-processing (consistency.h)
  out.compression = compression;
  out.rounds = t;
  for (const Measurement& m : measurements) {
    out.measured.push_back(m.clique);
    out.measured_sigma.push_back(m.sigma);
  }
  for (const auto& [w, weight] : workload) {
    QueryErrorBound bound;
    bound.clique = w;
    bound.weight = weight;
    // A query inside a measured clique C: its cells are sums of n_C / n_q noisy cells, so its
    // noise has sd σ·sqrt(n_C / n_q) per cell and expected L1 sqrt(2/π)·σ·sqrt(n_C·n_q).
    const double nq = static_cast<double>(CellCount(w, sizes));
    double best = std::numeric_limits<double>::infinity();
    for (const Measurement& m : measurements) {
      if (!IsSubset(w, m.clique)) continue;
      const double nc = static_cast<double>(CellCount(m.clique, sizes));
      const double expected = bias_factor * m.sigma * std::sqrt(nc * nq);
      if (expected < best) {
        best = expected;
        bound.sigma = m.sigma;
        bound.measured = true;
      }
    }
    if (bound.measured) bound.expected_l1_fraction = best / out.model.total();
    out.error_bounds.push_back(std::move(bound));
  }
  progress.Report(1.0, "AIM model fitted");
  return out;
}

}  // namespace deniable
