// SPDX-License-Identifier: Apache-2.0
// Noisy conditional tables for a fixed network (PrivBayes, Zhang et al. 2017, Alg. 1 "NoisyConditionals").
//
// Privacy: table i holds the joint counts of (bucketed parents, child) over all rows; adding or
// removing one record changes exactly one cell of every table by 1, so table i with discrete
// Laplace noise of scale 1/ε_i is ε_i-DP and the m tables together Σε_i = ε-DP (sequential
// composition). The split ε_i ∝ sqrt(cells_i) depends only on the (already private)
// structure and public cardinalities. Everything after the noise is post-processing
// (privbayes.md §4).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/dp/geometric_mechanism.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

// Largest table we build (cells); beyond it the network cannot be learned usefully anyway.
constexpr double kMaxTableCells = 1 << 27;

// Completes identity bucket maps left out by the caller and checks the structure's shape.
Status PrepareStructure(const EncodedTable& data, std::vector<BayesNode>& nodes) {
  for (BayesNode& node : nodes) {
    if (node.attribute < 0 || static_cast<std::size_t>(node.attribute) >= data.num_attributes()) {
      return InvalidArgument("structure node for attribute " + std::to_string(node.attribute) +
                             ": not an attribute of the table");
    }
    node.cardinality = data.cardinalities[static_cast<std::size_t>(node.attribute)];
    if (node.parent_buckets.empty() && node.parent_bucket_counts.empty()) {
      node.parent_buckets.resize(node.parents.size());
      for (int p : node.parents) {
        if (p < 0 || static_cast<std::size_t>(p) >= data.num_attributes()) {
          return InvalidArgument("structure node for attribute " +
                                 std::to_string(node.attribute) + ": parent " +
                                 std::to_string(p) + " is not an attribute of the table");
        }
        node.parent_bucket_counts.push_back(data.cardinalities[static_cast<std::size_t>(p)]);
      }
    }
    double cells = node.cardinality;
    for (std::uint32_t b : node.parent_bucket_counts) cells *= b;
    if (cells > kMaxTableCells) {
      return InvalidArgument("the conditional table of attribute " +
                             std::to_string(node.attribute) + " would have " +
                             std::to_string(cells) + " cells (more than 2^27): use fewer or " +
                             "coarser parents");
    }
    node.probabilities.assign(static_cast<std::size_t>(cells),
                              1.0 / static_cast<double>(node.cardinality));
  }
  BayesNet check;
  check.nodes = nodes;
  if (std::string error = check.Validate(data.cardinalities); !error.empty()) {
    return InvalidArgument("invalid network structure: " + error);
  }
  return OkStatus();
}

// Joint counts of (parent configuration, child value) at [configuration * cardinality + value].
std::vector<std::int64_t> FamilyCounts(const EncodedTable& data, const BayesNode& node) {
  std::vector<std::int64_t> counts(node.probabilities.size(), 0);
  const Code* x = data.columns[static_cast<std::size_t>(node.attribute)].data();
  std::vector<const Code*> parents;
  for (int p : node.parents) parents.push_back(data.columns[static_cast<std::size_t>(p)].data());
  for (std::size_t r = 0; r < data.rows; ++r) {
    std::size_t c = 0;
    for (std::size_t p = 0; p < parents.size(); ++p) {
      c = c * node.parent_bucket_counts[p] + node.BucketOf(p, parents[p][r]);
    }
    ++counts[c * node.cardinality + x[r]];
  }
  return counts;
}

// Noisy counts below this many noise scales are set to 0 before normalising (privbayes.md §4):
// an empty cell's noise passes 2·scale with probability about e^-2/2 = 7%, so this removes
// most of the "phantom" mass that clamping alone leaves in sparse tables. Chosen on Adult at
// ε = 1 (mean 2-way TVD 0.052 without it, 0.044 with it; 1 and 3 scales were worse).
constexpr double kZeroBelowScales = 2.0;
// The "Other" code usually holds nothing (a binary column whose two values were both kept), so
// in a conditional table its noisy count must clear a higher bar: an empty cell passes 5 scales
// with probability ½e^-5 ≈ 0.3% (2 scales: 7%, which in Adult's sparse configurations wrote
// "Other" for sex or income in whole configurations).
constexpr double kOtherScales = 5.0;
// Step 1b of privbayes.md §4: a child value whose zeroed cells jointly hold at least this many
// standard deviations of their summed noise (s·√(2·cells)) gets that sum back, spread over
// those cells by their configurations' noisy sizes.
constexpr double kRestoreScales = 3.0;

// Post-processing of one noisy table into conditionals (privbayes.md §4): counts below
// kZeroBelowScales·scale become 0 (scale 0: only negative counts); each configuration is
// normalised; a configuration left with no count gets the child's noisy marginal (the column
// sums of the same noisy table before thresholding, clamped at 0; the "Other" code's sum, when
// `other_code` >= 0, zeroed below kZeroBelowScales·scale·√configurations, the noise of a sum of
// that many cells), or the uniform distribution if that is all 0 too.
std::vector<double> Conditionals(const std::vector<std::int64_t>& noisy, std::uint32_t k,
                                 double scale, std::int64_t other_code) {
  const std::size_t configurations = noisy.size() / k;
  std::vector<double> marginal(k, 0.0);
  for (std::size_t c = 0; c < configurations; ++c) {
    for (std::uint32_t v = 0; v < k; ++v) marginal[v] += static_cast<double>(noisy[c * k + v]);
  }
  if (other_code >= 0 && static_cast<std::uint32_t>(other_code) < k &&
      marginal[static_cast<std::size_t>(other_code)] <
          kZeroBelowScales * scale * std::sqrt(static_cast<double>(configurations))) {
    marginal[static_cast<std::size_t>(other_code)] = 0;
  }
  double marginal_total = 0;
  for (double& v : marginal) marginal_total += (v = std::max(v, 0.0));
  for (double& v : marginal) {
    v = marginal_total > 0 ? v / marginal_total : 1.0 / static_cast<double>(k);
  }
  const double threshold = kZeroBelowScales * scale;
  std::vector<double> p(noisy.size());
  for (std::size_t c = 0; c < configurations; ++c) {
    for (std::uint32_t v = 0; v < k; ++v) {
      const auto count = static_cast<double>(noisy[c * k + v]);
      const double bar = static_cast<std::int64_t>(v) == other_code ? kOtherScales * scale
                                                                     : threshold;
      p[c * k + v] = count >= bar ? count : 0.0;
    }
  }
  // 1b. A value spread thinly over many configurations (a 5% category under parents whose
  //     cells each hold a fraction of a noise scale) loses every cell to step 1, and with it
  //     the whole value. The noisy sum R_v of its Z_v zeroed cells tells whether they hold
  //     records: were they empty, each would carry a Laplace noise conditioned below the
  //     threshold τ = 2s, of mean μ0 = −q(τ + s)/(1 − q) and variance v0 (q = ½e^{−τ/s}, the
  //     chance an empty cell passes; moments of the continuous Laplace, which the discrete one
  //     matches to O(1/s²)). When R_v clears Z_v·μ0 + kRestoreScales·√(Z_v·v0), the cells
  //     clearly hold records, and R_v − Z_v·μ0 is spread over them in proportion to their
  //     configurations' noisy sizes (the value taken as independent of its parents where the
  //     table cannot resolve it). A value that is a function of its parents (age_cat given
  //     age) has empty zeroed cells: it passes with probability about 0.1%.
  if (scale > 0 && configurations > 1) {
    const double tau = threshold;
    const double q = 0.5 * std::exp(-tau / scale);
    const double null_mean = -q * (tau + scale) / (1 - q);
    const double null_variance =
        (2 * scale * scale - q * (tau * tau + 2 * tau * scale + 2 * scale * scale)) / (1 - q) -
        null_mean * null_mean;
    // Configurations with no count left take the child's marginal (step 3), which holds v
    // already: they are left out. size: a configuration's noisy size (clamped), else -1.
    std::vector<double> size(configurations, -1.0);
    for (std::size_t c = 0; c < configurations; ++c) {
      double kept = 0, noisy_size = 0;
      for (std::uint32_t v = 0; v < k; ++v) {
        kept += p[c * k + v];
        noisy_size += static_cast<double>(noisy[c * k + v]);
      }
      if (kept > 0) size[c] = std::max(noisy_size, 0.0);
    }
    for (std::uint32_t v = 0; v < k; ++v) {
      if (static_cast<std::int64_t>(v) == other_code) continue;
      double rest = 0, weight = 0;
      std::size_t zeroed = 0;
      for (std::size_t c = 0; c < configurations; ++c) {
        if (p[c * k + v] > 0 || size[c] < 0) continue;
        rest += static_cast<double>(noisy[c * k + v]);
        weight += size[c];
        ++zeroed;
      }
      const auto z = static_cast<double>(zeroed);
      if (zeroed == 0 || rest < z * null_mean + kRestoreScales * std::sqrt(z * null_variance)) {
        continue;
      }
      const double restored = rest - z * null_mean;
      for (std::size_t c = 0; c < configurations; ++c) {
        if (p[c * k + v] > 0 || size[c] < 0) continue;
        p[c * k + v] = weight > 0 ? restored * size[c] / weight : restored / z;
      }
    }
  }
  for (std::size_t c = 0; c < configurations; ++c) {
    double total = 0;
    for (std::uint32_t v = 0; v < k; ++v) total += p[c * k + v];
    for (std::uint32_t v = 0; v < k; ++v) {
      p[c * k + v] = total > 0 ? p[c * k + v] / total : marginal[v];
    }
  }
  return p;
}

std::string FamilyLabel(const BayesNode& node, const std::vector<std::string>* names) {
  std::string label = "noisy counts of " + internal::AttributeLabel(node.attribute, names);
  if (!node.parents.empty()) {
    label += " | (";
    for (std::size_t p = 0; p < node.parents.size(); ++p) {
      if (p > 0) label += ", ";
      label += internal::AttributeLabel(node.parents[p], names);
      if (!node.parent_buckets[p].empty()) {
        label += " in " + std::to_string(node.parent_bucket_counts[p]) + " buckets";
      }
    }
    label += ")";
  }
  return label;
}

}  // namespace

Result<BayesNet> LearnConditionals(const EncodedTable& data, std::vector<BayesNode> structure,
                                   double epsilon, PrivacyAccountant& accountant,
                                   const std::string& partition, Rng& rng, Progress& progress,
                                   const std::vector<std::string>* names,
                                   const std::vector<std::int64_t>* other_codes,
                                   const std::vector<bool>* fixed) {
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  if (!(std::isfinite(epsilon) && epsilon > 0)) {
    return InvalidArgument("conditional-table epsilon must be finite and positive (got " +
                           std::to_string(epsilon) + ")");
  }
  // Nodes whose tables are given (`fixed`) keep them: set aside before PrepareStructure
  // resets every table, restored after.
  const auto is_fixed = [&](const BayesNode& node) {
    const auto a = static_cast<std::size_t>(node.attribute);
    return fixed != nullptr && node.attribute >= 0 && a < fixed->size() && (*fixed)[a];
  };
  std::vector<std::vector<double>> given(structure.size());
  for (std::size_t i = 0; i < structure.size(); ++i) {
    if (is_fixed(structure[i])) given[i] = structure[i].probabilities;
  }
  if (Status s = PrepareStructure(data, structure); !s) return s.error();
  for (std::size_t i = 0; i < structure.size(); ++i) {
    if (!is_fixed(structure[i])) continue;
    if (given[i].size() != structure[i].probabilities.size()) {
      return InvalidArgument("the given table of attribute " +
                             std::to_string(structure[i].attribute) + " has the wrong size");
    }
    structure[i].probabilities = std::move(given[i]);
  }
  BayesNet net;
  if (structure.empty()) return net;

  // ε_i ∝ sqrt(cells_i): minimises Σ_i cells_i / ε_i, the total expected absolute noise.
  std::vector<double> weights;
  double total_weight = 0;
  std::size_t last = 0;  // the last learnt node takes what is left
  for (std::size_t i = 0; i < structure.size(); ++i) {
    const bool learnt = !is_fixed(structure[i]);
    const auto cells = static_cast<double>(structure[i].probabilities.size());
    weights.push_back(learnt ? std::sqrt(cells) : 0.0);
    total_weight += weights.back();
    if (learnt) last = i;
  }
  double spent = 0;
  for (std::size_t i = 0; i < structure.size(); ++i) {
    if (progress.IsCancelled()) return Cancelled("learning cancelled");
    BayesNode& node = structure[i];
    if (weights[i] == 0) continue;  // a given (deterministic) table: nothing to learn or spend
    const double planned = i == last
                               ? internal::SubtractDown(epsilon, spent)
                               : ShareOf(epsilon, weights[i] / total_weight);
    const LedgerEntry entry =
        internal::CountEntry(FamilyLabel(node, names), planned, partition,
                             "PrivBayes (Zhang et al. 2017) Alg. 1; privbayes.md §4");
    auto epsilon_i = internal::SpendAllowingRounding(accountant, entry);
    if (!epsilon_i) return epsilon_i.error();
    spent = std::nextafter(spent + *epsilon_i, HUGE_VAL);  // rounded up: the rest rounds down
    auto mechanism = GeometricMechanism::Create(*epsilon_i, 1);
    if (!mechanism) return mechanism.error();

    std::vector<std::int64_t> counts = FamilyCounts(data, node);
    for (std::int64_t& c : counts) c = mechanism->AddNoise(c, rng);
    const auto attribute = static_cast<std::size_t>(node.attribute);
    const std::int64_t other_code =
        other_codes != nullptr && attribute < other_codes->size() ? (*other_codes)[attribute] : -1;
    // Parents whose buckets leave a single configuration (a parent column with one code)
    // make the table a marginal too. Its "Other" keeps the conditional tables' bar of
    // kOtherScales (a root's is kZeroBelowScales, as measured in privbayes.md §4).
    const bool marginal = node.probabilities.size() == node.cardinality;
    if (marginal && other_code >= 0 &&
        static_cast<std::uint64_t>(other_code) < counts.size()) {
      std::int64_t& other = counts[static_cast<std::size_t>(other_code)];
      const double bar = node.parents.empty() ? kZeroBelowScales : kOtherScales;
      if (static_cast<double>(other) < bar * mechanism->scale()) other = 0;
    }
    // A node without parents (or with a single parent configuration) is a marginal over the
    // column's domain, whose values were all selected as frequent (or declared): there is no
    // sparse tail of empty cells to clean up, and zeroing counts below 2 scales would delete
    // real, rarer values (but not "Other", above, which often holds nothing): the 30-column
    // table's vehicleSearch = YES (5.7% of the rows) under a one-code parent was deleted in 5
    // of 6 runs.
    node.probabilities =
        Conditionals(counts, node.cardinality, marginal ? 0.0 : mechanism->scale(), other_code);
    progress.Report(static_cast<double>(i + 1) / static_cast<double>(structure.size()),
                    "Noisy conditional distributions");
  }
  net.nodes = std::move(structure);
  return net;
}

}  // namespace deniable
