// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/mst.h"


#include <cmath>
#include <numeric>
#include <string>

#include "engine/dp/privacy_accountant.h"
#include "engine/marginals/consistency.h"
#include "engine/metrics/parallel_tasks.h"

namespace deniable {
namespace {

std::string NameOf(const MstOptions& options, int a) {
  const auto i = static_cast<std::size_t>(a);
  return i < options.names.size() ? options.names[i] : "column " + std::to_string(a);
}

double L1(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

std::size_t Root(std::vector<std::size_t>& parent, std::size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

Result<MarginalsModel> RunMst(const EncodedTable& data, const MstOptions& options,
                              PrivacyAccountant& accountant, Rng& rng, Progress& progress) {
  if (!(std::isfinite(options.rho) && options.rho > 0)) {
    return InvalidArgument("MST: rho must be finite and positive");
  }
  const std::size_t d = data.num_attributes();
  if (d == 0) return InvalidArgument("MST: no attributes");
  const double third = PrivacyAccountant::Spendable(options.rho) / 3;  // the one margin

  // 1. One-way marginals, ρ/3 in all (ρ/(3d) each).
  progress.Report(0.0, "Measuring 1-way marginals");
  std::vector<Measurement> one_way;
  for (std::size_t a = 0; a < d; ++a) {
    auto m = MeasureMarginal(data, {static_cast<int>(a)}, third / static_cast<double>(d),
                             "1-way marginal of " + NameOf(options, static_cast<int>(a)),
                             accountant, rng);
    if (!m) return m.error();
    one_way.push_back(std::move(m.value()));
  }
  MarginalsModel out;
  out.mechanism = "mst";
  out.compression = options.compress
                        ? CompressDomains(one_way, data.cardinalities, options.missing_codes, true,
                                          options.other_codes)
                        : DomainCompression::Identity(data.cardinalities);
  const EncodedTable compressed =
      options.compress ? out.compression.Compress(data) : EncodedTable{};
  const EncodedTable& table = options.compress ? compressed : data;
  const std::vector<std::uint32_t>& sizes = out.compression.sizes;

  std::vector<Measurement> measurements = one_way;
  if (d > 1) {
    // 2. Selection: weights = L1 error of the 1-way estimate on every pair.
    progress.Report(0.1, "Choosing the tree of 2-way marginals");
    EstimationOptions first;
    first.iterations = 200;
    first.tolerance = 1e-9;
    auto estimate = EstimateModel(one_way, sizes, first);
    if (!estimate) return estimate.error();
    std::vector<Clique> pairs;
    for (std::size_t a = 0; a < d; ++a) {
      for (std::size_t b = a + 1; b < d; ++b)
        pairs.push_back({static_cast<int>(a), static_cast<int>(b)});
    }
    std::vector<double> weights(pairs.size());
    NullProgress quiet;
    if (Status s = internal::RunParallel(pairs.size(), options.threads, quiet, 0, 1, "pairs",
                                         [&](std::size_t i, std::size_t) {
                                           weights[i] =
                                               L1(CountMarginal(table, pairs[i]),
                                                  estimate->model.Marginal(pairs[i]).values);
                                         });
        !s) {
      return s.error();
    }
    const double epsilon = std::sqrt(8 * third / static_cast<double>(d - 1));
    std::vector<std::size_t> component(d);
    std::iota(component.begin(), component.end(), 0);
    std::vector<Clique> tree;
    for (std::size_t step = 0; step + 1 < d; ++step) {
      std::vector<std::size_t> open;
      std::vector<double> utilities;
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (Root(component, static_cast<std::size_t>(pairs[i][0])) !=
            Root(component, static_cast<std::size_t>(pairs[i][1]))) {
          open.push_back(i);
          utilities.push_back(weights[i]);
        }
      }
      auto chosen = SelectCandidate(utilities, epsilon, 1.0,
                                    "MST tree edge " + std::to_string(step + 1) + " of " +
                                        std::to_string(d - 1) + " (exponential mechanism)",
                                    accountant, rng);
      if (!chosen) return chosen.error();
      const Clique& edge = pairs[open[*chosen]];
      component[Root(component, static_cast<std::size_t>(edge[1]))] =
          Root(component, static_cast<std::size_t>(edge[0]));
      tree.push_back(edge);
    }
    // 3. The tree's 2-way marginals, ρ/3 in all.
    progress.Report(0.2, "Measuring 2-way marginals");
    for (const Clique& edge : tree) {
      auto m = MeasureMarginal(
          table, edge, third / static_cast<double>(d - 1),
          "2-way marginal of " + NameOf(options, edge[0]) + " × " + NameOf(options, edge[1]),
          accountant, rng);
      if (!m) return m.error();
      measurements.push_back(std::move(m.value()));
    }
  }
  // 4. Estimation.
  progress.Report(0.3, "Fitting the graphical model (Private-PGM)");
  EstimationOptions final_options;
  final_options.iterations = options.iterations;
  final_options.tolerance = options.tolerance;
  final_options.threads = static_cast<std::size_t>(std::max(options.threads, 0));
  auto fitted = EstimateModel(measurements, sizes, final_options);
  if (!fitted) return fitted.error();
  out.model = std::move(fitted->model);
  out.consistent_pairs =
      FindConsistentPairs(out.model, kConsistentPairLambda, options.ordered);  // post-processing (consistency.h)
  for (const Measurement& m : measurements) {
    out.measured.push_back(m.clique);
    out.measured_sigma.push_back(m.sigma);
  }
  progress.Report(1.0, "MST model fitted");
  return out;
}

}  // namespace deniable
