// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/parameter_learning.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/deniable/dirichlet.h"
#include "engine/deniable/guarantees.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/model/privbayes.h"

namespace deniable {

Result<BayesNet> LearnDirichletParameters(
    const EncodedTable& data, std::vector<BayesNode> structure, const ParameterOptions& options,
    PrivacyAccountant& accountant, const std::string& partition, Rng& rng, Progress& progress) {
  const std::size_t m = structure.size();
  if (m == 0) return FailedPrecondition("parameter learning needs at least one attribute");
  if (!(std::isfinite(options.dirichlet_alpha) && options.dirichlet_alpha >= 0)) {
    return InvalidArgument("dirichlet_alpha must be finite and >= 0 (0 = automatic) (got " +
                           std::to_string(options.dirichlet_alpha) + ")");
  }
  for (std::size_t i = 0; i < m; ++i) {
    BayesNode& node = structure[i];
    if (node.attribute < 0 || static_cast<std::size_t>(node.attribute) >= data.num_attributes()) {
      return InvalidArgument("structure node " + std::to_string(i) + " names attribute " +
                             std::to_string(node.attribute) + ", not in the table");
    }
    node.cardinality = data.cardinalities[static_cast<std::size_t>(node.attribute)];
  }
  // ε per table: the better of (a) one batch of m equal shares composed by the accountant
  // (advanced composition can give each table more than ε/m for large m) and (b) shares
  // proportional to sqrt(cells), composed sequentially (minimises the total L1 noise,
  // PrivBayes §4.4) — (b) whenever (a) gives no more than ε/m.
  std::vector<double> table_cells(m);
  double root_sum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    double cells = structure[i].cardinality;
    for (std::uint32_t buckets : structure[i].parent_bucket_counts) cells *= buckets;
    table_cells[i] = cells;
    root_sum += std::sqrt(cells);
  }
  LedgerEntry batch;
  batch.label = "noisy conditional counts of all " + std::to_string(m) + " attributes";
  batch.mechanism = "discrete Laplace, projected to the noisy total, Dirichlet posterior sample";
  batch.partition = partition;
  batch.reference = "PD paper eq. (11)-(14), §3.5";
  batch.sensitivity = 1;
  batch.count = m;
  const double batch_each = LargestEpsilonEach(accountant, batch, options.epsilon);
  const bool use_batch = batch_each * static_cast<double>(m) > options.epsilon;
  std::vector<GeometricMechanism> mechanisms;
  for (std::size_t i = 0; i < m; ++i) {
    const double share =
        use_batch ? batch_each
                  : PrivacyAccountant::Spendable(
                        ShareOf(options.epsilon, std::sqrt(table_cells[i]) / root_sum));
    auto geometric = GeometricMechanism::Create(share, 1);
    if (!geometric) return geometric.error().WithContext("conditional counts");
    mechanisms.push_back(*geometric);
  }
  if (use_batch) {
    batch.epsilon_each = mechanisms[0].PrivacyLoss();
    if (Status s = accountant.Spend(batch); !s) return s.error();
  } else {
    for (std::size_t i = 0; i < m; ++i) {
      LedgerEntry entry;
      entry.label = "noisy conditional counts of " +
                    internal::AttributeLabel(structure[i].attribute, options.names) +
                    (structure[i].parents.empty() ? "" : " given its parents") + " (" +
                    std::to_string(static_cast<std::uint64_t>(table_cells[i])) + " cells)";
      entry.mechanism =
          "discrete Laplace, projected to the noisy total, Dirichlet posterior sample";
      entry.partition = partition;
      entry.reference = "PD paper eq. (11)-(14); ε ∝ sqrt(cells) (PrivBayes §4.4)";
      entry.sensitivity = 1;
      entry.epsilon_each = mechanisms[i].PrivacyLoss();
      if (Status s = accountant.Spend(entry); !s) return s.error();
    }
  }

  BayesNet network;
  std::vector<std::int64_t> counts;
  std::vector<double> alpha;
  for (std::size_t i = 0; i < m; ++i) {
    if (progress.IsCancelled()) return Cancelled("parameter learning cancelled");
    progress.Report(static_cast<double>(i) / static_cast<double>(m), "Learning parameters");
    BayesNode node = std::move(structure[i]);
    std::size_t configurations = 1;
    for (std::uint32_t buckets : node.parent_bucket_counts) configurations *= buckets;
    const std::size_t k = node.cardinality;
    counts.assign(configurations * k, 0);
    const std::vector<Code>& column = data.columns[static_cast<std::size_t>(node.attribute)];
    for (std::size_t r = 0; r < data.rows; ++r) {
      std::size_t c = 0;
      for (std::size_t j = 0; j < node.parents.size(); ++j) {
        const Code code = data.columns[static_cast<std::size_t>(node.parents[j])][r];
        c = c * node.parent_bucket_counts[j] + node.BucketOf(j, code);
      }
      ++counts[c * k + column[r]];
    }
    // All noisy counts first: the table's noisy total decides how they are post-processed.
    for (std::int64_t& count : counts) count = mechanisms[i].AddNoise(count, rng);  // eq. (14)
    const TableRegime regime = ChooseTableRegime(counts, mechanisms[i].scale());
    const double prior = options.dirichlet_alpha > 0                ? options.dirichlet_alpha
                         : regime == TableRegime::kNoiseDominated ? 1.0
                                                                  : 1.0 / static_cast<double>(k);
    double threshold = 0;  // a (near-)deterministic child: drop counts at the noise level
    if (regime == TableRegime::kSignal && i < options.determined_values.size() &&
        options.determined_values[i] > 0) {
      const double empty = static_cast<double>(configurations) *
                           std::max(0.0, static_cast<double>(k) - options.determined_values[i]);
      threshold = EmptyCellThreshold(mechanisms[i].scale(), empty);
    }
    node.probabilities.assign(configurations * k, 0.0);
    alpha.resize(k);
    for (std::size_t c = 0; c < configurations; ++c) {
      const std::span<const std::int64_t> cell(counts.data() + c * k, k);
      if (regime == TableRegime::kNoiseDominated) {
        for (std::size_t v = 0; v < k; ++v) {
          alpha[v] = static_cast<double>(std::max<std::int64_t>(cell[v], 0));  // eq. (14)
        }
      } else {
        ProjectNoisyCounts(cell, alpha);
        for (std::size_t v = 0; v < k; ++v) {
          if (static_cast<double>(cell[v]) < threshold) alpha[v] = 0;
        }
      }
      for (double& a : alpha) a += prior;
      SampleDirichlet(alpha, std::span<double>(node.probabilities.data() + c * k, k), rng);
    }
    network.nodes.push_back(std::move(node));
  }
  progress.Report(1.0, "Learning parameters");
  return network;
}

void ProjectNoisyCounts(std::span<const std::int64_t> noisy, std::span<double> out) {
  std::int64_t total = 0;
  bool negative = false;
  for (std::int64_t x : noisy) {
    total += x;
    negative |= x < 0;
  }
  if (!negative) {  // nothing to project: the counts already have the total
    for (std::size_t v = 0; v < noisy.size(); ++v) out[v] = static_cast<double>(noisy[v]);
    return;
  }
  if (total <= 0) {
    std::fill(out.begin(), out.end(), 0.0);
    return;
  }
  // τ: with the positive counts sorted down p_1 >= p_2 >= ..., the first j whose
  // (p_1 + ... + p_j − S)/j is at least p_{j+1} (Duchi et al. 2008, Fig. 1). Integer sums.
  std::vector<std::int64_t> positive;
  for (std::int64_t x : noisy) {
    if (x > 0) positive.push_back(x);
  }
  std::sort(positive.begin(), positive.end(), std::greater<>());
  std::int64_t sum = 0;
  double tau = 0;
  for (std::size_t j = 0; j < positive.size(); ++j) {
    sum += positive[j];
    tau = static_cast<double>(sum - total) / static_cast<double>(j + 1);
    if (j + 1 == positive.size() || static_cast<double>(positive[j + 1]) <= tau) break;
  }
  for (std::size_t v = 0; v < noisy.size(); ++v) {
    out[v] = std::max(0.0, static_cast<double>(noisy[v]) - tau);
  }
}

TableRegime ChooseTableRegime(std::span<const std::int64_t> noisy_counts, double noise_scale) {
  double total = 0;
  for (std::int64_t x : noisy_counts) total += static_cast<double>(x);
  const double cells = static_cast<double>(noisy_counts.size());
  return total >= cells * noise_scale ? TableRegime::kSignal : TableRegime::kNoiseDominated;
}

double EmptyCellThreshold(double noise_scale, double empty_cells) {
  return noise_scale * std::log(std::max(2.0, empty_cells));
}

double ProjectedCountNoise(double occupied, double empty) {
  occupied = std::max(occupied, 0.0);
  empty = std::max(empty, 0.0);
  return occupied + std::min(empty / 2, std::sqrt(2 * empty) + occupied / 2);
}

}  // namespace deniable
