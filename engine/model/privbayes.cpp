// SPDX-License-Identifier: Apache-2.0
// Independent and random modes, the PrivBayes driver (ε split, θ-usefulness) and shared checks.
// The structure learner is in privbayes_structure.cpp, the noisy tables in
// privbayes_conditionals.cpp; the privacy argument for all of it in privbayes.md.
#include "engine/model/privbayes.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/dp/geometric_mechanism.h"
#include "engine/model/dependencies.h"
#include "engine/model/domain.h"

namespace deniable {
namespace internal {

Status CheckEncodedTable(const EncodedTable& data) {
  if (data.columns.size() != data.cardinalities.size()) {
    return InvalidArgument("encoded table has " + std::to_string(data.columns.size()) +
                           " columns but " + std::to_string(data.cardinalities.size()) +
                           " cardinalities");
  }
  if (static_cast<double>(data.rows) >= kMaxRows) {
    return InvalidArgument("encoded table has " + std::to_string(data.rows) +
                           " rows; at most 2^32 - 1 are supported");
  }
  for (std::size_t a = 0; a < data.columns.size(); ++a) {
    const std::uint32_t cardinality = data.cardinalities[a];
    if (cardinality == 0 || cardinality > kMaxCardinality) {
      return InvalidArgument("attribute " + std::to_string(a) + " has cardinality " +
                             std::to_string(cardinality) + " (must be 1.." +
                             std::to_string(kMaxCardinality) + ")");
    }
    const std::vector<Code>& column = data.columns[a];
    if (column.size() != data.rows) {
      return InvalidArgument("attribute " + std::to_string(a) + " has " +
                             std::to_string(column.size()) + " codes for " +
                             std::to_string(data.rows) + " rows");
    }
    Code largest = 0;
    for (Code code : column) largest = std::max(largest, code);
    if (data.rows > 0 && largest >= cardinality) {
      const auto row = std::find_if(column.begin(), column.end(),
                                    [&](Code code) { return code >= cardinality; });
      return InvalidArgument("attribute " + std::to_string(a) + ", row " +
                             std::to_string(row - column.begin()) + ": code " +
                             std::to_string(*row) + " is not below the cardinality " +
                             std::to_string(cardinality));
    }
  }
  return OkStatus();
}

std::string AttributeLabel(int attribute, const std::vector<std::string>* names) {
  if (names != nullptr && attribute >= 0 && static_cast<std::size_t>(attribute) < names->size()) {
    return (*names)[static_cast<std::size_t>(attribute)];
  }
  return "attribute " + std::to_string(attribute);
}

Result<double> SpendAllowingRounding(PrivacyAccountant& accountant, LedgerEntry entry) {
  Status first = accountant.Spend(entry);
  if (first) return entry.epsilon_each;
  if (first.error().code != ErrorCode::kBudgetExhausted) return first.error();
  for (int step = 0; step < 64; ++step) {
    entry.epsilon_each = std::nextafter(entry.epsilon_each, 0.0);
    if (accountant.Spend(entry)) return entry.epsilon_each;
  }
  return first.error();  // a real shortage, not rounding: report the planned spend
}

double SubtractDown(double a, double b) {
  double d = a - b;
  // d + b > a in exact arithmetic iff the rounded difference went up; step down until not.
  while (d > 0 && d + b > a) d = std::nextafter(d, 0.0);
  return std::max(d, 0.0);
}

LedgerEntry CountEntry(std::string label, double epsilon, const std::string& partition,
                       std::string reference) {
  LedgerEntry entry;
  entry.label = std::move(label);
  entry.mechanism = "discrete Laplace (geometric)";
  entry.partition = partition;
  entry.reference = std::move(reference);
  entry.epsilon_each = epsilon;
  entry.sensitivity = 1;
  return entry;
}

}  // namespace internal

namespace {

Status CheckEpsilon(double epsilon, const char* name) {
  if (!(std::isfinite(epsilon) && epsilon > 0)) {
    return InvalidArgument(std::string(name) + " must be finite and positive (got " +
                           std::to_string(epsilon) + ")");
  }
  return OkStatus();
}

// Clamps noisy counts at zero and normalises; all zero gives the uniform distribution.
std::vector<double> ClampAndNormalise(const std::vector<std::int64_t>& noisy) {
  std::vector<double> p(noisy.size());
  double total = 0;
  for (std::size_t i = 0; i < noisy.size(); ++i) {
    p[i] = static_cast<double>(std::max<std::int64_t>(noisy[i], 0));
    total += p[i];
  }
  for (double& v : p) v = total > 0 ? v / total : 1.0 / static_cast<double>(p.size());
  return p;
}

// Whether some child-parent pair has a table of at most max_cells cells (public facts only).
bool AnyEdgeFits(const EncodedTable& data, const std::vector<std::vector<std::uint32_t>>& buckets,
                 std::uint64_t max_cells) {
  const std::size_t m = data.num_attributes();
  std::vector<std::uint64_t> radix(data.cardinalities.begin(), data.cardinalities.end());
  for (std::size_t a = 0; a < buckets.size() && a < m; ++a) {
    if (!buckets[a].empty()) radix[a] = *std::max_element(buckets[a].begin(), buckets[a].end()) + 1;
  }
  for (std::size_t child = 0; child < m; ++child) {
    for (std::size_t parent = 0; parent < m; ++parent) {
      if (parent != child && data.cardinalities[child] * radix[parent] <= max_cells) return true;
    }
  }
  return false;
}


// The network as a list: derived attributes after their parents (a parent may itself be
// derived), each with its deterministic node. `net` holds the other attributes already.
Status AppendDerived(const std::vector<Dependency>& dependencies,
                     const std::vector<std::uint32_t>& cardinalities, BayesNet& net) {
  std::vector<bool> placed(cardinalities.size(), false);
  for (const BayesNode& node : net.nodes) placed[static_cast<std::size_t>(node.attribute)] = true;
  while (net.nodes.size() < cardinalities.size()) {
    const std::size_t before = net.nodes.size();
    for (const Dependency& d : dependencies) {
      const auto child = static_cast<std::size_t>(d.child);
      const auto parent = static_cast<std::size_t>(d.parent);
      if (placed[child] || !placed[parent]) continue;
      net.nodes.push_back(DeterministicNode(d, cardinalities[parent], cardinalities[child]));
      placed[child] = true;
    }
    if (net.nodes.size() == before) return InternalError("dependencies form a cycle");
  }
  return OkStatus();
}

}  // namespace

double MutualInformationScoreSensitivity() {
  return std::log2(kMaxRows) + 1.0 / std::log(2.0) + 2 * kScoreEvaluationError;
}

double TotalVariationScoreSensitivity() { return 2.0 + 2 * kTotalVariationEvaluationError; }

double StructureScoreSensitivity(StructureScore score) {
  return score == StructureScore::kTotalVariation ? TotalVariationScoreSensitivity()
                                                  : MutualInformationScoreSensitivity();
}

Result<BayesNet> LearnIndependent(const EncodedTable& data, const IndependentOptions& options,
                                  PrivacyAccountant& accountant, const std::string& partition,
                                  Rng& rng, Progress& progress) {
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  if (Status s = CheckEpsilon(options.epsilon, "independent-mode epsilon"); !s) return s.error();
  if (!(options.dependency_fraction >= 0 && options.dependency_fraction < 1)) {
    return InvalidArgument("the dependency share must be in [0, 1)");
  }
  BayesNet net;
  const std::size_t m = data.num_attributes();
  if (m == 0) return net;
  // 1. Dependencies (each found pair: a deterministic node for the child).
  std::vector<Dependency> dependencies;
  double remaining = options.epsilon;
  if (options.dependency_fraction > 0 && m >= 2) {
    DependencyOptions search;
    search.epsilon = ShareOf(options.epsilon, options.dependency_fraction);
    search.names = options.names;
    if (options.public_rows > 0) {
      // A derived column's histogram slot pays its mapping: every histogram keeps at least
      // this share, since at most m − 1 columns are derived.
      search.rows_estimate = options.public_rows;
      search.max_mapping_epsilon =
          EvenShare(internal::SubtractDown(options.epsilon, search.epsilon), m);
    }
    SubProgress search_progress(progress, 0.0, 0.3);
    auto found = FindDependencies(data, search, accountant, partition, rng, search_progress);
    if (!found) return found.error();
    dependencies = std::move(found->found);
    remaining = internal::SubtractDown(options.epsilon, found->spent);
  }
  std::vector<int> derived_from(m, -1);
  for (const Dependency& d : dependencies) derived_from[static_cast<std::size_t>(d.child)] = d.parent;
  std::size_t histograms = 0;
  for (std::size_t a = 0; a < m; ++a) histograms += derived_from[a] < 0 ? 1 : 0;
  // 2. Histograms of the other attributes.
  const double epsilon_each = EvenShare(remaining, histograms);
  for (std::size_t a = 0; a < m; ++a) {
    if (derived_from[a] >= 0) continue;
    if (progress.IsCancelled()) return Cancelled("learning cancelled");
    const int attribute = static_cast<int>(a);
    const LedgerEntry entry = internal::CountEntry(
        "histogram of " + internal::AttributeLabel(attribute, options.names), epsilon_each,
        partition, "DataSynthesizer independent attribute mode; Ghosh et al. 2009");
    auto spent = internal::SpendAllowingRounding(accountant, entry);
    if (!spent) return spent.error();
    auto mechanism = GeometricMechanism::Create(*spent, 1);
    if (!mechanism) return mechanism.error();

    std::vector<std::int64_t> counts(data.cardinalities[a], 0);
    for (Code code : data.columns[a]) ++counts[code];
    for (std::int64_t& c : counts) c = mechanism->AddNoise(c, rng);
    // The "Other" code often holds nothing: below two noise scales it is noise (as in
    // LearnConditionals).
    if (a < options.other_codes.size() && options.other_codes[a] >= 0) {
      std::int64_t& other = counts[static_cast<std::size_t>(options.other_codes[a])];
      if (static_cast<double>(other) < 2.0 * mechanism->scale()) other = 0;
    }
    // Counts an earlier step released for this attribute: combined by inverse variance (a
    // discrete Laplace count of scale s has variance about 2s²).
    if (a < options.prior_counts.size() && !options.prior_counts[a].empty() &&
        a < options.prior_variances.size() &&
        options.prior_variances[a].size() == options.prior_counts[a].size()) {
      const double own_variance = 2 * mechanism->scale() * mechanism->scale();
      const std::vector<double>& prior = options.prior_counts[a];
      const std::vector<double>& prior_variance = options.prior_variances[a];
      for (std::size_t c = 0; c < counts.size() && c < prior.size(); ++c) {
        if (!(prior_variance[c] > 0 && std::isfinite(prior[c]))) continue;
        counts[c] = std::llround(
            CombineByInverseVariance({static_cast<double>(counts[c]), own_variance},
                                     {prior[c], prior_variance[c]})
                .value);
      }
    }
    BayesNode node;
    node.attribute = attribute;
    node.cardinality = data.cardinalities[a];
    node.probabilities = ClampAndNormalise(counts);
    net.nodes.push_back(std::move(node));
    progress.Report(0.3 + 0.7 * static_cast<double>(net.nodes.size()) / static_cast<double>(m),
                    "Noisy histograms");
  }
  // 3. Derived attributes after their parents.
  if (Status s = AppendDerived(dependencies, data.cardinalities, net); !s) return s.error();
  progress.Report(1.0, "Noisy histograms");
  return net;
}

BayesNet UniformNetwork(const std::vector<std::uint32_t>& cardinalities) {
  BayesNet net;
  for (std::size_t a = 0; a < cardinalities.size(); ++a) {
    BayesNode node;
    node.attribute = static_cast<int>(a);
    node.cardinality = cardinalities[a];
    node.probabilities.assign(cardinalities[a], 1.0 / static_cast<double>(cardinalities[a]));
    net.nodes.push_back(std::move(node));
  }
  return net;
}

std::vector<std::uint32_t> CoarseBinBuckets(std::uint32_t bins, std::uint32_t extra,
                                            std::uint32_t buckets) {
  buckets = std::clamp<std::uint32_t>(buckets, 1, std::max<std::uint32_t>(bins, 1));
  std::vector<std::uint32_t> map(bins + extra);
  for (std::uint32_t b = 0; b < bins; ++b) {
    map[b] = static_cast<std::uint32_t>(std::uint64_t{b} * buckets / bins);
  }
  const std::uint32_t first_extra = bins == 0 ? 0 : buckets;
  for (std::uint32_t e = 0; e < extra; ++e) map[bins + e] = first_extra + e;
  return map;
}

Result<std::vector<BayesNode>> LearnPrivBayesStructure(const EncodedTable& data, int degree,
                                                       double epsilon,
                                                       PrivacyAccountant& accountant,
                                                       const std::string& partition, Rng& rng,
                                                       Progress& progress) {
  StructureOptions options;
  options.degree = degree;
  options.epsilon = epsilon;
  return LearnPrivBayesStructure(data, options, accountant, partition, rng, progress);
}


namespace {

// The dependency search, then PrivBayes with every found child placed right after its parent
// (its deterministic node; StructureOptions::forced_parent).
Result<BayesNet> LearnWithDependencies(const EncodedTable& data, const PrivBayesOptions& options,
                                       double epsilon, double rows,
                                       PrivacyAccountant& accountant,
                                       const std::string& partition, Rng& rng,
                                       Progress& progress) {
  DependencyOptions search;
  search.epsilon = ShareOf(epsilon, options.dependency_fraction);
  search.range_bounded = options.dependency_range_bounded;
  search.names = options.names;
  SubProgress search_progress(progress, 0.0, 0.1);
  auto found = FindDependencies(data, search, accountant, partition, rng, search_progress);
  if (!found) return found.error();
  PrivBayesOptions rest = options;
  rest.dependency_fraction = 0;
  rest.epsilon = internal::SubtractDown(epsilon, found->spent);
  rest.public_rows = rows;
  rest.derived = std::move(found->found);
  SubProgress learn_progress(progress, 0.1, 1.0);
  return LearnPrivBayes(data, rest, accountant, partition, rng, learn_progress);
}

}  // namespace

Result<BayesNet> LearnPrivBayes(const EncodedTable& data, const PrivBayesOptions& options,
                                PrivacyAccountant& accountant, const std::string& partition,
                                Rng& rng, Progress& progress) {
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  if (Status s = CheckEpsilon(options.epsilon, "correlated-mode epsilon"); !s) return s.error();
  if (!(options.structure_fraction > 0 && options.structure_fraction < 1)) {
    return InvalidArgument("structure_fraction must be in (0, 1) (got " +
                           std::to_string(options.structure_fraction) + ")");
  }
  if (!(options.usefulness_theta >= 0 && std::isfinite(options.usefulness_theta))) {
    return InvalidArgument("usefulness_theta must be finite and >= 0 (got " +
                           std::to_string(options.usefulness_theta) + ")");
  }
  if (options.degree < 1 || options.degree > kMaxDegree) {
    return InvalidArgument("degree must be between 1 and " + std::to_string(kMaxDegree) +
                           " (got " + std::to_string(options.degree) + ")");
  }
  if (Status s = internal::CheckParentBuckets(data, options.parent_buckets); !s) {
    return s.error();
  }
  if (std::isnan(options.public_rows) || options.public_rows > kMaxRows) {
    return InvalidArgument("public_rows must be a row count, or negative for none (got " +
                           std::to_string(options.public_rows) + ")");
  }
  const std::size_t m = data.num_attributes();
  if (m <= 1) {
    // No structure to learn: everything goes to the tables.
    std::vector<BayesNode> structure;
    if (m == 1) structure.emplace_back();  // attribute 0, no parents
    SubProgress sub(progress, 0.0, 1.0);
    return LearnConditionals(data, std::move(structure), options.epsilon, accountant, partition,
                             rng, sub, options.names, &options.other_codes);
  }
  double epsilon = options.epsilon;
  double rows = options.public_rows;
  if (options.usefulness_theta > 0 && rows < 0) {
    const LedgerEntry entry = internal::CountEntry(
        "row count (sizes the conditional tables, θ-usefulness)",
        ShareOf(options.epsilon, kRowCountShare), partition, "PrivBayes (Zhang et al. 2017) §4.3");
    auto epsilon_rows = internal::SpendAllowingRounding(accountant, entry);
    if (!epsilon_rows) return epsilon_rows.error();
    auto mechanism = GeometricMechanism::Create(*epsilon_rows, 1);
    if (!mechanism) return mechanism.error();
    rows = static_cast<double>(
        std::max<std::int64_t>(mechanism->AddNoise(static_cast<std::int64_t>(data.rows), rng), 0));
    epsilon = internal::SubtractDown(epsilon, *epsilon_rows);
  }
  if (options.dependency_fraction > 0) {
    return LearnWithDependencies(data, options, epsilon, rows, accountant, partition, rng,
                                 progress);
  }
  // Found dependencies (options.derived): deterministic children, forced after their parents.
  std::vector<bool> derived(m, false);
  std::vector<int> forced_parent(m, -1);
  for (const Dependency& d : options.derived) {
    if (d.child < 0 || static_cast<std::size_t>(d.child) >= m || d.parent < 0 ||
        static_cast<std::size_t>(d.parent) >= m || d.parent == d.child ||
        d.mapping.size() != data.cardinalities[static_cast<std::size_t>(d.parent)] ||
        derived[static_cast<std::size_t>(d.child)]) {
      return InvalidArgument("a derived attribute's dependency does not fit the table (or "
                             "derives an attribute twice)");
    }
    derived[static_cast<std::size_t>(d.child)] = true;
    forced_parent[static_cast<std::size_t>(d.child)] = d.parent;
  }
  const std::size_t learnt = m - options.derived.size();  // the tables that get noise
  const double epsilon_structure = ShareOf(epsilon, options.structure_fraction);
  const double epsilon_tables = internal::SubtractDown(epsilon, epsilon_structure);

  StructureOptions structure_options;
  structure_options.degree = options.degree;
  structure_options.epsilon = epsilon_structure;
  structure_options.score = options.score;
  structure_options.parent_buckets = options.parent_buckets;
  structure_options.forced_parent = forced_parent;
  structure_options.names = options.names;
  if (options.usefulness_theta > 0) {
    const double cells = std::floor(rows * epsilon_tables /
                                    (static_cast<double>(learnt) * options.usefulness_theta));
    // At least every attribute's own marginal fits (a table limit below the largest
    // cardinality would only remove parents, never the marginal itself).
    structure_options.max_table_cells =
        static_cast<std::uint64_t>(std::clamp(cells, 1.0, 1e15));
  }
  if (options.usefulness_theta > 0 &&
      !AnyEdgeFits(data, options.parent_buckets, structure_options.max_table_cells)) {
    // No table with even one parent would be useful: the structure could only be a list of
    // marginals, so nothing is spent on it and the tables get the whole rest (privbayes.md §3).
    // Found dependencies keep their deterministic nodes, after their parents.
    BayesNet marginals;
    for (std::size_t a = 0; a < m; ++a) {
      if (derived[a]) continue;
      marginals.nodes.emplace_back();
      marginals.nodes.back().attribute = static_cast<int>(a);
    }
    if (Status s = AppendDerived(options.derived, data.cardinalities, marginals); !s) {
      return s.error();
    }
    return LearnConditionals(data, std::move(marginals.nodes), epsilon, accountant, partition,
                             rng, progress, options.names, &options.other_codes, &derived);
  }
  SubProgress structure_progress(progress, 0.0, 0.7);
  auto structure = LearnPrivBayesStructure(data, structure_options, accountant, partition, rng,
                                           structure_progress);
  if (!structure) return structure.error();
  for (BayesNode& node : structure.value()) {  // the found children's deterministic tables
    for (const Dependency& d : options.derived) {
      if (d.child != node.attribute) continue;
      node = DeterministicNode(d, data.cardinalities[static_cast<std::size_t>(d.parent)],
                               data.cardinalities[static_cast<std::size_t>(d.child)]);
    }
  }
  SubProgress table_progress(progress, 0.7, 1.0);
  return LearnConditionals(data, std::move(structure).value(), epsilon_tables, accountant,
                           partition, rng, table_progress, options.names, &options.other_codes,
                           &derived);
}

}  // namespace deniable
