// SPDX-License-Identifier: Apache-2.0
#include "engine/model/dependencies.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/dp/exponential_mechanism.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

// Share of each round's reserve for the selection (the rest pays the mapping if one is found).
constexpr double kSelectionShare = 0.6;

// The width of the interval that holds every candidate's change between neighbours: the score
// moves in [−1, 1 − λ0] when a record is added (model/dependencies.h), "none" by 0.
double ScoreChangeRange(double min_lambda) { return 2.0 - min_lambda; }

std::string RangeBoundedName(double min_lambda) {
  char range[32];
  std::snprintf(range, sizeof range, "%.3g", ScoreChangeRange(min_lambda));
  return std::string("exponential mechanism (range-bounded, R = 2 - λ0 = ") + range + ")";
}

std::vector<std::int64_t> PairCounts(const EncodedTable& data, int parent, int child) {
  const std::uint32_t kb = data.cardinalities[static_cast<std::size_t>(child)];
  std::vector<std::int64_t> counts(
      static_cast<std::size_t>(data.cardinalities[static_cast<std::size_t>(parent)]) * kb, 0);
  const Code* a = data.columns[static_cast<std::size_t>(parent)].data();
  const Code* b = data.columns[static_cast<std::size_t>(child)].data();
  for (std::size_t r = 0; r < data.rows; ++r) ++counts[std::size_t{a[r]} * kb + b[r]];
  return counts;
}

bool IsDescendant(const std::vector<int>& parent_of, int node, int ancestor) {
  for (int at = node; at >= 0; at = parent_of[static_cast<std::size_t>(at)]) {
    if (at == ancestor) return true;
  }
  return false;
}

}  // namespace

double MappingEpsilon(const DependencyOptions& options, double reserved, std::uint32_t parent_codes,
                      std::uint32_t child_codes) {
  if (!(options.rows_estimate > 0) || !(options.max_mapping_epsilon > reserved) ||
      child_codes < 2) {
    return reserved;
  }
  // Expected wrong rows ≤ |A|·(|B| − 1)/(e·ε) (model/dependencies.h): ε for q·n̂ of them.
  const double needed = static_cast<double>(parent_codes) * static_cast<double>(child_codes - 1) /
                        (std::exp(1.0) * options.mapping_inconsistency * options.rows_estimate);
  return std::clamp(needed, reserved, options.max_mapping_epsilon);
}

double DependencyScore(const EncodedTable& data, int parent, int child, double min_lambda) {
  const std::uint32_t ka = data.cardinalities[static_cast<std::size_t>(parent)];
  const std::uint32_t kb = data.cardinalities[static_cast<std::size_t>(child)];
  const std::vector<std::int64_t> counts = PairCounts(data, parent, child);
  double s = 0;
  std::vector<std::int64_t> marginal(kb, 0);
  for (std::uint32_t a = 0; a < ka; ++a) {
    std::int64_t best = 0;
    for (std::uint32_t b = 0; b < kb; ++b) {
      best = std::max(best, counts[std::size_t{a} * kb + b]);
      marginal[b] += counts[std::size_t{a} * kb + b];
    }
    s += static_cast<double>(best);
  }
  std::int64_t largest = 0;
  for (std::int64_t count : marginal) largest = std::max(largest, count);
  const auto m = static_cast<double>(largest);
  const auto n = static_cast<double>(data.rows);
  return s - min_lambda * n - (1 - min_lambda) * m - static_cast<double>(ka);
}

Result<DependencyResult> FindDependencies(const EncodedTable& data,
                                          const DependencyOptions& options,
                                          PrivacyAccountant& accountant,
                                          const std::string& partition, Rng& rng,
                                          Progress& progress) {
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  if (!(std::isfinite(options.epsilon) && options.epsilon > 0) || options.max_rounds < 1 ||
      !(options.min_lambda > 0 && options.min_lambda < 1)) {
    return InvalidArgument("dependency search: epsilon > 0, max_rounds >= 1 and min_lambda in "
                           "(0, 1) are required");
  }
  if (!(std::isfinite(options.max_mapping_epsilon) && options.max_mapping_epsilon >= 0) ||
      !(options.mapping_inconsistency > 0 && options.mapping_inconsistency < 1) ||
      std::isnan(options.rows_estimate)) {
    return InvalidArgument("dependency search: max_mapping_epsilon >= 0 and "
                           "mapping_inconsistency in (0, 1) are required");
  }
  DependencyResult result;
  const std::size_t m = data.num_attributes();
  std::vector<int> candidates;
  for (std::size_t a = 0; a < m; ++a) {
    const std::uint32_t k = data.cardinalities[a];
    if (k >= 2 && k <= options.max_cardinality) candidates.push_back(static_cast<int>(a));
  }
  if (candidates.size() < 2 || data.rows == 0) return result;
  // Scores of every ordered pair, computed once (the table does not change between rounds).
  struct Pair {
    int parent, child;
    double score;
  };
  std::vector<Pair> pairs;
  for (int parent : candidates) {
    for (int child : candidates) {
      if (parent == child) continue;
      if (progress.IsCancelled()) return Cancelled("cancelled while looking for dependencies");
      pairs.push_back({parent, child, DependencyScore(data, parent, child, options.min_lambda)});
    }
  }
  const double reserve = EvenShare(options.epsilon, static_cast<std::size_t>(options.max_rounds));
  const double select_epsilon = ShareOf(reserve, kSelectionShare);
  const double map_epsilon = internal::SubtractDown(reserve, select_epsilon);
  // The score's changes between neighbours share an interval of width 2 − λ0 (with "none"'s 0),
  // so the selection is range-bounded (dp/exponential_mechanism.md §1b): exponent ε/(2 − λ0)
  // rather than ε/2.
  auto select = options.range_bounded
                    ? ExponentialMechanism::CreateRangeBounded(select_epsilon,
                                                               ScoreChangeRange(options.min_lambda))
                    : ExponentialMechanism::Create(select_epsilon, 1);
  if (!select) return select.error();

  std::vector<int> parent_of(m, -1);  // derived attribute -> its parent
  for (int round = 0; round < options.max_rounds; ++round) {
    progress.Report(static_cast<double>(round) / options.max_rounds, "Looking for dependencies");
    std::vector<const Pair*> admissible;
    std::vector<double> utilities;
    for (const Pair& pair : pairs) {
      if (parent_of[static_cast<std::size_t>(pair.child)] >= 0) continue;  // already derived
      if (IsDescendant(parent_of, pair.parent, pair.child)) continue;       // would be a cycle
      admissible.push_back(&pair);
      utilities.push_back(pair.score);
    }
    if (admissible.empty()) break;
    // "none" (no pair clears λ0) counts as many candidates as there are pairs: otherwise the
    // many pairs a little below 0 would together outweigh it and a spurious pair would win.
    utilities.push_back(0.0);
    std::vector<std::uint64_t> multiplicities(utilities.size(), 1);
    multiplicities.back() = admissible.size();
    LedgerEntry entry;
    entry.label = "dependency search, round " + std::to_string(round + 1);
    entry.mechanism =
        options.range_bounded ? RangeBoundedName(options.min_lambda) : "exponential mechanism";
    entry.partition = partition;
    entry.reference = "model/dependencies.h (Goodman-Kruskal λ score)";
    entry.epsilon_each = select_epsilon;
    entry.sensitivity = 1;
    if (Status s = accountant.Spend(entry); !s) return s.error();
    result.spent += select_epsilon;
    const std::size_t chosen = select->SelectWithMultiplicity(utilities, multiplicities, rng);
    if (chosen == admissible.size()) break;  // "none"
    const Pair& pair = *admissible[chosen];

    Dependency dependency;
    dependency.parent = pair.parent;
    dependency.child = pair.child;
    const std::uint32_t ka = data.cardinalities[static_cast<std::size_t>(pair.parent)];
    const std::uint32_t kb = data.cardinalities[static_cast<std::size_t>(pair.child)];
    const double pair_epsilon = MappingEpsilon(options, map_epsilon, ka, kb);
    auto map = ExponentialMechanism::Create(pair_epsilon, 1, /*monotonic=*/true);
    if (!map) return map.error();
    LedgerEntry map_entry;
    map_entry.label = "mapping " + internal::AttributeLabel(pair.parent, options.names) + " → " +
                      internal::AttributeLabel(pair.child, options.names);
    map_entry.mechanism = "exponential mechanism per value (parallel composition)";
    map_entry.partition = partition;
    map_entry.reference = "model/dependencies.h";
    map_entry.epsilon_each = pair_epsilon;
    map_entry.sensitivity = 1;
    if (Status s = accountant.Spend(map_entry); !s) return s.error();
    result.spent += pair_epsilon;
    const std::vector<std::int64_t> counts = PairCounts(data, pair.parent, pair.child);
    std::vector<double> row(kb);
    for (std::uint32_t a = 0; a < ka; ++a) {
      for (std::uint32_t b = 0; b < kb; ++b) {
        row[b] = static_cast<double>(counts[std::size_t{a} * kb + b]);
      }
      dependency.mapping.push_back(static_cast<std::uint32_t>(map->Select(row, rng)));
    }
    parent_of[static_cast<std::size_t>(pair.child)] = pair.parent;
    result.found.push_back(std::move(dependency));
  }
  progress.Report(1.0, "Looking for dependencies");
  return result;
}

BayesNode DeterministicNode(const Dependency& dependency, std::uint32_t parent_cardinality,
                            std::uint32_t child_cardinality) {
  BayesNode node;
  node.attribute = dependency.child;
  node.parents = {dependency.parent};
  node.parent_buckets = {{}};
  node.parent_bucket_counts = {parent_cardinality};
  node.cardinality = child_cardinality;
  node.probabilities.assign(std::size_t{parent_cardinality} * child_cardinality, 0.0);
  for (std::uint32_t a = 0; a < parent_cardinality; ++a) {
    node.probabilities[std::size_t{a} * child_cardinality + dependency.mapping[a]] = 1.0;
  }
  return node;
}

}  // namespace deniable
