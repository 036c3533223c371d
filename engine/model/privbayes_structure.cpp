// SPDX-License-Identifier: Apache-2.0
// PrivBayes greedy structure learning (Zhang et al. 2017, Algorithm 4 "GreedyBayes" with the
// θ-usefulness candidate sets of §4.3; DataSynthesizer's greedy_bayes without the limit).
//
// Privacy: the first attribute is drawn uniformly (no data); each of the m-1 later choices is
// one exponential mechanism (ε/(m-1), non-monotone) over data-independent candidates scored by
// u = n·I(X; B(Π)) in bits (sensitivity MutualInformationScoreSensitivity(), privbayes.md §2)
// or by u = n·R(X, B(Π)) in records (sensitivity TotalVariationScoreSensitivity(), §2b), both
// under add/remove and free of the data's n. Sequential composition: ε in total.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/core/compensated_sum.h"
#include "engine/core/int128.h"
#include "engine/core/parallel.h"
#include "engine/dp/exponential_mechanism.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

// Tables up to this many cells are counted densely; larger ones by sorting row keys.
constexpr std::uint64_t kDenseCells = std::uint64_t{1} << 24;

double XLog2X(double c) { return c > 0 ? c * std::log2(c) : 0.0; }

// The data's distinct rows with their multiplicities (first-occurrence order). Every count the
// structure learner needs is a sum over rows, so it can run over distinct rows with weights:
// the 1.5M-row scale file has only ~78,000 distinct encoded rows (19x fewer passes' work).
struct WeightedRows {
  std::size_t rows = 0;
  std::vector<std::vector<Code>> columns;
  std::vector<std::uint32_t> weights;
};

WeightedRows DistinctRows(const EncodedTable& data) {
  const std::size_t n = data.rows, m = data.num_attributes();
  std::vector<Code> packed(n * m);  // row-major, for hashing and comparing whole rows
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t r = 0; r < n; ++r) packed[r * m + a] = data.columns[a][r];
  }
  std::size_t slots = 16;
  while (slots < 2 * n) slots *= 2;
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  std::vector<std::uint32_t> table(slots, kEmpty);  // distinct-row id
  std::vector<std::uint32_t> first_row, weights;
  for (std::size_t r = 0; r < n; ++r) {
    const Code* row = packed.data() + r * m;
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::size_t a = 0; a < m; ++a) h = (h ^ row[a]) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    for (std::size_t slot = h & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
      if (table[slot] == kEmpty) {
        table[slot] = static_cast<std::uint32_t>(first_row.size());
        first_row.push_back(static_cast<std::uint32_t>(r));
        weights.push_back(1);
        break;
      }
      const Code* other = packed.data() + std::size_t{first_row[table[slot]]} * m;
      if (std::equal(row, row + m, other)) {
        ++weights[table[slot]];
        break;
      }
    }
  }
  WeightedRows out;
  out.rows = first_row.size();
  out.weights = std::move(weights);
  out.columns.assign(m, std::vector<Code>(out.rows));
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t d = 0; d < out.rows; ++d) out.columns[a][d] = data.columns[a][first_row[d]];
  }
  return out;
}

// n·R from the exact sum S = 2n·(n·R) = n² + Σ over the non-empty cells (x, π) of
// (|n·c_xπ − c_x·c_π| − c_x·c_π) (privbayes.md §2b): the empty cells' terms c_x·c_π sum to
// n² minus the non-empty cells' ones. One conversion and one division round the result.
class TotalVariationSum {
 public:
  explicit TotalVariationSum(std::size_t n)
      : n_(n), sum_(static_cast<Int128>(n) * static_cast<Int128>(n)) {}
  void AddCell(std::uint64_t joint, std::uint64_t child, std::uint64_t configuration) {
    const Int128 observed = static_cast<Int128>(n_) * static_cast<Int128>(joint);
    const Int128 expected = static_cast<Int128>(child) * static_cast<Int128>(configuration);
    sum_ += (observed >= expected ? observed - expected : expected - observed) - expected;
  }
  double Value() const {
    return n_ == 0 ? 0.0 : static_cast<double>(sum_) / (2.0 * static_cast<double>(n_));
  }

 private:
  std::size_t n_;
  Int128 sum_;
};

// Scores families (child, parents) on the data: n·I(child; bucketed parents) in bits, or
// n·R(child, bucketed parents) in records (StructureScore).
class FamilyScorer {
 public:
  FamilyScorer(const EncodedTable& data, const std::vector<std::vector<std::uint32_t>>& maps,
               const std::vector<std::uint32_t>& radix, StructureScore score)
      : n_(data.rows), score_(score), cardinalities_(data.cardinalities), radix_(radix),
        distinct_(DistinctRows(data)), bucketed_(data.num_attributes()) {
    for (std::size_t a = 0; a < data.num_attributes(); ++a) {
      if (a < maps.size() && !maps[a].empty()) {
        bucketed_[a].resize(distinct_.rows);
        for (std::size_t r = 0; r < distinct_.rows; ++r) {
          bucketed_[a][r] = static_cast<Code>(maps[a][distinct_.columns[a][r]]);
        }
      }
    }
  }

  // `counts` is scratch space owned by the calling thread.
  double Score(int child, const std::vector<int>& parents,
               std::vector<std::uint32_t>& counts) const {
    if (parents.empty() || n_ == 0) return 0.0;
    const std::uint32_t cx = cardinalities_[static_cast<std::size_t>(child)];
    std::uint64_t configurations = 1;
    for (int p : parents) configurations *= radix_[static_cast<std::size_t>(p)];
    if (configurations * cx > kDenseCells) return SparseScore(child, parents);
    counts.assign(configurations * cx, 0);
    const Code* x = distinct_.columns[static_cast<std::size_t>(child)].data();
    const std::uint32_t* w = distinct_.weights.data();
    const std::size_t rows = distinct_.rows;
    if (parents.size() == 1) {
      const Code* p0 = Column(parents[0]);
      for (std::size_t r = 0; r < rows; ++r) counts[std::size_t{p0[r]} * cx + x[r]] += w[r];
    } else if (parents.size() == 2) {
      const Code* p0 = Column(parents[0]);
      const Code* p1 = Column(parents[1]);
      const std::size_t r1 = radix_[static_cast<std::size_t>(parents[1])];
      for (std::size_t r = 0; r < rows; ++r) {
        counts[(std::size_t{p0[r]} * r1 + p1[r]) * cx + x[r]] += w[r];
      }
    } else {
      for (std::size_t r = 0; r < rows; ++r) {
        std::size_t c = 0;
        for (int p : parents) c = c * radix_[static_cast<std::size_t>(p)] + Column(p)[r];
        counts[c * cx + x[r]] += w[r];
      }
    }
    if (score_ == StructureScore::kTotalVariation) {
      return DenseTotalVariation(counts, configurations, cx);
    }
    // n·I = f(n) - Σ f(c_x) - Σ f(c_π) + Σ f(c_xπ), f(c) = c log2 c (privbayes.md §2).
    // Compensated sums keep the evaluation error within kScoreEvaluationError (privbayes.h).
    std::vector<double> child_counts(cx, 0.0);  // integers < 2^53: exact
    CompensatedSum sum_joint, sum_configurations;
    for (std::uint64_t c = 0; c < configurations; ++c) {
      const std::uint32_t* row = counts.data() + c * cx;
      std::uint64_t total = 0;
      for (std::uint32_t v = 0; v < cx; ++v) {
        total += row[v];
        child_counts[v] += row[v];
        sum_joint.Add(XLog2X(row[v]));
      }
      sum_configurations.Add(XLog2X(static_cast<double>(total)));
    }
    CompensatedSum sum_child;
    for (double c : child_counts) sum_child.Add(XLog2X(c));
    return XLog2X(static_cast<double>(n_)) - sum_child.Value() - sum_configurations.Value() +
           sum_joint.Value();
  }

 private:
  // n·R over the dense table `counts` (configurations × cx, child fastest).
  double DenseTotalVariation(const std::vector<std::uint32_t>& counts,
                             std::uint64_t configurations, std::uint32_t cx) const {
    std::vector<std::uint64_t> child_counts(cx, 0), configuration_counts(configurations, 0);
    for (std::uint64_t c = 0; c < configurations; ++c) {
      const std::uint32_t* row = counts.data() + c * cx;
      for (std::uint32_t v = 0; v < cx; ++v) {
        child_counts[v] += row[v];
        configuration_counts[c] += row[v];
      }
    }
    TotalVariationSum sum(n_);
    for (std::uint64_t c = 0; c < configurations; ++c) {
      const std::uint32_t* row = counts.data() + c * cx;
      for (std::uint32_t v = 0; v < cx; ++v) {
        if (row[v] > 0) sum.AddCell(row[v], child_counts[v], configuration_counts[c]);
      }
    }
    return sum.Value();
  }

  const Code* Column(int attribute) const {
    const auto a = static_cast<std::size_t>(attribute);
    return bucketed_[a].empty() ? distinct_.columns[a].data() : bucketed_[a].data();
  }

  // Σ f(total weight) over the distinct values of keys[r], r over the distinct rows.
  double SumXLogX(const std::vector<std::uint64_t>& keys) const {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs(keys.size());
    for (std::size_t r = 0; r < keys.size(); ++r) pairs[r] = {keys[r], distinct_.weights[r]};
    std::sort(pairs.begin(), pairs.end());
    CompensatedSum sum;
    for (std::size_t i = 0; i < pairs.size();) {
      double total = 0;  // an integer < 2^53: exact
      std::size_t j = i;
      for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) total += pairs[j].second;
      sum.Add(XLog2X(total));
      i = j;
    }
    return sum.Value();
  }

  // The same score for huge tables: parent configurations are densified one parent at a time
  // (ids stay below the number of rows, so id * radix + bucket fits in 64 bits).
  double SparseScore(int child, const std::vector<int>& parents) const {
    const std::size_t rows = distinct_.rows;
    std::vector<std::uint64_t> ids(rows, 0);
    for (int p : parents) {
      const Code* column = Column(p);
      std::vector<std::uint64_t> keys(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        keys[r] = ids[r] * radix_[static_cast<std::size_t>(p)] + column[r];
      }
      std::vector<std::uint64_t> sorted = keys;
      std::sort(sorted.begin(), sorted.end());
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      for (std::size_t r = 0; r < rows; ++r) {
        ids[r] = static_cast<std::uint64_t>(
            std::lower_bound(sorted.begin(), sorted.end(), keys[r]) - sorted.begin());
      }
    }
    const std::uint32_t cx = cardinalities_[static_cast<std::size_t>(child)];
    const Code* x = distinct_.columns[static_cast<std::size_t>(child)].data();
    if (score_ == StructureScore::kTotalVariation) return SparseTotalVariation(ids, x, cx);
    std::vector<std::uint64_t> joint(rows), values(rows);
    for (std::size_t r = 0; r < rows; ++r) {
      joint[r] = ids[r] * cx + x[r];
      values[r] = x[r];
    }
    return XLog2X(static_cast<double>(n_)) - SumXLogX(values) - SumXLogX(ids) +
           SumXLogX(joint);
  }

  // n·R with dense configuration ids (< the distinct rows) and child codes x.
  double SparseTotalVariation(const std::vector<std::uint64_t>& ids, const Code* x,
                              std::uint32_t cx) const {
    const std::size_t rows = distinct_.rows;
    std::vector<std::uint64_t> child_counts(cx, 0), configuration_counts(rows, 0);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> joint(rows);
    for (std::size_t r = 0; r < rows; ++r) {
      child_counts[x[r]] += distinct_.weights[r];
      configuration_counts[ids[r]] += distinct_.weights[r];
      joint[r] = {ids[r] * cx + x[r], distinct_.weights[r]};
    }
    std::sort(joint.begin(), joint.end());
    TotalVariationSum sum(n_);
    for (std::size_t i = 0; i < joint.size();) {
      std::uint64_t total = 0;
      std::size_t j = i;
      for (; j < joint.size() && joint[j].first == joint[i].first; ++j) total += joint[j].second;
      sum.AddCell(total, child_counts[joint[i].first % cx], configuration_counts[joint[i].first / cx]);
      i = j;
    }
    return sum.Value();
  }

  std::size_t n_;
  StructureScore score_;
  const std::vector<std::uint32_t>& cardinalities_;
  const std::vector<std::uint32_t>& radix_;
  WeightedRows distinct_;
  std::vector<std::vector<Code>> bucketed_;
};

struct Candidate {
  int child = 0;
  std::vector<int> parents;  // attributes, in network order
};

bool IsSubset(const std::vector<int>& small, const std::vector<int>& large) {
  return std::all_of(small.begin(), small.end(), [&](int a) {
    return std::find(large.begin(), large.end(), a) != large.end();
  });
}

// PrivBayes's candidate set: for each child not `closed` (placed, or forced), its maximal
// parent sets of size <= k inside the network whose table fits `max_cells` (0: every set of
// size exactly k).
// A forced child b (`forced[b]` = a: b is a function of a, a found dependency) is left out of
// parent sets that hold a too (a's information in two slots), and of every set when it has
// at least as many codes as a has as a parent (radix[a]): education, a function of
// education-num, would be a 16-code copy of a parent coarsened to 4 buckets, while a 5-code
// precinct is a coarser form of its 87-code neighborhood.
std::vector<Candidate> Candidates(const std::vector<int>& network, const std::vector<bool>& closed,
                                  int degree, std::uint64_t max_cells,
                                  const std::vector<std::uint32_t>& cardinalities,
                                  const std::vector<std::uint32_t>& radix,
                                  const std::vector<int>& forced) {
  std::vector<Candidate> out;
  const int size = static_cast<int>(network.size());
  const int k = std::min(degree, size);
  for (std::size_t child = 0; child < closed.size(); ++child) {
    if (closed[child]) continue;
    const std::size_t first = out.size();
    for (int s = k; s >= 0; --s) {
      if (max_cells == 0 && s < k) break;
      std::vector<int> pick(static_cast<std::size_t>(s));
      for (int i = 0; i < s; ++i) pick[static_cast<std::size_t>(i)] = i;
      while (true) {
        std::vector<int> parents;
        double cells = cardinalities[child];
        bool redundant = false;
        for (int i : pick) {
          parents.push_back(network[static_cast<std::size_t>(i)]);
          cells *= radix[static_cast<std::size_t>(parents.back())];
          const auto p = static_cast<std::size_t>(parents.back());
          const int up = forced[p];
          if (up >= 0) {
            redundant = redundant || cardinalities[p] >= radix[static_cast<std::size_t>(up)];
            for (int j : pick) redundant = redundant || network[static_cast<std::size_t>(j)] == up;
          }
        }
        const bool fits = !redundant && (max_cells == 0 || cells <= static_cast<double>(max_cells));
        const bool dominated = std::any_of(
            out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [&](const Candidate& c) { return IsSubset(parents, c.parents); });
        if (fits && !dominated) out.push_back({static_cast<int>(child), std::move(parents)});
        // Next combination of s positions out of `size`.
        int i = s - 1;
        while (i >= 0 && pick[static_cast<std::size_t>(i)] == size - s + i) --i;
        if (i < 0) break;
        ++pick[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < s; ++j) {
          pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(j - 1)] + 1;
        }
      }
    }
    if (out.size() == first) out.push_back({static_cast<int>(child), {}});
  }
  return out;
}

// Scores candidates[i] for every i in `todo`, over `threads` threads (each score is computed
// by one thread alone, so the result does not depend on the thread count). The calling thread
// polls `progress` between its candidates.
Status ScoreAll(const FamilyScorer& scorer, const std::vector<Candidate>& candidates,
                const std::vector<std::size_t>& todo, unsigned threads, Progress& progress,
                std::vector<double>& scores) {
  std::vector<std::vector<std::uint32_t>> counts(ThreadCount(threads, todo.size()));
  return ParallelFor(
      todo.size(), counts.size(), "scoring parent sets",
      [&](std::size_t i, std::size_t worker) {
        const Candidate& c = candidates[todo[i]];
        scores[todo[i]] = scorer.Score(c.child, c.parents, counts[worker]);
      },
      &progress);
}

Status CheckStructureOptions(const EncodedTable& data, const StructureOptions& options) {
  if (options.degree < 1 || options.degree > kMaxDegree) {
    return InvalidArgument("degree must be between 1 and " + std::to_string(kMaxDegree) +
                           " (got " + std::to_string(options.degree) + ")");
  }
  if (!(std::isfinite(options.epsilon) && options.epsilon > 0)) {
    return InvalidArgument("structure epsilon must be finite and positive (got " +
                           std::to_string(options.epsilon) + ")");
  }
  return internal::CheckParentBuckets(data, options.parent_buckets);
}

}  // namespace

Status internal::CheckParentBuckets(const EncodedTable& data,
                                    const std::vector<std::vector<std::uint32_t>>& buckets) {
  if (buckets.size() > data.num_attributes()) {
    return InvalidArgument("parent_buckets has " + std::to_string(buckets.size()) +
                           " entries for " + std::to_string(data.num_attributes()) +
                           " attributes");
  }
  for (std::size_t a = 0; a < buckets.size(); ++a) {
    const auto& map = buckets[a];
    if (!map.empty() && map.size() != data.cardinalities[a]) {
      return InvalidArgument("the parent bucket map of attribute " + std::to_string(a) +
                             " has " + std::to_string(map.size()) + " entries for cardinality " +
                             std::to_string(data.cardinalities[a]));
    }
    for (std::uint32_t bucket : map) {
      if (bucket >= kMaxCardinality) {
        return InvalidArgument("the parent bucket map of attribute " + std::to_string(a) +
                               " uses bucket " + std::to_string(bucket));
      }
    }
  }
  return OkStatus();
}

double internal::MutualInformationScore(const EncodedTable& data, int child,
                                        const std::vector<int>& parents) {
  const FamilyScorer scorer(data, {}, data.cardinalities, StructureScore::kMutualInformation);
  std::vector<std::uint32_t> counts;
  return scorer.Score(child, parents, counts);
}

double internal::TotalVariationScore(const EncodedTable& data, int child,
                                     const std::vector<int>& parents) {
  const FamilyScorer scorer(data, {}, data.cardinalities, StructureScore::kTotalVariation);
  std::vector<std::uint32_t> counts;
  return scorer.Score(child, parents, counts);
}

Result<std::vector<BayesNode>> LearnPrivBayesStructure(const EncodedTable& data,
                                                       const StructureOptions& options,
                                                       PrivacyAccountant& accountant,
                                                       const std::string& partition, Rng& rng,
                                                       Progress& progress) {
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  if (Status s = CheckStructureOptions(data, options); !s) return s.error();
  const std::size_t m = data.num_attributes();
  std::vector<BayesNode> nodes;
  if (m == 0) return nodes;

  // Public facts: per attribute its bucket map when it is a parent and the number of buckets.
  std::vector<std::vector<std::uint32_t>> maps(m);
  std::vector<std::uint32_t> radix(data.cardinalities);
  for (std::size_t a = 0; a < options.parent_buckets.size(); ++a) {
    if (options.parent_buckets[a].empty()) continue;
    maps[a] = options.parent_buckets[a];
    radix[a] = *std::max_element(maps[a].begin(), maps[a].end()) + 1;
  }

  // Forced children (options.forced_parent): placed right after their parents, no choice.
  std::vector<int> forced(m, -1);
  std::size_t forced_count = 0;
  for (std::size_t a = 0; a < options.forced_parent.size() && a < m; ++a) {
    const int p = options.forced_parent[a];
    if (p < 0) continue;
    if (static_cast<std::size_t>(p) >= m || static_cast<std::size_t>(p) == a) {
      return InvalidArgument("forced parent " + std::to_string(p) + " of attribute " +
                             std::to_string(a) + " is not another attribute of the table");
    }
    forced[a] = p;
    ++forced_count;
  }
  for (std::size_t a = 0; a < m; ++a) {  // acyclic: every chain ends within m steps
    std::size_t steps = 0;
    for (int at = forced[a]; at >= 0; at = forced[static_cast<std::size_t>(at)]) {
      if (++steps > m) return InvalidArgument("the forced parents form a cycle");
    }
  }
  // The exponential-mechanism choices: every attribute but the first and the forced ones.
  const std::size_t choices = m - 1 - forced_count;

  const double sensitivity = StructureScoreSensitivity(options.score);
  double epsilon_step = choices > 0 ? EvenShare(options.epsilon, choices) : 1.0;
  if (choices > 0) {
    LedgerEntry entry;
    entry.label = "Bayesian network structure (" + std::to_string(choices) +
                  " greedy choices of a child and its parents, degree " +
                  std::to_string(options.degree) + ")";
    entry.mechanism = options.score == StructureScore::kTotalVariation
                          ? "exponential mechanism on n·R(X,Π)"
                          : "exponential mechanism on n·I(X;Π)";
    entry.partition = partition;
    entry.reference = options.score == StructureScore::kTotalVariation
                          ? "PrivBayes (Zhang et al. 2017) Alg. 4, score R; privbayes.md §2b"
                          : "PrivBayes (Zhang et al. 2017) Alg. 4; privbayes.md §2";
    entry.epsilon_each = epsilon_step;
    entry.sensitivity = sensitivity;
    entry.count = choices;
    auto spent = internal::SpendAllowingRounding(accountant, entry);
    if (!spent) return spent.error();
    epsilon_step = *spent;
  }
  auto mechanism = ExponentialMechanism::Create(epsilon_step, sensitivity);
  if (!mechanism) return mechanism.error();

  const FamilyScorer scorer(data, maps, radix, options.score);
  std::map<std::pair<int, std::vector<int>>, double> cache;
  std::vector<int> network;
  std::vector<bool> closed(m, false);  // placed or forced: not a candidate child
  for (std::size_t a = 0; a < m; ++a) closed[a] = forced[a] >= 0;
  auto add_node = [&](int attribute, std::vector<int> parents) {
    std::vector<int> placed_now{attribute};
    BayesNode node;
    node.attribute = attribute;
    node.cardinality = data.cardinalities[static_cast<std::size_t>(attribute)];
    for (int p : parents) {
      node.parent_buckets.push_back(maps[static_cast<std::size_t>(p)]);
      node.parent_bucket_counts.push_back(radix[static_cast<std::size_t>(p)]);
    }
    node.parents = std::move(parents);
    nodes.push_back(std::move(node));
    // Then its forced children (and theirs), each with its parent at the parent's own codes.
    while (!placed_now.empty()) {
      const int placed = placed_now.back();
      placed_now.pop_back();
      network.push_back(placed);
      closed[static_cast<std::size_t>(placed)] = true;
      for (std::size_t b = 0; b < m; ++b) {
        if (forced[b] != placed) continue;
        BayesNode child;
        child.attribute = static_cast<int>(b);
        child.cardinality = data.cardinalities[b];
        child.parents = {placed};
        child.parent_buckets = {{}};
        child.parent_bucket_counts = {data.cardinalities[static_cast<std::size_t>(placed)]};
        nodes.push_back(std::move(child));
        placed_now.push_back(static_cast<int>(b));
      }
    }
  };
  // The first attribute: uniform over those without a forced parent (no data). Without
  // forced parents this is PrivBayes's draw UniformBelow(rng, m).
  std::vector<int> roots;
  for (std::size_t a = 0; a < m; ++a) {
    if (forced[a] < 0) roots.push_back(static_cast<int>(a));
  }
  add_node(roots[UniformBelow(rng, roots.size())], {});

  for (std::size_t step = 1; network.size() < m; ++step) {
    if (progress.IsCancelled()) return Cancelled("structure learning cancelled");
    const std::vector<Candidate> candidates =
        Candidates(network, closed, options.degree, options.max_table_cells, data.cardinalities,
                   radix, forced);
    std::vector<double> utilities(candidates.size(), 0.0);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      auto it = cache.find({candidates[i].child, candidates[i].parents});
      if (it != cache.end()) {
        utilities[i] = it->second;
      } else {
        todo.push_back(i);
      }
    }
    if (Status s = ScoreAll(scorer, candidates, todo, options.threads, progress, utilities); !s) {
      if (s.error().code == ErrorCode::kCancelled) return Cancelled("structure learning cancelled");
      return s.error();
    }
    for (std::size_t i : todo) cache[{candidates[i].child, candidates[i].parents}] = utilities[i];
    const Candidate& chosen = candidates[mechanism->Select(utilities, rng)];
    add_node(chosen.child, chosen.parents);
    progress.Report(
        static_cast<double>(step) / static_cast<double>(std::max<std::size_t>(choices, 1)),
        "Learning the network structure");
  }
  return nodes;
}

}  // namespace deniable
