// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/plausibility.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>

namespace deniable {

PartitionKey ClassifyProbability(double probability, double log_gamma) {
  if (!(probability > 0)) return PartitionKey{};
  const double x = -std::log(probability) / log_gamma;
  if (!std::isfinite(x)) return PartitionKey{};
  const double low = std::floor(x - kPartitionTolerance);
  const double high = std::floor(x + kPartitionTolerance);
  if (low != high) return PartitionKey{};
  return PartitionKey{true, static_cast<long long>(low)};
}

void SuffixProbabilities(const SeedModel& model, const Code* y, int omega_max, double* q) {
  const int m = model.attributes();
  q[0] = 1.0;
  for (int omega = 1; omega <= omega_max; ++omega) {
    q[omega] = q[omega - 1] * model.Probability(m - omega, y);
  }
}

PlausibleSeedCounter::PlausibleSeedCounter(const SeedIndex& index, int attributes, OmegaRange omega,
                                           double gamma)
    : index_(index),
      m_(attributes),
      omega_(omega),
      gamma_(gamma),
      log_gamma_(std::log(gamma)),
      n_(static_cast<std::size_t>(omega.width()) + 1, 0),
      p_(static_cast<std::size_t>(omega.width()), 0.0) {
  assert(index.depth() >= attributes - omega.min && "seed index depth must be >= m - omega_min");
}

CandidateCount PlausibleSeedCounter::Count(std::size_t seed, int omega_used, const Code* y,
                                           const double* q) {
  const int deepest = m_ - omega_.min;     // D: levels >= D all have every ω term
  const int shallowest = m_ - omega_.max;  // levels below have probability 0
  const int copied = m_ - omega_used;      // y agrees with the seed on positions < copied
  auto n_at = [&](int level) -> std::uint32_t& {
    return n_[static_cast<std::size_t>(level - shallowest)];
  };
  // Walk up from the seed's leaf to the level of the copied prefix, then on to the shallowest
  // level of interest: N(L) there is the count of the seed's ancestor.
  std::uint32_t node = index_.Leaf(seed);
  for (int level = index_.depth(); level > copied; --level) node = index_.Parent(level, node);
  const std::uint32_t copied_node = node;
  for (int level = copied; level >= shallowest; --level) {
    n_at(level) = index_.Count(level, node);
    if (level > shallowest) node = index_.Parent(level, node);
  }
  // Walk down along y's re-sampled codes.
  node = copied_node;
  for (int level = copied + 1; level <= deepest; ++level) {
    if (node != SeedIndex::kNone) node = index_.Child(level - 1, node, y[level - 1]);
    n_at(level) = node == SeedIndex::kNone ? 0 : index_.Count(level, node);
  }
  if (deepest == shallowest) return CandidateCount{n_at(deepest), PartitionKey{}};

  // The seed's own level: how far beyond the copied prefix it still agrees with y.
  const Code* seed_codes = index_.SeedCodes(seed);
  int own = copied;
  while (own < deepest && seed_codes[own] == y[own]) ++own;

  // Probability of each level, accumulated from ω_max downwards (the oracle's order).
  double accumulated = 0;
  const double width = omega_.width();
  for (int level = shallowest; level <= deepest; ++level) {
    accumulated += q[m_ - level];
    p_[static_cast<std::size_t>(level - shallowest)] = accumulated / width;
  }
  const double own_p = p_[static_cast<std::size_t>(own - shallowest)];
  const PartitionKey own_key = ClassifyProbability(own_p, log_gamma_);
  // A level whose probability is more than a factor γ(1 + 1e-6) away from the seed's has x
  // more than 1 away from the seed's: never in its partition, whatever the rounding. Skip the
  // logarithm for it (it would be excluded by ClassifyProbability as well).
  const double far = gamma_ * (1 + 1e-6);
  std::uint32_t k_prime = 0;
  for (int level = shallowest; level <= deepest; ++level) {
    const std::uint32_t exactly = level == deepest ? n_at(level) : n_at(level) - n_at(level + 1);
    if (exactly == 0) continue;
    bool same = level == own;
    const double p = p_[static_cast<std::size_t>(level - shallowest)];
    if (!same && own_key.certain && p * far >= own_p && p <= own_p * far) {
      const PartitionKey key =
          ClassifyProbability(p_[static_cast<std::size_t>(level - shallowest)], log_gamma_);
      same = key.certain && key.partition == own_key.partition;
    }
    if (same) k_prime += exactly;
  }
  return CandidateCount{k_prime, own_key};
}

namespace {

// a(d) and Pr{y = M(d)} straight from the definition.
struct SeedProbability {
  int agreement = 0;
  double probability = 0;
};

SeedProbability EvaluateSeed(const EncodedTable& seeds, const std::vector<int>& order,
                             OmegaRange omega, const Code* y, const double* q, std::size_t row) {
  const int m = static_cast<int>(order.size());
  int common = 0;  // longest common prefix of seed and y in σ order
  while (common < m &&
         seeds.columns[static_cast<std::size_t>(order[static_cast<std::size_t>(common)])][row] ==
             y[common]) {
    ++common;
  }
  SeedProbability result;
  double accumulated = 0;
  for (int w = omega.max; w >= omega.min; --w) {
    if (common >= m - w) {  // copies positions 0..m-w-1, all equal
      accumulated += q[w];
      ++result.agreement;
    }
  }
  result.probability = accumulated / omega.width();
  return result;
}

// The group a seed belongs to: its certain partition, or its agreement when uncertain.
std::pair<long long, int> GroupOf(const SeedProbability& seed, double log_gamma) {
  const PartitionKey key = ClassifyProbability(seed.probability, log_gamma);
  return key.certain ? std::pair<long long, int>{key.partition, 0}
                     : std::pair<long long, int>{-1, seed.agreement};
}

}  // namespace

CandidateCount CountPlausibleSeedsBruteForce(const EncodedTable& seeds,
                                             const std::vector<int>& order, OmegaRange omega,
                                             double gamma, const Code* y, const double* q,
                                             std::size_t seed_row) {
  const double log_gamma = std::log(gamma);
  const SeedProbability own = EvaluateSeed(seeds, order, omega, y, q, seed_row);
  const auto own_group = GroupOf(own, log_gamma);
  CandidateCount result;
  result.key = ClassifyProbability(own.probability, log_gamma);
  for (std::size_t row = 0; row < seeds.rows; ++row) {
    const SeedProbability seed = EvaluateSeed(seeds, order, omega, y, q, row);
    if (seed.agreement == 0) continue;  // Pr{y = M(d)} = 0: not a plausible seed
    if (GroupOf(seed, log_gamma) == own_group) ++result.k_prime;
  }
  return result;
}

namespace {

std::vector<PlausibleGroup> GroupsFromMap(
    const std::map<std::pair<long long, int>, std::uint32_t>& sizes) {
  std::vector<PlausibleGroup> groups;
  for (const auto& [group, count] : sizes) {
    PlausibleGroup g;
    g.key.certain = group.second == 0;
    g.key.partition = g.key.certain ? group.first : 0;
    g.agreement = group.second;
    g.seeds = count;
    groups.push_back(g);
  }
  return groups;
}

}  // namespace

std::vector<PlausibleGroup> PlausibleGroups(const SeedIndex& index, int attributes,
                                            OmegaRange omega, double gamma, const Code* y,
                                            const double* q) {
  const int deepest = attributes - omega.min;
  const int shallowest = attributes - omega.max;
  const double log_gamma = std::log(gamma);
  // N(L) along y's path from the root.
  std::vector<std::uint32_t> n(static_cast<std::size_t>(std::max(deepest, 0)) + 2,
                               static_cast<std::uint32_t>(index.size()));
  std::uint32_t node = 0;
  for (int level = 1; level <= deepest + 1; ++level) {
    if (node != SeedIndex::kNone && level <= deepest) {
      node = index.Child(level - 1, node, y[level - 1]);
    }
    n[static_cast<std::size_t>(level)] =
        node == SeedIndex::kNone || level > deepest ? 0 : index.Count(level, node);
  }
  std::map<std::pair<long long, int>, std::uint32_t> sizes;
  double accumulated = 0;
  for (int level = shallowest; level <= deepest; ++level) {
    accumulated += q[attributes - level];
    const std::size_t l = static_cast<std::size_t>(level);
    const std::uint32_t exactly = level == deepest ? n[l] : n[l] - n[l + 1];
    if (exactly == 0) continue;
    const PartitionKey key = ClassifyProbability(accumulated / omega.width(), log_gamma);
    const std::pair<long long, int> group =
        key.certain ? std::pair<long long, int>{key.partition, 0}
                    : std::pair<long long, int>{-1, level - shallowest + 1};
    sizes[group] += exactly;
  }
  return GroupsFromMap(sizes);
}

std::vector<PlausibleGroup> PlausibleGroupsBruteForce(const EncodedTable& seeds,
                                                      const std::vector<int>& order,
                                                      OmegaRange omega, double gamma, const Code* y,
                                                      const double* q) {
  const double log_gamma = std::log(gamma);
  std::map<std::pair<long long, int>, std::uint32_t> sizes;
  for (std::size_t row = 0; row < seeds.rows; ++row) {
    const SeedProbability seed = EvaluateSeed(seeds, order, omega, y, q, row);
    if (seed.agreement == 0) continue;
    ++sizes[GroupOf(seed, log_gamma)];
  }
  return GroupsFromMap(sizes);
}

}  // namespace deniable
