// SPDX-License-Identifier: Apache-2.0
#include "engine/model/band_pairs.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>

#include "engine/model/bayes_net.h"

namespace deniable {
namespace {

// Rows read to choose the pairs: a systematic sample of at most this many (the counts' shares
// are what matter; a 1.5M-row release need not be read 200 times).
constexpr std::size_t kDetectionRows = 200'000;
constexpr double kBandMainShare = 0.15;

bool IsNumeric(const ColumnDomain& d) {
  return !d.categorical && !d.random_strings && !d.is_geo() && d.bins >= 2;
}

// n(i, k): rows with bin i of A and value code k of B (missing codes left out), over every
// `stride`-th row.
std::vector<std::vector<double>> JointCounts(const EncodedTable& table, int a, int b,
                                             const std::vector<ColumnDomain>& domains,
                                             std::size_t stride) {
  const ColumnDomain& da = domains[static_cast<std::size_t>(a)];
  const ColumnDomain& db = domains[static_cast<std::size_t>(b)];
  const auto bins = static_cast<std::uint32_t>(da.bins);
  const std::uint32_t labels = db.value_codes();
  std::vector<std::vector<double>> n(bins, std::vector<double>(labels, 0.0));
  const std::vector<Code>& ca = table.columns[static_cast<std::size_t>(a)];
  const std::vector<Code>& cb = table.columns[static_cast<std::size_t>(b)];
  for (std::size_t r = 0; r < table.rows; r += stride) {
    const std::uint32_t i = ca[r], k = cb[r];
    if (i < bins && k < labels) n[i][k] += 1;
  }
  return n;
}

}  // namespace

std::vector<BandPair> FindBandPairs(const EncodedTable& synthetic,
                                    const std::vector<ColumnDomain>& domains) {
  std::vector<BandPair> pairs;
  if (synthetic.rows == 0 || synthetic.num_attributes() != domains.size()) return pairs;
  const std::size_t stride = std::max<std::size_t>(1, synthetic.rows / kDetectionRows);
  const int attributes = static_cast<int>(domains.size());
  for (int a = 0; a < attributes; ++a) {
    if (!IsNumeric(domains[static_cast<std::size_t>(a)])) continue;
    std::optional<BandPair> best;
    for (int b = 0; b < attributes; ++b) {
      const ColumnDomain& db = domains[static_cast<std::size_t>(b)];
      if (b == a || !db.categorical || db.is_geo()) continue;
      const std::vector<std::vector<double>> n = JointCounts(synthetic, a, b, domains, stride);
      const std::size_t bins = n.size(), labels = db.value_codes();
      // The labels present, ordered by their mean bin (ties: by code).
      std::vector<double> of_label(labels, 0.0), bin_sum(labels, 0.0);
      for (std::size_t i = 0; i < bins; ++i) {
        for (std::size_t k = 0; k < labels; ++k) {
          of_label[k] += n[i][k];
          bin_sum[k] += static_cast<double>(i) * n[i][k];
        }
      }
      std::vector<std::uint32_t> present;
      for (std::uint32_t k = 0; k < labels; ++k) {
        if (of_label[k] > 0) present.push_back(k);
      }
      if (present.size() < 2 || present.size() > kMaxBandLabels) continue;
      std::stable_sort(present.begin(), present.end(), [&](std::uint32_t x, std::uint32_t y) {
        return bin_sum[x] / of_label[x] < bin_sum[y] / of_label[y];
      });
      // λ(B | bin) = (Σ_i max_k n(i, k) − max_k n(k)) / (N − max_k n(k)).
      const double total = std::accumulate(of_label.begin(), of_label.end(), 0.0);
      const double mode = *std::max_element(of_label.begin(), of_label.end());
      if (!(total - mode > 0)) continue;
      double s = 0;
      for (const auto& row : n) s += *std::max_element(row.begin(), row.end());
      const double lambda = (s - mode) / (total - mode);
      if (lambda < kBandMinLambda) continue;
      // γ = (C − D)/(C + D) over pairs of rows in different bins and labels: C the pairs whose
      // bin and label order agree, D those that disagree. `tail[r]`: rows in later bins with
      // label rank r.
      const std::size_t m = present.size();
      // γ over each bin's main labels: a label holding less than kBandMainShare of a bin's rows
      // counts as none there (the model's noise on a wrong label stays below it; a far-off
      // wrong label would otherwise pull γ down through every pair it forms).
      std::vector<std::vector<double>> main(bins, std::vector<double>(m, 0.0));
      for (std::size_t i = 0; i < bins; ++i) {
        double of_bin = 0;
        for (std::size_t r = 0; r < m; ++r) of_bin += n[i][present[r]];
        for (std::size_t r = 0; r < m; ++r) {
          const double v = n[i][present[r]];
          main[i][r] = v >= kBandMainShare * of_bin ? v : 0.0;
        }
      }
      std::vector<double> tail(m, 0.0), above(m + 1, 0.0);
      double concordant = 0, discordant = 0;
      for (std::size_t i = bins; i-- > 0;) {
        // above[r] = Σ_{r' >= r} tail[r'] (later bins).
        above[m] = 0;
        for (std::size_t r = m; r-- > 0;) above[r] = above[r + 1] + tail[r];
        for (std::size_t r = 0; r < m; ++r) {
          const double here = main[i][r];
          if (here == 0) continue;
          concordant += here * above[r + 1];
          discordant += here * (above[0] - above[r]);
        }
        for (std::size_t r = 0; r < m; ++r) tail[r] += main[i][r];
      }
      if (!(concordant + discordant > 0)) continue;
      const double gamma = (concordant - discordant) / (concordant + discordant);
      if (gamma < kBandMinGamma) continue;
      BandPair pair{a, b, gamma, lambda,
                    std::vector<std::uint32_t>(db.cardinality(), static_cast<std::uint32_t>(-1))};
      for (std::size_t r = 0; r < m; ++r) pair.rank[present[r]] = static_cast<std::uint32_t>(r);
      // Absent labels rank after the present ones (no row has them).
      std::uint32_t next = static_cast<std::uint32_t>(m);
      for (std::uint32_t k = 0; k < labels; ++k) {
        if (of_label[k] == 0) pair.rank[k] = next++;
      }
      if (!best || pair.lambda > best->lambda ||
          (pair.lambda == best->lambda && pair.gamma > best->gamma)) {
        best = std::move(pair);
      }
    }
    if (best) pairs.push_back(std::move(*best));
  }
  return pairs;
}

std::vector<double> BandQuantiles(const BandPair& pair, const EncodedTable& synthetic,
                                  const std::vector<ColumnDomain>& domains, Rng& rng) {
  std::vector<double> quantile(synthetic.rows, -1.0);
  const std::vector<std::vector<double>> n =
      JointCounts(synthetic, pair.numeric, pair.band, domains, 1);
  const std::size_t bins = n.size();
  const std::size_t labels = n.empty() ? 0 : n[0].size();
  // start[i][k]: rows of bin i whose label ranks before k; of_bin[i]: rows of bin i with a label.
  std::vector<std::size_t> by_rank(labels);
  std::iota(by_rank.begin(), by_rank.end(), std::size_t{0});
  std::sort(by_rank.begin(), by_rank.end(), [&](std::size_t x, std::size_t y) {
    return pair.rank[x] < pair.rank[y];
  });
  std::vector<std::vector<double>> start(bins, std::vector<double>(labels, 0.0));
  std::vector<double> of_bin(bins, 0.0);
  for (std::size_t i = 0; i < bins; ++i) {
    double running = 0;
    for (const std::size_t k : by_rank) {
      start[i][k] = running;
      running += n[i][k];
    }
    of_bin[i] = running;
  }
  const std::vector<Code>& ca = synthetic.columns[static_cast<std::size_t>(pair.numeric)];
  const std::vector<Code>& cb = synthetic.columns[static_cast<std::size_t>(pair.band)];
  for (std::size_t r = 0; r < synthetic.rows; ++r) {
    const std::size_t i = ca[r], k = cb[r];
    if (i >= bins || k >= labels || !(of_bin[i] > 0)) continue;
    const double q = (start[i][k] + UniformUnit(rng) * n[i][k]) / of_bin[i];
    quantile[r] = std::clamp(q, 0.0, std::nextafter(1.0, 0.0));
  }
  return quantile;
}

}  // namespace deniable

namespace deniable {

std::vector<BandPair> CoupleBandsAcrossBuckets(const BayesNet& network,
                                               const std::vector<ColumnDomain>& domains,
                                               EncodedTable& synthetic, Rng& rng) {
  std::vector<BandPair> coupled;
  if (synthetic.rows < 2 || synthetic.num_attributes() != domains.size()) return coupled;
  for (BandPair& pair : FindBandPairs(synthetic, domains)) {
    const int a = pair.numeric, b = pair.band;
    const BayesNode* a_node = nullptr;
    bool read_whole = false;
    // The bucketings of A that its children use (one entry per distinct map).
    std::vector<const BayesNode*> bucket_nodes;
    std::vector<std::size_t> bucket_parent;
    for (const BayesNode& node : network.nodes) {
      if (node.attribute == a) a_node = &node;
      for (std::size_t p = 0; p < node.parents.size(); ++p) {
        if (node.parents[p] != a) continue;
        if (node.parent_buckets.size() <= p || node.parent_buckets[p].empty()) {
          read_whole = true;
          continue;
        }
        const bool known = std::any_of(
            bucket_nodes.begin(), bucket_nodes.end(), [&](const BayesNode* other) {
              for (std::size_t q = 0; q < other->parents.size(); ++q) {
                if (other->parents[q] == a &&
                    other->parent_buckets[q] == node.parent_buckets[p]) {
                  return true;
                }
              }
              return false;
            });
        if (!known) {
          bucket_nodes.push_back(&node);
          bucket_parent.push_back(p);
        }
      }
    }
    if (a_node == nullptr || read_whole) continue;
    // A group key per row: A's parent configuration, then A's buckets, mixed-radix. The
    // radices multiply to at most the tables' sizes, far below 2^64; checked all the same.
    const std::vector<Code>& ca = synthetic.columns[static_cast<std::size_t>(a)];
    const std::vector<Code>& cb = synthetic.columns[static_cast<std::size_t>(b)];
    const auto bins = static_cast<std::uint32_t>(domains[static_cast<std::size_t>(a)].bins);
    const std::uint32_t labels = domains[static_cast<std::size_t>(b)].value_codes();
    double radix_product = 1;
    for (std::size_t p = 0; p < a_node->parents.size(); ++p) {
      radix_product *= a_node->parent_bucket_counts[p];
    }
    for (std::size_t i = 0; i < bucket_nodes.size(); ++i) {
      radix_product *= bucket_nodes[i]->parent_bucket_counts[bucket_parent[i]];
    }
    if (!(radix_product < 1.8e19)) continue;
    struct Row {
      std::uint64_t key;
      std::uint32_t rank;
      std::uint32_t tie;
      std::uint32_t row;
    };
    std::vector<Row> rows;
    rows.reserve(synthetic.rows);
    for (std::size_t r = 0; r < synthetic.rows; ++r) {
      if (ca[r] >= bins || cb[r] >= labels) continue;  // missing: not moved
      std::uint64_t key = 0;
      for (std::size_t p = 0; p < a_node->parents.size(); ++p) {
        const Code code = synthetic.columns[static_cast<std::size_t>(a_node->parents[p])][r];
        key = key * a_node->parent_bucket_counts[p] + a_node->BucketOf(p, code);
      }
      for (std::size_t i = 0; i < bucket_nodes.size(); ++i) {
        const BayesNode& child = *bucket_nodes[i];
        key = key * child.parent_bucket_counts[bucket_parent[i]] +
              child.BucketOf(bucket_parent[i], ca[r]);
      }
      rows.push_back({key, pair.rank[cb[r]], static_cast<std::uint32_t>(rng()),
                      static_cast<std::uint32_t>(r)});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
      return std::tie(x.key, x.rank, x.tie) < std::tie(y.key, y.rank, y.tie);
    });
    std::vector<Code> codes;
    for (std::size_t begin = 0; begin < rows.size();) {
      std::size_t end = begin;
      while (end < rows.size() && rows[end].key == rows[begin].key) ++end;
      codes.clear();
      for (std::size_t i = begin; i < end; ++i) codes.push_back(ca[rows[i].row]);
      std::sort(codes.begin(), codes.end());
      for (std::size_t i = begin; i < end; ++i) {
        synthetic.columns[static_cast<std::size_t>(a)][rows[i].row] = codes[i - begin];
      }
      begin = end;
    }
    coupled.push_back(std::move(pair));
  }
  return coupled;
}

}  // namespace deniable
