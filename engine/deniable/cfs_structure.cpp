// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/cfs_structure.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/deniable/guarantees.h"
#include "engine/deniable/parameter_learning.h"
#include "engine/dp/laplace_mechanism.h"

namespace deniable {
namespace {

double SymmetricalUncertainty(double joint, double hx, double hy) {
  const double denominator = hx + hy;
  if (!(denominator > 0)) return 0.0;
  return std::clamp(2.0 - 2.0 * joint / denominator, 0.0, 1.0);
}

// Eq. (4)-(5) on given entropies: r(i, j) = SU(x_i, bkt x_j) for a target and a parent; the
// mean of both directions between two parents.
class CfsScore {
 public:
  explicit CfsScore(const CfsEntropies& e)
      : r_(e.single.size(), std::vector<double>(e.single.size(), 0.0)) {
    for (std::size_t i = 0; i < e.single.size(); ++i) {
      for (std::size_t j = 0; j < e.single.size(); ++j) {
        if (i != j) r_[i][j] = SymmetricalUncertainty(e.pair[i][j], e.single[i], e.bucketed[j]);
      }
    }
  }
  double Merit(std::size_t i, const std::vector<int>& parents) const {
    if (parents.empty()) return 0.0;
    double numerator = 0, inner = 0;
    for (int pj : parents) {
      const std::size_t j = static_cast<std::size_t>(pj);
      numerator += r_[i][j];
      for (int pk : parents) {
        const std::size_t k = static_cast<std::size_t>(pk);
        if (k != j) inner += 0.5 * (r_[j][k] + r_[k][j]);
      }
    }
    return numerator / std::sqrt(static_cast<double>(parents.size()) + inner);
  }

 private:
  std::vector<std::vector<double>> r_;
};

std::string Label(int attribute, const std::vector<std::string>* names) {
  if (names != nullptr && static_cast<std::size_t>(attribute) < names->size()) {
    return (*names)[static_cast<std::size_t>(attribute)];
  }
  return "attribute " + std::to_string(attribute);
}

}  // namespace


double CfsEntropies::ConditionalEntropy(std::size_t i, const std::vector<int>& parents) const {
  double h = single[i];
  for (int p : parents) {
    const std::size_t j = static_cast<std::size_t>(p);
    h = std::min(h, std::max(0.0, pair[i][j] - bucketed[j]));
  }
  return h;
}

bool CfsEntropies::Determines(std::size_t i, const std::vector<int>& parents) const {
  return !parents.empty() && single[i] > 0 &&
         ConditionalEntropy(i, parents) + noise_scale <= (1 - kDeterminedShare) * single[i];
}

std::uint64_t ParentLimit::Configurations(const CfsEntropies& entropies, std::size_t child,
                                          const std::vector<int>& parents) const {
  const double effective = std::exp2(entropies.ConditionalEntropy(child, parents));
  return UsefulConfigurations(parameter_rows, parameter_epsilon, theta, effective,
                              cardinalities[child], maxcost);
}

std::vector<std::vector<int>> GreedyCfsParents(const CfsEntropies& entropies,
                                               const std::vector<std::uint32_t>& bucket_counts,
                                               const ParentLimit& limit, double minimum_gain) {
  const std::size_t m = entropies.single.size();
  const CfsScore score(entropies);
  std::vector<std::vector<int>> parents(m);
  std::vector<double> current(m, 0.0);
  std::vector<std::uint64_t> cost(m, 1);
  // reach[a][b]: b is reachable from a along parent -> child edges.
  std::vector<std::vector<char>> reach(m, std::vector<char>(m, 0));
  std::vector<int> with;
  for (;;) {
    double best_gain = minimum_gain;
    double best_conditional = -INFINITY;
    std::size_t best_i = m, best_j = m;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < m; ++j) {
        if (i == j || reach[i][j]) continue;  // j -> i would close a cycle
        if (std::find(parents[i].begin(), parents[i].end(), static_cast<int>(j)) !=
            parents[i].end()) {
          continue;
        }
        with = parents[i];
        with.push_back(static_cast<int>(j));
        const double gain = score.Merit(i, with) - current[i];
        if (gain < best_gain || (gain == best_gain && best_i == m)) continue;
        // Equal gains: j -> i and i -> j have the same symmetrical uncertainty when neither is
        // bucketised. Take the direction whose child keeps more entropy given the parent, i.e.
        // whose parent has the smaller noisy entropy (for one parent, H(x_i | x_j) − H(x_j |
        // x_i) = H(x_i) − H(x_j)): the parent then comes early in σ, where copied low-entropy
        // attributes give more plausible seeds. (The column order decided before.)
        const double conditional = entropies.ConditionalEntropy(i, with);
        if (gain == best_gain && !(conditional > best_conditional)) continue;
        // The limit depends on the parent set (through H̃(x_i | P)): checked last, it is the
        // most expensive test.
        if (cost[i] * bucket_counts[j] > limit.Configurations(entropies, i, with)) continue;
        best_gain = gain;
        best_conditional = conditional;
        best_i = i;
        best_j = j;
      }
    }
    if (best_i == m) break;
    parents[best_i].push_back(static_cast<int>(best_j));
    std::sort(parents[best_i].begin(), parents[best_i].end());
    current[best_i] = score.Merit(best_i, parents[best_i]);
    cost[best_i] *= bucket_counts[best_j];
    // Everything reaching best_j (and best_j) now reaches best_i and all it reaches.
    for (std::size_t x = 0; x < m; ++x) {
      if (x != best_j && !reach[x][best_j]) continue;
      reach[x][best_i] = 1;
      for (std::size_t y = 0; y < m; ++y) {
        if (reach[best_i][y]) reach[x][y] = 1;
      }
    }
  }
  return parents;
}

std::uint64_t UsefulConfigurations(double parameter_rows, double parameter_epsilon, double theta,
                                   double effective_values, std::uint32_t cardinality,
                                   std::uint64_t maxcost) {
  if (!(theta > 0)) return std::max<std::uint64_t>(maxcost, 1);
  const double values = std::max<double>(cardinality, 1);
  const double occupied = std::clamp(effective_values, 1.0, values);
  const double useful = std::floor(parameter_rows * parameter_epsilon /
                                   (theta * ProjectedCountNoise(occupied, values - occupied)));
  if (!(useful >= 1)) return 1;
  return std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(maxcost,
                                 useful >= 1e18 ? maxcost : static_cast<std::uint64_t>(useful)));
}

double AutomaticRowCountFraction(std::int64_t probe_count, double epsilon, double delta) {
  double best = 0.005, best_noise = INFINITY;
  for (int step = 1; step <= 100; ++step) {
    const double fraction = 0.005 * step;
    auto margin = RowCountMargin(fraction * epsilon, delta);
    if (!margin) continue;
    const double smaller =
        static_cast<double>(std::max<std::int64_t>(probe_count - *margin - 1, 0));
    const double noise =
        EntropySensitivity(smaller) / (1 - kRowCountProbeFraction - fraction);
    if (noise < best_noise) {
      best_noise = noise;
      best = fraction;
    }
  }
  return best;
}

std::vector<int> TopologicalOrder(const std::vector<std::vector<int>>& parents,
                                  const std::vector<double>& key) {
  const std::size_t m = parents.size();
  std::vector<int> missing(m, 0);
  std::vector<std::vector<int>> children(m);
  for (std::size_t i = 0; i < m; ++i) {
    missing[i] = static_cast<int>(parents[i].size());
    for (int p : parents[i]) children[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
  }
  std::vector<int> order;
  std::vector<char> done(m, 0);
  while (order.size() < m) {
    int pick = -1;
    for (std::size_t i = 0; i < m; ++i) {
      if (done[i] || missing[i] != 0) continue;
      if (pick < 0 || key[i] < key[static_cast<std::size_t>(pick)]) {
        pick = static_cast<int>(i);
      }
    }
    if (pick < 0) break;  // a cycle: cannot happen for GreedyCfsParents output
    done[static_cast<std::size_t>(pick)] = 1;
    order.push_back(pick);
    for (int c : children[static_cast<std::size_t>(pick)]) --missing[static_cast<std::size_t>(c)];
  }
  return order;
}

Result<CfsStructure> LearnCfsStructure(const EncodedTable& data, const CfsOptions& options,
                                       PrivacyAccountant& accountant, const std::string& partition,
                                       Rng& rng, Progress& progress) {
  const std::size_t m = data.num_attributes();
  if (m == 0) return FailedPrecondition("structure learning needs at least one attribute");
  if (!(options.epsilon > 0 && std::isfinite(options.epsilon))) {
    return InvalidArgument("structure epsilon must be finite and positive (got " +
                           std::to_string(options.epsilon) + ")");
  }
  std::vector<std::vector<std::uint32_t>> maps(m);
  std::vector<std::uint32_t> bucket_counts(m);
  for (std::size_t a = 0; a < m; ++a) {
    if (a < options.buckets.size()) maps[a] = options.buckets[a];
    if (maps[a].empty()) {
      bucket_counts[a] = data.cardinalities[a];
    } else {
      if (maps[a].size() != data.cardinalities[a]) {
        return InvalidArgument("bucket map of " + Label(static_cast<int>(a), options.names) +
                               " has " + std::to_string(maps[a].size()) +
                               " entries for cardinality " + std::to_string(data.cardinalities[a]));
      }
      bucket_counts[a] = *std::max_element(maps[a].begin(), maps[a].end()) + 1;
    }
  }

  if (!(options.row_count_fraction == 0 ||
        (options.row_count_fraction > 0 && options.row_count_fraction < 1))) {
    return InvalidArgument("row_count_fraction must be 0 (automatic) or in (0, 1) (got " +
                           std::to_string(options.row_count_fraction) + ")");
  }

  CfsStructure result;
  // 1. DP lower bound on |D_T| -> entropy sensitivity (eq. 9-10, add/remove version). Its
  // share of ε is fixed, or chosen from a cheap first noisy count (adaptive sequential
  // composition: the probe is in the ledger, the choice is post-processing of it).
  double spent = 0;  // ε of the row counts, as the accountant sums them
  double fraction = options.row_count_fraction;
  if (fraction == 0) {
    const double epsilon_probe = ShareOf(options.epsilon, kRowCountProbeFraction);
    auto probe = NoisyRowCountLowerBound(data.rows, epsilon_probe, 0.0, accountant, partition, rng,
                                         "probe: sizes the lower bound's share of ε");
    if (!probe) return probe.error();
    fraction = AutomaticRowCountFraction(probe->noisy, options.epsilon, options.delta);
    spent = epsilon_probe;
  }
  const double epsilon_rows = std::min(ShareOf(options.epsilon, fraction),
                                       RemainingAfter(spent, options.epsilon));
  auto rows = NoisyRowCountLowerBound(data.rows, epsilon_rows, options.delta, accountant,
                                      partition, rng);
  if (!rows) return rows.error();
  result.rows = *rows;
  result.row_count_epsilon = spent + epsilon_rows;
  const double smaller = static_cast<double>(std::max<std::int64_t>(rows->lower - 1, 0));
  result.entropy_sensitivity = EntropyQuerySensitivity(smaller);  // with the rounding margin

  // 2. The entropy queries, counted exactly.
  std::size_t queries = m;
  for (std::size_t a = 0; a < m; ++a) queries += maps[a].empty() ? 0 : 1;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = i + 1; j < m; ++j) queries += maps[i].empty() && maps[j].empty() ? 1 : 2;
  }
  result.entropy_queries = queries;
  LedgerEntry entry;
  entry.label =
      "noisy entropies for CFS structure learning (" + std::to_string(queries) + " queries)";
  entry.mechanism = "Laplace";
  entry.partition = partition;
  entry.reference = "PD paper eq. (8), sensitivity: docs/deniable.md (add/remove Lemma 1)";
  entry.sensitivity = result.entropy_sensitivity;
  entry.count = queries;
  const double rest = RemainingAfter(epsilon_rows, RemainingAfter(spent, options.epsilon));
  const double epsilon_each = LargestEpsilonEach(accountant, entry, rest);
  auto laplace = LaplaceMechanism::Create(epsilon_each, result.entropy_sensitivity);
  if (!laplace) return laplace.error().WithContext("entropy noise");
  entry.epsilon_each = laplace->PrivacyLoss();
  if (Status s = accountant.Spend(entry); !s) return s.error();
  result.epsilon_per_entropy = entry.epsilon_each;

  auto noisy = [&](double value) { return std::max(0.0, laplace->AddNoise(value, rng)); };
  CfsEntropies& e = result.entropies;
  e.noise_scale = laplace->scale();
  e.single.resize(m);
  e.bucketed.resize(m);
  e.pair.assign(m, std::vector<double>(m, 0.0));
  for (std::size_t a = 0; a < m; ++a) {
    e.single[a] = noisy(ColumnEntropy(data.columns[a], {}, data.cardinalities[a]));
    e.bucketed[a] = maps[a].empty()
                        ? e.single[a]
                        : noisy(ColumnEntropy(data.columns[a], maps[a], bucket_counts[a]));
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (progress.IsCancelled()) return Cancelled("structure learning cancelled");
    progress.Report(static_cast<double>(i) / static_cast<double>(m), "Learning structure (CFS)");
    for (std::size_t j = i + 1; j < m; ++j) {
      e.pair[i][j] = noisy(PairEntropy(data.columns[i], data.cardinalities[i], data.columns[j],
                                       maps[j], bucket_counts[j]));
      e.pair[j][i] = maps[i].empty() && maps[j].empty()
                         ? e.pair[i][j]
                         : noisy(PairEntropy(data.columns[j], data.cardinalities[j],
                                             data.columns[i], maps[i], bucket_counts[i]));
    }
  }

  // 3. Post-processing: greedy parents, σ, nodes.
  ParentLimit limit;
  limit.maxcost = options.maxcost;
  limit.theta = options.usefulness_theta;
  limit.parameter_epsilon = options.parameter_epsilon;
  limit.parameter_rows =
      static_cast<double>(std::max<std::int64_t>(rows->noisy, 0)) * options.parameter_row_ratio;
  limit.cardinalities = data.cardinalities;
  const std::vector<std::vector<int>> parents = GreedyCfsParents(e, bucket_counts, limit);
  std::vector<double> key(m);
  result.configuration_limit.resize(m);
  for (std::size_t a = 0; a < m; ++a) {
    key[a] = e.ConditionalEntropy(a, parents[a]);
    result.configuration_limit[a] = limit.Configurations(e, a, parents[a]);
  }
  const std::vector<int> order = TopologicalOrder(parents, key);
  for (int attribute : order) {
    const std::size_t a = static_cast<std::size_t>(attribute);
    BayesNode node;
    node.attribute = attribute;
    node.cardinality = data.cardinalities[a];
    node.parents = parents[a];
    for (int p : node.parents) {
      node.parent_buckets.push_back(maps[static_cast<std::size_t>(p)]);
      node.parent_bucket_counts.push_back(bucket_counts[static_cast<std::size_t>(p)]);
    }
    result.nodes.push_back(std::move(node));
  }
  // Merit of each chosen parent set (for reports), from the same noisy entropies.
  const CfsScore score(e);
  for (const BayesNode& node : result.nodes) {
    result.merit.push_back(score.Merit(static_cast<std::size_t>(node.attribute), node.parents));
    const std::size_t a = static_cast<std::size_t>(node.attribute);
    const double conditional = e.ConditionalEntropy(a, node.parents);
    result.determined_values.push_back(e.Determines(a, node.parents) ? std::exp2(conditional)
                                                                      : 0.0);
  }
  progress.Report(1.0, "Learning structure (CFS)");
  return result;
}

}  // namespace deniable
