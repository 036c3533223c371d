// SPDX-License-Identifier: Apache-2.0
// The engine/dp and engine/histogram mechanisms as audit cases, and their broken variants.
// Every D′ is D plus one record; every claim is the product's own (see audit_cases.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "engine/audit/audit_cases.h"
#include "engine/core/progress.h"
#include "engine/dp/discrete_gaussian_mechanism.h"
#include "engine/dp/dp_bounds.h"
#include "engine/dp/exponential_mechanism.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/dp/laplace_mechanism.h"
#include "engine/dp/partition_selection.h"
#include "engine/dp/set_union.h"
#include "engine/histogram/adaptive_histogram.h"
#include "engine/histogram/numeric_decomposition.h"
#include "engine/model/dependencies.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// An accountant that never refuses: the audit runs a mechanism thousands of times; the claim
// is checked against the mechanism's own statement, not against a budget.
PrivacyAccountant UnlimitedAccountant() {
  return PrivacyAccountant::Create(PrivacyCost{1e12, 0.999}).value();
}

// ---- Additive noise: one query whose answer moves by the sensitivity 1 between D and D′.

void AddNoiseCases(std::vector<AuditCase>& cases) {
  // Laplace, ε = 1, Δ = 1: query 0 on D, 1 on D′. Broken: the scale Δ/(2ε) (the mechanism
  // built for 2ε) released under the claim ε; its true ε is 2 (attained by {x >= t}, t >= 1).
  for (bool broken : {false, true}) {
    auto laplace = LaplaceMechanism::Create(broken ? 2.0 : 1.0, 1.0).value();
    cases.push_back(AuditCase{
        broken ? "laplace_half_scale" : "laplace",
        std::string("Laplace, query 0 on D and 1 on D', Delta = 1") +
            (broken ? ", scale halved (mechanism at 2 eps, claim eps)" : ""),
        1.0, 0.0, broken, 100000, {"noisy value"},
        [laplace](bool neighbour, Rng& rng) {
          return std::vector<double>{laplace.AddNoise(neighbour ? 1.0 : 0.0, rng)};
        }});
  }
  // Geometric, ε = 1: count 10 on D, 11 on D′. Broken as above.
  for (bool broken : {false, true}) {
    auto geometric = GeometricMechanism::Create(broken ? 2.0 : 1.0, 1).value();
    cases.push_back(AuditCase{
        broken ? "geometric_half_scale" : "geometric",
        std::string("geometric, count 10 on D and 11 on D'") +
            (broken ? ", scale halved (mechanism at 2 eps, claim eps)" : ""),
        1.0, 0.0, broken, 100000, {"noisy count"},
        [geometric](bool neighbour, Rng& rng) {
          return std::vector<double>{
              static_cast<double>(geometric.AddNoise(neighbour ? 11 : 10, rng))};
        }});
  }
  // Discrete Gaussian, ρ = 0.125 (σ = 2), Δ2 = 1, claim (EpsilonFor(1e-3), 1e-3) — the
  // product's (ε, δ) statement (CKS Corollary 13). Broken: ρ = 0.5 (σ halved), same claim.
  const double delta = 1e-3;
  const double claim = DiscreteGaussianMechanism::Create(0.125, 1.0).value().EpsilonFor(delta)
                           .value();
  for (bool broken : {false, true}) {
    auto gaussian = DiscreteGaussianMechanism::Create(broken ? 0.5 : 0.125, 1.0).value();
    cases.push_back(AuditCase{
        broken ? "discrete_gaussian_half_sigma" : "discrete_gaussian",
        std::string("discrete Gaussian rho = 0.125, count 10 on D and 11 on D'") +
            (broken ? ", sigma halved (rho = 0.5, claim of rho = 0.125)" : ""),
        claim, delta, broken, 200000, {"noisy count"},
        [gaussian](bool neighbour, Rng& rng) {
          return std::vector<double>{
              static_cast<double>(gaussian.AddNoise(neighbour ? 11 : 10, rng))};
        }});
  }
}

// ---- Selection.

void AddSelectionCases(std::vector<AuditCase>& cases) {
  // Exponential mechanism, ε = 1, Δu = 1: utilities = counts of 4 candidates, {5,5,5,5} on D,
  // {6,5,5,5} on D′ (the added record is a vote for candidate 0).
  for (bool monotonic : {false, true}) {
    auto em = ExponentialMechanism::Create(1.0, 1.0, monotonic).value();
    cases.push_back(AuditCase{
        monotonic ? "exponential_monotonic" : "exponential",
        "exponential mechanism over 4 candidates, utilities {5,5,5,5} on D, {6,5,5,5} on D'",
        1.0, 0.0, false, 50000, {"chosen index"},
        [em](bool neighbour, Rng& rng) {
          const std::vector<double> u = {neighbour ? 6.0 : 5.0, 5.0, 5.0, 5.0};
          return std::vector<double>{static_cast<double>(em.Select(u, rng))};
        }});
  }
  // Partition selection, ε = 1, δ = 1e-3 (τ = 8). (a) counts {9, 20} on D, {10, 20} on D′;
  // (b) {20} on D, {20, 1} on D′ (the added record holds a value nobody else has).
  for (bool new_value : {false, true}) {
    cases.push_back(AuditCase{
        new_value ? "partition_selection_new_value" : "partition_selection",
        new_value ? "partition selection, counts {20} on D and {20, 1} on D'"
                  : "partition selection, counts {9, 20} on D and {10, 20} on D'",
        1.0, 1e-3, false, 50000, {"values kept", "first value's noisy count (-1e9: dropped)",
                                  "last value kept"},
        [new_value](bool neighbour, Rng& rng) {
          std::vector<std::uint64_t> counts = new_value ? std::vector<std::uint64_t>{20}
                                                        : std::vector<std::uint64_t>{9, 20};
          if (neighbour) {
            if (new_value) counts.push_back(1); else counts[0] = 10;
          }
          PrivacyAccountant accountant = UnlimitedAccountant();
          auto selected = SelectPartitions(counts, 1.0, 1e-3, accountant, "audit", "all", rng);
          if (!selected) return std::vector<double>{kNaN};
          const bool first = !selected->kept.empty() && selected->kept.front() == 0;
          const bool last = !selected->kept.empty() && selected->kept.back() == counts.size() - 1;
          return std::vector<double>{
              static_cast<double>(selected->kept.size()),
              first ? static_cast<double>(selected->noisy_counts.front()) : -1e9,
              (new_value && !neighbour) ? 0.0 : static_cast<double>(last)};
        }});
  }
}

// ---- The PrivBayes structure with the score R (privbayes.md §2b): 4 records of three equal
// attributes (r mod 2); D′ adds the record (2, 2, 0). The families (1 | 0) and (2 | 0) both
// score n·R = 2 on D; on D′ (1 | 0), whose child value and parent configuration are both new,
// scores 2 + 1.5·4/5 = 3.2 and (2 | 0) 2.4.

// `records` rows whose every attribute is r mod 2, plus `added` (D′) when it is not empty.
EncodedTable TiedAuditTable(std::vector<std::uint32_t> cardinalities, Code records,
                            const std::vector<Code>& added) {
  EncodedTable table;
  table.columns.assign(cardinalities.size(), {});
  table.cardinalities = std::move(cardinalities);
  for (Code r = 0; r < records; ++r) {
    for (auto& column : table.columns) column.push_back(r % 2);
  }
  for (std::size_t c = 0; c < added.size(); ++c) table.columns[c].push_back(added[c]);
  table.rows = table.columns[0].size();
  return table;
}

EncodedTable StructureAuditTable(bool neighbour) {
  return TiedAuditTable({3, 3, 2}, 4, neighbour ? std::vector<Code>{2, 2, 0} : std::vector<Code>{});
}

void AddStructureCases(std::vector<AuditCase>& cases) {
  // The product's learner, degree 1, ε = 4 over its two choices (sharp enough that the
  // structures' frequencies differ between D and D′; at ε = 1 they are nearly uniform); the
  // feature is the whole structure (each node's attribute and parent) as one code. The scores
  // move by at most 1.2 here, so the true loss is at most 0.6·ε: the case checks the product
  // end to end, the broken one below that the audit would see a sensitivity claimed too low.
  cases.push_back(AuditCase{
      "privbayes_structure_r",
      "PrivBayes structure (score R, degree 1, eps 4 over 2 choices), 4 records on D, D' adds "
      "one with a new value in all three (tied) attributes",
      4.0, 0.0, false, 50000, {"structure code"},
      [](bool neighbour, Rng& rng) {
        StructureOptions options;
        options.degree = 1;
        options.epsilon = 4.0;
        options.score = StructureScore::kTotalVariation;
        options.threads = 1;
        PrivacyAccountant accountant = UnlimitedAccountant();
        NullProgress progress;
        auto nodes = LearnPrivBayesStructure(StructureAuditTable(neighbour), options,
                                             accountant, "all", rng, progress);
        if (!nodes) return std::vector<double>{kNaN};
        double code = 0;
        for (const BayesNode& node : *nodes) {
          code = code * 12 + node.attribute * 4 + (node.parents.empty() ? 0 : node.parents[0] + 1);
        }
        return std::vector<double>{code};
      }});
  // Broken: one choice of 0's child, (1 | 0) or (2 | 0), by the exponential mechanism on the
  // same scores but calibrated to a sensitivity of 0.125 instead of 2: Pr[(2 | 0)] is ½ on D
  // and 1/(1 + e^3.2) = 0.039 on D′, a loss of ln 12.8 = 2.55 against the claim 1.
  cases.push_back(AuditCase{
      "privbayes_structure_r_low_sensitivity",
      "one choice between (1 | 0) and (2 | 0) on their n·R, exponential mechanism calibrated "
      "to sensitivity 0.125 (claim eps 1)",
      1.0, 0.0, true, 50000, {"chosen child"},
      [](bool neighbour, Rng& rng) {
        const EncodedTable table = StructureAuditTable(neighbour);
        const std::vector<double> scores = {internal::TotalVariationScore(table, 1, {0}),
                                            internal::TotalVariationScore(table, 2, {0})};
        auto em = ExponentialMechanism::Create(1.0, 0.125).value();
        return std::vector<double>{static_cast<double>(em.Select(scores, rng))};
      }});
}

// ---- The dependency search (model/dependencies.h), whose selection is range-bounded
// (dp/exponential_mechanism.md §1b). D: 40 records, B = A = r mod 2, so T(A → B) = T(B → A) =
// 40 − 0.9·40 − 0.1·20 − 2 = 0 (λ0 = 0.9); D′ adds (0, 1), which raises M and not S: both
// scores fall to −1 ("none" stays 0).

EncodedTable DependencyAuditTable(bool neighbour) {
  return TiedAuditTable({2, 2}, 40, neighbour ? std::vector<Code>{0, 1} : std::vector<Code>{});
}

void AddDependencyCases(std::vector<AuditCase>& cases) {
  // The product's search, one round, ε = 1 (0.6 selection, 0.4 mapping): the feature is the
  // found pair and its mapping as one code (0: none). Pr[a pair] is 1/2 on D and
  // 1/(1 + e^{0.6/1.1}) = 0.367 on D′: a loss of 0.31 from the selection.
  cases.push_back(AuditCase{
      "dependency_search",
      "dependency search (range-bounded selection, 1 round, eps 1), B = A on 40 records; D' "
      "adds (0, 1)",
      1.0, 0.0, false, 50000, {"pair and mapping code"},
      [](bool neighbour, Rng& rng) {
        DependencyOptions options;
        options.epsilon = 1.0;
        options.max_rounds = 1;
        options.min_lambda = 0.9;
        PrivacyAccountant accountant = UnlimitedAccountant();
        NullProgress progress;
        auto found = FindDependencies(DependencyAuditTable(neighbour), options, accountant, "all",
                                      rng, progress);
        if (!found) return std::vector<double>{kNaN};
        double code = 0;
        for (const Dependency& d : found->found) {
          code = 1 + d.parent * 4 + d.mapping[0] * 2 + d.mapping[1];
        }
        return std::vector<double>{code};
      }});
  // Broken: the same scores and "none" under a range claimed 0.25 (the true one is 1.1): c = 4,
  // Pr[A → B] is 1/2 on D and 1/(1 + e^4) = 0.018 on D′, a loss of 3.3 against the claim 1.
  cases.push_back(AuditCase{
      "dependency_search_narrow_range",
      "one choice between A -> B and none on the dependency score, exponential mechanism "
      "calibrated to a range of 0.25 instead of 2 - lambda0 = 1.1 (claim eps 1)",
      1.0, 0.0, true, 50000, {"chosen (0: A -> B, 1: none)"},
      [](bool neighbour, Rng& rng) {
        const std::vector<double> utilities = {
            DependencyScore(DependencyAuditTable(neighbour), 0, 1, 0.9), 0.0};
        auto em = ExponentialMechanism::CreateRangeBounded(1.0, 0.25).value();
        return std::vector<double>{static_cast<double>(em.Select(utilities, rng))};
      }});
}

// ---- Set union: 20 records × 3 groups (values r mod 2, r mod 3, r mod 4); D′ adds a record
// holding a new value in every group.

SetUnionInput SetUnionTable(bool neighbour) {
  SetUnionInput input;
  input.records = neighbour ? 21 : 20;
  input.value_counts = {3, 4, 5};
  input.values.assign(3, {});
  for (std::uint32_t r = 0; r < 20; ++r) {
    for (std::uint32_t g = 0; g < 3; ++g) input.values[g].push_back(r % (g + 2));
  }
  if (neighbour) {
    for (std::uint32_t g = 0; g < 3; ++g) input.values[g].push_back(g + 2);
  }
  return input;
}

std::vector<double> SetUnionFeatures(const std::vector<std::vector<std::uint32_t>>& kept) {
  std::vector<double> out;
  double total = 0;
  for (std::uint32_t g = 0; g < 3; ++g) {
    const bool has_new = std::find(kept[g].begin(), kept[g].end(), g + 2) != kept[g].end();
    out.push_back(has_new ? 1.0 : 0.0);
    total += static_cast<double>(kept[g].size());
  }
  out.push_back(total);
  return out;
}

void AddSetUnionCases(std::vector<AuditCase>& cases) {
  const std::vector<std::string> names = {"new value kept (group 0)", "new value kept (group 1)",
                                          "new value kept (group 2)", "items kept"};
  for (SetUnionMechanism policy :
       {SetUnionMechanism::kPolicyGaussian, SetUnionMechanism::kPolicyLaplace}) {
    SetUnionOptions options;
    options.epsilon = 1.0;
    options.delta = 1e-5;
    options.mechanism = policy;
    const bool gaussian = policy == SetUnionMechanism::kPolicyGaussian;
    cases.push_back(AuditCase{
        gaussian ? "set_union_gaussian" : "set_union_laplace",
        "DP set union, 20 records x 3 groups; D' adds a record with a new value in each group",
        1.0, 1e-5, false, 20000, names,
        [options](bool neighbour, Rng& rng) {
          PrivacyAccountant accountant = UnlimitedAccountant();
          NullProgress progress;
          auto result = DpSetUnion(SetUnionTable(neighbour), options, accountant, "audit", "all",
                                   rng, progress);
          if (!result) return std::vector<double>{kNaN};
          return SetUnionFeatures(result->kept);
        }});
  }
  // Broken: Policy Gaussian's weights and noise, but an item is kept iff H + N(0, σ²) > 0
  // instead of > τ: a value held by one record is then kept about half the time.
  auto calibration = CalibratePolicyGaussian(1.0, 1e-5, 3, 6.0, std::vector<double>{1.0});
  const PolicyGaussianRound round = calibration.value().rounds.front();
  cases.push_back(AuditCase{
      "set_union_no_threshold",
      "Policy Gaussian set union with the threshold removed (kept iff noisy weight > 0)", 1.0,
      1e-5, true, 2000, names,
      [round](bool neighbour, Rng& rng) {
        const SetUnionInput input = SetUnionTable(neighbour);
        std::vector<std::uint32_t> order(input.records);
        std::iota(order.begin(), order.end(), 0u);
        Shuffle(std::span<std::uint32_t>(order), rng);
        const auto weights = PolicyGaussianWeights(input, order, round.cap);
        std::vector<std::vector<std::uint32_t>> kept(3);
        for (std::uint32_t g = 0; g < 3; ++g) {
          for (std::uint32_t v = 0; v < weights[g].size(); ++v) {
            if (weights[g][v] > 0 && SampleGaussianThresholdKeep(weights[g][v], 0.0, round.sigma,
                                                                 rng)) {
              kept[g].push_back(v);
            }
          }
        }
        return SetUnionFeatures(kept);
      }});
}

// ---- Numeric domains: 20 integers 0, 5, ..., 95; D′ adds the extreme value 1000.

std::vector<double> NumericColumn(bool neighbour) {
  std::vector<double> values;
  for (int i = 0; i < 20; ++i) values.push_back(5.0 * i);
  if (neighbour) values.push_back(1000.0);
  return values;
}

void AddBoundsCases(std::vector<AuditCase>& cases) {
  BoundsOptions options;
  options.epsilon = 1.0;
  options.integer = true;
  // Broken: the DP estimate widened to the true maximum — the max of the data released as a
  // domain bound without noise (what DataSynthesizer does).
  for (bool broken : {false, true}) {
    cases.push_back(AuditCase{
        broken ? "dp_bounds_leaked_max" : "dp_bounds",
        std::string("DP bounds (thresholded histogram), 20 integers 0..95; D' adds 1000") +
            (broken ? "; hi = max(DP hi, true max)" : ""),
        1.0, 0.0, broken, broken ? std::size_t{2000} : std::size_t{20000}, {"lo", "hi"},
        [options, broken](bool neighbour, Rng& rng) {
          const std::vector<double> values = NumericColumn(neighbour);
          PrivacyAccountant accountant = UnlimitedAccountant();
          auto range = EstimateBounds(values, options, accountant, "audit", "all", rng);
          if (!range) return std::vector<double>{kNaN};
          double hi = range->hi;
          if (broken) hi = std::max(hi, *std::max_element(values.begin(), values.end()));
          return std::vector<double>{range->lo, hi};
        }});
  }
}

// Adaptive histograms over the public root [0, 1023] (integers): the learned partition
// (improved: 2ε; basic: ε per level) and then noisy leaf counts (ε); the features are the
// number of leaves, the depth of the leaf holding 1000 and its noisy count.
void AddAdaptiveCases(std::vector<AuditCase>& cases) {
  NumericDomainSpec spec;
  spec.lo = 0;
  spec.hi = 1023;
  auto decomposition = std::make_shared<NumericDecomposition>(
      NumericDecomposition::Create(spec).value());
  for (bool improved : {true, false}) {
    AdaptiveOptions options;
    options.epsilon = improved ? 0.25 : 0.1;
    options.max_depth = 5;
    const double count_epsilon = 0.5;
    const double claim = (improved ? 2 * options.epsilon : 5 * options.epsilon) + count_epsilon;
    cases.push_back(AuditCase{
        improved ? "adaptive_histogram_improved" : "adaptive_histogram_basic",
        std::string(improved ? "improved (Thm. 3, eps = 0.25)"
                             : "basic (Cor. 2, eps = 0.1, 5 levels)") +
            " partition + noisy leaf counts (eps = 0.5) of 20 integers 0..95 in [0, 1023]; "
            "D' adds 1000",
        claim, 0.0, false, 20000,
        {"leaves", "depth of the leaf holding 1000", "noisy count of that leaf"},
        [decomposition, options, improved, count_epsilon](bool neighbour, Rng& rng) {
          const auto values = decomposition->ToValues(NumericColumn(neighbour)).value();
          PrivacyAccountant accountant = UnlimitedAccountant();
          NullProgress progress;
          auto partition =
              improved ? LearnImprovedPartition(*decomposition, std::span(values), options,
                                                accountant, "audit", "all", rng, progress)
                       : LearnBasicPartition(*decomposition, std::span(values), options,
                                             accountant, "audit", "all", rng, progress);
          if (!partition) return std::vector<double>{kNaN};
          auto counts = NoisyLeafCounts(*decomposition, std::span(partition->leaves),
                                        std::span(values), count_epsilon, accountant, "audit",
                                        "all", rng, progress);
          if (!counts) return std::vector<double>{kNaN};
          const auto extreme = decomposition->ToValue(1000.0);
          for (std::size_t i = 0; i < partition->leaves.size(); ++i) {
            if (decomposition->Contains(partition->leaves[i], extreme)) {
              return std::vector<double>{static_cast<double>(partition->leaves.size()),
                                         static_cast<double>(partition->depths[i]),
                                         static_cast<double>((*counts)[i])};
            }
          }
          return std::vector<double>{kNaN};
        }});
  }
}

}  // namespace

Result<std::vector<AuditCase>> MechanismAuditCases() {
  std::vector<AuditCase> cases;
  AddNoiseCases(cases);
  AddSelectionCases(cases);
  AddStructureCases(cases);
  AddDependencyCases(cases);
  AddSetUnionCases(cases);
  AddBoundsCases(cases);
  AddAdaptiveCases(cases);
  return cases;
}

}  // namespace deniable
