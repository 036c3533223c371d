// SPDX-License-Identifier: Apache-2.0
#include "engine/model/sampler.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "engine/core/parallel.h"

namespace deniable {
namespace {

constexpr std::size_t kBlockRows = 8192;
constexpr std::uint64_t kMaxSampleRows = 0xFFFFFFFFull;

// One node, ready to draw: Walker/Vose alias tables, one per parent configuration. A draw
// takes 32 random bits u: the product u * cardinality gives the slot (high half) and a
// fraction (low half) compared with the slot's 32-bit threshold, so probabilities are kept to
// 2^-32 (sampling is post-processing: this only bounds fidelity, not privacy).
struct NodeSampler {
  std::size_t attribute = 0;
  std::vector<std::size_t> parents;
  std::vector<const std::uint32_t*> maps;  // nullptr = identity
  std::vector<std::uint32_t> radix;
  std::uint32_t cardinality = 0;
  std::vector<std::uint32_t> threshold;  // per (configuration, slot)
  std::vector<Code> alias;

  Code Draw(std::size_t configuration, std::uint32_t bits) const {
    const std::uint64_t product = std::uint64_t{bits} * cardinality;
    const std::size_t slot = configuration * cardinality + static_cast<std::size_t>(product >> 32);
    return static_cast<std::uint32_t>(product) < threshold[slot]
               ? static_cast<Code>(product >> 32)
               : alias[slot];
  }
};

// Hands out the two 32-bit halves of each 64-bit word (halves the generator's work, which
// dominates with the ChaCha20 SecureRng).
class HalfWords {
 public:
  explicit HalfWords(Rng& rng) : rng_(rng) {}
  std::uint32_t Next() {
    if (have_high_) {
      have_high_ = false;
      return static_cast<std::uint32_t>(word_ >> 32);
    }
    word_ = rng_();
    have_high_ = true;
    return static_cast<std::uint32_t>(word_);
  }

 private:
  Rng& rng_;
  std::uint64_t word_ = 0;
  bool have_high_ = false;
};

// Vose's alias method for one distribution p[0..k) (sums to 1 within 1e-9).
void BuildAlias(const double* p, std::uint32_t k, std::uint32_t* threshold, Code* alias) {
  std::vector<double> scaled(k);
  std::vector<std::uint32_t> small, large;
  double total = 0;
  for (std::uint32_t i = 0; i < k; ++i) total += p[i];
  std::uint32_t best = 0;
  for (std::uint32_t i = 0; i < k; ++i) {
    scaled[i] = p[i] / total * k;
    (scaled[i] < 1.0 ? small : large).push_back(i);
    if (p[i] > p[best]) best = i;
  }
  auto set = [&](std::uint32_t i, double q, std::uint32_t other) {
    if (q >= 1.0 - 0x1.0p-33) {
      threshold[i] = ~std::uint32_t{0};
      alias[i] = static_cast<Code>(i);
    } else {
      threshold[i] = q > 0 ? static_cast<std::uint32_t>(std::ldexp(q, 32)) : 0;
      alias[i] = static_cast<Code>(other);
    }
  };
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back();
    small.pop_back();
    const std::uint32_t l = large.back();
    set(s, scaled[s], l);
    scaled[l] -= 1.0 - scaled[s];
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Left-overs are 1 up to rounding; a zero-probability value is never made reachable.
  for (std::uint32_t i : large) set(i, 1.0, i);
  for (std::uint32_t i : small) set(i, scaled[i] > 0 ? 1.0 : 0.0, best);
}

NodeSampler Prepare(const BayesNode& node) {
  NodeSampler sampler;
  sampler.attribute = static_cast<std::size_t>(node.attribute);
  sampler.cardinality = node.cardinality;
  for (std::size_t p = 0; p < node.parents.size(); ++p) {
    sampler.parents.push_back(static_cast<std::size_t>(node.parents[p]));
    sampler.maps.push_back(node.parent_buckets[p].empty() ? nullptr
                                                          : node.parent_buckets[p].data());
    sampler.radix.push_back(node.parent_bucket_counts[p]);
  }
  const std::size_t configurations = node.configurations();
  sampler.threshold.resize(node.probabilities.size());
  sampler.alias.resize(node.probabilities.size());
  for (std::size_t c = 0; c < configurations; ++c) {
    const std::size_t offset = c * node.cardinality;
    BuildAlias(node.probabilities.data() + offset, node.cardinality,
               sampler.threshold.data() + offset, sampler.alias.data() + offset);
  }
  return sampler;
}

// Rows [begin, end) of every column, node after node (parents are already drawn).
void SampleBlock(const std::vector<NodeSampler>& samplers, std::size_t begin, std::size_t end,
                 Rng& rng, std::vector<std::vector<Code>>& columns) {
  HalfWords bits(rng);
  for (const NodeSampler& node : samplers) {
    Code* out = columns[node.attribute].data();
    if (node.parents.empty()) {
      for (std::size_t r = begin; r < end; ++r) out[r] = node.Draw(0, bits.Next());
      continue;
    }
    for (std::size_t r = begin; r < end; ++r) {
      std::size_t configuration = 0;
      for (std::size_t p = 0; p < node.parents.size(); ++p) {
        const Code code = columns[node.parents[p]][r];
        const std::uint32_t bucket = node.maps[p] ? node.maps[p][code] : code;
        configuration = configuration * node.radix[p] + bucket;
      }
      out[r] = node.Draw(configuration, bits.Next());
    }
  }
}

}  // namespace

Result<EncodedTable> SampleNetwork(const BayesNet& network,
                                   const std::vector<std::uint32_t>& cardinalities,
                                   std::size_t rows, Rng& rng, Progress& progress,
                                   unsigned threads) {
  if (std::string error = network.Validate(cardinalities); !error.empty()) {
    return InvalidArgument("cannot sample from an invalid network: " + error);
  }
  if (rows > kMaxSampleRows) {
    return InvalidArgument("number of rows to sample must be at most 4294967295 (got " +
                           std::to_string(rows) + ")");
  }
  if (progress.IsCancelled()) return Cancelled("sampling cancelled");

  std::vector<NodeSampler> samplers;
  samplers.reserve(network.nodes.size());
  for (const BayesNode& node : network.nodes) samplers.push_back(Prepare(node));

  EncodedTable out;
  out.rows = rows;
  out.cardinalities = cardinalities;
  out.columns.assign(cardinalities.size(), std::vector<Code>(rows));

  const std::size_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  // One draw from the caller's generator salts the block streams, so that two calls with the
  // same generator give different rows; the streams themselves do not depend on threads.
  const std::uint64_t salt = rng();
  std::vector<std::unique_ptr<Rng>> block_rngs(blocks);
  for (std::size_t b = 0; b < blocks; ++b) block_rngs[b] = rng.Fork(salt + b);

  Status sampled = ParallelFor(
      blocks, threads, "sampling rows",
      [&](std::size_t b, std::size_t) {
        const std::size_t begin = b * kBlockRows;
        SampleBlock(samplers, begin, std::min(rows, begin + kBlockRows), *block_rngs[b],
                    out.columns);
      },
      &progress, "Sampling rows");
  if (!sampled) {
    return sampled.error().code == ErrorCode::kCancelled ? Cancelled("sampling cancelled")
                                                         : sampled.error();
  }
  if (progress.IsCancelled()) return Cancelled("sampling cancelled");
  // The workers may have taken every block before the calling thread got one (it then reported
  // nothing): the final report does not depend on scheduling.
  progress.Report(1.0, "Sampling rows");
  return out;
}

}  // namespace deniable
